// The catalog writer: table locks, next states, installation (see
// catalog_writer.h).
#include "catalogd/core/catalog_writer.h"

#include <glog/logging.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "catalogd/loader/partition_stats_params.h"
#include "common/hive/table_params.h"
#include "common/hive/table_type.h"

namespace ics::catalog {

ScopedLocks::ScopedLocks(Catalog* catalog, std::vector<std::pair<std::string, std::string>> keys)
    NO_THREAD_SAFETY_ANALYSIS {
  // Database locks (table "") first, then table locks; each by name.
  std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) {
    const bool ta = !a.second.empty();
    const bool tb = !b.second.empty();
    return std::tie(ta, a.first, a.second) < std::tie(tb, b.first, b.second);
  });
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  held_.reserve(keys.size());
  for (const auto& [db, table] : keys) {
    Mutex* m = catalog->TableLock(db, table);
    m->Lock();
    held_.push_back(m);
  }
}

ScopedLocks::~ScopedLocks() NO_THREAD_SAFETY_ANALYSIS {
  for (auto it = held_.rbegin(); it != held_.rend(); ++it) (*it)->Unlock();
}

std::shared_ptr<TableState> CopyTable(const TableState& old) {
  auto t = std::make_shared<TableState>(old);
  t->version = 0;
  return t;
}

Result<std::shared_ptr<TableState>> DeriveTable(CatalogContext* ctx, const TableState& old,
                                                const hive::Table& hms) {
  auto t = std::make_shared<TableState>(old);
  t->version = 0;
  t->db = hms.dbName;
  t->name = hms.tableName;
  t->hms = hms;
  RemoveStatsParams(&t->hms.parameters);
  ICS_RETURN_IF_ERROR(BuildColumns(t->hms, &t->clustering_columns, &t->columns));
  t->table_type = IsView(hms) ? impala::TTableType::VIEW : impala::TTableType::HDFS_TABLE;
  t->table_stats.num_rows = NumRowsOf(hms.parameters);
  std::set<std::string> names;
  for (const auto& c : t->clustering_columns) names.insert(c.columnName);
  for (const auto& c : t->columns) names.insert(c.columnName);
  for (auto it = t->column_stats.begin(); it != t->column_stats.end();) {
    it = names.count(it->first) ? std::next(it) : t->column_stats.erase(it);
  }
  if (!t->is_view() && !t->is_partitioned()) {
    int64_t prev_id = -1;
    if (!t->partitions.empty()) prev_id = t->partitions.begin()->first;
    t->partitions.clear();
    ICS_ASSIGN_OR_RETURN(MutablePartitionPtr p,
                         ctx->loader->LoadPartition(*t, SynthesizePartition(hms), prev_id));
    const int64_t id = p->id;
    t->partitions.emplace(id, std::move(p));
  }
  return t;
}

Status ReplacePartition(CatalogContext* ctx, TableState* t, const PartitionState& old,
                        const hive::Partition& hms) {
  const int64_t old_id = old.id;  // `old` may die with its map entry
  ICS_ASSIGN_OR_RETURN(MutablePartitionPtr p,
                       ctx->loader->LoadPartition(*t, hms, old_id));
  t->partitions.erase(old_id);
  const int64_t id = p->id;
  t->partitions.emplace(id, std::move(p));
  return Status::OK();
}

std::shared_ptr<TableState> LoadOrUnloaded(CatalogContext* ctx, const std::string& db,
                                           const std::string& table, const hive::Table& hms) {
  const TablePtr previous = ctx->catalog->GetTable(db, table);
  Result<std::shared_ptr<TableState>> loaded = ctx->loader->Load(db, table, previous.get());
  if (loaded.ok()) return std::move(loaded).value();
  LOG(WARNING) << "loading " << db + "." + table
               << " after DDL failed: " << loaded.status().ToString();
  auto state = MakeUnloadedTable(db, table);
  state->hms = hms;
  RemoveStatsParams(&state->hms.parameters);
  state->load_status = loaded.status().WithContext("loading " + db + "." + table);
  return state;
}

int64_t InstallTableState(CatalogContext* ctx, const std::shared_ptr<TableState>& t) {
  // Derived from the current state (the caller holds the table lock), so
  // only the partitions that differ from it are visited.
  const TablePtr current = ctx->catalog->GetTable(t->db, t->name);
  if (t->loaded) ctx->loader->FinishTableState(t.get(), current.get());
  ChangeSet cs;
  cs.put_tables.push_back(t);
  return ctx->catalog->Install(std::move(cs));
}

}  // namespace ics::catalog
