// HmsStatistics: column statistics of tables and partitions through the
// Hive Metastore API — updates and deletes as planned table changes of the
// command core (each column through its one rule, CheckColumnStats), reads
// as its queries, and their aggregation over partitions (see the .cc for
// the rules).
//
// Thread-safety: thread-safe (the core it uses is).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "catalogd/hms/hms_part.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

class HmsStatistics : public HmsPart {
 public:
  using HmsPart::HmsPart;

  // Upserts the given columns' statistics of a table (desc.isTblLevel) or a
  // partition (desc.partName), as a change of the command core. INVALID_ARGUMENT for a column the
  // table does not have or a level/partName mismatch.
  [[nodiscard]] Status UpdateColumnStatistics(const hive::ColumnStatistics& stats,
                                              bool partition_level);
  // Which levels a SetStatistics request may carry.
  enum class StatsLevel { kAny, kTable, kPartition };
  // set_aggr_stats_for / update_*_column_statistics_req: every statistics
  // object of the request (each checked as UpdateColumnStatistics does, its
  // level from its own desc) as one change of the command core per table
  // (ONE transaction for a request about one table, the usual case). needMerge=true (merge with
  // the stored statistics) is INVALID_ARGUMENT: statistics are replaced,
  // never merged. The engine is accepted whatever it is (or absent, as from
  // Hive 2 clients); statistics are kept once, not per engine.
  [[nodiscard]] Status SetStatistics(const hive::SetPartitionsStatsRequest& request,
                                     StatsLevel level);
  // The statistics of the named columns that have any (others are skipped).
  Result<std::vector<hive::ColumnStatisticsObj>> GetTableColumnStats(
      const std::string& db, const std::string& table, const std::vector<std::string>& columns);
  // Per partition name, the statistics of the named columns; partitions
  // (or columns) without statistics are left out.
  Result<std::map<std::string, std::vector<hive::ColumnStatisticsObj>>> GetPartitionsColumnStats(
      const std::string& db, const std::string& table, const std::vector<std::string>& columns,
      const std::vector<std::string>& partition_names);
  // Statistics merged over the named partitions (see the .cc for the rules).
  Result<hive::AggrStats> GetAggrStats(const std::string& db, const std::string& table,
                                       const std::vector<std::string>& columns,
                                       const std::vector<std::string>& partition_names);
  // Deletes one column's statistics (column "" = every column) at table
  // level (partition_name "") or of one partition. NOT_FOUND if none exist.
  [[nodiscard]] Status DeleteColumnStats(const std::string& db, const std::string& table,
                                         const std::string& partition_name,
                                         const std::string& column);

 private:
  struct TableStatsEdit;  // hms_part_internal.h
  struct TableStatsDrop;
  // The validated statistics edit of one ColumnStatistics.
  Result<TableStatsEdit> StatsEdit(const hive::ColumnStatistics& stats, bool partition_level);
  // Commits statistics edits through the command core: one planned change
  // per table, in table order, recorded as ALTER_TABLE "<db.t> (<what>)".
  [[nodiscard]] Status CommitStats(const std::string& what, std::vector<TableStatsEdit> set,
                                   std::vector<TableStatsDrop> drops);
};

}  // namespace ics::catalog::hms
