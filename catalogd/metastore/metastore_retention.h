// MetastoreRetention: keeps the metastore's notification log and its
// archived table versions from growing without bound, in the background.
//
// Every interval_ms a round runs: PruneNotifications with the event rules
// (at most event_max_events newest events, none older than
// event_max_age_seconds; either rule <= 0 is off), then PruneTableVersions
// (at most table_versions_per_table archived versions per table; <= 0 keeps
// all). Each call deletes one batch of at most batch_size rows in its own
// short transaction; a round stops after max_batches_per_round batches of
// each kind (the rest waits for the next round), so a long backlog never
// holds the metastore for long.
//
// Consumers: events with id > protected_event_id() are never deleted (the
// callback returns -1 for "none"). catalogd passes its event processor's
// last synced id, so the processor never misses an event it has not
// applied yet. Other readers of the log (HMS endpoint clients, a second
// catalogd) are not protected: a reader that falls behind the retained
// range gets INVALID_ARGUMENT from GetNextNotifications and must reload,
// as with Hive's own event TTL (hive.metastore.event.db.listener.timetolive).
//
// A backend without the capability (NOT_IMPLEMENTED: the remote Hive
// Metastore prunes its own log) is skipped silently for that kind. Errors
// are logged and counted; they never stop the thread. Exception barrier:
// anything a round throws is caught, logged and counted as an error.
//
// Ownership: borrows the metastore (it must outlive this object).
// Thread-safety: thread-safe; Stop() is idempotent and run by the destructor.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "catalogd/metastore/metastore.h"
#include "common/util/mutex.h"

namespace ics::catalog {

struct MetastoreRetentionOptions {
  int64_t event_max_age_seconds = 7 * 24 * 3600;  // --hms_event_retention_seconds
  int64_t event_max_events = 1'000'000;           // --hms_event_retention_max_events
  int64_t table_versions_per_table = 1000;        // --table_version_retention
  int interval_ms = 60'000;                       // between rounds; <= 0: no thread
  int batch_size = 1000;                          // rows per delete (>= 1)
  int max_batches_per_round = 100;                // per kind (>= 1)
  // Events after this id are kept (-1: no bound). Called once per round.
  std::function<int64_t()> protected_event_id;
  // Test seam: seconds since the epoch (default: the system clock).
  std::function<int64_t()> now_seconds;
};

struct MetastoreRetentionStats {
  int64_t rounds = 0;
  int64_t events_deleted = 0;
  int64_t table_versions_deleted = 0;
  int64_t errors = 0;
  std::string last_error;
};

class MetastoreRetention {
 public:
  MetastoreRetention(Metastore* metastore, MetastoreRetentionOptions options);
  ~MetastoreRetention();
  MetastoreRetention(const MetastoreRetention&) = delete;
  MetastoreRetention& operator=(const MetastoreRetention&) = delete;

  // Starts the background thread (none if interval_ms <= 0). Call once.
  void Start() EXCLUDES(mu_);
  void Stop() EXCLUDES(mu_);

  // Runs one round now (what the thread does every interval); returns
  // what this round deleted and any error.
  MetastoreRetentionStats RunOnce() EXCLUDES(mu_);

  // Totals since construction.
  MetastoreRetentionStats stats() const EXCLUDES(mu_);
  const MetastoreRetentionOptions& options() const { return opts_; }

 private:
  void Run() EXCLUDES(mu_);
  MetastoreRetentionStats Round();  // without the exception barrier
  void Record(const MetastoreRetentionStats& round) EXCLUDES(mu_);

  Metastore* const metastore_;
  const MetastoreRetentionOptions opts_;

  mutable Mutex mu_;
  CondVar cv_;  // stop
  bool started_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
  MetastoreRetentionStats totals_ GUARDED_BY(mu_);
  std::thread thread_;
};

}  // namespace ics::catalog
