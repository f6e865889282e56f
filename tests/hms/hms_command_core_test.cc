// One command core behind every door (catalogd/ops/command_core.h): a
// change sent through Impala's CatalogService and the same change sent
// through the HMS endpoint get the same validation message and the same
// operation record (kind, target, outcome, message; only the detail names
// the door); an HMS create_table is in catalogd's catalog when the call
// returns, with no event-processor round; and the event processor, when it
// reads those writes from the notification log, skips them as catalogd's own.
#include <algorithm>
#include <chrono>
#include <filesystem>

#include "CatalogService.h"
#include "PartitionService.h"
#include "TableService.h"
#include "catalogd/catalog/catalog.h"
#include "catalogd/events/event_processor.h"
#include "catalogd/service/catalog_server.h"
#include "common/rpc/thrift_client.h"
#include "common/types/column_type.h"
#include "tests/hms/catalogd_hms_fixture.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::hms::testing {
namespace {

class HmsCommandCoreTest : public CatalogdHmsTest {
 protected:
  impala::TDdlExecResponse Impala(const impala::TDdlExecRequest& req) {
    ThriftClient<impala::CatalogServiceClient> c("127.0.0.1", server_->port());
    impala::TDdlExecResponse resp;
    Status s = c.Call("ExecDdl", [&](auto& cl) { cl.ExecDdl(resp, req); });
    EXPECT_TRUE(s.ok()) << s.ToString();
    return resp;
  }

  // CREATE TABLE db.name (id bigint, <second> bigint), as Impala sends it.
  static impala::TDdlExecRequest ImpalaCreate(const std::string& db, const std::string& name,
                                              const std::string& second) {
    impala::TDdlExecRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.ddl_type = impala::TDdlType::CREATE_TABLE;
    r.__isset.create_table_params = true;
    auto& p = r.create_table_params;
    p.table_name.db_name = db;
    p.table_name.table_name = name;
    for (const std::string& c : {std::string("id"), second}) {
      impala::TColumn col;
      col.columnName = c;
      col.columnType = *ParseHiveType("bigint");
      p.columns.push_back(col);
    }
    p.file_format = impala::THdfsFileFormat::TEXT;
    r.__isset.header = true;
    r.header.__set_requesting_user("alice");
    return r;
  }

  // The same table as a Hive client sends it.
  static hive::Table HiveCreate(const std::string& db, const std::string& name,
                                const std::string& second) {
    hive::Table t;
    t.dbName = db;
    t.tableName = name;
    for (const std::string& c : {std::string("id"), second}) {
      hive::FieldSchema f;
      f.name = c;
      f.type = "bigint";
      t.sd.cols.push_back(f);
    }
    return t;
  }

  // Database `db` and its table db.name (id bigint, v bigint) partitioned by
  // `key` of `type`, through the HMS endpoint.
  void CreatePartitioned(const std::string& db, const std::string& name, const std::string& key,
                         const std::string& type) {
    hive::Database d;
    d.name = db;
    (*hms_)->create_database(d);
    hive::Table t = HiveCreate(db, name, "v");
    hive::FieldSchema k;
    k.name = key;
    k.type = type;
    t.partitionKeys = {k};
    (*hms_)->create_table(t);
  }

  // The most recent finished record of `kind` on `target`.
  OperationRecord Record(const std::string& kind, const std::string& target) {
    OperationRecord found;
    for (const OperationRecord& r : server_->operations()->Get().recent) {
      if (r.kind == kind && r.target == target && r.id > found.id) found = r;
    }
    return found;
  }

};

TEST_F(HmsCommandCoreTest, TheSameChangeGetsTheSameAnswerAndRecordAtEveryDoor) {
  hive::Database db;
  db.name = "doors";
  (*hms_)->create_database(db);

  // A duplicate column, through each door.
  impala::TDdlExecResponse impala = Impala(ImpalaCreate("doors", "dup_impala", "ID"));
  ASSERT_EQ(impala.result.status.status_code, impala::TErrorCode::GENERAL);
  ASSERT_EQ(impala.result.status.error_msgs.size(), 1u);
  const std::string impala_message = impala.result.status.error_msgs[0];
  std::string hms_message;
  try {
    (*hms_)->create_table(HiveCreate("doors", "dup_hms", "ID"));
    ADD_FAILURE() << "the HMS door accepted a duplicate column";
  } catch (const hive::InvalidObjectException& e) {
    hms_message = e.message;
  }
  EXPECT_NE(impala_message.find("Duplicate column name: id"), std::string::npos) << impala_message;
  EXPECT_NE(hms_message.find("Duplicate column name: id"), std::string::npos) << hms_message;

  const OperationRecord bad_impala = Record("CREATE_TABLE", "doors.dup_impala");
  const OperationRecord bad_hms = Record("CREATE_TABLE", "doors.dup_hms");
  EXPECT_EQ(bad_impala.status, "INVALID_ARGUMENT");
  EXPECT_EQ(bad_hms.status, bad_impala.status);
  EXPECT_EQ(bad_hms.message, bad_impala.message);
  EXPECT_EQ(bad_impala.detail.rfind("[CatalogService] alice", 0), 0u) << bad_impala.detail;
  EXPECT_EQ(bad_hms.detail.rfind("[HMS]", 0), 0u) << bad_hms.detail;

  // A good one, through each door: the same summary and a catalog version.
  impala = Impala(ImpalaCreate("doors", "t_impala", "v"));
  ASSERT_EQ(impala.result.status.status_code, impala::TErrorCode::OK);
  (*hms_)->create_table(HiveCreate("doors", "t_hms", "v"));
  const OperationRecord ok_impala = Record("CREATE_TABLE", "doors.t_impala");
  const OperationRecord ok_hms = Record("CREATE_TABLE", "doors.t_hms");
  EXPECT_EQ(ok_impala.status, "OK");
  EXPECT_EQ(ok_hms.status, "OK");
  EXPECT_EQ(ok_hms.message, ok_impala.message);
  EXPECT_EQ(ok_hms.message, "Table has been created.");
  EXPECT_GT(ok_hms.catalog_version, ok_impala.catalog_version);
  // Both tables are alike in the metastore.
  hive::Table a, b;
  (*hms_)->get_table(a, "doors", "t_impala");
  (*hms_)->get_table(b, "doors", "t_hms");
  EXPECT_EQ(a.sd.cols, b.sd.cols);
  EXPECT_EQ(a.tableType, b.tableType);
  EXPECT_EQ(a.sd.inputFormat, b.sd.inputFormat);
  EXPECT_EQ(a.sd.serdeInfo.serializationLib, b.sd.serdeInfo.serializationLib);
  EXPECT_EQ(a.sd.location, dir_ + "/warehouse/doors.db/t_impala");
  EXPECT_EQ(b.sd.location, dir_ + "/warehouse/doors.db/t_hms");
}

TEST_F(HmsCommandCoreTest, AnHmsCreateTableIsInTheCatalogWhenItReturns) {
  Catalog* catalog = server_->catalog();
  const int64_t before = catalog->version();
  hive::Database db;
  db.name = "rw";
  (*hms_)->create_database(db);
  (*hms_)->create_table(HiveCreate("rw", "t", "v"));
  // No event-processor round (its poll is a minute away): the core installed both.
  ASSERT_NE(catalog->GetDatabase("rw"), nullptr);
  TablePtr t = catalog->GetTable("rw", "t");
  ASSERT_NE(t, nullptr);
  EXPECT_GT(t->version, before);
  const int64_t installed = t->version;

  // Renamed and dropped through the endpoint: the catalog follows at once.
  hive::Table renamed;
  (*hms_)->get_table(renamed, "rw", "t");
  renamed.tableName = "t2";
  (*hms_)->alter_table("rw", "t", renamed);
  EXPECT_EQ(catalog->GetTable("rw", "t"), nullptr);
  ASSERT_NE(catalog->GetTable("rw", "t2"), nullptr);
  EXPECT_TRUE(std::filesystem::is_directory(dir_ + "/warehouse/rw.db/t2"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/warehouse/rw.db/t"));
  (*hms_)->drop_table("rw", "t2", true);
  EXPECT_EQ(catalog->GetTable("rw", "t2"), nullptr);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/warehouse/rw.db/t2"));

  // When the processor reads these events, it knows them as catalogd's own.
  const int64_t skipped = server_->event_processor()->GetStatus().events_skipped_self;
  (*hms_)->create_table(HiveCreate("rw", "again", "v"));
  const int64_t version = catalog->GetTable("rw", "again")->version;
  Result<int64_t> synced = server_->event_processor()->WaitForSync(std::chrono::seconds(30));
  ASSERT_TRUE(synced.ok()) << synced.status().ToString();
  EXPECT_GT(server_->event_processor()->GetStatus().events_skipped_self, skipped);
  EXPECT_EQ(catalog->GetTable("rw", "again")->version, version);  // not applied again
  EXPECT_GT(version, installed);
}

TEST_F(HmsCommandCoreTest, HmsPartitionChangesAreInTheCatalogWhenTheyReturn) {
  CreatePartitioned("parts", "t", "day", "string");
  Catalog* catalog = server_->catalog();
  auto partition_names = [&] {
    std::vector<std::string> names;
    TablePtr loaded = catalog->GetTable("parts", "t");
    if (loaded == nullptr) return names;
    for (const auto& [id, p] : loaded->partitions) names.emplace_back(p->name());
    std::sort(names.begin(), names.end());
    return names;
  };

  // Values are kept as the Hive client gave them ("2024-1-5", not canonicalized).
  std::vector<hive::Partition> parts(2);
  parts[0].values = {"2024-1-5"};
  parts[1].values = {"2024-01-06"};
  for (hive::Partition& p : parts) {
    p.dbName = "parts";
    p.tableName = "t";
  }
  EXPECT_EQ((*hms_)->add_partitions(parts), 2);
  // The core loaded the table for the batch and installed both partitions.
  EXPECT_EQ(partition_names(), (std::vector<std::string>{"day=2024-01-06", "day=2024-1-5"}));
  const std::string dir = dir_ + "/warehouse/parts.db/t/day=2024-1-5";
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  const OperationRecord added = Record("ALTER_TABLE", "parts.t (ADD_PARTITION)");
  EXPECT_EQ(added.status, "OK");
  EXPECT_EQ(added.detail.rfind("[HMS]", 0), 0u) << added.detail;

  // A request the door refuses before any command (two values for one key)
  // is audited too, under the door's own name for the call.
  hive::Partition bad;
  bad.dbName = "parts";
  bad.tableName = "t";
  bad.values = {"a", "b"};
  hive::Partition ignored;
  EXPECT_THROW((*hms_)->add_partition(ignored, bad), hive::InvalidObjectException);
  const OperationRecord refused = Record("HMS add_partition", "parts.t");
  EXPECT_EQ(refused.status, "INVALID_ARGUMENT");
  EXPECT_EQ(refused.detail.rfind("[HMS]", 0), 0u) << refused.detail;
  // A request the core saw is recorded once, by the core, not again by the door.
  EXPECT_THROW((*hms_)->drop_table("parts", "missing", false), hive::NoSuchObjectException);
  EXPECT_EQ(Record("DROP_TABLE", "parts.missing").status, "NOT_FOUND");
  EXPECT_EQ(Record("HMS drop_table", "parts.missing").id, 0);  // no such record

  // Table column statistics: in the loaded table when the call returns.
  hive::ColumnStatistics stats;
  stats.statsDesc.isTblLevel = true;
  stats.statsDesc.dbName = "parts";
  stats.statsDesc.tableName = "t";
  hive::ColumnStatisticsObj id;
  id.colName = "id";
  id.colType = "bigint";
  hive::LongColumnStatsData data;
  data.numNulls = 0;
  data.numDVs = 42;
  id.statsData.__set_longStats(data);
  stats.statsObj = {id};
  EXPECT_TRUE((*hms_)->update_table_column_statistics(stats));
  TablePtr with_stats = catalog->GetTable("parts", "t");
  ASSERT_NE(with_stats, nullptr);
  ASSERT_EQ(with_stats->column_stats.count("id"), 1u);
  EXPECT_EQ(with_stats->column_stats.at("id").statsData.longStats.numDVs, 42);
  EXPECT_EQ(Record("ALTER_TABLE", "parts.t (UPDATE_STATS)").status, "OK");

  // Dropped without deleteData: gone from the catalog, the data stays.
  EXPECT_TRUE((*hms_)->drop_partition("parts", "t", {"2024-1-5"}, false));
  EXPECT_EQ(partition_names(), (std::vector<std::string>{"day=2024-01-06"}));
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  // With deleteData, the directory goes too.
  EXPECT_TRUE((*hms_)->drop_partition("parts", "t", {"2024-01-06"}, true));
  EXPECT_TRUE(partition_names().empty());
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/warehouse/parts.db/t/day=2024-01-06"));
}

TEST_F(HmsCommandCoreTest, StatisticsAndReadsGetTheSameAnswerAtEveryDoor) {
  hive::Database db;
  db.name = "stats";
  (*hms_)->create_database(db);
  (*hms_)->create_table(HiveCreate("stats", "t", "v"));
  ThriftClientOptions mux;
  mux.service_name = "TableService";
  ThriftClient<ics::thrift::TableServiceClient> tables("127.0.0.1",
                                                       server_->metastore_service_port(), mux);

  // Statistics of a column the table lacks: one rule, one message.
  hive::ColumnStatisticsObj bad;
  bad.colName = "Missing";
  hive::LongColumnStatsData data;
  data.numNulls = 0;
  data.numDVs = 3;
  bad.statsData.__set_longStats(data);
  hive::ColumnStatistics stats;
  stats.statsDesc.isTblLevel = true;
  stats.statsDesc.dbName = "stats";
  stats.statsDesc.tableName = "t";
  stats.statsObj = {bad};
  std::string hms_message;
  try {
    (*hms_)->update_table_column_statistics(stats);
    ADD_FAILURE() << "the HMS door accepted statistics of a missing column";
  } catch (const hive::NoSuchObjectException& e) {
    hms_message = e.message;
  }
  ics::thrift::TUpdateColumnStatisticsRequest update;
  update.db_name = "stats";
  update.table_name = "t";
  update.column_statistics = {bad};
  ics::thrift::TUpdateColumnStatisticsResponse updated;
  ASSERT_TRUE(tables
                  .Call("UpdateColumnStatistics",
                        [&](auto& c) { c.UpdateColumnStatistics(updated, update); })
                  .ok());
  ASSERT_EQ(updated.errors.size(), 1u);
  EXPECT_EQ(updated.errors[0].column_name, "missing");
  EXPECT_EQ(updated.errors[0].error.code, ics::thrift::TMetastoreServiceErrorCode::NOT_FOUND);
  EXPECT_EQ(hms_message, "Column does not exist: missing in stats.t");
  EXPECT_EQ(updated.errors[0].error.message, hms_message);

  // A read with a malformed name: refused by the core's read side with the
  // same message, before anything is read.
  std::string hms_read;
  try {
    hive::Table ignored;
    (*hms_)->get_table(ignored, "stats", "a/b");
    ADD_FAILURE() << "the HMS door read a table with a malformed name";
  } catch (const hive::MetaException& e) {
    hms_read = e.message;
  } catch (const hive::NoSuchObjectException& e) {
    hms_read = e.message;
  }
  ics::thrift::TGetTableRequest get;
  get.db_name = "stats";
  get.table_name = "a/b";
  ics::thrift::TGetTableResponse got;
  ASSERT_TRUE(tables.Call("GetTable", [&](auto& c) { c.GetTable(got, get); }).ok());
  EXPECT_EQ(got.status.code, ics::thrift::TMetastoreServiceErrorCode::INVALID_ARGUMENT);
  EXPECT_NE(hms_read.find("Invalid table name 'a/b'"), std::string::npos) << hms_read;
  EXPECT_NE(got.status.message.find("Invalid table name 'a/b'"), std::string::npos)
      << got.status.message;
}

TEST_F(HmsCommandCoreTest,
       ThePartitionChangeGetsTheSameAnswerAndRecordFromImpalaAndPartitionService) {
  CreatePartitioned("pdoors", "t", "year", "int");
  ThriftClientOptions mux;
  mux.service_name = "PartitionService";
  ThriftClient<ics::thrift::PartitionServiceClient> parts("127.0.0.1",
                                                          server_->metastore_service_port(), mux);
  // ALTER TABLE pdoors.t ADD PARTITION (year=<v>), as Impala sends it.
  auto impala_add = [&](const std::string& value) {
    impala::TDdlExecRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.ddl_type = impala::TDdlType::ALTER_TABLE;
    r.__isset.alter_table_params = true;
    auto& a = r.alter_table_params;
    a.alter_type = impala::TAlterTableType::ADD_PARTITION;
    a.table_name.db_name = "pdoors";
    a.table_name.table_name = "t";
    a.__isset.add_partition_params = true;
    impala::TPartitionDef def;
    impala::TPartitionKeyValue kv;
    kv.name = "year";
    kv.value = value;
    def.partition_spec = {kv};
    a.add_partition_params.partitions = {def};
    return Impala(r);
  };
  // The same through PartitionService.
  auto service_add = [&](const std::string& value) {
    ics::thrift::TBatchCreatePartitionsRequest req;
    req.table.db_name = "pdoors";
    req.table.table_name = "t";
    ics::thrift::TMetastorePartition p;
    p.values = {value};
    req.partitions = {p};
    ics::thrift::TBatchCreatePartitionsResponse resp;
    EXPECT_TRUE(parts.Call("Create", [&](auto& c) { c.BatchCreatePartitions(resp, req); }).ok());
    return resp;
  };
  const std::string target = "pdoors.t (ADD_PARTITION)";

  // A value that is not an INT: refused by each door with the same message
  // and recorded alike.
  impala::TDdlExecResponse bad_impala = impala_add("x");
  ASSERT_EQ(bad_impala.result.status.error_msgs.size(), 1u);
  const OperationRecord bad_impala_record = Record("ALTER_TABLE", target);
  ics::thrift::TBatchCreatePartitionsResponse bad_service = service_add("x");
  EXPECT_EQ(bad_service.status.code, ics::thrift::TMetastoreServiceErrorCode::INVALID_ARGUMENT);
  EXPECT_EQ(bad_service.status.message, bad_impala.result.status.error_msgs[0]);
  const OperationRecord bad_service_record = Record("ALTER_TABLE", target);
  EXPECT_GT(bad_service_record.id, bad_impala_record.id);
  EXPECT_EQ(bad_impala_record.status, "INVALID_ARGUMENT");
  EXPECT_EQ(bad_service_record.status, bad_impala_record.status);
  EXPECT_EQ(bad_service_record.message, bad_impala_record.message);
  EXPECT_EQ(bad_service_record.detail.rfind("[PartitionService]", 0), 0u)
      << bad_service_record.detail;

  // A partition Impala added, added again through PartitionService, and the
  // reverse: the same ALREADY_EXISTS message.
  EXPECT_EQ(impala_add("2024").result.status.status_code, impala::TErrorCode::OK);
  EXPECT_EQ(Record("ALTER_TABLE", target).status, "OK");
  EXPECT_EQ(service_add("2025").status.code, ics::thrift::TMetastoreServiceErrorCode::OK);
  EXPECT_EQ(Record("ALTER_TABLE", target).status, "OK");
  ics::thrift::TBatchCreatePartitionsResponse again_service = service_add("2024");
  EXPECT_EQ(again_service.status.code, ics::thrift::TMetastoreServiceErrorCode::ALREADY_EXISTS);
  impala::TDdlExecResponse again_impala = impala_add("2024");
  ASSERT_EQ(again_impala.result.status.error_msgs.size(), 1u);
  EXPECT_EQ(again_service.status.message, again_impala.result.status.error_msgs[0]);
  EXPECT_EQ(again_service.status.message,
            "Partition already exists: pdoors.t partition (year=2024)");
}

}  // namespace
}  // namespace ics::catalog::hms::testing
