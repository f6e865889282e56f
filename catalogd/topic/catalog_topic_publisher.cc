#include "catalogd/topic/catalog_topic_publisher.h"

#include <glog/logging.h>

#include "catalogd/catalog/catalog_objects.h"
#include "common/codec/catalog_topic.h"
#include "common/codec/topic_value.h"
#include "common/util/exception_barrier.h"

namespace ics::catalog {

namespace {

// The key of last_built_.
std::string BuiltKey(const std::string& db, const std::string& table) { return db + "." + table; }

int64_t ValueBytes(const impala::TTopicDelta& d) {
  int64_t n = 0;
  for (const auto& e : d.topic_entries) n += static_cast<int64_t>(e.value.size());
  return n;
}

}  // namespace

Result<TopicMode> ParseTopicMode(const std::string& mode) {
  if (mode == "full") return TopicMode::kFull;
  if (mode == "mixed") return TopicMode::kMixed;
  if (mode == "minimal") return TopicMode::kMinimal;
  return Status::InvalidArgument("catalog_topic_mode must be full, mixed or minimal, not '" +
                                 mode + "'");
}

CatalogTopicPublisher::CatalogTopicPublisher(Catalog* catalog, PublisherOptions options)
    : catalog_(catalog), opts_(options) {}

void CatalogTopicPublisher::AddEntry(impala::TTopicDelta* out, const std::string& prefix,
                                     const impala::TCatalogObject& obj, bool deleted,
                                     bool cacheable) {
  impala::TTopicItem item;
  item.key = prefix + CatalogTopicKey(obj);
  item.deleted = deleted;
  if (cacheable && !deleted) {
    auto it = cache_.find(item.key);
    if (it != cache_.end() && it->second.version == obj.catalog_version) {
      item.value = it->second.value;
      out->topic_entries.push_back(std::move(item));
      return;
    }
  }
  auto value = EncodeCatalogTopicValue(obj, CatalogTopicFormat{opts_.compact});
  if (!value.ok()) {
    // Only an object over LZ4's 2 GB limit gets here; skip it loudly rather
    // than fail the whole publication.
    LOG(ERROR) << "cannot publish " << item.key << ": " << value.status().ToString();
    return;
  }
  item.value = std::move(value).value();
  if (cacheable) {
    if (deleted) {
      cache_.erase(item.key);
    } else {
      cache_[item.key] = CachedValue{obj.catalog_version, item.value};
    }
  }
  out->topic_entries.push_back(std::move(item));
}

impala::TTopicDelta CatalogTopicPublisher::BuildLocked(int64_t from, bool full) {
  const CatalogDelta cd = catalog_->CollectDelta(full ? 0 : from);
  impala::TTopicDelta out;
  out.topic_name = kCatalogTopic;
  out.is_delta = !full;
  if (full) out.__set_clear_topic_entries(true);
  if (!full && cd.to == from) return out;  // nothing new

  // Deletions first: the statestore keeps one entry per key, and a
  // partition replaced under the same name (or a table dropped and created
  // again) must end up as the new object, not as the tombstone.
  if (!full) {
    for (const Deletion& d : cd.deletions) {
      const impala::TCatalogObject obj = d.Object();
      ForgetBuiltLocked(obj);
      if (want_v1()) AddEntry(&out, kFullObjectPrefix, obj, true, true);
      if (want_v2()) AddEntry(&out, kInvalidationPrefix, obj, true, true);
    }
  }
  for (const DatabasePtr& db : cd.databases) {
    if (want_v1()) AddEntry(&out, kFullObjectPrefix, DatabaseObject(*db), false, true);
    if (want_v2())
      AddEntry(&out, kInvalidationPrefix, DatabaseInvalidation(db->name, db->version), false, true);
  }
  if (full) last_built_.clear();
  std::vector<PartitionPtr> fresh;
  for (const TablePtr& t : cd.tables) {
    fresh.clear();
    CollectFreshPartitionsLocked(*t, from, full, &fresh);
    if (want_v1()) {
      AddEntry(&out, kFullObjectPrefix, TableObjectV1(*t), false, true);
      for (const PartitionPtr& p : fresh) {
        AddEntry(&out, kFullObjectPrefix, PartitionObject(*t, *p), false, false);
      }
    }
    if (want_v2()) {
      AddEntry(&out, kInvalidationPrefix, TableInvalidation(*t, t->version), false, true);
      if (!full) {
        for (const PartitionPtr& p : fresh) {
          if (p->prev_id >= 0) {
            AddEntry(&out, kInvalidationPrefix, PartitionInvalidation(*t, *p, t->version), false,
                     false);
          }
        }
      }
    }
    last_built_[BuiltKey(t->db, t->name)] = t;
  }
  for (const FunctionPtr& f : cd.functions) {
    if (want_v1()) AddEntry(&out, kFullObjectPrefix, FunctionObject(*f), false, true);
    if (want_v2())
      AddEntry(&out, kInvalidationPrefix, FunctionInvalidation(*f, f->version), false, true);
  }
  const auto cat = CatalogServiceObject(catalog_->service_id(), cd.to, catalog_->last_reset_version());
  if (want_v1()) AddEntry(&out, kFullObjectPrefix, cat, false, false);
  if (want_v2()) AddEntry(&out, kInvalidationPrefix, cat, false, false);
  out.__set_to_version(cd.to);  // read back by OnTopicUpdate; cleared before sending
  return out;
}

void CatalogTopicPublisher::CollectFreshPartitionsLocked(const TableState& t, int64_t from,
                                                         bool full,
                                                         std::vector<PartitionPtr>* out) {
  auto prev = full ? last_built_.end() : last_built_.find(BuiltKey(t.db, t.name));
  // A partition (re)created after `from` is not in a state of the table at
  // `from` or before: it is among the differences from that state, which
  // skip every chunk of partitions the two share.
  if (prev != last_built_.end() && prev->second->version <= from) {
    PersistentMap<int64_t, PartitionPtr>::ForEachDifference(
        prev->second->partitions, t.partitions,
        [&](int64_t, const PartitionPtr*, const PartitionPtr* now) {
          if (now != nullptr && (*now)->added_version > from) out->push_back(*now);
        });
    return;
  }
  for (const auto& [id, p] : t.partitions) {
    if (full || p->added_version > from) out->push_back(p);
  }
}

void CatalogTopicPublisher::ForgetBuiltLocked(const impala::TCatalogObject& deleted) {
  if (deleted.type == impala::TCatalogObjectType::TABLE ||
      deleted.type == impala::TCatalogObjectType::VIEW) {
    last_built_.erase(BuiltKey(deleted.table.db_name, deleted.table.tbl_name));
  } else if (deleted.type == impala::TCatalogObjectType::DATABASE) {
    const std::string prefix = BuiltKey(deleted.db.db_name, "");
    for (auto it = last_built_.begin(); it != last_built_.end();) {
      it = it->first.compare(0, prefix.size(), prefix) == 0 ? last_built_.erase(it) : std::next(it);
    }
  }
}

void CatalogTopicPublisher::OnTopicUpdate(const impala::TTopicDelta& delta,
                                          std::vector<impala::TTopicDelta>* publications) {
  const auto start = std::chrono::steady_clock::now();
  MutexLock l(&mu_);
  // A push in flight decides last_sent_; building before it ends could
  // publish its changes twice, or reorder them.
  while (pushing_) push_done_cv_.Wait(&mu_);
  bool full = need_full_;
  if (!delta.is_delta && delta.to_version == 0 && stats_.publications > 0) {
    LOG(INFO) << "statestore has an empty catalog topic; republishing everything";
    full = true;
  }
  if (!delta.is_delta && !full) {
    // A new registration: our last reply may not have been applied.
    last_sent_ = confirmed_;
  } else {
    confirmed_ = last_sent_;
  }
  catalog_->TrimDeleteLog(confirmed_);
  impala::TTopicDelta pub = BuildLocked(full ? 0 : last_sent_, full);
  if (pub.topic_entries.empty() && !full) return;
  const int64_t to = pub.to_version;
  pub.__isset.to_version = false;  // the broker ignores it; keep the wire form minimal
  need_full_ = false;
  NotePublishedLocked(static_cast<int64_t>(pub.topic_entries.size()), ValueBytes(pub), to, full,
                      /*pushed=*/false, start);
  publications->push_back(std::move(pub));
}

void CatalogTopicPublisher::NotePublishedLocked(int64_t entries, int64_t bytes, int64_t to,
                                                bool full, bool pushed,
                                                std::chrono::steady_clock::time_point start) {
  last_sent_ = to;
  ++stats_.publications;
  if (full) ++stats_.full_publications;
  if (pushed) ++stats_.pushed_publications;
  stats_.entries_published += entries;
  stats_.bytes_published += bytes;
  stats_.last_published_version = to;
  stats_.last_build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  published_cv_.Broadcast();
}

CatalogTopicPublisher::PushOutcome CatalogTopicPublisher::PushChanges(const PushFn& push) {
  MutexLock p(&push_mu_);
  const auto start = std::chrono::steady_clock::now();
  impala::TTopicDelta pub;
  int64_t to = 0;
  {
    MutexLock l(&mu_);
    if (need_full_ || confirmed_ != last_sent_) return PushOutcome::kDeferred;
    pub = BuildLocked(last_sent_, /*full=*/false);
    if (pub.topic_entries.empty()) return PushOutcome::kNothing;
    to = pub.to_version;
    pub.__isset.to_version = false;
    pushing_ = true;
  }
  const int64_t entries = static_cast<int64_t>(pub.topic_entries.size());
  const int64_t bytes = ValueBytes(pub);
  std::vector<impala::TTopicDelta> deltas;
  deltas.push_back(std::move(pub));
  // pushing_ must end whatever `push` does: OnTopicUpdate waits for it.
  const Status s = CatchAll("pushing a catalog publication",
                            [&] { return push(std::move(deltas), start); });
  MutexLock l(&mu_);
  pushing_ = false;
  push_done_cv_.Broadcast();
  if (!s.ok()) {
    LOG_EVERY_N(WARNING, 100) << "pushing catalog versions up to " << to
                              << " to the statestore failed: " << s.ToString()
                              << "; the next statestore update collects them";
    return PushOutcome::kFailed;
  }
  // Written by the statestore: confirmed as well, so the delete log may go.
  NotePublishedLocked(entries, bytes, to, /*full=*/false, /*pushed=*/true, start);
  confirmed_ = to;
  catalog_->TrimDeleteLog(confirmed_);
  return PushOutcome::kPushed;
}

void CatalogTopicPublisher::OnPublicationLost() {
  MutexLock l(&mu_);
  LOG(WARNING) << "statestore did not apply the catalog publication up to version " << last_sent_
               << "; sending it again";
  last_sent_ = confirmed_;
}

void CatalogTopicPublisher::RequestFullResend() {
  MutexLock l(&mu_);
  need_full_ = true;
}

Result<int64_t> CatalogTopicPublisher::WaitForPublication(int64_t version,
                                                          std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  MutexLock l(&mu_);
  while (last_sent_ < version) {
    if (!published_cv_.WaitUntil(&mu_, deadline) && last_sent_ < version) {
      return Status::TimedOut("catalog version " + std::to_string(version) +
                              " was not published to the statestore within " +
                              std::to_string(timeout.count()) + " ms");
    }
  }
  return last_sent_;
}

int64_t CatalogTopicPublisher::last_published_version() const {
  MutexLock l(&mu_);
  return last_sent_;
}

PublisherStats CatalogTopicPublisher::Stats() const {
  MutexLock l(&mu_);
  return stats_;
}

impala::TTopicDelta CatalogTopicPublisher::BuildFullTopic() {
  MutexLock l(&mu_);
  return BuildLocked(0, true);
}

}  // namespace ics::catalog
