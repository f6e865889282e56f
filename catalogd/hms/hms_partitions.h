// HmsPartitions: a table's partitions through the Hive Metastore API —
// adds, appends, drops, alters and renames as partition batches of the
// command core (values kept as the client gave them), and listings by
// name, by a prefix of values or by a filter (hms_filter.h).
//
// Thread-safety: thread-safe (the core it uses is).
#pragma once

#include <string>
#include <vector>

#include "catalogd/hms/hms_part.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

class HmsPartitions : public HmsPart {
 public:
  using HmsPart::HmsPart;

  // ---- writes ----
  // Adds partitions of one table in one transaction (each partition's
  // dbName/tableName must be empty or name db.table). With if_not_exists,
  // partitions that already exist are skipped. Returns the added partitions.
  Result<std::vector<hive::Partition>> AddPartitions(const std::string& db,
                                                     const std::string& table,
                                                     std::vector<hive::Partition> parts,
                                                     bool if_not_exists);
  // add_partition(s): the db/table come from the partitions themselves.
  Result<std::vector<hive::Partition>> AddPartitionObjects(std::vector<hive::Partition> parts);
  Result<hive::Partition> AppendPartition(const std::string& db, const std::string& table,
                                          const std::vector<std::string>& values);
  Result<hive::Partition> AppendPartitionByName(const std::string& db, const std::string& table,
                                                const std::string& name);
  // Drops partitions by name in one transaction; with if_exists, absent
  // names are skipped. Returns the dropped partitions.
  Result<std::vector<hive::Partition>> DropPartitions(const std::string& db,
                                                      const std::string& table,
                                                      const std::vector<std::string>& names,
                                                      bool if_exists, bool delete_data);
  // The partition name of `values` for db.table.
  Result<std::string> PartitionNameOf(const std::string& db, const std::string& table,
                                      const std::vector<std::string>& values);
  // Replaces partitions (identified by their values) in one transaction.
  [[nodiscard]] Status AlterPartitions(const std::string& db, const std::string& table,
                                       std::vector<hive::Partition> parts);
  // Renames the partition with `old_values` to new_part.values; its column
  // statistics move with it.
  [[nodiscard]] Status RenamePartition(const std::string& db, const std::string& table,
                                       const std::vector<std::string>& old_values,
                                       hive::Partition new_part);

  // ---- reads ----
  Result<hive::Partition> GetPartitionByName(const std::string& db, const std::string& table,
                                             const std::string& name);
  // Partitions ordered by name; max_parts < 0 means all (bounded, see above).
  // `values` (get_partitions_ps): a prefix of the key values, "" = any value.
  // `filter` (get_partitions_by_filter): see hms_filter.h.
  struct PartitionQuery {
    int max_parts = -1;
    bool by_values = false;
    std::vector<std::string> values;
    bool by_filter = false;
    std::string filter;
  };
  Result<std::vector<hive::Partition>> ListPartitions(const std::string& db,
                                                      const std::string& table,
                                                      const PartitionQuery& query);
  Result<std::vector<std::string>> ListPartitionNames(const std::string& db,
                                                      const std::string& table,
                                                      const PartitionQuery& query);
  Result<std::vector<hive::Partition>> GetPartitionsByNames(const std::string& db,
                                                            const std::string& table,
                                                            const std::vector<std::string>& names);
};

}  // namespace ics::catalog::hms
