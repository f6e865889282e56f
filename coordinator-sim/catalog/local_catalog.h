// LocalCatalog: a coordinator's view of the catalog, in one of two modes.
//
//  * Full replica (FullReplicaCatalog): subscribes to "1:" topic entries and
//    keeps a complete copy: databases, tables (partition ids + names from
//    the TABLE entry, full partitions from HDFS_PARTITION entries), functions.
//    An object is applied only if newer than the local copy; objects dropped
//    by this coordinator's own DDL are remembered (with their version) so a
//    stale topic entry cannot revive them; a changed catalog_service_id
//    clears everything and asks the statestore for a full topic
//    (from_version 0 in the publication).
//  * On demand (OnDemandCatalog, the default as in the peer): subscribes to
//    "2:" invalidations, which drop cached entries (tables, table lists,
//    partitions by prev_id, functions, database lists); misses are fetched
//    with GetPartialCatalogObject and precise selectors. The cache has a
//    byte limit with LRU eviction and an expiry. Lookup-status errors and
//    version mismatches invalidate and retry (bounded, with backoff). A
//    changed service id or last_reset_catalog_version clears the cache.
//
// File descriptors stay FlatBuffer bytes and partition stats stay
// deflate-compressed until a statement needs them.
//
// Thread-safety: implementations are thread-safe; the topic callback runs on
// the subscriber's RPC thread while statements run on others.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "CatalogService_types.h"
#include "StatestoreService_types.h"
#include "common/codec/catalog_topic.h"
#include "common/hive/partition_name.h"
#include "common/rpc/tls.h"
#include "common/util/result.h"
#include "coordinator-sim/catalog/partition_list.h"

namespace ics::coord {

// One partition as a statement sees it.
struct LocalPartition {
  int64_t id = 0;
  std::string name;                 // "k1=v1/k2=v2"; "" for unpartitioned tables
  std::vector<std::string> values;  // in partition-key order; kDefaultPartitionName for NULL
  std::string location;
  std::vector<std::string> file_descs;  // FbFileDesc buffers (when fetched)
  bool files_loaded = false;
  int64_t num_rows = -1;
  int64_t total_file_bytes = 0;
  std::string partition_stats;  // deflate-compressed TPartitionStats, if any
  bool has_incremental_stats = false;
  std::map<std::string, std::string> hms_parameters;
};

// A table's metadata (partitions are fetched separately in on-demand mode).
struct LocalTable {
  std::string db;
  std::string name;
  int64_t version = 0;  // catalog version of the table
  // False when only the names are known (full-replica mode: catalogd has not
  // loaded the table yet, or this coordinator's DDL result was minimal).
  bool loaded = true;
  hive::Table hms;
  bool is_view = false;
  std::vector<impala::TColumn> clustering_columns;
  std::vector<impala::TColumn> columns;
  // Partition id -> name for every partition (full list), indexed by value.
  PartitionList partition_names;
  std::map<std::string, hive::ColumnStatisticsObj> column_stats;
  int64_t num_rows = -1;
};

struct LocalCatalogStats {
  int64_t hits = 0;
  int64_t misses = 0;
  int64_t evictions = 0;
  int64_t invalidations = 0;
  int64_t fetches = 0;
  int64_t partition_list_patches = 0;  // cached tables patched from a DDL result
  int64_t cached_bytes = 0;  // estimate of what the catalog holds
  int64_t catalog_version = 0;
  int64_t objects = 0;
};

// What a local catalog holds right now, listed without fetching anything
// (the coordinator's debug page).
struct LocalCatalogContents {
  struct Table {
    std::string db;
    std::string name;
    int64_t version = 0;
    // Metadata held locally: full replica, a loaded table; on demand, a
    // cached table (false: only the name is known, from a table list).
    bool loaded = false;
    int64_t partitions = -1;        // partitions the table lists (-1 unknown)
    int64_t local_partitions = 0;   // partitions held locally
  };
  std::vector<std::string> databases;  // sorted
  std::vector<Table> tables;           // sorted by (db, name)
  // Full replica: everything the topic brought. On demand: only what is
  // cached (other objects are fetched when a statement needs them).
  bool complete = true;
};

// What one catalog topic update said about the catalog: the CATALOG
// object's service id and version, when the update carried one.
struct TopicProgress {
  bool has_catalog = false;
  impala::TUniqueId service_id;
  int64_t catalog_version = 0;
};

class LocalCatalog {
 public:
  virtual ~LocalCatalog() = default;

  // The catalog-update topic callback and the prefix to register with.
  // Entries that do not decode are skipped (and logged).
  virtual TopicProgress OnTopicUpdate(const impala::TTopicDelta& delta,
                                      std::vector<impala::TTopicDelta>* publications) = 0;
  virtual std::string topic_prefix() const = 0;  // "1:" or "2:"

  // Applies the result of this coordinator's own DDL/UpdateCatalog/Reset
  // right away (before the topic brings it), as the peer does.
  virtual void ApplyUpdateResult(const impala::TCatalogUpdateResult& result) = 0;

  virtual Result<std::vector<std::string>> DatabaseNames() = 0;
  // NOT_FOUND if the database does not exist.
  virtual Result<hive::Database> GetDatabase(const std::string& db) = 0;
  virtual Result<std::vector<std::string>> TableNames(const std::string& db) = 0;
  // NOT_FOUND for an unknown db or table.
  virtual Result<std::shared_ptr<const LocalTable>> GetTable(const std::string& db,
                                                             const std::string& table) = 0;
  // The given partitions of a table (all when ids is empty), with file
  // descriptors / stats when asked, in the order of `ids` (ascending id when
  // empty). NOT_FOUND for an unknown table or an id the table does not
  // list; RECOVERABLE_ERROR when the table changed so that some requested
  // ids no longer exist (the caller should resolve the table again).
  virtual Result<std::vector<std::shared_ptr<const LocalPartition>>> GetPartitions(
      const LocalTable& table, const std::vector<int64_t>& ids, bool want_files,
      bool want_stats) = 0;
  virtual Result<std::vector<impala::TFunction>> Functions(const std::string& db) = 0;

  // Highest catalog version seen (topic or own DDL results) and the
  // catalog service id it came from (unset before the first update).
  virtual int64_t catalog_version() const = 0;
  virtual std::optional<impala::TUniqueId> service_id() const = 0;
  // Blocks until catalog_version() >= v or the service id changes.
  // TIMED_OUT after timeout_ms.
  [[nodiscard]] virtual Status WaitForCatalogVersion(int64_t v, int timeout_ms) = 0;

  virtual LocalCatalogStats Stats() const = 0;
  // See LocalCatalogContents. The default lists nothing.
  virtual LocalCatalogContents Contents() const { return LocalCatalogContents{{}, {}, false}; }
};

class CatalogdClient;

struct OnDemandOptions {
  // The coordinator's connections to catalogd; null: the catalog opens its
  // own to catalogd_host:catalogd_port with the settings below.
  std::shared_ptr<CatalogdClient> catalogd;
  std::string catalogd_host = "127.0.0.1";
  int catalogd_port = 26000;
  int64_t cache_bytes = 256ll << 20;  // --local_catalog_cache_mb
  int cache_expiry_s = 3600;
  int max_retries = 5;
  int rpc_timeout_ms = 60000;
  // Retry backoff: doubles from initial to max between attempts.
  int retry_backoff_initial_ms = 20;
  int retry_backoff_max_ms = 1000;
  int max_idle_connections = 4;  // pooled connections to catalogd
  std::shared_ptr<const TlsContext> tls;  // non-null: connections to catalogd speak TLS
  CatalogTopicFormat topic_format;        // --compact_catalog_topic
  // Test seam for cache expiry; empty = std::chrono::steady_clock::now.
  std::function<std::chrono::steady_clock::time_point()> clock;
};

std::unique_ptr<LocalCatalog> MakeFullReplicaCatalog(CatalogTopicFormat topic_format = {});
std::unique_ptr<LocalCatalog> MakeOnDemandCatalog(OnDemandOptions options);

}  // namespace ics::coord
