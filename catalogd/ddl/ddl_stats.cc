// ALTER TABLE UPDATE_STATS (what COMPUTE [INCREMENTAL] STATS sends) and
// DROP [INCREMENTAL] STATS.
//
// Where statistics live (as Impala keeps them in the Hive Metastore):
//   table row count / size     table parameters numRows / totalSize
//   partition row count        partition parameters numRows
//   partition (incremental)    partition parameters, TPartitionStats as
//   stats                      chunked base64 (partition_stats_params.h);
//                              the table's parameters for an unpartitioned table
//   column stats               hive::ColumnStatisticsObj (kSetTableColumnStats)
#include <glog/logging.h>

#include <algorithm>
#include <map>

#include "catalogd/ddl/ddl_operations_internal.h"
#include "catalogd/ddl/ddl_partition_specs_internal.h"
#include "catalogd/loader/partition_stats_params.h"
#include "common/hive/column_stats.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"
#include "common/types/column_type.h"

namespace ics::catalog::ddl {

namespace {

using P = impala::TPrimitiveType;

// Dates from 0001-01-01 to 9999-12-31 inclusive.
constexpr int64_t kMaxDistinctDates = 3652059;

int64_t LongOf(const impala::TColumnValue& v) {
  if (v.__isset.long_val) return v.long_val;
  if (v.__isset.int_val) return v.int_val;
  if (v.__isset.short_val) return v.short_val;
  if (v.__isset.byte_val) return v.byte_val;
  return 0;
}

bool HasLong(const impala::TColumnValue& v) {
  return v.__isset.long_val || v.__isset.int_val || v.__isset.short_val || v.__isset.byte_val;
}

// Hive's form of Impala's column statistics; false for types Hive keeps
// no statistics for (complex types).
bool ToHiveStats(const std::string& name, const impala::TColumnType& type,
                 const impala::TColumnStats& s, hive::ColumnStatisticsObj* out) {
  out->colName = name;
  out->colType = TypeToString(type);
  switch (PrimitiveOf(type)) {
    case P::BOOLEAN: {
      hive::BooleanColumnStatsData d;
      d.numTrues = s.num_trues;
      d.numFalses = s.num_falses;
      d.numNulls = s.num_nulls;
      out->statsData.__set_booleanStats(d);
      return true;
    }
    case P::TINYINT:
    case P::SMALLINT:
    case P::INT:
    case P::BIGINT: {
      hive::LongColumnStatsData d;
      d.numNulls = s.num_nulls;
      d.numDVs = s.num_distinct_values;
      if (s.__isset.low_value && HasLong(s.low_value)) d.__set_lowValue(LongOf(s.low_value));
      if (s.__isset.high_value && HasLong(s.high_value)) d.__set_highValue(LongOf(s.high_value));
      out->statsData.__set_longStats(d);
      return true;
    }
    case P::DATE: {
      // dateStats (days since the epoch), as Impala writes them; the NDV is
      // capped at the number of dates in 0001-01-01..9999-12-31.
      hive::DateColumnStatsData d;
      d.numNulls = s.num_nulls;
      d.numDVs = std::min<int64_t>(s.num_distinct_values, kMaxDistinctDates);
      if (s.__isset.low_value && s.low_value.__isset.date_val) {
        hive::Date low;
        low.daysSinceEpoch = s.low_value.date_val;
        d.__set_lowValue(low);
      }
      if (s.__isset.high_value && s.high_value.__isset.date_val) {
        hive::Date high;
        high.daysSinceEpoch = s.high_value.date_val;
        d.__set_highValue(high);
      }
      out->statsData.__set_dateStats(d);
      return true;
    }
    case P::TIMESTAMP: {
      // Hive and Impala keep TIMESTAMP statistics as longStats without bounds.
      hive::LongColumnStatsData d;
      d.numNulls = s.num_nulls;
      d.numDVs = s.num_distinct_values;
      out->statsData.__set_longStats(d);
      return true;
    }
    case P::FLOAT:
    case P::DOUBLE: {
      hive::DoubleColumnStatsData d;
      d.numNulls = s.num_nulls;
      d.numDVs = s.num_distinct_values;
      if (s.__isset.low_value && s.low_value.__isset.double_val) {
        d.__set_lowValue(s.low_value.double_val);
      }
      if (s.__isset.high_value && s.high_value.__isset.double_val) {
        d.__set_highValue(s.high_value.double_val);
      }
      out->statsData.__set_doubleStats(d);
      return true;
    }
    case P::STRING:
    case P::VARCHAR:
    case P::CHAR: {
      hive::StringColumnStatsData d;
      d.maxColLen = s.max_size;
      d.avgColLen = s.avg_size;
      d.numNulls = s.num_nulls;
      d.numDVs = s.num_distinct_values;
      out->statsData.__set_stringStats(d);
      return true;
    }
    case P::BINARY: {
      hive::BinaryColumnStatsData d;
      d.maxColLen = s.max_size;
      d.avgColLen = s.avg_size;
      d.numNulls = s.num_nulls;
      out->statsData.__set_binaryStats(d);
      return true;
    }
    case P::DECIMAL: {
      hive::DecimalColumnStatsData d;
      d.numNulls = s.num_nulls;
      d.numDVs = s.num_distinct_values;
      out->statsData.__set_decimalStats(d);
      return true;
    }
    default:
      return false;
  }
}

const impala::TColumn* FindColumn(const TableState& t, const std::string& name) {
  for (const auto& c : t.columns) {
    if (c.columnName == name) return &c;
  }
  for (const auto& c : t.clustering_columns) {
    if (c.columnName == name) return &c;
  }
  return nullptr;
}

// Writes `stats` into partition (or unpartitioned table) parameters.
Status PutPartitionStats(const impala::TPartitionStats& stats,
                         std::map<std::string, std::string>* params) {
  ICS_RETURN_IF_ERROR(SetStatsParams(stats, params));
  (*params)[kNumRowsParam] = std::to_string(stats.stats.num_rows);
  return Status::OK();
}

// Replaces the partitions in `changed` (metastore objects) in `next`.
Status ReplaceChanged(CatalogContext* ctx, TableState* next,
                      const std::vector<hive::Partition>& changed) {
  for (const hive::Partition& part : changed) {
    PartitionPtr current = PartitionWithValues(*next, part.values);
    if (current == nullptr) continue;
    ICS_RETURN_IF_ERROR(ReplacePartition(ctx, next, *current, part));
  }
  return Status::OK();
}

}  // namespace

bool StripStatsParams(std::map<std::string, std::string>* params) {
  const size_t before = params->size();
  params->erase(kNumRowsParam);
  params->erase(kTotalSizeParam);
  RemoveStatsParams(params);
  return params->size() != before;
}

Result<DdlOutcome> UpdateStats(CatalogContext* ctx, const UpdateStatsCommand& p) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(p.db, p.table));
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  if (old->is_view())
    return Status::InvalidArgument("Cannot update statistics of a view: " + t.full());
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  bool table_changed = false;
  if (p.table_stats.has_value()) {
    hms.parameters[kNumRowsParam] = std::to_string(p.table_stats->num_rows);
    if (p.table_stats->__isset.total_file_bytes) {
      hms.parameters[kTotalSizeParam] = std::to_string(p.table_stats->total_file_bytes);
    }
    table_changed = true;
  }

  // Partition statistics, keyed by partition values.
  std::vector<hive::Partition> changed;
  size_t num_partitions = 0;
  if (!p.partition_stats.empty()) {
    const std::vector<std::string> keys = PartitionKeyNames(old->clustering_columns);
    std::vector<PartitionPtr> targets;
    std::vector<const impala::TPartitionStats*> stats;
    for (const auto& [values, s] : p.partition_stats) {
      if (!old->is_partitioned()) {
        if (!values.empty()) {
          return Status::InvalidArgument(
              "Partition statistics with values given for "
              "unpartitioned table " +
              t.full());
        }
        ICS_RETURN_IF_ERROR(PutPartitionStats(s, &hms.parameters));
        table_changed = true;
        ++num_partitions;
        continue;
      }
      ICS_ASSIGN_OR_RETURN(std::string name, MakePartitionName(keys, values));
      PartitionPtr target = old->partitions_by_name.Get(name);
      if (target == nullptr) {
        return Status::NotFound("Partition does not exist: " + PartitionDisplayName(t, name));
      }
      targets.push_back(std::move(target));
      stats.push_back(&s);
    }
    if (!targets.empty()) {
      ICS_ASSIGN_OR_RETURN(changed, MetastorePartitions(ctx, t, targets));
      for (size_t i = 0; i < changed.size(); ++i) {
        ICS_RETURN_IF_ERROR(PutPartitionStats(*stats[i], &changed[i].parameters));
      }
      num_partitions += changed.size();
    }
  }

  // Column statistics.
  std::vector<hive::ColumnStatisticsObj> col_stats;
  if (!p.column_stats.empty()) {
    for (const auto& [col_name, s] : p.column_stats) {
      const std::string name = AsciiLower(col_name);
      const impala::TColumn* col = FindColumn(*old, name);
      if (col == nullptr)
        return Status::NotFound("Column does not exist: " + name + " in " + t.full());
      hive::ColumnStatisticsObj obj;
      if (ToHiveStats(name, col->columnType, s, &obj)) col_stats.push_back(std::move(obj));
    }
  }
  const std::string summary = "Updated " + std::to_string(num_partitions) + " partition(s) and " +
                              std::to_string(col_stats.size()) + " column(s).";
  if (!table_changed && changed.empty() && col_stats.empty()) return NoOp(ctx, summary);

  MetastoreTxn txn;
  if (table_changed) {
    hms.parameters[kLastDdlTimeParam] = std::to_string(NowSeconds());
    txn.ops.push_back(AlterTableOp(t, hms));
  }
  for (const hive::Partition& part : changed) txn.ops.push_back(AlterPartitionOp(part));
  if (!col_stats.empty()) {
    txn.ops.push_back(MetastoreOp::SetTableColumnStats(t.db, t.table, col_stats));
  }
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));

  auto build = [&]() -> Result<std::shared_ptr<TableState>> {
    ICS_ASSIGN_OR_RETURN(std::shared_ptr<TableState> next, DeriveTable(ctx, *old, hms));
    for (hive::ColumnStatisticsObj& obj : col_stats) {
      std::string name = obj.colName;
      next->column_stats[name] = std::move(obj);
    }
    ICS_RETURN_IF_ERROR(ReplaceChanged(ctx, next.get(), changed));
    return next;
  };
  return InstallAfterCommit(ctx, t, build(), summary);
}

Result<DdlOutcome> DropStats(CatalogContext* ctx, const DropStatsCommand& p) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(p.db, p.table));
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  if (old->is_view())
    return Status::InvalidArgument("Cannot drop statistics of a view: " + t.full());
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  MetastoreTxn txn;
  std::vector<hive::Partition> changed;
  const bool whole_table = !p.partitions.has_value();
  if (!whole_table) {
    // DROP INCREMENTAL STATS ... PARTITION (...): only the incremental stats.
    ICS_ASSIGN_OR_RETURN(std::vector<PartitionPtr> parts,
                         ResolvePartitionSet(*old, *p.partitions, false));
    ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> stored, MetastorePartitions(ctx, t, parts));
    for (hive::Partition& part : stored) {
      const size_t before = part.parameters.size();
      RemoveStatsParams(&part.parameters);
      if (part.parameters.size() != before) changed.push_back(std::move(part));
    }
  } else {
    StripStatsParams(&hms.parameters);
    hms.parameters.erase("COLUMN_STATS_ACCURATE");
    hms.parameters.erase("impala.lastComputeStatsTime");
    hms.parameters[kLastDdlTimeParam] = std::to_string(NowSeconds());
    txn.ops.push_back(AlterTableOp(t, hms));
    txn.ops.push_back(MetastoreOp::DeleteColumnStats(t.db, t.table));
    if (old->is_partitioned()) {
      ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> stored,
                           ctx->metastore->GetPartitions(t.db, t.table));
      for (hive::Partition& part : stored) {
        if (StripStatsParams(&part.parameters)) changed.push_back(std::move(part));
      }
    }
  }
  for (const hive::Partition& part : changed) txn.ops.push_back(AlterPartitionOp(part));
  if (txn.ops.empty()) return NoOp(ctx, "Stats have been dropped.");
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));

  auto build = [&]() -> Result<std::shared_ptr<TableState>> {
    ICS_ASSIGN_OR_RETURN(std::shared_ptr<TableState> next, DeriveTable(ctx, *old, hms));
    if (whole_table) next->column_stats.clear();
    ICS_RETURN_IF_ERROR(ReplaceChanged(ctx, next.get(), changed));
    return next;
  };
  return InstallAfterCommit(ctx, t, build(), "Stats have been dropped.");
}

}  // namespace ics::catalog::ddl

namespace ics::catalog {

Result<hive::ColumnStatisticsObj> CheckColumnStats(const hive::Table& table, bool partition_level,
                                                   hive::ColumnStatisticsObj stats) {
  ICS_ASSIGN_OR_RETURN(stats.colName, NormalizeColumnName(stats.colName));
  const hive::FieldSchema* column = nullptr;
  for (const auto* list : {&table.sd.cols, &table.partitionKeys}) {
    for (const hive::FieldSchema& f : *list) {
      if (column == nullptr && f.name == stats.colName) column = &f;
    }
  }
  if (column == nullptr) {
    return Status::NotFound("Column does not exist: " + stats.colName + " in " + table.dbName +
                            "." + table.tableName);
  }
  const std::string type = AsciiLower(column->type);
  const std::string given = AsciiLower(stats.colType);
  if (!partition_level && !given.empty() && given != type) {
    return Status::InvalidArgument("column " + stats.colName + " is " + type + ", not " +
                                   stats.colType.substr(0, 64));
  }
  if (!HasStatsData(stats.statsData)) {
    return Status::InvalidArgument("statistics of column " + stats.colName + " carry no data");
  }
  stats.colType = given.empty() ? type : given;
  return stats;
}

}  // namespace ics::catalog
