// SHOW DATABASES / TABLES / FUNCTIONS / PARTITIONS / FILES / TABLE STATS /
// COLUMN STATS, answered from the local catalog in Impala's layouts:
//   SHOW DATABASES      name | comment
//   SHOW TABLES         name
//   SHOW FUNCTIONS      return type | signature | binary type | is persistent
//   SHOW PARTITIONS     <keys> | #Rows | #Files | Size | Bytes Cached |
//   SHOW TABLE STATS      Cache Replication | Format | Incremental stats |
//                         Location   (+ a Total row for partitioned tables)
//   SHOW FILES          Path | Size | Partition
//   SHOW COLUMN STATS   Column | Type | #Distinct Values | #Nulls | Max Size |
//                         Avg Size | #Trues | #Falses   (-1 when unknown)
#include <algorithm>
#include <cstdlib>
#include <set>

#include "common/hive/column_stats.h"
#include "common/hive/scalar_text.h"
#include "common/types/column_type.h"
#include "coordinator-sim/catalog/catalog_util.h"
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_format.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"

namespace ics::coord::exec {

namespace {

using P = impala::TPrimitiveType;

// Orders partitions by their key values (numerically for numeric keys, NULL last).
void SortByValues(const LocalTable& t, std::vector<PartitionPtr>* parts) {
  auto less = [&](const PartitionPtr& a, const PartitionPtr& b) {
    for (size_t i = 0; i < t.clustering_columns.size(); ++i) {
      const std::string& x = i < a->values.size() ? a->values[i] : "";
      const std::string& y = i < b->values.size() ? b->values[i] : "";
      if (x == y) continue;
      if (x == kDefaultPartitionName) return false;
      if (y == kDefaultPartitionName) return true;
      if (IsNumericType(t.clustering_columns[i].columnType)) {
        const std::optional<ExactNumber> nx = ParseExactNumber(x), ny = ParseExactNumber(y);
        if (nx && ny) {
          const int c = CompareExactNumbers(*nx, *ny);
          if (c != 0) return c < 0;
        }
      }
      return x < y;
    }
    return a->id < b->id;
  };
  std::sort(parts->begin(), parts->end(), less);
}

StatementResult PartitionStatsRows(const LocalTable& t, const std::vector<PartitionPtr>& parts,
                                   const std::vector<std::vector<DataFile>>& files) {
  StatementResult out;
  for (const auto& c : t.clustering_columns) out.columns.push_back(c.columnName);
  for (const char* c : {"#Rows", "#Files", "Size", "Bytes Cached", "Cache Replication", "Format",
                        "Incremental stats", "Location"}) {
    out.columns.push_back(c);
  }
  const std::string format = FileFormatSqlName(TableFileFormat(t));
  int64_t total_files = 0, total_bytes = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const LocalPartition& p = *parts[i];
    std::vector<std::string> row;
    for (size_t k = 0; k < t.clustering_columns.size(); ++k) {
      const std::string v = k < p.values.size() ? p.values[k] : "";
      row.push_back(v == kDefaultPartitionName ? "NULL" : v);
    }
    int64_t bytes = 0;
    for (const DataFile& f : files[i]) bytes += f.length;
    total_files += static_cast<int64_t>(files[i].size());
    total_bytes += bytes;
    const int64_t rows = t.clustering_columns.empty() && p.num_rows < 0 ? t.num_rows : p.num_rows;
    row.push_back(std::to_string(rows));
    row.push_back(std::to_string(files[i].size()));
    row.push_back(PrintBytes(bytes));
    row.push_back("NOT CACHED");
    row.push_back("NOT CACHED");
    row.push_back(format);
    row.push_back(p.has_incremental_stats ? "true" : "false");
    row.push_back(p.location.empty() ? t.hms.sd.location : p.location);
    out.rows.push_back(std::move(row));
  }
  if (!t.clustering_columns.empty()) {
    std::vector<std::string> total(t.clustering_columns.size(), "");
    total[0] = "Total";
    total.push_back(std::to_string(t.num_rows));
    total.push_back(std::to_string(total_files));
    total.push_back(PrintBytes(total_bytes));
    total.push_back("0B");
    for (int i = 0; i < 4; ++i) total.push_back("");
    out.rows.push_back(std::move(total));
  } else if (parts.empty()) {
    // An unpartitioned table whose partition is not known: the table alone.
    out.rows.push_back({std::to_string(t.num_rows), "0", "0B", "NOT CACHED", "NOT CACHED", format,
                        "false", t.hms.sd.location});
  }
  return out;
}

Result<StatementResult> ShowPartitionStats(const ExecContext& ctx, const sql::ShowStmt& s,
                                           bool partitions_only) {
  const char* what = partitions_only ? "SHOW PARTITIONS" : "SHOW TABLE STATS";
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
  if (t->is_view) return AnalysisError(std::string(what) + " not applicable to a view: " + FullName(*t));
  if (partitions_only && t->clustering_columns.empty()) {
    return AnalysisError("Table is not partitioned: " + FullName(*t));
  }
  std::vector<PartitionPtr> parts;
  if (!t->partition_names.empty()) {
    ICS_ASSIGN_OR_RETURN(parts, ctx.catalog()->GetPartitions(*t, {}, /*want_files=*/true,
                                                             /*want_stats=*/false));
  }
  SortByValues(*t, &parts);
  std::vector<std::vector<DataFile>> files;
  for (const PartitionPtr& p : parts) {
    ICS_ASSIGN_OR_RETURN(std::vector<DataFile> f, FilesOf(*p));
    files.push_back(std::move(f));
  }
  return PartitionStatsRows(*t, parts, files);
}

Result<StatementResult> ShowFiles(const ExecContext& ctx, const sql::ShowStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
  if (t->is_view) return AnalysisError("SHOW FILES not applicable to a view: " + FullName(*t));
  std::vector<int64_t> ids;
  if (s.partition) {
    ICS_ASSIGN_OR_RETURN(std::vector<impala::TPartitionKeyValue> spec,
                         ToPartitionKeyValues(*t, *s.partition, /*require_full=*/false));
    ids = MatchingPartitionIds(*t, spec);
    if (ids.empty()) return AnalysisError("No matching partition(s) found: " + SpecToString(spec));
  }
  std::vector<PartitionPtr> parts;
  if (!t->partition_names.empty()) {
    ICS_ASSIGN_OR_RETURN(parts, ctx.catalog()->GetPartitions(*t, ids, true, false));
  }
  SortByValues(*t, &parts);
  StatementResult out;
  out.columns = {"Path", "Size", "Partition"};
  for (const PartitionPtr& p : parts) {
    ICS_ASSIGN_OR_RETURN(std::vector<DataFile> files, FilesOf(*p));
    std::sort(files.begin(), files.end(),
              [](const DataFile& a, const DataFile& b) { return a.path < b.path; });
    for (const DataFile& f : files) out.rows.push_back({f.path, PrintBytes(f.length), p->name});
  }
  return out;
}

struct ColStats {
  int64_t ndv = -1, nulls = -1, max_size = -1, trues = -1, falses = -1;
  double avg_size = -1;
};

// The stats SHOW COLUMN STATS prints: from the metastore's column stats (on
// demand) or the TColumn's col_stats (full replica). Fixed-width types show
// their slot size as Impala does.
ColStats StatsOf(const LocalTable& t, const impala::TColumn& c) {
  const int64_t fixed = ics::SlotSize(c.columnType);
  ColStats s;
  s.max_size = fixed;
  s.avg_size = static_cast<double>(fixed);
  impala::TColumnStats cs;
  auto it = t.column_stats.find(c.columnName);
  if (it != t.column_stats.end()) {
    cs = ics::ToTColumnStats(it->second, c.columnType);
  } else if (c.__isset.col_stats) {
    cs = c.col_stats;
  } else {
    return s;
  }
  s.ndv = cs.num_distinct_values;
  s.nulls = cs.num_nulls;
  if (fixed < 0) {
    s.max_size = cs.max_size;
    s.avg_size = cs.avg_size;
  }
  if (PrimitiveOf(c.columnType) == P::BOOLEAN) {
    s.trues = cs.num_trues;
    s.falses = cs.num_falses;
  }
  return s;
}

Result<StatementResult> ShowColumnStats(const ExecContext& ctx, const sql::ShowStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
  StatementResult out;
  out.columns = {"Column", "Type", "#Distinct Values", "#Nulls", "Max Size", "Avg Size", "#Trues",
                 "#Falses"};
  auto add = [&](const impala::TColumn& c, const ColStats& st) {
    out.rows.push_back({c.columnName, TypeSql(c.columnType), std::to_string(st.ndv),
                        std::to_string(st.nulls), std::to_string(st.max_size),
                        FormatDouble(st.avg_size), std::to_string(st.trues),
                        std::to_string(st.falses)});
  };
  for (const impala::TColumn& c : t->columns) add(c, StatsOf(*t, c));
  // Partition keys: distinct values and NULL partitions from the partition names.
  for (size_t k = 0; k < t->clustering_columns.size(); ++k) {
    const impala::TColumn& c = t->clustering_columns[k];
    std::set<std::string> distinct;
    std::vector<int64_t> null_ids;
    for (const auto& [id, name] : t->partition_names) {
      const std::vector<std::string> values = PartitionValuesFromName(name);
      if (k >= values.size()) continue;
      if (values[k] == kDefaultPartitionName) {
        null_ids.push_back(id);
      } else {
        distinct.insert(values[k]);
      }
    }
    ColStats st;
    st.ndv = static_cast<int64_t>(distinct.size()) + (null_ids.empty() ? 0 : 1);
    // #Nulls: the rows of the NULL partitions, when all of them are counted.
    st.nulls = 0;
    if (!null_ids.empty()) {
      ICS_ASSIGN_OR_RETURN(std::vector<PartitionPtr> nulls,
                           ctx.catalog()->GetPartitions(*t, null_ids, false, false));
      for (const PartitionPtr& p : nulls) {
        st.nulls = (p->num_rows < 0 || st.nulls < 0) ? -1 : st.nulls + p->num_rows;
      }
    }
    st.max_size = ics::SlotSize(c.columnType);
    st.avg_size = static_cast<double>(st.max_size);
    add(c, st);
  }
  return out;
}

Result<StatementResult> ShowDatabases(const ExecContext& ctx, const sql::ShowStmt& s) {
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> names, ctx.catalog()->DatabaseNames());
  std::sort(names.begin(), names.end());
  StatementResult out;
  out.columns = {"name", "comment"};
  for (const std::string& n : names) {
    if (s.pattern && !MatchesPattern(n, *s.pattern)) continue;
    Result<hive::Database> db = ctx.catalog()->GetDatabase(n);
    if (!db.ok() && db.status().Is(ErrorCode::kNotFound)) continue;  // dropped meanwhile
    if (!db.ok()) return db.status();
    out.rows.push_back({n, db->description});
  }
  return out;
}

Result<StatementResult> ShowTables(const ExecContext& ctx, const sql::ShowStmt& s) {
  const std::string db = s.db.empty() ? ctx.session->db : s.db;
  ICS_RETURN_IF_ERROR(CheckDbExists(ctx, db));
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> names, ctx.catalog()->TableNames(db));
  std::sort(names.begin(), names.end());
  StatementResult out;
  out.columns = {"name"};
  for (const std::string& n : names) {
    if (!s.pattern || MatchesPattern(n, *s.pattern)) out.rows.push_back({n});
  }
  return out;
}

std::string BinaryTypeName(const impala::TFunction& fn) {
  if (!fn.__isset.binary_type) return "";
  switch (fn.binary_type) {
    case impala::TFunctionBinaryType::BUILTIN: return "BUILTIN";
    case impala::TFunctionBinaryType::JAVA: return "JAVA";
    case impala::TFunctionBinaryType::NATIVE: return "NATIVE";
    case impala::TFunctionBinaryType::IR: return "IR";
  }
  return "";
}

std::string SignatureOf(const impala::TFunction& fn) {
  std::string sig = fn.name.function_name + "(";
  for (size_t i = 0; i < fn.arg_types.size(); ++i) {
    sig += (i > 0 ? ", " : "") + TypeSql(fn.arg_types[i]);
  }
  if (fn.__isset.has_var_args && fn.has_var_args) sig += "...";
  return sig + ")";
}

Result<StatementResult> ShowFunctions(const ExecContext& ctx, const sql::ShowStmt& s) {
  const std::string db = s.db.empty() ? ctx.session->db : s.db;
  ICS_RETURN_IF_ERROR(CheckDbExists(ctx, db));
  ICS_ASSIGN_OR_RETURN(std::vector<impala::TFunction> fns, ctx.catalog()->Functions(db));
  StatementResult out;
  out.columns = {"return type", "signature", "binary type", "is persistent"};
  for (const impala::TFunction& fn : fns) {
    if (s.pattern && !MatchesPattern(fn.name.function_name, *s.pattern)) continue;
    out.rows.push_back({fn.__isset.ret_type ? TypeSql(fn.ret_type) : "", SignatureOf(fn),
                        BinaryTypeName(fn),
                        (fn.__isset.is_persistent && fn.is_persistent) ? "true" : "false"});
  }
  std::sort(out.rows.begin(), out.rows.end(),
            [](const auto& a, const auto& b) { return a[1] < b[1]; });
  return out;
}

}  // namespace

Result<StatementResult> ExecShow(const ExecContext& ctx, const sql::ShowStmt& s) {
  switch (s.what) {
    case sql::ShowKind::kDatabases: return ShowDatabases(ctx, s);
    case sql::ShowKind::kTables: return ShowTables(ctx, s);
    case sql::ShowKind::kFunctions: return ShowFunctions(ctx, s);
    case sql::ShowKind::kPartitions: return ShowPartitionStats(ctx, s, true);
    case sql::ShowKind::kTableStats: return ShowPartitionStats(ctx, s, false);
    case sql::ShowKind::kFiles: return ShowFiles(ctx, s);
    case sql::ShowKind::kColumnStats: return ShowColumnStats(ctx, s);
    case sql::ShowKind::kCreateTable:
    case sql::ShowKind::kCreateView: return ExecShowCreate(ctx, s);
  }
  return Status::Internal("unknown SHOW statement");
}

}  // namespace ics::coord::exec
