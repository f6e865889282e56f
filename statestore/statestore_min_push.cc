// Who is told when a topic's minimum processed version
// (min_subscriber_topic_version) advances. Every update carries the
// minimum of the topics the subscriber registered with populate_min; an
// extra update just for a new minimum goes to the subscribers that take
// every change (the default, as a peer that knows nothing of the extension
// expects) and to those on request that wait for the version it reached.
//
// The minimum counts acknowledged versions only (a reply, a resend's base),
// not oneway updates merely written. So while someone reads a topic's
// minimum (min_readers), its updates wait for replies; a wish for a version
// also asks every subscriber that has unacknowledged oneway updates below
// it for an update, whose reply acknowledges what they brought.
#include "common/util/unique_id.h"
#include "statestore/statestore_impl.h"

namespace ics::statestore {

namespace {

// Whether `st` gets an update of its own for minimum `min`.
bool MinPushDue(const SubscribedTopic& st, int64_t min) {
  if (!st.populate_min) return false;
  if (!st.min_on_request) return true;
  return st.min_wanted > st.min_sent && min >= st.min_wanted;
}

}  // namespace

int64_t Statestore::Impl::MinLocked(const std::string& topic, const TopicRecord& tr) const {
  std::optional<int64_t> min;
  if (!tr.acked.empty()) min = *tr.acked.begin();
  if (const std::optional<ActiveCatalogd>& active = ha_.active()) {
    auto it = subscribers_.find(active->subscriber_id);
    if (it != subscribers_.end()) {
      auto st = it->second->topics.find(topic);
      if (st != it->second->topics.end()) {
        min = std::min(min.value_or(st->second.acked_version), st->second.acked_version);
      }
    }
  }
  return min.value_or(0);
}

void Statestore::Impl::PushMinChangesLocked() {
  for (auto& [name, tr] : topics_) {
    const int64_t min = MinLocked(name, tr);
    if (min == tr.published_min) continue;
    tr.published_min = min;
    for (auto& [id, sub] : subscribers_) {
      auto st = sub->topics.find(name);
      if (st != sub->topics.end() && MinPushDue(st->second, min)) ScheduleUpdateLocked(sub);
    }
  }
}

void Statestore::Impl::NoteMinReaderLocked(const std::string& topic, SubscribedTopic* st,
                                           bool removed) {
  const bool reads =
      !removed && st->populate_min && (!st->min_on_request || st->min_wanted > st->min_sent);
  if (reads == st->reads_min) return;
  st->reads_min = reads;
  topics_[topic].min_readers += reads ? 1 : -1;
}

void Statestore::Impl::NoteMinSentLocked(SubscriberRecord* sub, const std::string& topic,
                                         int64_t min) {
  auto st = sub->topics.find(topic);
  if (st == sub->topics.end() || !st->second.populate_min) return;
  SubscribedTopic& t = st->second;
  t.min_sent = std::max(t.min_sent, min);
  if (t.min_wanted <= t.min_sent) t.min_wanted = 0;
  NoteMinReaderLocked(topic, &t);
}

Status Statestore::Impl::WantMinVersions(const impala::TUniqueId& registration_id,
                                         const std::map<std::string, int64_t>& wanted,
                                         std::optional<bool> on_request) {
  MutexLock l(&mu_);
  SubPtr sub = FindRegistrationLocked(registration_id);
  if (sub == nullptr) return Status::NotFound("unknown registration id " + PrintId(registration_id));
  if (on_request.has_value()) {
    for (auto& [name, st] : sub->topics) {
      st.min_on_request = *on_request && st.populate_min;
      NoteMinReaderLocked(name, &st);
    }
  }
  bool due = false;
  for (const auto& [name, version] : wanted) {
    auto st = sub->topics.find(name);
    if (st == sub->topics.end() || !st->second.populate_min || version <= st->second.min_sent) {
      continue;
    }
    SubscribedTopic& t = st->second;
    t.min_wanted = std::max(t.min_wanted, version);
    NoteMinReaderLocked(name, &t);
    auto tr = topics_.find(name);
    if (tr == topics_.end()) continue;
    if (MinLocked(tr->first, tr->second) >= t.min_wanted) {
      due = true;  // reached already: the next update carries it; send one now
    } else if (active_) {
      // Who has not acknowledged the version but was sent oneway updates
      // gets an update, answered as the topic's minimum is read now: its
      // reply acknowledges them. The others get the version, when it is
      // written, by an answered update anyway (one still in flight oneway
      // is followed by one: BookOnewayLocked).
      for (auto& [id, other] : subscribers_) {
        auto ot = other->topics.find(name);
        if (ot != other->topics.end() && ot->second.acked_version < t.min_wanted &&
            ot->second.last_version > ot->second.acked_version) {
          ScheduleUpdateLocked(other);
        }
      }
    }
  }
  // A standby sends no updates; the wish stays for when it takes over.
  if (due && active_) ScheduleUpdateLocked(sub);
  return Status::OK();
}

}  // namespace ics::statestore
