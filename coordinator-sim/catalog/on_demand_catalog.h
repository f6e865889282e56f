// OnDemandCatalog: the "2:" (on-demand) mode of LocalCatalog. Private to
// this directory; users go through MakeOnDemandCatalog (local_catalog.h).
//
// Cache entries (ByteLruCache keys):
//   "dbs"                  database names
//   "db:<db>"              hive::Database (version = object_version_number)
//   "tables:<db>"          table names of a database
//   "fns:<db>"             functions of a database
//   "t:<db>.<tbl>"         LocalTable (version = the table's catalog version)
//   "p:<db>.<tbl>:<id>"    LocalPartition (+ whether files/stats were fetched)
// Partition ids are never reused by a catalogd process and a changed
// partition gets a new id, so a cached partition stays valid for its id
// until the service id changes; tables are re-validated through their
// version when their partitions are fetched.
//
// Invalidation (topic "2:" entries and this coordinator's DDL results):
//   DATABASE        the db entry and the database list (deleted: also its
//                   table list, functions, tables and partitions);
//   TABLE/VIEW      the table, unless the cached copy is at least as new;
//                   the db's table list when the table is new or deleted
//                   (deleted: also its partitions);
//   HDFS_PARTITION  the partition with id == prev_id, and the table;
//   FUNCTION        the db's functions;
//   CATALOG         a changed service id or last_reset_catalog_version
//                   clears the whole cache.
// A fetch that overlaps an invalidation still answers its caller but is not
// cached (a generation counter, bumped by every invalidation, detects it).
//
// Fetch errors: DB/TABLE_NOT_FOUND invalidate and return NOT_FOUND;
// TABLE_NOT_LOADED, PARTITION_NOT_FOUND, a table version mismatch while
// fetching partitions, CATALOG_SERVICE_CHANGED, a response from another
// catalog service id, and connection failures are retried up to
// max_retries times with doubling backoff; an error status from catalogd
// (e.g. a table that fails to load) is returned as is.
//
// Thread-safety: thread-safe. mu_ is terminal: no RPC is made and no sleep
// happens while holding it; the client pool's lock is never taken under it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/util/mutex.h"
#include "coordinator-sim/catalog/catalogd_client.h"
#include "coordinator-sim/catalog/local_catalog.h"
#include "coordinator-sim/catalog/lru_cache.h"

namespace ics::coord {

class OnDemandCatalog final : public LocalCatalog {
 public:
  explicit OnDemandCatalog(OnDemandOptions options);

  TopicProgress OnTopicUpdate(const impala::TTopicDelta& delta,
                              std::vector<impala::TTopicDelta>* publications) override
      EXCLUDES(mu_);
  std::string topic_prefix() const override { return kInvalidationPrefix; }
  void ApplyUpdateResult(const impala::TCatalogUpdateResult& result) override EXCLUDES(mu_);

  Result<std::vector<std::string>> DatabaseNames() override EXCLUDES(mu_);
  Result<hive::Database> GetDatabase(const std::string& db) override EXCLUDES(mu_);
  Result<std::vector<std::string>> TableNames(const std::string& db) override EXCLUDES(mu_);
  Result<std::shared_ptr<const LocalTable>> GetTable(const std::string& db,
                                                     const std::string& table) override
      EXCLUDES(mu_);
  Result<std::vector<std::shared_ptr<const LocalPartition>>> GetPartitions(
      const LocalTable& table, const std::vector<int64_t>& ids, bool want_files,
      bool want_stats) override EXCLUDES(mu_);
  Result<std::vector<impala::TFunction>> Functions(const std::string& db) override EXCLUDES(mu_);

  int64_t catalog_version() const override EXCLUDES(mu_);
  std::optional<impala::TUniqueId> service_id() const override EXCLUDES(mu_);
  [[nodiscard]] Status WaitForCatalogVersion(int64_t v, int timeout_ms) override EXCLUDES(mu_);
  LocalCatalogStats Stats() const override EXCLUDES(mu_);
  LocalCatalogContents Contents() const override EXCLUDES(mu_);

 private:
  using Clock = ByteLruCache::Clock;
  using Response = impala::TGetPartialCatalogObjectResponse;
  using Request = impala::TGetPartialCatalogObjectRequest;

  // ---- cache and invalidation (on_demand_catalog.cc) ----
  Clock::time_point Now() const;
  // Returns a copy of the cached T under key, counting a hit or a miss.
  template <typename T>
  std::optional<T> Lookup(const std::string& key) EXCLUDES(mu_);
  // The current invalidation generation (taken at the start of each fetch
  // attempt; a retry may itself have cleared the cache).
  int64_t Generation() const EXCLUDES(mu_);
  // Caches `value` unless an invalidation that could touch `key` happened
  // since generation `gen`: for a table's or a partition's key, one of that
  // table newer than `version` (the table version the value was fetched
  // at: an invalidation at or below it is already in the value), or one of
  // everything; for any other key, any invalidation.
  void Store(const std::string& key, CacheValue value, int64_t bytes, int64_t version, int64_t gen)
      EXCLUDES(mu_);
  // Counts an invalidation of table `table` ("db.tbl": its object, list of
  // partitions and partitions; a drop too) at catalog version `version`:
  // what a fetch in flight returns at a lower version is not cached.
  void BumpGenerationLocked(const std::string& table, int64_t version) REQUIRES(mu_);
  // Counts an invalidation of anything, which no fetch in flight survives.
  void BumpAllGenerationsLocked() REQUIRES(mu_);
  void InvalidateObjectLocked(const impala::TCatalogObject& obj, bool deleted) REQUIRES(mu_);
  // For each TABLE in `result` with base_catalog_version equal to the cached
  // table's version: caches the table at the result's version with the
  // partitions the result lists as added and removed (no refetch of the
  // whole partition list). Other tables are left to the invalidations.
  void PatchPartitionListsLocked(const impala::TCatalogUpdateResult& result) REQUIRES(mu_);
  void InvalidateTableLocked(const std::string& db, const std::string& tbl, int64_t version,
                             bool deleted) REQUIRES(mu_);
  // Keeps `table` (cached at `version`), which an invalidation evicts, for
  // a DDL result based on that version (see superseded_); the oldest kept
  // one goes when kMaxSuperseded are.
  void KeepSupersededLocked(const std::string& key, int64_t version,
                            std::shared_ptr<const LocalTable> table) REQUIRES(mu_);
  // The table InvalidateTableLocked evicted, if a DDL result based on its
  // version may still come (see superseded_); takes it out.
  std::shared_ptr<const LocalTable> TakeSupersededLocked(const std::string& key,
                                                         int64_t base_version) REQUIRES(mu_);
  // Drops the kept tables older than kSupersededFor.
  void PruneSupersededLocked(Clock::time_point now) REQUIRES(mu_);
  void InvalidateDbLocked(const std::string& db, int64_t version, bool deleted) REQUIRES(mu_);
  void EraseLocked(const std::string& key) REQUIRES(mu_);
  void ClearCacheLocked(const char* why) REQUIRES(mu_);
  // Adopts `id` as the service id; a different known id clears the cache.
  // Returns true if the id changed.
  bool ObserveServiceIdLocked(const impala::TUniqueId& id) REQUIRES(mu_);

  // ---- fetching (on_demand_fetch.cc) ----
  // Runs attempt(&retry) up to 1 + max_retries times, sleeping with backoff
  // between attempts, while the attempt sets `retry` to a non-OK reason.
  template <typename T, typename Fn>
  Result<T> Retrying(const std::string& what, Fn&& attempt) EXCLUDES(mu_);
  // One GetPartialCatalogObject with the checks every answer needs: a
  // transport failure, a changed service id or CATALOG_SERVICE_CHANGED set
  // *retry; an error status is returned as the error. `partition_names`:
  // as CatalogdClient::GetPartialCatalogObject.
  Result<Response> Call(const Request& req, Status* retry,
                        PartitionNames* partition_names = nullptr) EXCLUDES(mu_);
  // Fetches a table; *gen = the generation at the start of the attempt
  // that succeeded.
  Result<std::shared_ptr<const LocalTable>> FetchTable(const std::string& db,
                                                       const std::string& tbl, int64_t* gen)
      EXCLUDES(mu_);
  // Fetches `ids` of `table` into *out, continuing after capped responses.
  [[nodiscard]] Status FetchPartitions(
      const LocalTable& table, std::vector<int64_t> ids, bool files, bool stats,
      std::map<int64_t, std::shared_ptr<const LocalPartition>>* out) EXCLUDES(mu_);
  // NOT_FOUND for a missing db/table, after invalidating what named it.
  Status NotFoundAfterInvalidate(const std::string& db, const std::string& tbl,
                                 impala::CatalogLookupStatus::type lookup) EXCLUDES(mu_);

  // Constant after construction.
  const OnDemandOptions opts_;
  const std::shared_ptr<CatalogdClient> catalogd_;

  mutable Mutex mu_;  // terminal
  CondVar version_cv_;
  ByteLruCache cache_ GUARDED_BY(mu_);
  // Invalidation generations. generation_ counts every invalidation;
  // all_invalidated_ is the last one that could touch any key, and
  // table_invalidated_ the last of each table ("db.tbl") since then with
  // the highest catalog version any of them carried, so a long fetch of
  // one table is not thrown away for changes to others, nor for the
  // invalidations of the very version it fetched (after a REFRESH, one per
  // partition may still be arriving while the table is fetched). At most
  // kMaxTrackedTables entries: past that they fold into all_invalidated_
  // (fetches in flight are then refused, as before).
  struct TableInvalidation {
    int64_t generation = 0;
    int64_t max_version = 0;
  };
  static constexpr size_t kMaxTrackedTables = 4096;
  // Tables a newer version's invalidation evicted, kept for a short while:
  // this coordinator's own DDL result is often based on that version and
  // may arrive after the topic's news of it (a publisher pushes before the
  // DDL answers); the result then patches the kept table instead of the
  // next statement fetching every partition again. At most
  // kMaxSuperseded, each used for at most kSupersededFor and dropped at the
  // next topic update after that; the cache's byte budget does not count
  // them.
  struct Superseded {
    int64_t version = 0;
    std::shared_ptr<const LocalTable> table;
    Clock::time_point since;
    int64_t all_invalidated = 0;  // all_invalidated_ when it was kept
  };
  static constexpr size_t kMaxSuperseded = 8;
  static constexpr std::chrono::milliseconds kSupersededFor{2000};
  std::map<std::string, Superseded> superseded_ GUARDED_BY(mu_);
  int64_t generation_ GUARDED_BY(mu_) = 0;
  int64_t all_invalidated_ GUARDED_BY(mu_) = 0;
  std::unordered_map<std::string, TableInvalidation> table_invalidated_ GUARDED_BY(mu_);
  std::optional<impala::TUniqueId> service_id_ GUARDED_BY(mu_);
  std::optional<int64_t> last_reset_version_ GUARDED_BY(mu_);
  int64_t catalog_version_ GUARDED_BY(mu_) = 0;
  int64_t service_changes_ GUARDED_BY(mu_) = 0;
  int64_t hits_ GUARDED_BY(mu_) = 0;
  int64_t misses_ GUARDED_BY(mu_) = 0;
  int64_t invalidations_ GUARDED_BY(mu_) = 0;
  int64_t fetches_ GUARDED_BY(mu_) = 0;
  int64_t patched_tables_ GUARDED_BY(mu_) = 0;
};

// Cache keys.
std::string DbListKey();
std::string DbKey(const std::string& db);
std::string TableListKey(const std::string& db);
std::string FunctionsKey(const std::string& db);
// "db.tbl": what the keys of one table and of its partitions share.
std::string TableScope(const std::string& db, const std::string& tbl);
std::string TableKey(const std::string& db, const std::string& tbl);
std::string PartitionKey(const std::string& db, const std::string& tbl, int64_t id);
std::string PartitionPrefix(const std::string& db, const std::string& tbl);

}  // namespace ics::coord
