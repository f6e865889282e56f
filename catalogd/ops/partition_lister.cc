#include "catalogd/ops/partition_lister.h"

#include <algorithm>

#include "common/hive/names.h"
#include "common/util/base64.h"

namespace ics::catalog::ops {

Result<std::vector<PartitionKeyInfo>> PartitionKeysOf(const TableState& t) {
  std::vector<PartitionKeyInfo> keys;
  for (const impala::TColumn& c : t.clustering_columns) {
    Result<KeyKind> kind = KeyKindOf(c.columnType);
    if (!kind.ok()) return kind.status().WithContext("partition key '" + c.columnName + "'");
    keys.push_back(PartitionKeyInfo{c.columnName, *kind});
  }
  return keys;
}

Result<TablePtr> PartitionLister::PartitionedTable(const std::string& db_name,
                                                   const std::string& table_name) const {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDatabaseName(db_name));
  ICS_ASSIGN_OR_RETURN(std::string table, NormalizeTableName(table_name));
  if (ctx_->catalog->GetDatabase(db) == nullptr) {
    return Status::NotFound("Database does not exist: " + db);
  }
  if (ctx_->catalog->GetTable(db, table) == nullptr) {
    return Status::NotFound("Table does not exist: " + db + "." + table);
  }
  ICS_ASSIGN_OR_RETURN(TablePtr t, ctx_->loads->GetLoaded(db, table));
  if (t->is_view()) {
    return Status::InvalidArgument("Partition operations are not allowed on a view: " + db + "." +
                                   table);
  }
  if (!t->is_partitioned()) {
    return Status::InvalidArgument("Table is not partitioned: " + db + "." + table);
  }
  return t;
}

Result<ListPage> PartitionLister::List(const ListQuery& q) const {
  if (q.page_size < 0 || q.page_size > kMaxPageSize) {
    return Status::InvalidArgument("page_size must be in 1.." + std::to_string(kMaxPageSize) +
                                   " (0 or unset: " + std::to_string(kDefaultPageSize) + ")");
  }
  const size_t page_size = q.page_size == 0 ? kDefaultPageSize : static_cast<size_t>(q.page_size);
  std::string after;
  if (!q.page_token.empty()) {
    Result<std::string> decoded = Base64Decode(q.page_token);
    if (!decoded.ok() || decoded->rfind("p:", 0) != 0) {
      return Status::InvalidArgument("malformed page_token");
    }
    after = decoded->substr(2);
  }
  ICS_ASSIGN_OR_RETURN(TablePtr t, PartitionedTable(q.db, q.table));
  ICS_ASSIGN_OR_RETURN(std::vector<PartitionKeyInfo> keys, PartitionKeysOf(*t));
  ICS_ASSIGN_OR_RETURN(PartitionPredicate pred, PartitionPredicate::Compile(q.filter, keys));

  ListPage page;
  page.table = t;
  indexes_->SyncTable(t);
  std::vector<const PartitionState*> candidates;
  if (!pred.matches_all()) {
    if (auto found = indexes_->Find(t, pred.Constraints())) {
      page.index_used = found->index_name;
      candidates.reserve(found->ids.size());
      for (int64_t id : found->ids) {
        auto it = t->partitions.find(id);
        if (it != t->partitions.end()) candidates.push_back(it->second.get());
      }
    }
  }
  const bool scan = page.index_used.empty();
  if (scan) {
    candidates.reserve(t->partitions.size());
    for (const auto& [id, p] : t->partitions) candidates.push_back(p.get());
  }
  std::vector<const PartitionState*> matches;
  for (const PartitionState* p : candidates) {
    if (!after.empty() && p->name() <= after) continue;
    if (!pred.matches_all()) {
      Result<std::vector<HiveValue>> values =
          TypedValues(keys, p->values(), pred.referenced_keys());
      if (!values.ok() || !pred.Matches(*values)) continue;  // unparsable: matches nothing
    }
    matches.push_back(p);
  }
  auto by_name = [](const PartitionState* a, const PartitionState* b) {
    return a->name() < b->name();
  };
  const bool more = matches.size() > page_size;
  const size_t take = std::min(matches.size(), page_size);
  std::partial_sort(matches.begin(), matches.begin() + static_cast<std::ptrdiff_t>(take),
                    matches.end(), by_name);
  for (size_t i = 0; i < take; ++i) {
    page.partitions.push_back(t->partitions.at(matches[i]->id));
  }
  if (more) page.next_page_token = Base64Encode("p:" + std::string(matches[take - 1]->name()));
  return page;
}

}  // namespace ics::catalog::ops
