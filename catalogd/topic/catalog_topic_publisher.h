// CatalogTopicPublisher: turns catalog changes into catalog-update topic
// entries, published in catalogd's UpdateState replies.
//
// On each statestore update of the catalog-update topic (catalogd registers
// with filter "!" so it receives no entries) the publisher collects the
// catalog delta since its last publication and appends one TTopicDelta:
//
//  * v1 entries ("1:" keys, modes full and mixed): DATABASE, TABLE with a
//    minimal partition map, one HDFS_PARTITION per new/changed partition,
//    FUNCTION; v2 entries ("2:" keys, modes minimal and mixed): invalidations
//    (type, names, version). Deletions from the delete log as deleted=true
//    items, placed before the live objects (one entry per key survives in
//    the statestore, and a re-created key must end up live). The CATALOG object (service id, last reset version) comes last
//    with catalog_version = the delta's max version.
//  * Values are TBinaryProtocol TCatalogObjects, LZ4-compacted by default.
//    Each object version is serialized once: a cache keyed by topic key
//    holds the value of the version last published, reused on full resends.
//  * Full resend with clear_topic_entries at the first update and whenever
//    the statestore's delta says it lost the topic (from 0 to 0 after we had
//    published) or its registration is new (is_delta=false).
//  * A publication whose reply never reached the statestore is detected
//    from the next delta's base and sent again (OnPublicationLost).
//
// SYNC_DDL: WaitForPublication(v) blocks until a publication covering
// catalog version v was handed to the statestore and returns that
// publication's max catalog version, the version the peer reports to the
// coordinator.
//
// Thread-safety: thread-safe. Lock order: publisher mu_ -> Catalog's mu_.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "StatestoreService_types.h"
#include "catalogd/catalog/catalog.h"
#include "common/codec/catalog_topic.h"
#include "common/util/mutex.h"
#include "common/util/result.h"

namespace ics::catalog {

enum class TopicMode { kFull, kMixed, kMinimal };
Result<TopicMode> ParseTopicMode(const std::string& mode);

struct PublisherOptions {
  TopicMode mode = TopicMode::kMinimal;
  bool compact = true;  // LZ4 topic values
};

struct PublisherStats {
  int64_t publications = 0;
  int64_t full_publications = 0;
  int64_t entries_published = 0;
  int64_t bytes_published = 0;
  int64_t last_published_version = 0;
  double last_build_ms = 0;
};

class CatalogTopicPublisher {
 public:
  CatalogTopicPublisher(Catalog* catalog, PublisherOptions options);

  // The subscriber callback for the catalog-update topic.
  void OnTopicUpdate(const impala::TTopicDelta& delta,
                     std::vector<impala::TTopicDelta>* publications) EXCLUDES(mu_);

  // The statestore did not apply our previous reply: publish it again.
  void OnPublicationLost() EXCLUDES(mu_);

  // Forces the next publication to be a full one with clear_topic_entries
  // (e.g. after a global INVALIDATE METADATA).
  void RequestFullResend() EXCLUDES(mu_);

  // Waits until catalog version `version` was published; returns the max
  // catalog version of that publication. TIMED_OUT after `timeout`.
  Result<int64_t> WaitForPublication(int64_t version, std::chrono::milliseconds timeout)
      EXCLUDES(mu_);

  int64_t last_published_version() const EXCLUDES(mu_);
  PublisherStats Stats() const EXCLUDES(mu_);

  // Builds the full topic (as published after a restart) without changing
  // state; used by benchmarks and tests to measure topic size.
  impala::TTopicDelta BuildFullTopic() EXCLUDES(mu_);

 private:
  impala::TTopicDelta BuildLocked(int64_t from, bool full) REQUIRES(mu_);
  void AddEntry(impala::TTopicDelta* out, const std::string& prefix,
                const impala::TCatalogObject& obj, bool deleted, bool cacheable) REQUIRES(mu_);
  bool want_v1() const { return opts_.mode != TopicMode::kMinimal; }
  bool want_v2() const { return opts_.mode != TopicMode::kFull; }

  Catalog* const catalog_;
  const PublisherOptions opts_;

  mutable Mutex mu_;
  CondVar published_cv_;
  bool need_full_ GUARDED_BY(mu_) = true;
  int64_t last_sent_ GUARDED_BY(mu_) = 0;       // max version handed to the statestore
  int64_t confirmed_ GUARDED_BY(mu_) = 0;       // max version known applied
  PublisherStats stats_ GUARDED_BY(mu_);
  struct CachedValue {
    int64_t version;
    std::string value;
  };
  std::unordered_map<std::string, CachedValue> cache_ GUARDED_BY(mu_);
};

}  // namespace ics::catalog
