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
#include "statestore/topic_ledger.h"

#include <algorithm>

namespace ics::statestore {

namespace {

// One subscriber's version leaves `versions` (its registration ended).
void EraseVersion(std::multiset<int64_t>* versions, int64_t v) {
  auto it = versions->find(v);
  if (it != versions->end()) versions->erase(it);
}

// Replaces `from` by `to` in `versions` (inserts `to` when `from` is absent).
void MoveVersion(std::multiset<int64_t>* versions, int64_t from, int64_t to) {
  auto old = versions->find(from);
  if (old == versions->end()) {
    versions->insert(to);
  } else if (*old != to) {
    // Moves the node: no allocation per booked update.
    auto node = versions->extract(old);
    node.value() = to;
    versions->insert(std::move(node));
  }
}

// Whether `st` gets an update of its own for minimum `min`.
bool MinPushDue(const SubscribedTopic& st, int64_t min) {
  if (!st.populate_min) return false;
  if (!st.min_on_request) return true;
  return st.min_wanted > st.min_sent && min >= st.min_wanted;
}

}  // namespace

Topic* TopicLedger::Find(const std::string& name) const {
  auto it = topics_.find(name);
  return it == topics_.end() ? nullptr : it->second.topic.get();
}

TopicLedger::PlanView TopicLedger::View(const std::string& name,
                                        const SubscriberRecord* active_catalogd) {
  Record& r = topics_[name];
  return PlanView{r.topic.get(), MinOf(name, r, active_catalogd), r.min_readers > 0};
}

void TopicLedger::AddSubscriber(SubscriberRecord* sub) {
  for (auto& [name, st] : sub->topics) {
    Record& r = topics_[name];
    if (r.topic == nullptr) r.topic = std::make_unique<Topic>(name);
    r.versions.insert(0);
    if (!sub->ha_candidate) r.acked.insert(0);
    NoteMinReader(name, &st);
  }
}

void TopicLedger::RemoveSubscriber(SubscriberRecord* sub) {
  for (auto& [name, st] : sub->topics) {
    auto it = topics_.find(name);
    if (it == topics_.end()) continue;
    EraseVersion(&it->second.versions, st.last_version);
    if (!sub->ha_candidate) EraseVersion(&it->second.acked, st.acked_version);
    NoteMinReader(name, &st, /*removed=*/true);
  }
}

void TopicLedger::SetVersion(SubscriberRecord* sub, const std::string& topic, int64_t v) {
  auto st = sub->topics.find(topic);
  if (st == sub->topics.end()) return;
  Record& r = topics_[topic];
  MoveVersion(&r.versions, st->second.last_version, v);
  if (!sub->ha_candidate) MoveVersion(&r.acked, st->second.acked_version, v);
  st->second.last_version = st->second.acked_version = v;
}

bool TopicLedger::SetSentVersion(SubscriberRecord* sub, const std::string& topic, int64_t v) {
  auto st = sub->topics.find(topic);
  if (st == sub->topics.end()) return false;
  Record& r = topics_[topic];
  MoveVersion(&r.versions, st->second.last_version, v);
  st->second.last_version = v;
  return r.min_readers > 0;
}

int64_t TopicLedger::Min(const std::string& topic, const SubscriberRecord* active_catalogd) const {
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : MinOf(it->first, it->second, active_catalogd);
}

int64_t TopicLedger::MinOf(const std::string& topic, const Record& r,
                           const SubscriberRecord* active_catalogd) const {
  std::optional<int64_t> min;
  if (!r.acked.empty()) min = *r.acked.begin();
  if (active_catalogd != nullptr) {
    auto st = active_catalogd->topics.find(topic);
    if (st != active_catalogd->topics.end()) {
      min = std::min(min.value_or(st->second.acked_version), st->second.acked_version);
    }
  }
  return min.value_or(0);
}

void TopicLedger::NoteMinReader(const std::string& topic, SubscribedTopic* st, bool removed) {
  const bool reads =
      !removed && st->populate_min && (!st->min_on_request || st->min_wanted > st->min_sent);
  if (reads == st->reads_min) return;
  st->reads_min = reads;
  topics_[topic].min_readers += reads ? 1 : -1;
}

void TopicLedger::NoteMinSent(SubscriberRecord* sub, const std::string& topic, int64_t min) {
  auto st = sub->topics.find(topic);
  if (st == sub->topics.end() || !st->second.populate_min) return;
  SubscribedTopic& t = st->second;
  t.min_sent = std::max(t.min_sent, min);
  if (t.min_wanted <= t.min_sent) t.min_wanted = 0;
  NoteMinReader(topic, &t);
}

TopicLedger::WishOutcome TopicLedger::WantMin(SubscriberRecord* sub,
                                              const std::map<std::string, int64_t>& wanted,
                                              std::optional<bool> on_request,
                                              const SubscriberRegistry& registry,
                                              const SubscriberRecord* active_catalogd) {
  WishOutcome out;
  if (on_request.has_value()) {
    for (auto& [name, st] : sub->topics) {
      st.min_on_request = *on_request && st.populate_min;
      NoteMinReader(name, &st);
    }
  }
  for (const auto& [name, version] : wanted) {
    auto st = sub->topics.find(name);
    if (st == sub->topics.end() || !st->second.populate_min || version <= st->second.min_sent) {
      continue;
    }
    SubscribedTopic& t = st->second;
    t.min_wanted = std::max(t.min_wanted, version);
    NoteMinReader(name, &t);
    auto it = topics_.find(name);
    if (it == topics_.end()) continue;
    if (MinOf(it->first, it->second, active_catalogd) >= t.min_wanted) {
      out.due = true;  // reached already: the next update carries it
      continue;
    }
    // Who has not acknowledged the version but was sent oneway updates
    // gets an update, answered as the topic's minimum is read now: its
    // reply acknowledges them. The others get the version, when it is
    // written, by an answered update anyway (one still in flight oneway is
    // followed by one: the oneway booking sees the topic read).
    for (const auto& [id, other] : registry.all()) {
      auto ot = other->topics.find(name);
      if (ot != other->topics.end() && ot->second.acked_version < t.min_wanted &&
          ot->second.last_version > ot->second.acked_version) {
        out.unacknowledged.push_back(other);
      }
    }
  }
  return out;
}

std::vector<TopicLedger::SubPtr> TopicLedger::MinPushesDue(
    const SubscriberRegistry& registry, const SubscriberRecord* active_catalogd) {
  std::vector<SubPtr> due;
  for (auto& [name, r] : topics_) {
    const int64_t min = MinOf(name, r, active_catalogd);
    if (min == r.published_min) continue;
    r.published_min = min;
    for (const auto& [id, sub] : registry.all()) {
      auto st = sub->topics.find(name);
      if (st != sub->topics.end() && MinPushDue(st->second, min)) due.push_back(sub);
    }
  }
  return due;
}

int64_t TopicLedger::CollectTombstones(std::chrono::milliseconds retention, SteadyTime now) {
  int64_t collected = 0;
  for (auto& [name, r] : topics_) {
    // With no subscribers nobody can still need a tombstone's history
    // except future ones, which start with a full update anyway.
    // The bases of the next deltas, oneway ones included: a subscriber
    // that asks for a resend from below the floor gets a full update.
    const int64_t min = r.versions.empty() ? r.topic->last_version() : *r.versions.begin();
    collected += r.topic->CollectTombstones(min, retention, now);
  }
  return collected;
}

std::vector<TopicStats> TopicLedger::Stats() const {
  std::vector<TopicStats> out;
  for (const auto& [name, r] : topics_) out.push_back(r.topic->Stats());
  return out;
}

}  // namespace ics::statestore
