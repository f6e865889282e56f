// The HMS handler's partition and column-statistics calls (the rest are in
// hms_handler.cc; shared helpers in hms_handler_internal.h).
#include "catalogd/hms/hms_handler.h"

#include "catalogd/hms/hms_handler_internal.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::hms {

using namespace handler_internal;  // NOLINT: the handler's own helpers

// ---- partitions: writes ----

void HmsHandler::add_partition(hive::Partition& _return, const hive::Partition& new_part) {
  Changed(core_, "add_partition", PartitionsTarget({new_part}), [&] {
    _return = Get(core_->partitions().AddPartitionObjects({new_part}), kAddPart).at(0);
  });
}

int32_t HmsHandler::add_partitions(const std::vector<hive::Partition>& new_parts) {
  return Changed(core_, "add_partitions", PartitionsTarget(new_parts), [&] {
    return static_cast<int32_t>(
        Get(core_->partitions().AddPartitionObjects(new_parts), kAddPart).size());
  });
}

void HmsHandler::append_partition(hive::Partition& _return, const std::string& db_name,
                                  const std::string& tbl_name,
                                  const std::vector<std::string>& part_vals) {
  Changed(core_, "append_partition", db_name + "." + tbl_name, [&] {
    _return = Get(core_->partitions().AppendPartition(db_name, tbl_name, part_vals), kAddPart);
  });
}

void HmsHandler::add_partitions_req(hive::AddPartitionsResult& _return,
                                    const hive::AddPartitionsRequest& request) {
  Changed(core_, "add_partitions_req", request.dbName + "." + request.tblName, [&] {
    auto added = Get(core_->partitions().AddPartitions(request.dbName, request.tblName,
                                                       request.parts, request.ifNotExists),
                     kAddPart);
    if (!request.__isset.needResult || request.needResult) _return.__set_partitions(added);
  });
}

void HmsHandler::append_partition_by_name(hive::Partition& _return, const std::string& db_name,
                                          const std::string& tbl_name,
                                          const std::string& part_name) {
  Changed(core_, "append_partition_by_name", db_name + "." + tbl_name + "/" + part_name, [&] {
    _return =
        Get(core_->partitions().AppendPartitionByName(db_name, tbl_name, part_name), kAddPart);
  });
}

bool HmsHandler::drop_partition(const std::string& db_name, const std::string& tbl_name,
                                const std::vector<std::string>& part_vals, bool deleteData) {
  return Changed(core_, "drop_partition", db_name + "." + tbl_name, [&] {
    std::string name =
        Get(core_->partitions().PartitionNameOf(db_name, tbl_name, part_vals), kLookup);
    Get(core_->partitions().DropPartitions(db_name, tbl_name, {name}, false, deleteData), kLookup);
    return true;
  });
}

bool HmsHandler::drop_partition_by_name(const std::string& db_name, const std::string& tbl_name,
                                        const std::string& part_name, bool deleteData) {
  return Changed(core_, "drop_partition_by_name", db_name + "." + tbl_name + "/" + part_name, [&] {
    Check(ParsePartitionName(part_name).status(), kLookup);
    Get(core_->partitions().DropPartitions(db_name, tbl_name, {part_name}, false, deleteData),
        kLookup);
    return true;
  });
}

void HmsHandler::drop_partitions_req(hive::DropPartitionsResult& _return,
                                     const hive::DropPartitionsRequest& req) {
  Changed(core_, "drop_partitions_req", req.dbName + "." + req.tblName, [&] {
    if (!req.parts.__isset.names) {
      Raise(Ex::kMeta,
            "drop_partitions_req: only partitions given by name are supported (serialized Hive "
            "expressions are not)");
    }
    for (const std::string& n : req.parts.names) Check(ParsePartitionName(n).status(), kLookup);
    const bool if_exists = !req.__isset.ifExists || req.ifExists;
    const bool delete_data = req.__isset.deleteData && req.deleteData;
    auto dropped = Get(core_->partitions().DropPartitions(req.dbName, req.tblName, req.parts.names,
                                                          if_exists, delete_data),
                       kLookup);
    if (!req.__isset.needResult || req.needResult) _return.__set_partitions(dropped);
  });
}

void HmsHandler::alter_partition(const std::string& db_name, const std::string& tbl_name,
                                 const hive::Partition& new_part) {
  Changed(core_, "alter_partition", db_name + "." + tbl_name, [&] {
    Check(core_->partitions().AlterPartitions(db_name, tbl_name, {new_part}), kAlter);
  });
}

void HmsHandler::alter_partitions(const std::string& db_name, const std::string& tbl_name,
                                  const std::vector<hive::Partition>& new_parts) {
  Changed(core_, "alter_partitions", db_name + "." + tbl_name, [&] {
    Check(core_->partitions().AlterPartitions(db_name, tbl_name, new_parts), kAlter);
  });
}

void HmsHandler::rename_partition(const std::string& db_name, const std::string& tbl_name,
                                  const std::vector<std::string>& part_vals,
                                  const hive::Partition& new_part) {
  Changed(core_, "rename_partition", db_name + "." + tbl_name, [&] {
    Check(core_->partitions().RenamePartition(db_name, tbl_name, part_vals, new_part), kAlter);
  });
}

// ---- partitions: reads ----

void HmsHandler::get_partition(hive::Partition& _return, const std::string& db_name,
                               const std::string& tbl_name,
                               const std::vector<std::string>& part_vals) {
  Guard("get_partition", Ex::kMeta, [&] {
    std::string name =
        Get(core_->partitions().PartitionNameOf(db_name, tbl_name, part_vals), kLookup);
    _return = Get(core_->partitions().GetPartitionByName(db_name, tbl_name, name), kLookup);
  });
}

void HmsHandler::get_partition_by_name(hive::Partition& _return, const std::string& db_name,
                                       const std::string& tbl_name,
                                       const std::string& part_name) {
  Guard("get_partition_by_name", Ex::kMeta, [&] {
    _return = Get(core_->partitions().GetPartitionByName(db_name, tbl_name, part_name), kLookup);
  });
}

void HmsHandler::get_partitions(std::vector<hive::Partition>& _return,
                                const std::string& db_name, const std::string& tbl_name,
                                int16_t max_parts) {
  Guard("get_partitions", Ex::kMeta, [&] {
    _return = Get(core_->partitions().ListPartitions(db_name, tbl_name, Query(max_parts)), kLookup);
  });
}

void HmsHandler::get_partition_names(std::vector<std::string>& _return,
                                     const std::string& db_name, const std::string& tbl_name,
                                     int16_t max_parts) {
  Guard("get_partition_names", Ex::kMeta, [&] {
    _return =
        Get(core_->partitions().ListPartitionNames(db_name, tbl_name, Query(max_parts)), kPlain);
  });
}

void HmsHandler::get_partitions_ps(std::vector<hive::Partition>& _return,
                                   const std::string& db_name, const std::string& tbl_name,
                                   const std::vector<std::string>& part_vals, int16_t max_parts) {
  Guard("get_partitions_ps", Ex::kMeta, [&] {
    HmsPartitions::PartitionQuery q = Query(max_parts);
    q.by_values = true;
    q.values = part_vals;
    _return = Get(core_->partitions().ListPartitions(db_name, tbl_name, q), kLookup);
  });
}

void HmsHandler::get_partition_names_ps(std::vector<std::string>& _return,
                                        const std::string& db_name, const std::string& tbl_name,
                                        const std::vector<std::string>& part_vals,
                                        int16_t max_parts) {
  Guard("get_partition_names_ps", Ex::kMeta, [&] {
    HmsPartitions::PartitionQuery q = Query(max_parts);
    q.by_values = true;
    q.values = part_vals;
    _return = Get(core_->partitions().ListPartitionNames(db_name, tbl_name, q), kLookup);
  });
}

void HmsHandler::get_partitions_by_filter(std::vector<hive::Partition>& _return,
                                          const std::string& db_name,
                                          const std::string& tbl_name, const std::string& filter,
                                          int16_t max_parts) {
  Guard("get_partitions_by_filter", Ex::kMeta, [&] {
    HmsPartitions::PartitionQuery q = Query(max_parts);
    q.by_filter = true;
    q.filter = filter;
    _return = Get(core_->partitions().ListPartitions(db_name, tbl_name, q), kLookup);
  });
}

void HmsHandler::get_partitions_by_names(std::vector<hive::Partition>& _return,
                                         const std::string& db_name,
                                         const std::string& tbl_name,
                                         const std::vector<std::string>& names) {
  Guard("get_partitions_by_names", Ex::kMeta, [&] {
    _return = Get(core_->partitions().GetPartitionsByNames(db_name, tbl_name, names), kLookup);
  });
}

void HmsHandler::partition_name_to_vals(std::vector<std::string>& _return,
                                        const std::string& part_name) {
  Guard("partition_name_to_vals", Ex::kMeta, [&] {
    PartitionSpec spec = Get(ParsePartitionName(part_name), kPlain);
    _return.clear();
    for (auto& kv : spec) _return.push_back(std::move(kv.second));
  });
}

void HmsHandler::partition_name_to_spec(std::map<std::string, std::string>& _return,
                                        const std::string& part_name) {
  Guard("partition_name_to_spec", Ex::kMeta, [&] {
    PartitionSpec spec = Get(ParsePartitionName(part_name), kPlain);
    _return.clear();
    for (auto& kv : spec) _return[kv.first] = std::move(kv.second);
  });
}

// ---- column statistics ----

bool HmsHandler::update_table_column_statistics(const hive::ColumnStatistics& stats_obj) {
  return Changed(core_, "update_table_column_statistics", StatsTarget(stats_obj), [&] {
    Check(core_->statistics().UpdateColumnStatistics(stats_obj, /*partition_level=*/false), kStats);
    return true;
  });
}

bool HmsHandler::update_partition_column_statistics(const hive::ColumnStatistics& stats_obj) {
  return Changed(core_, "update_partition_column_statistics", StatsTarget(stats_obj), [&] {
    Check(core_->statistics().UpdateColumnStatistics(stats_obj, /*partition_level=*/true), kStats);
    return true;
  });
}

void HmsHandler::get_table_column_statistics(hive::ColumnStatistics& _return,
                                             const std::string& db_name,
                                             const std::string& tbl_name,
                                             const std::string& col_name) {
  Guard("get_table_column_statistics", Ex::kMeta, [&] {
    hive::Table t = Get(core_->objects().GetTable(db_name, tbl_name), kStats);
    auto objs = Get(core_->statistics().GetTableColumnStats(db_name, tbl_name, {col_name}), kStats);
    if (objs.empty()) {
      Raise(Ex::kNoSuchObject, "No statistics for column '" + col_name + "' of table " +
                                   t.dbName + "." + t.tableName);
    }
    _return = hive::ColumnStatistics();
    _return.statsDesc.isTblLevel = true;
    _return.statsDesc.dbName = t.dbName;
    _return.statsDesc.tableName = t.tableName;
    _return.statsObj = std::move(objs);
  });
}

void HmsHandler::get_partition_column_statistics(hive::ColumnStatistics& _return,
                                                 const std::string& db_name,
                                                 const std::string& tbl_name,
                                                 const std::string& part_name,
                                                 const std::string& col_name) {
  Guard("get_partition_column_statistics", Ex::kMeta, [&] {
    hive::Table t = Get(core_->objects().GetTable(db_name, tbl_name), kStats);
    Check(ParsePartitionName(part_name).status(), kStats);
    auto per_part = Get(
        core_->statistics().GetPartitionsColumnStats(db_name, tbl_name, {col_name}, {part_name}),
        kStats);
    auto it = per_part.find(part_name);
    if (it == per_part.end()) {
      Raise(Ex::kNoSuchObject, "No statistics for column '" + col_name + "' of partition " +
                                   part_name + " of " + t.dbName + "." + t.tableName);
    }
    _return = hive::ColumnStatistics();
    _return.statsDesc.isTblLevel = false;
    _return.statsDesc.dbName = t.dbName;
    _return.statsDesc.tableName = t.tableName;
    _return.statsDesc.__set_partName(part_name);
    _return.statsObj = std::move(it->second);
  });
}

void HmsHandler::get_table_statistics_req(hive::TableStatsResult& _return,
                                          const hive::TableStatsRequest& request) {
  Guard("get_table_statistics_req", Ex::kMeta, [&] {
    _return.tableStats = Get(
        core_->statistics().GetTableColumnStats(request.dbName, request.tblName, request.colNames),
        kLookup);
  });
}

void HmsHandler::get_partitions_statistics_req(hive::PartitionsStatsResult& _return,
                                               const hive::PartitionsStatsRequest& request) {
  Guard("get_partitions_statistics_req", Ex::kMeta, [&] {
    _return.partStats =
        Get(core_->statistics().GetPartitionsColumnStats(request.dbName, request.tblName,
                                                         request.colNames, request.partNames),
            kLookup);
  });
}

void HmsHandler::get_aggr_stats_for(hive::AggrStats& _return,
                                    const hive::PartitionsStatsRequest& request) {
  Guard("get_aggr_stats_for", Ex::kMeta, [&] {
    _return = Get(core_->statistics().GetAggrStats(request.dbName, request.tblName,
                                                   request.colNames, request.partNames),
                  kLookup);
  });
}

bool HmsHandler::set_aggr_stats_for(const hive::SetPartitionsStatsRequest& request) {
  return Changed(
      core_, "set_aggr_stats_for",
      request.colStats.empty() ? std::string() : StatsTarget(request.colStats[0]), [&] {
        Check(core_->statistics().SetStatistics(request, HmsStatistics::StatsLevel::kAny), kStats);
        return true;
      });
}

void HmsHandler::update_table_column_statistics_req(hive::SetPartitionsStatsResponse& _return,
                                                    const hive::SetPartitionsStatsRequest& req) {
  Changed(core_, "update_table_column_statistics_req",
          req.colStats.empty() ? std::string() : StatsTarget(req.colStats[0]), [&] {
            Check(core_->statistics().SetStatistics(req, HmsStatistics::StatsLevel::kTable),
                  kStats);
            _return.result = true;
          });
}

void HmsHandler::update_partition_column_statistics_req(
    hive::SetPartitionsStatsResponse& _return, const hive::SetPartitionsStatsRequest& req) {
  Changed(core_, "update_partition_column_statistics_req",
          req.colStats.empty() ? std::string() : StatsTarget(req.colStats[0]), [&] {
            Check(core_->statistics().SetStatistics(req, HmsStatistics::StatsLevel::kPartition),
                  kStats);
            _return.result = true;
          });
}

bool HmsHandler::delete_partition_column_statistics(const std::string& db_name,
                                                    const std::string& tbl_name,
                                                    const std::string& part_name,
                                                    const std::string& col_name,
                                                    const std::string& /*engine*/) {
  return Changed(core_, "delete_partition_column_statistics",
                 db_name + "." + tbl_name + "/" + part_name + " column " + col_name, [&] {
                   if (part_name.empty()) Raise(Ex::kInvalidInput, "part_name must not be empty");
                   Check(core_->statistics().DeleteColumnStats(db_name, tbl_name, part_name,
                                                               col_name),
                         kStats);
                   return true;
                 });
}

bool HmsHandler::delete_table_column_statistics(const std::string& db_name,
                                                const std::string& tbl_name,
                                                const std::string& col_name,
                                                const std::string& /*engine*/) {
  return Changed(core_, "delete_table_column_statistics",
                 db_name + "." + tbl_name + " column " + col_name, [&] {
                   Check(core_->statistics().DeleteColumnStats(db_name, tbl_name, "", col_name),
                         kStats);
                   return true;
                 });
}

}  // namespace ics::catalog::hms
