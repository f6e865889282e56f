// TableCommands: column statistics of tables and partitions.
#include <map>
#include <optional>
#include <set>

#include "catalogd/ops/table_commands.h"
#include "catalogd/ops/table_limits.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::ops {

namespace {

struct Target {
  std::string db;
  std::string table;
  std::string partition;  // "" = the table
};

// Validates the names and the partition values against the table `hms`.
Result<std::string> PartitionNameOf(const hive::Table& hms,
                                    const std::optional<std::vector<std::string>>& given) {
  if (!given) return std::string();
  const std::vector<std::string>& values = *given;
  const std::string full = hms.dbName + "." + hms.tableName;
  if (hms.partitionKeys.empty()) {
    return Status::InvalidArgument("table " + full + " is not partitioned");
  }
  if (values.size() != hms.partitionKeys.size()) {
    return Status::InvalidArgument(
        "table " + full + " has " + std::to_string(hms.partitionKeys.size()) +
        " partition keys; got " + std::to_string(values.size()) + " values");
  }
  std::vector<std::string> keys;
  for (const hive::FieldSchema& k : hms.partitionKeys) keys.push_back(k.name);
  return MakePartitionName(keys, values);
}

// Column name -> type of every data and partition column.
std::map<std::string, std::string> ColumnTypes(const hive::Table& hms) {
  std::map<std::string, std::string> out;
  for (const hive::FieldSchema& c : hms.sd.cols) out[c.name] = AsciiLower(c.type);
  for (const hive::FieldSchema& c : hms.partitionKeys) out[c.name] = AsciiLower(c.type);
  return out;
}

ColumnFailure ColumnError(const std::string& name, const Status& s) {
  return ColumnFailure{name, s};
}

Result<Target> Names(const std::string& db, const std::string& table) {
  ICS_ASSIGN_OR_RETURN(NormalizedTable n, NormalizeTableName(db, table));
  return Target{std::move(n.db), std::move(n.table), ""};
}

}  // namespace

Result<ColumnStatistics> TableCommands::GetColumnStatistics(const Caller& caller,
                                                            const GetColumnStatisticsRequest& req) {
  ICS_ASSIGN_OR_RETURN(Target t, Names(req.db, req.table));
  ICS_RETURN_IF_ERROR(CheckListSize("ColumnNames", req.column_names.size(), kMaxStatsColumnsGet));
  ICS_ASSIGN_OR_RETURN(hive::Table hms, queries_->Table(caller, t.db, t.table));
  ICS_ASSIGN_OR_RETURN(t.partition, PartitionNameOf(hms, req.partition_values));
  std::vector<hive::ColumnStatisticsObj> stats;
  if (t.partition.empty()) {
    ICS_ASSIGN_OR_RETURN(stats, queries_->TableColumnStats(caller, t.db, t.table));
  } else {
    ICS_ASSIGN_OR_RETURN(stats, queries_->PartitionColumnStats(caller, t.db, t.table, t.partition));
  }
  std::map<std::string, const hive::ColumnStatisticsObj*> by_name;
  for (const auto& s : stats) by_name[s.colName] = &s;
  const std::map<std::string, std::string> types = ColumnTypes(hms);
  ColumnStatistics resp;
  // A column named more than once (in any case) is answered once, at its
  // first mention.
  std::set<std::string> seen;
  for (const std::string& raw : req.column_names) {
    Result<std::string> name = NormalizeColumn(raw);
    if (!seen.insert(name.ok() ? *name : raw).second) continue;
    if (!name.ok()) {
      resp.errors.push_back(ColumnError(raw, name.status()));
    } else if (types.count(*name) == 0) {
      resp.errors.push_back(ColumnError(*name, Status::NotFound("Column does not exist: " + *name +
                                                                " in " + t.db + "." + t.table)));
    } else if (by_name.count(*name) == 0) {
      resp.errors.push_back(
          ColumnError(*name, Status::NotFound("Column " + *name + " has no statistics")));
    } else {
      resp.statistics.push_back(*by_name[*name]);
    }
  }
  return resp;
}

Result<std::vector<ColumnFailure>> TableCommands::UpdateColumnStatistics(
    const Caller& caller, const UpdateColumnStatisticsRequest& req) {
  ICS_ASSIGN_OR_RETURN(Target t, Names(req.db, req.table));
  ICS_RETURN_IF_ERROR(
      CheckListSize("ColumnStatisticsList", req.statistics.size(), kMaxStatsColumnsUpdate));
  std::vector<ColumnFailure> errors;
  TableChange change;
  change.db = t.db;
  change.table = t.table;
  change.summary = "Column statistics have been updated.";
  change.plan = [&](const TableState& loaded, const hive::Table& hms) -> Result<TableEdits> {
    if (loaded.is_view()) {
      return Status::InvalidArgument("a view has no statistics: " + t.db + "." + t.table);
    }
    ICS_ASSIGN_OR_RETURN(std::string part, PartitionNameOf(hms, req.partition_values));
    std::map<std::string, hive::ColumnStatisticsObj> valid;  // later entries win
    for (const hive::ColumnStatisticsObj& in : req.statistics) {
      Result<hive::ColumnStatisticsObj> checked = CheckColumnStats(hms, !part.empty(), in);
      if (!checked.ok()) {
        Result<std::string> name = NormalizeColumn(in.colName);
        errors.push_back(ColumnError(name.ok() ? *name : in.colName, checked.status()));
        continue;
      }
      std::string name = checked->colName;
      valid[name] = std::move(checked).value();
    }
    TableEdits edits;
    if (valid.empty()) return edits;
    ColumnStatsEdit& set = edits.set_stats.emplace_back();
    set.partition = std::move(part);
    for (auto& [name, obj] : valid) set.columns.push_back(std::move(obj));
    return edits;
  };
  ICS_ASSIGN_OR_RETURN(DdlOutcome out, commands_->ChangeTable(caller, "UPDATE_STATS", change));
  (void)out;
  return errors;
}

Status TableCommands::DeleteColumnStatistics(const Caller& caller,
                                             const DeleteColumnStatisticsRequest& req) {
  ICS_ASSIGN_OR_RETURN(Target t, Names(req.db, req.table));
  ICS_ASSIGN_OR_RETURN(std::string column, NormalizeColumn(req.column_name));
  TableChange change;
  change.db = t.db;
  change.table = t.table;
  change.summary = "Column statistics have been deleted.";
  change.plan = [&](const TableState&, const hive::Table& hms) -> Result<TableEdits> {
    ICS_ASSIGN_OR_RETURN(std::string part, PartitionNameOf(hms, req.partition_values));
    if (ColumnTypes(hms).count(column) == 0) {
      return Status::NotFound("Column does not exist: " + column + " in " + t.db + "." + t.table);
    }
    TableEdits edits;
    edits.drop_stats.push_back({std::move(part), column});
    return edits;
  };
  ICS_ASSIGN_OR_RETURN(DdlOutcome out, commands_->ChangeTable(caller, "DROP_STATS", change));
  (void)out;
  return Status::OK();
}

}  // namespace ics::catalog::ops
