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
// Pushing (this project's statestore): PushChanges() hands the changes
// since the last publication to the statestore at once (TopicPusher calls
// it after each change) instead of waiting for the next update to collect
// them. Order is what makes it safe: a publication made in a reply is
// applied only when the statestore reads that reply, so a push made
// meanwhile could be applied first and then be overwritten, key by key, by
// the older reply (the CATALOG entry is in every publication). A push is
// therefore made only while no reply publication is unconfirmed and no full
// resend is due; otherwise the reply path carries the changes. Pushes and
// reply publications never overlap: OnTopicUpdate waits for a push in
// flight.
//
// Thread-safety: thread-safe. Lock order: push_mu_ -> publisher mu_ -> Catalog's mu_.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
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
  int64_t pushed_publications = 0;  // of `publications`, pushed (PushChanges)
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

  // Hands one publication to the statestore; OK once the statestore wrote
  // it (StatestoreSubscriber::Publish). `build_start`: when building it
  // began (for the publication metrics). An exception counts as a failure.
  using PushFn = std::function<Status(std::vector<impala::TTopicDelta> deltas,
                                      std::chrono::steady_clock::time_point build_start)>;
  enum class PushOutcome {
    kPushed,    // the changes since the last publication are in the statestore
    kNothing,   // nothing changed since the last publication
    kDeferred,  // the reply path owns the next publication (see above)
    kFailed,    // `push` failed: nothing changed here, the reply path carries it
  };
  // Pushes the changes since the last publication with `push` (called
  // without the publisher's lock; one push at a time).
  PushOutcome PushChanges(const PushFn& push) EXCLUDES(mu_);

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
  // The partitions of `t` (re)created after `from` (added_version > from),
  // in id order; every partition when `full`. Compares with the table as
  // last built when that state is not newer than `from` (the cost of what
  // changed), else looks at every partition.
  void CollectFreshPartitionsLocked(const TableState& t, int64_t from, bool full,
                                    std::vector<PartitionPtr>* out) REQUIRES(mu_);
  // A dropped table or database: its states are no longer kept.
  void ForgetBuiltLocked(const impala::TCatalogObject& deleted) REQUIRES(mu_);
  // Books a publication built by BuildLocked (`entries` entries of `bytes`
  // value bytes, up to version `to`) as handed to the statestore:
  // last_sent_, stats, waiters.
  void NotePublishedLocked(int64_t entries, int64_t bytes, int64_t to, bool full, bool pushed,
                           std::chrono::steady_clock::time_point start) REQUIRES(mu_);
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
  bool pushing_ GUARDED_BY(mu_) = false;        // a PushChanges RPC is in flight
  CondVar push_done_cv_;
  Mutex push_mu_ ACQUIRED_BEFORE(mu_);          // one PushChanges at a time
  PublisherStats stats_ GUARDED_BY(mu_);
  struct CachedValue {
    int64_t version;
    std::string value;
  };
  std::unordered_map<std::string, CachedValue> cache_ GUARDED_BY(mu_);
  // Each table ("db.tbl") as of the last publication built with it, to find
  // its new partitions by difference (CollectFreshPartitionsLocked). It
  // shares all but the changed chunks of partitions with the catalog's
  // current state; dropped tables are forgotten.
  std::unordered_map<std::string, TablePtr> last_built_ GUARDED_BY(mu_);
};

}  // namespace ics::catalog
