// PartitionLister: ListPartitions — the partitions of one table that match
// a filter (partition_predicate.h), one page at a time, ordered by
// partition name ("k1=v1/k2=v2").
//
// It reads the table's current immutable snapshot (loading the table
// first if needed), never blocks DDL, and uses an ACTIVE partition index
// when the filter pins the index's leading keys; every candidate is still
// checked against the whole filter, so an index changes only the speed.
// The page token is the (base64) name of the last partition returned, so a
// listing stays consistent across pages even when partitions change.
//
// Thread-safety: thread-safe (stateless besides its collaborators).
#pragma once

#include <string>
#include <vector>

#include "catalogd/catalog/table_state.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ops/partition_index_manager.h"
#include "common/util/result.h"

namespace ics::catalog::ops {

inline constexpr int kDefaultPageSize = 1000;
inline constexpr int kMaxPageSize = 10000;

struct ListQuery {
  std::string db;
  std::string table;
  std::string filter;
  int page_size = 0;  // 0: kDefaultPageSize
  std::string page_token;
};

struct ListPage {
  std::vector<PartitionPtr> partitions;
  std::string next_page_token;  // empty: no more
  std::string index_used;       // empty: a full scan
  TablePtr table;               // the snapshot listed
};

class PartitionLister {
 public:
  PartitionLister(CatalogContext* ctx, PartitionIndexManager* indexes)
      : ctx_(ctx), indexes_(indexes) {}

  Result<ListPage> List(const ListQuery& q) const;

  // The loaded, partitioned table (NOT_FOUND / INVALID_ARGUMENT otherwise).
  Result<TablePtr> PartitionedTable(const std::string& db, const std::string& table) const;

 private:
  CatalogContext* const ctx_;
  PartitionIndexManager* const indexes_;
};

// The key descriptions of a table's partition keys.
Result<std::vector<PartitionKeyInfo>> PartitionKeysOf(const TableState& t);

}  // namespace ics::catalog::ops
