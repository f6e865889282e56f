// HmsWriter: one method per ThriftHiveMetastore write call the remote
// metastore backend makes, each run through HmsCaller::Write (retried only
// when the request provably never reached the server; a lost reply is an
// IO_ERROR "outcome unknown"). Data is never deleted by the server on our
// behalf: every drop passes deleteData=false (catalogd manages the
// warehouse files itself). Private to the remote backend.
//
// Thread-safety: thread-safe (stateless apart from the shared caller).
#pragma once

#include <string>
#include <vector>

#include "catalogd/metastore/hms_remote_call.h"

namespace ics::catalog {

// The engine catalogd names in Hive 4 statistics calls (ColumnStatistics.engine,
// the engine of TableStatsRequest / PartitionsStatsRequest, the engine argument
// of delete_*_column_statistics): "impala", the value Impala sends, so that a
// Hive 4 metastore files them as Impala's statistics. Hive 2 servers skip it.
inline constexpr char kHmsStatsEngine[] = "impala";

class HmsWriter {
 public:
  explicit HmsWriter(const HmsCaller* caller) : caller_(caller) {}

  [[nodiscard]] Status CreateDatabase(const hive::Database& db) const;
  [[nodiscard]] Status AlterDatabase(const std::string& name, const hive::Database& db) const;
  [[nodiscard]] Status DropDatabase(const std::string& name) const;

  [[nodiscard]] Status CreateTable(const hive::Table& table) const;
  [[nodiscard]] Status AlterTable(const std::string& db, const std::string& name,
                                  const hive::Table& table) const;
  [[nodiscard]] Status DropTable(const std::string& db, const std::string& name) const;

  [[nodiscard]] Status AddPartition(const hive::Partition& part) const;
  [[nodiscard]] Status AlterPartition(const hive::Partition& part) const;
  [[nodiscard]] Status DropPartitionByName(const std::string& db, const std::string& table,
                                           const std::string& name) const;
  [[nodiscard]] Status DropPartitionByValues(const std::string& db, const std::string& table,
                                             const std::vector<std::string>& values) const;

  [[nodiscard]] Status CreateFunction(const hive::Function& fn) const;
  [[nodiscard]] Status DropFunction(const std::string& db, const std::string& name) const;

  // Table-level stats when stats.statsDesc.isTblLevel, else partition-level;
  // the engine is set to kHmsStatsEngine when the caller left it unset.
  [[nodiscard]] Status UpdateColumnStats(const hive::ColumnStatistics& stats) const;
  // partition "" = table level.
  [[nodiscard]] Status DeleteColumnStats(const std::string& db, const std::string& table,
                                         const std::string& partition,
                                         const std::string& column) const;

 private:
  const HmsCaller* const caller_;
};

}  // namespace ics::catalog
