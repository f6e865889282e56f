// COMPUTE [INCREMENTAL] STATS t [(cols)] [PARTITION (...)]: the coordinator
// scans the text data files itself and sends the figures to catalogd as
// ALTER TABLE UPDATE_STATS, as the peer does (it never sends COMPUTE_STATS).
//
//   COMPUTE STATS t               scans every partition; partition stats carry
//                                 row counts only; expect_all_partitions.
//   COMPUTE INCREMENTAL STATS t   scans the partitions without incremental
//                                 stats and reuses the others' stored
//                                 TPartitionStats (HLL registers included).
//   ... PARTITION (spec)          scans the matching partitions, reuses the rest.
// Table-level column stats merge every partition's intermediate stats;
// partition columns get none (their figures come from partition metadata).
#include <map>
#include <set>

#include "common/codec/partition_stats.h"
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"
#include "coordinator-sim/exec/stats_scanner.h"

namespace ics::coord::exec {

namespace {

struct Scanned {
  PartitionPtr partition;
  impala::TPartitionStats stats;
};

}  // namespace

Result<StatementResult> ExecComputeStats(const ExecContext& ctx, const sql::ComputeStatsStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
  const std::string full = FullName(*t);
  if (t->is_view) return AnalysisError("COMPUTE STATS not supported for view: " + full);
  const impala::THdfsFileFormat::type format = TableFileFormat(*t);
  if (format != impala::THdfsFileFormat::TEXT) {
    return AnalysisError("COMPUTE STATS on " + full + " is not supported: its file format is " +
                         FileFormatSqlName(format) +
                         "; the simulated coordinator scans only TEXTFILE tables");
  }
  for (const std::string& c : s.columns) {
    if (IsPartitionColumn(*t, c)) {
      return AnalysisError("COMPUTE STATS not supported for partitioning column " + c +
                           " of table " + full);
    }
    if (FindColumn(*t, c) == nullptr) return ColumnNotFound(c, *t);
  }
  const char delim = FieldDelimiter(*t);
  std::vector<ScanColumn> cols;
  for (const impala::TColumn& c : t->columns) cols.push_back({c.columnName, c.columnType});

  // Which partitions to scan, and the stored stats of the others.
  std::vector<int64_t> scan_ids;
  std::vector<impala::TPartitionStats> reused;
  int64_t reused_rows = 0;
  std::vector<PartitionPtr> to_scan;
  if (!t->partition_names.empty()) {
    if (!s.incremental) {
      ICS_ASSIGN_OR_RETURN(to_scan, ctx.catalog()->GetPartitions(*t, {}, true, false));
    } else {
      std::set<int64_t> wanted;
      if (s.partition) {
        ICS_ASSIGN_OR_RETURN(std::vector<impala::TPartitionKeyValue> spec,
                             ToPartitionKeyValues(*t, *s.partition, /*require_full=*/false));
        const std::vector<int64_t> ids = MatchingPartitionIds(*t, spec);
        if (ids.empty()) return AnalysisError("No matching partition(s) found: " + SpecToString(spec));
        wanted.insert(ids.begin(), ids.end());
      }
      ICS_ASSIGN_OR_RETURN(std::vector<PartitionPtr> all,
                           ctx.catalog()->GetPartitions(*t, {}, false, true));
      for (const PartitionPtr& p : all) {
        bool scan = s.partition ? wanted.count(p->id) > 0 : true;
        if (!scan || !s.partition) {
          // Reuse stored incremental stats where they can be read.
          if (p->has_incremental_stats && !p->partition_stats.empty()) {
            Result<impala::TPartitionStats> stored = DecodePartitionStats(p->partition_stats);
            if (stored.ok()) {
              reused_rows += stored->stats.num_rows;
              reused.push_back(std::move(stored).value());
              scan = false;
            }
          }
        }
        if (scan) scan_ids.push_back(p->id);
      }
      if (!scan_ids.empty()) {
        ICS_ASSIGN_OR_RETURN(to_scan, ctx.catalog()->GetPartitions(*t, scan_ids, true, false));
      }
    }
  }

  // Scan.
  std::vector<Scanned> scanned;
  for (const PartitionPtr& p : to_scan) {
    ICS_ASSIGN_OR_RETURN(std::vector<DataFile> files, FilesOf(*p));
    std::vector<std::string> paths;
    for (const DataFile& f : files) paths.push_back(f.path);
    Result<impala::TPartitionStats> st = ComputePartitionScan(paths, cols, delim);
    if (!st.ok()) {
      return st.status().WithContext("COMPUTE STATS " + full + " partition '" + p->name + "'");
    }
    scanned.push_back({p, std::move(st).value()});
  }

  // Merge and build the request.
  std::vector<impala::TPartitionStats> all_stats = reused;
  int64_t num_rows = reused_rows;
  for (const Scanned& sc : scanned) {
    all_stats.push_back(sc.stats);
    num_rows += sc.stats.stats.num_rows;
  }
  std::map<std::string, impala::TColumnStats> col_stats = MergeColumnStats(all_stats, cols);
  if (!s.columns.empty()) {
    const std::set<std::string> keep(s.columns.begin(), s.columns.end());
    for (auto it = col_stats.begin(); it != col_stats.end();) {
      it = keep.count(it->first) > 0 ? std::next(it) : col_stats.erase(it);
    }
  }
  auto req = AlterTableRequest(*t, impala::TAlterTableType::UPDATE_STATS);
  impala::TAlterTableUpdateStatsParams p;
  p.table_name.db_name = t->db;
  p.table_name.table_name = t->name;
  impala::TTableStats table_stats;
  table_stats.num_rows = num_rows;
  p.__set_table_stats(table_stats);
  std::map<std::vector<std::string>, impala::TPartitionStats> part_stats;
  const bool partitioned = !t->clustering_columns.empty();
  for (const Scanned& sc : scanned) {
    if (!partitioned && !s.incremental) continue;
    impala::TPartitionStats ps = sc.stats;
    if (!s.incremental) {
      ps.intermediate_col_stats.clear();
      ps.__isset.intermediate_col_stats = false;
    }
    part_stats[partitioned ? sc.partition->values : std::vector<std::string>{}] = std::move(ps);
  }
  if (!part_stats.empty()) p.__set_partition_stats(std::move(part_stats));
  p.__set_column_stats(std::move(col_stats));
  p.__set_expect_all_partitions(!s.incremental);
  p.__set_is_incremental(s.incremental);
  req.alter_table_params.__set_update_stats_params(p);
  return RunDdl(ctx, std::move(req));
}

}  // namespace ics::coord::exec
