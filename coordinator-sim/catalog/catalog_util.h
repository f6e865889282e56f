// Helpers shared by both local-catalog modes: decoding topic values,
// converting wire objects to the LocalTable/LocalPartition forms, naming
// objects, and estimating the bytes a cached object holds.
//
// Thread-safety: stateless functions; safe from any thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "CatalogService_types.h"
#include "common/util/ascii.h"
#include "common/util/mutex.h"
#include "common/util/result.h"
#include "coordinator-sim/catalog/local_catalog.h"

namespace ics::coord {

// One catalog topic entry, decoded.
struct DecodedTopicEntry {
  bool deleted = false;
  impala::TCatalogObject obj;
};

// The entries of `delta` whose keys start with `key_prefix`, decoded in
// place (a TCatalogObject is kilobytes of members: no copy or move of one
// per entry). An entry that does not decode is logged and skipped.
std::vector<DecodedTopicEntry> DecodeTopicEntries(const impala::TTopicDelta& delta,
                                                  std::string_view key_prefix,
                                                  CatalogTopicFormat format);

// Which entries ForEachTopicEntry visits, by key (with its prefix).
enum class TopicEntries {
  kCatalogService,      // only the CATALOG object's entry (IsCatalogServiceEntry)
  kAllButCatalogService,
};

// Calls fn(obj, deleted) for each entry of `delta` whose key starts with
// `key_prefix` and is of kind `which`, in delta order, each decoded into one
// reused object: valid only during the call. For a delta of many small
// objects (a table's partition invalidations) this costs no memory per
// entry, where a vector of decoded entries costs a TCatalogObject (kilobytes
// of members) each. An entry that does not decode is logged and skipped.
void ForEachTopicEntry(const impala::TTopicDelta& delta, std::string_view key_prefix,
                       CatalogTopicFormat format, TopicEntries which,
                       const std::function<void(const impala::TCatalogObject&, bool)>& fn);

// Returns `*obj`, into which a default-constructed object was decoded
// (`decoded`: whether the decode succeeded), to default-constructed state.
// After a successful decode only the members it marked as set are reset
// (an invalidation sets a few names of kilobytes of members); after a
// failed one, which may have filled members without marking them, all.
void ResetDecoded(impala::TCatalogObject* obj, bool decoded);

// A stable name for an object, used to remember drops and in logs:
// "DATABASE:db", "TABLE:db.t" (views too), "FUNCTION:db.signature",
// "HDFS_PARTITION:db.t:<id>", "CATALOG", "OTHER:<type>".
std::string ObjectName(const impala::TCatalogObject& obj);

// A full THdfsPartition (topic v1 entry or a full table in a DDL result) as
// a LocalPartition. `prefixes` resolves location.prefix_index >= 0.
LocalPartition PartitionFromThrift(const impala::THdfsPartition& p,
                                   const std::vector<std::string>& prefixes);

// A TTable (v1 topic entry or full DDL-result object) as a LocalTable;
// partition_names from the table's partition map. Partitions are not copied.
std::shared_ptr<LocalTable> TableFromThrift(const impala::TTable& t, int64_t version);

// Builds the columns of a table from its HMS object (partition keys first,
// as catalogd does). INVALID_ARGUMENT if a column type does not parse.
[[nodiscard]] Status ColumnsFromHms(const hive::Table& hms, LocalTable* table);

// Approximate heap bytes (string and vector contents plus object headers).
int64_t EstimateBytes(const LocalTable& t);
int64_t EstimateBytes(const LocalPartition& p);
int64_t EstimateBytes(const hive::Database& db);
int64_t EstimateBytes(const impala::TFunction& fn);
int64_t EstimateBytes(const std::vector<std::string>& names);

// The wait both local catalogs offer as WaitForCatalogVersion: blocks on
// `cv` (with `mu` held) until *version >= v or *service_changes moves
// (catalogd restarted); TIMED_OUT after timeout_ms. The pointers name
// fields guarded by `mu`.
[[nodiscard]] Status WaitForVersionLocked(Mutex* mu, CondVar* cv, const int64_t* version,
                                          const int64_t* service_changes, int64_t v,
                                          int timeout_ms) REQUIRES(mu);

}  // namespace ics::coord
