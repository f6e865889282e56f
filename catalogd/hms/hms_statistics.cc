// HmsStatistics: column statistics (update, read, aggregate, delete).
//
// Aggregation over partitions (get_aggr_stats_for), per column, over the
// partitions that have statistics for it (a column whose type differs
// between partitions is an INVALID_ARGUMENT error):
//   boolean: numTrues, numFalses, numNulls summed;
//   long/double/decimal/date/timestamp: lowValue = min, highValue = max,
//     numNulls summed,
//     numDVs = the largest partition value (a lower bound of the true count;
//     no distinct-value sketches are stored);
//   string: maxColLen and avgColLen = the largest partition value, numNulls
//     summed, numDVs = max; binary: maxColLen/avgColLen max, numNulls summed.
// partsFound counts the requested partitions that have statistics for every
// requested column, as the Hive Metastore reports it.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "catalogd/hms/hms_part_internal.h"
#include "catalogd/hms/hms_statistics.h"
#include "catalogd/ops/command_core.h"

namespace ics::catalog::hms {

namespace {

// The value of a hive::Decimal (big-endian two's complement unscaled bytes),
// as a double: enough to order values for min/max.
double DecimalValue(const hive::Decimal& d) {
  double v = 0;
  bool negative = !d.unscaled.empty() && (static_cast<unsigned char>(d.unscaled[0]) & 0x80);
  for (unsigned char c : d.unscaled) v = v * 256 + (negative ? static_cast<unsigned char>(~c) : c);
  if (negative) v = -(v + 1);
  return v / std::pow(10.0, d.scale);
}

// Widens a's [lowValue, highValue] to cover b's.
template <typename S, typename Less>
void MergeRange(S* a, const S& b, Less less) {
  if (b.__isset.lowValue && (!a->__isset.lowValue || less(b.lowValue, a->lowValue))) {
    a->__set_lowValue(b.lowValue);
  }
  if (b.__isset.highValue && (!a->__isset.highValue || less(a->highValue, b.highValue))) {
    a->__set_highValue(b.highValue);
  }
}

// Merges `in` into `acc` (same kind of data). Returns false on a kind mismatch.
bool Merge(const hive::ColumnStatisticsData& in, hive::ColumnStatisticsData* acc) {
  if (in.__isset.booleanStats && acc->__isset.booleanStats) {
    acc->booleanStats.numTrues += in.booleanStats.numTrues;
    acc->booleanStats.numFalses += in.booleanStats.numFalses;
    acc->booleanStats.numNulls += in.booleanStats.numNulls;
  } else if (in.__isset.longStats && acc->__isset.longStats) {
    auto& a = acc->longStats;
    const auto& b = in.longStats;
    MergeRange(&a, b, [](auto x, auto y) { return x < y; });
    a.numNulls += b.numNulls;
    a.numDVs = std::max(a.numDVs, b.numDVs);
  } else if (in.__isset.doubleStats && acc->__isset.doubleStats) {
    auto& a = acc->doubleStats;
    const auto& b = in.doubleStats;
    MergeRange(&a, b, [](auto x, auto y) { return x < y; });
    a.numNulls += b.numNulls;
    a.numDVs = std::max(a.numDVs, b.numDVs);
  } else if (in.__isset.decimalStats && acc->__isset.decimalStats) {
    auto& a = acc->decimalStats;
    const auto& b = in.decimalStats;
    MergeRange(&a, b, [](const hive::Decimal& x, const hive::Decimal& y) {
      return DecimalValue(x) < DecimalValue(y);
    });
    a.numNulls += b.numNulls;
    a.numDVs = std::max(a.numDVs, b.numDVs);
  } else if (in.__isset.dateStats && acc->__isset.dateStats) {
    auto& a = acc->dateStats;
    const auto& b = in.dateStats;
    MergeRange(&a, b, [](const hive::Date& x, const hive::Date& y) {
      return x.daysSinceEpoch < y.daysSinceEpoch;
    });
    a.numNulls += b.numNulls;
    a.numDVs = std::max(a.numDVs, b.numDVs);
  } else if (in.__isset.timestampStats && acc->__isset.timestampStats) {
    auto& a = acc->timestampStats;
    const auto& b = in.timestampStats;
    MergeRange(&a, b, [](const hive::Timestamp& x, const hive::Timestamp& y) {
      return x.secondsSinceEpoch < y.secondsSinceEpoch;
    });
    a.numNulls += b.numNulls;
    a.numDVs = std::max(a.numDVs, b.numDVs);
  } else if (in.__isset.stringStats && acc->__isset.stringStats) {
    auto& a = acc->stringStats;
    const auto& b = in.stringStats;
    a.maxColLen = std::max(a.maxColLen, b.maxColLen);
    a.avgColLen = std::max(a.avgColLen, b.avgColLen);
    a.numNulls += b.numNulls;
    a.numDVs = std::max(a.numDVs, b.numDVs);
  } else if (in.__isset.binaryStats && acc->__isset.binaryStats) {
    auto& a = acc->binaryStats;
    const auto& b = in.binaryStats;
    a.maxColLen = std::max(a.maxColLen, b.maxColLen);
    a.avgColLen = std::max(a.avgColLen, b.avgColLen);
    a.numNulls += b.numNulls;
  } else {
    return false;
  }
  return true;
}

std::vector<hive::ColumnStatisticsObj> Pick(std::vector<hive::ColumnStatisticsObj> all,
                                            const std::set<std::string>& columns) {
  std::vector<hive::ColumnStatisticsObj> out;
  for (auto& o : all) {
    if (columns.count(o.colName) > 0) out.push_back(std::move(o));
  }
  return out;
}

Result<std::set<std::string>> ColumnSet(const std::vector<std::string>& columns) {
  std::set<std::string> out;
  for (const std::string& c : columns) {
    ICS_ASSIGN_OR_RETURN(std::string n, NormalizeColumnName(c));
    out.insert(std::move(n));
  }
  return out;
}

}  // namespace

Result<HmsStatistics::TableStatsEdit> HmsStatistics::StatsEdit(const hive::ColumnStatistics& stats,
                                                               bool partition_level) {
  const hive::ColumnStatisticsDesc& desc = stats.statsDesc;
  ICS_RETURN_IF_ERROR(CheckCatalog(desc.catName));
  if (desc.isTblLevel == partition_level) {
    return Status::InvalidArgument(partition_level
                                       ? "Partition statistics must have isTblLevel=false"
                                       : "Table statistics must have isTblLevel=true");
  }
  if (partition_level && (!desc.__isset.partName || desc.partName.empty())) {
    return Status::InvalidArgument("Partition statistics need statsDesc.partName");
  }
  ICS_RETURN_IF_ERROR(CheckCount(stats.statsObj.size(), opts_.max_objects_per_request, "columns"));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), desc.dbName, desc.tableName));
  TableStatsEdit edit{t.dbName, t.tableName, {}};
  // Each column passes the core's rules (CheckColumnStats) when the change
  // runs; a Hive client's request fails as a whole on the first bad one.
  std::set<std::string> seen;
  for (const hive::ColumnStatisticsObj& in : stats.statsObj) {
    ICS_ASSIGN_OR_RETURN(hive::ColumnStatisticsObj o, CheckColumnStats(t, partition_level, in));
    if (!seen.insert(o.colName).second) {
      return Status::InvalidArgument("Column '" + o.colName + "' appears twice");
    }
    edit.stats.columns.push_back(std::move(o));
  }
  if (partition_level) {
    ICS_RETURN_IF_ERROR(ParsePartitionName(desc.partName).status());
    edit.stats.partition = desc.partName;
  }
  return edit;
}

Status HmsStatistics::CommitStats(const std::string& what, std::vector<TableStatsEdit> set,
                                  std::vector<TableStatsDrop> drops) {
  std::map<std::pair<std::string, std::string>, TableEdits> by_table;
  for (TableStatsEdit& e : set) by_table[{e.db, e.table}].set_stats.push_back(std::move(e.stats));
  for (TableStatsDrop& d : drops) {
    by_table[{d.db, d.table}].drop_stats.push_back(std::move(d.drop));
  }
  for (const auto& [key, edits] : by_table) {
    TableChange change;
    change.db = key.first;
    change.table = key.second;
    change.summary = "Updated the column statistics of " + key.first + "." + key.second + ".";
    change.plan = [&edits = edits](const TableState&, const hive::Table&) -> Result<TableEdits> {
      return edits;
    };
    ICS_RETURN_IF_ERROR(commands_->ChangeTable(HmsCaller(), what, change).status());
  }
  return Status::OK();
}

Status HmsStatistics::UpdateColumnStatistics(const hive::ColumnStatistics& stats,
                                             bool partition_level) {
  ICS_ASSIGN_OR_RETURN(TableStatsEdit edit, StatsEdit(stats, partition_level));
  std::vector<TableStatsEdit> set;
  set.push_back(std::move(edit));
  return CommitStats("UPDATE_STATS", std::move(set), {});
}

Status HmsStatistics::SetStatistics(const hive::SetPartitionsStatsRequest& request,
                                    StatsLevel level) {
  if (request.__isset.needMerge && request.needMerge) {
    return Status::InvalidArgument(
        "needMerge is not supported: statistics are replaced, never merged");
  }
  ICS_RETURN_IF_ERROR(
      CheckCount(request.colStats.size(), opts_.max_objects_per_request, "statistics objects"));
  std::vector<TableStatsEdit> set;
  for (const hive::ColumnStatistics& stats : request.colStats) {
    bool partition_level = !stats.statsDesc.isTblLevel;
    if (level == StatsLevel::kTable) partition_level = false;
    if (level == StatsLevel::kPartition) partition_level = true;
    ICS_ASSIGN_OR_RETURN(TableStatsEdit edit, StatsEdit(stats, partition_level));
    set.push_back(std::move(edit));
  }
  return CommitStats("UPDATE_STATS", std::move(set), {});
}

Result<std::vector<hive::ColumnStatisticsObj>> HmsStatistics::GetTableColumnStats(
    const std::string& db_arg, const std::string& table, const std::vector<std::string>& columns) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_RETURN_IF_ERROR(CheckCount(columns.size(), opts_.max_objects_per_request, "columns"));
  ICS_ASSIGN_OR_RETURN(std::set<std::string> cols, ColumnSet(columns));
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(HmsCaller(), db, table));
  ICS_ASSIGN_OR_RETURN(auto all, reads_->TableColumnStats(HmsCaller(), t.dbName, t.tableName));
  return Pick(std::move(all), cols);
}

Result<std::map<std::string, std::vector<hive::ColumnStatisticsObj>>>
HmsStatistics::GetPartitionsColumnStats(const std::string& db_arg, const std::string& table,
                                        const std::vector<std::string>& columns,
                                        const std::vector<std::string>& partition_names) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_RETURN_IF_ERROR(CheckCount(columns.size(), opts_.max_objects_per_request, "columns"));
  ICS_RETURN_IF_ERROR(
      CheckCount(partition_names.size(), opts_.max_partitions_per_request, "partitions"));
  ICS_ASSIGN_OR_RETURN(std::set<std::string> cols, ColumnSet(columns));
  const ops::Caller caller = HmsCaller();
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(caller, db, table));
  std::map<std::string, std::vector<hive::ColumnStatisticsObj>> out;
  for (const std::string& name : partition_names) {
    auto stats = reads_->PartitionColumnStats(caller, t.dbName, t.tableName, name);
    if (!stats.ok()) {
      if (stats.status().Is(ErrorCode::kNotFound)) continue;  // no such partition
      return stats.status();
    }
    auto picked = Pick(std::move(stats).value(), cols);
    if (!picked.empty()) out[name] = std::move(picked);
  }
  return out;
}

Result<hive::AggrStats> HmsStatistics::GetAggrStats(
    const std::string& db_arg, const std::string& table, const std::vector<std::string>& columns,
    const std::vector<std::string>& partition_names) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  ICS_ASSIGN_OR_RETURN(auto per_part,
                       GetPartitionsColumnStats(db, table, columns, partition_names));
  ICS_ASSIGN_OR_RETURN(std::set<std::string> cols, ColumnSet(columns));
  std::map<std::string, hive::ColumnStatisticsObj> merged;
  hive::AggrStats out;
  out.partsFound = 0;
  for (const auto& [name, objs] : per_part) {
    if (objs.size() == cols.size()) ++out.partsFound;
    for (const hive::ColumnStatisticsObj& o : objs) {
      auto it = merged.find(o.colName);
      if (it == merged.end()) {
        merged.emplace(o.colName, o);
      } else if (!Merge(o.statsData, &it->second.statsData)) {
        return Status::InvalidArgument("Column '" + o.colName +
                                       "' has statistics of different kinds in different "
                                       "partitions; they cannot be aggregated");
      }
    }
  }
  for (auto& [name, obj] : merged) out.colStats.push_back(std::move(obj));
  return out;
}

Status HmsStatistics::DeleteColumnStats(const std::string& db_arg, const std::string& table,
                                        const std::string& partition_name,
                                        const std::string& column) {
  ICS_ASSIGN_OR_RETURN(const std::string db, Db(db_arg));
  const ops::Caller caller = HmsCaller();
  ICS_ASSIGN_OR_RETURN(hive::Table t, reads_->Table(caller, db, table));
  std::vector<hive::ColumnStatisticsObj> existing;
  if (partition_name.empty()) {
    ICS_ASSIGN_OR_RETURN(existing, reads_->TableColumnStats(caller, t.dbName, t.tableName));
  } else {
    ICS_RETURN_IF_ERROR(ParsePartitionName(partition_name).status());
    ICS_ASSIGN_OR_RETURN(
        existing, reads_->PartitionColumnStats(caller, t.dbName, t.tableName, partition_name));
  }
  std::string col;
  if (!column.empty()) {
    ICS_ASSIGN_OR_RETURN(col, NormalizeColumnName(column));
  }
  auto deleted = [&](const hive::ColumnStatisticsObj& o) {
    return col.empty() || o.colName == col;
  };
  if (std::none_of(existing.begin(), existing.end(), deleted)) {
    const std::string where = partition_name.empty() ? t.dbName + "." + t.tableName
                                                     : "partition " + partition_name + " of " +
                                                           t.dbName + "." + t.tableName;
    return Status::NotFound("No column statistics" +
                            (col.empty() ? std::string() : " for column '" + col + "'") + " of " +
                            where);
  }
  std::vector<TableStatsDrop> drops;
  for (const hive::ColumnStatisticsObj& o : existing) {
    if (deleted(o)) drops.push_back({t.dbName, t.tableName, {partition_name, o.colName}});
  }
  return CommitStats("DROP_STATS", {}, std::move(drops));
}

}  // namespace ics::catalog::hms
