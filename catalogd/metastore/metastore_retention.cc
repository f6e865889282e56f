#include "catalogd/metastore/metastore_retention.h"

#include <glog/logging.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "common/util/exception_barrier.h"

namespace ics::catalog {

MetastoreRetention::MetastoreRetention(Metastore* metastore, MetastoreRetentionOptions options)
    : metastore_(metastore), opts_(std::move(options)) {}

MetastoreRetention::~MetastoreRetention() { Stop(); }

void MetastoreRetention::Start() {
  MutexLock l(&mu_);
  if (started_ || stopping_ || opts_.interval_ms <= 0) return;
  started_ = true;
  thread_ = std::thread([this] { Run(); });
  LOG(INFO) << "metastore retention every " << opts_.interval_ms << " ms: events newer than "
            << opts_.event_max_age_seconds << " s, at most " << opts_.event_max_events
            << " events, " << opts_.table_versions_per_table << " table versions per table";
}

void MetastoreRetention::Stop() {
  {
    MutexLock l(&mu_);
    if (stopping_) return;
    stopping_ = true;
    cv_.Broadcast();
  }
  if (thread_.joinable()) thread_.join();
}

void MetastoreRetention::Run() {
  const auto interval = std::chrono::milliseconds(opts_.interval_ms);
  while (true) {
    {
      MutexLock l(&mu_);
      if (!stopping_) cv_.WaitFor(&mu_, interval);
      if (stopping_) return;
    }
    try {
      RunOnce();
    } catch (...) {
      // RunOnce has its own barrier; this one covers recording the error.
      LOG(ERROR) << "metastore retention round threw: " << DescribeCurrentException();
    }
  }
}

MetastoreRetentionStats MetastoreRetention::RunOnce() {
  MetastoreRetentionStats round;
  try {
    round = Round();
  } catch (...) {
    round.errors = 1;
    round.last_error = StatusFromCurrentException("metastore retention round").ToString();
  }
  if (!round.last_error.empty()) {
    LOG(WARNING) << "metastore retention: " << round.last_error;
  }
  if (round.events_deleted > 0 || round.table_versions_deleted > 0) {
    VLOG(1) << "metastore retention deleted " << round.events_deleted << " event(s) and "
            << round.table_versions_deleted << " table version(s)";
  }
  Record(round);
  return round;
}

MetastoreRetentionStats MetastoreRetention::Round() {
  MetastoreRetentionStats round;
  round.rounds = 1;
  const int batch = std::max(1, opts_.batch_size);
  const int max_batches = std::max(1, opts_.max_batches_per_round);
  auto fail = [&round](const Status& s, const char* what) {
    if (s.Is(ErrorCode::kNotImplemented)) return;  // the backend has no such retention
    ++round.errors;
    round.last_error = std::string(what) + ": " + s.ToString();
  };

  if (opts_.event_max_events > 0 || opts_.event_max_age_seconds > 0) {
    NotificationRetention r;
    r.max_events = opts_.event_max_events;
    r.max_age_seconds = opts_.event_max_age_seconds;
    r.keep_after_event_id = opts_.protected_event_id ? opts_.protected_event_id() : -1;
    r.batch_limit = batch;
    r.now_seconds = opts_.now_seconds ? opts_.now_seconds() : 0;
    for (int i = 0; i < max_batches; ++i) {
      Result<int64_t> n = metastore_->PruneNotifications(r);
      if (!n.ok()) {
        fail(n.status(), "pruning the notification log");
        break;
      }
      round.events_deleted += *n;
      if (*n < batch) break;  // nothing more to delete now
    }
  }
  if (opts_.table_versions_per_table > 0) {
    for (int i = 0; i < max_batches; ++i) {
      Result<int64_t> n = metastore_->PruneTableVersions(opts_.table_versions_per_table, batch);
      if (!n.ok()) {
        fail(n.status(), "pruning table versions");
        break;
      }
      round.table_versions_deleted += *n;
      if (*n < batch) break;
    }
  }
  return round;
}

void MetastoreRetention::Record(const MetastoreRetentionStats& round) {
  MutexLock l(&mu_);
  ++totals_.rounds;
  totals_.events_deleted += round.events_deleted;
  totals_.table_versions_deleted += round.table_versions_deleted;
  totals_.errors += round.errors;
  if (!round.last_error.empty()) totals_.last_error = round.last_error;
}

MetastoreRetentionStats MetastoreRetention::stats() const {
  MutexLock l(&mu_);
  return totals_;
}

}  // namespace ics::catalog
