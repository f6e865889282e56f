#include "catalogd/metastore/hms_remote_writes.h"

namespace ics::catalog {

Status HmsWriter::CreateDatabase(const hive::Database& db) const {
  return caller_->Write(
      "create_database", [&](HmsStub& c) { c.send_create_database(db); },
      [&](HmsStub& c) { c.recv_create_database(); });
}

Status HmsWriter::AlterDatabase(const std::string& name, const hive::Database& db) const {
  return caller_->Write(
      "alter_database", [&](HmsStub& c) { c.send_alter_database(name, db); },
      [&](HmsStub& c) { c.recv_alter_database(); });
}

Status HmsWriter::DropDatabase(const std::string& name) const {
  return caller_->Write(
      "drop_database",
      [&](HmsStub& c) { c.send_drop_database(name, /*deleteData=*/false, /*cascade=*/false); },
      [&](HmsStub& c) { c.recv_drop_database(); });
}

Status HmsWriter::CreateTable(const hive::Table& table) const {
  return caller_->Write(
      "create_table", [&](HmsStub& c) { c.send_create_table(table); },
      [&](HmsStub& c) { c.recv_create_table(); });
}

Status HmsWriter::AlterTable(const std::string& db, const std::string& name,
                             const hive::Table& table) const {
  return caller_->Write(
      "alter_table", [&](HmsStub& c) { c.send_alter_table(db, name, table); },
      [&](HmsStub& c) { c.recv_alter_table(); });
}

Status HmsWriter::DropTable(const std::string& db, const std::string& name) const {
  return caller_->Write(
      "drop_table", [&](HmsStub& c) { c.send_drop_table(db, name, /*deleteData=*/false); },
      [&](HmsStub& c) { c.recv_drop_table(); });
}

Status HmsWriter::AddPartition(const hive::Partition& part) const {
  return caller_->Write(
      "add_partition", [&](HmsStub& c) { c.send_add_partition(part); },
      [&](HmsStub& c) {
        hive::Partition added;
        c.recv_add_partition(added);
      });
}

Status HmsWriter::AlterPartition(const hive::Partition& part) const {
  return caller_->Write(
      "alter_partition",
      [&](HmsStub& c) { c.send_alter_partition(part.dbName, part.tableName, part); },
      [&](HmsStub& c) { c.recv_alter_partition(); });
}

Status HmsWriter::DropPartitionByName(const std::string& db, const std::string& table,
                                      const std::string& name) const {
  return caller_->Write(
      "drop_partition_by_name",
      [&](HmsStub& c) { c.send_drop_partition_by_name(db, table, name, /*deleteData=*/false); },
      [&](HmsStub& c) { c.recv_drop_partition_by_name(); });
}

Status HmsWriter::DropPartitionByValues(const std::string& db, const std::string& table,
                                        const std::vector<std::string>& values) const {
  return caller_->Write(
      "drop_partition",
      [&](HmsStub& c) { c.send_drop_partition(db, table, values, /*deleteData=*/false); },
      [&](HmsStub& c) { c.recv_drop_partition(); });
}

Status HmsWriter::CreateFunction(const hive::Function& fn) const {
  return caller_->Write(
      "create_function", [&](HmsStub& c) { c.send_create_function(fn); },
      [&](HmsStub& c) { c.recv_create_function(); });
}

Status HmsWriter::DropFunction(const std::string& db, const std::string& name) const {
  return caller_->Write(
      "drop_function", [&](HmsStub& c) { c.send_drop_function(db, name); },
      [&](HmsStub& c) { c.recv_drop_function(); });
}

Status HmsWriter::UpdateColumnStats(const hive::ColumnStatistics& in) const {
  hive::ColumnStatistics stats = in;
  if (!stats.__isset.engine) stats.__set_engine(kHmsStatsEngine);
  if (stats.statsDesc.isTblLevel) {
    return caller_->Write(
        "update_table_column_statistics",
        [&](HmsStub& c) { c.send_update_table_column_statistics(stats); },
        [&](HmsStub& c) { c.recv_update_table_column_statistics(); });
  }
  return caller_->Write(
      "update_partition_column_statistics",
      [&](HmsStub& c) { c.send_update_partition_column_statistics(stats); },
      [&](HmsStub& c) { c.recv_update_partition_column_statistics(); });
}

Status HmsWriter::DeleteColumnStats(const std::string& db, const std::string& table,
                                    const std::string& partition,
                                    const std::string& column) const {
  if (partition.empty()) {
    return caller_->Write(
        "delete_table_column_statistics",
        [&](HmsStub& c) { c.send_delete_table_column_statistics(db, table, column, kHmsStatsEngine); },
        [&](HmsStub& c) { c.recv_delete_table_column_statistics(); });
  }
  return caller_->Write(
      "delete_partition_column_statistics",
      [&](HmsStub& c) { c.send_delete_partition_column_statistics(db, table, partition, column,
                                                     kHmsStatsEngine); },
      [&](HmsStub& c) { c.recv_delete_partition_column_statistics(); });
}

}  // namespace ics::catalog
