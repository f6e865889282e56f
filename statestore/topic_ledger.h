// TopicLedger: the broker's topics and where their subscribers are in each
// of them. This is the minimum-version tracker: from it come the tombstone
// floor (the lowest base of any subscriber's next delta) and
// min_subscriber_topic_version (the lowest acknowledged version), and who
// is owed an update because a minimum moved.
//
// Owns: every Topic (created when a registration first names it, kept for
// the statestore's life) and, per topic, the multisets of its subscribers'
// next-delta bases and acknowledged versions, the count of subscribers that
// read its minimum now, and the last minimum pushed. It also keeps the
// per-subscription fields of SubscribedTopic that feed those sets in step
// (last_version, acked_version, min_wanted, min_sent, reads_min): they are
// changed only through this class.
//
// Two versions per subscription (the design notes in ARCHITECTURE.md): the
// base of the next delta, moved by a oneway update once written, and the
// acknowledged version, moved by a reply or a resend's base. The minimum
// counts acknowledged versions only, of every subscriber but the HA
// catalogds, plus the designated active catalogd's (as Impala counts it:
// a standby catalogd does not apply the active's updates, and an active that
// died holds SYNC_DDL back only until another is designated). While someone
// reads a topic's minimum now (MinRead), its updates wait for replies.
//
// Thread-safety: none of its own. Its owner (Statestore::Impl) keeps it as
// a member guarded by the broker lock, so every call holds that lock. The
// only lock it takes is each Topic's own (terminal) lock, through Topic's
// methods; it makes no RPC and schedules nothing itself: it returns whom to
// schedule.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "statestore/subscriber_record.h"
#include "statestore/subscriber_registry.h"
#include "statestore/topic.h"

namespace ics::statestore {

class TopicLedger {
 public:
  using SubPtr = std::shared_ptr<SubscriberRecord>;

  // The topic `name`, or null if no registration ever named it.
  Topic* Find(const std::string& name) const;

  // What an update to one subscriber needs about one of its topics.
  struct PlanView {
    Topic* topic = nullptr;
    int64_t min_version = 0;  // Min()
    bool min_read = false;    // MinRead()
  };
  PlanView View(const std::string& name, const SubscriberRecord* active_catalogd);

  // A new registration starts on each of its topics (created as needed) at
  // version 0.
  void AddSubscriber(SubscriberRecord* sub);
  // A registration ended: its versions leave its topics' sets, and it no
  // longer reads any minimum.
  void RemoveSubscriber(SubscriberRecord* sub);

  // `sub` processed `topic` up to `v` (a reply, a resend's base): the base
  // of its next delta and its acknowledged version.
  void SetVersion(SubscriberRecord* sub, const std::string& topic, int64_t v);
  // A oneway update up to `v` was written to `sub`: the base of its next
  // delta only. Returns whether someone reads the topic's minimum now.
  bool SetSentVersion(SubscriberRecord* sub, const std::string& topic, int64_t v);

  // The topic's min_subscriber_topic_version; `active_catalogd` is the
  // registration of the designated active catalogd (null for none). 0 for
  // an unknown topic.
  int64_t Min(const std::string& topic, const SubscriberRecord* active_catalogd) const;

  // An answered update carried minimum `min` of `topic` to `sub`.
  void NoteMinSent(SubscriberRecord* sub, const std::string& topic, int64_t min);

  // TRequestTopicUpdateRequest fields 3 and 4 for `sub`: whether its
  // populate_min topics take the minimum on request (if `on_request` is
  // set), and the versions it waits for. The answer says whether a wish is
  // reached already (`due`: `sub` should get an update now) and which
  // subscribers have unacknowledged oneway updates below a wish not yet
  // reached (an answered update to them acknowledges those).
  struct WishOutcome {
    bool due = false;
    std::vector<SubPtr> unacknowledged;
  };
  WishOutcome WantMin(SubscriberRecord* sub, const std::map<std::string, int64_t>& wanted,
                      std::optional<bool> on_request, const SubscriberRegistry& registry,
                      const SubscriberRecord* active_catalogd);

  // The topics whose minimum changed since the last call: the subscribers
  // that get an update of their own for it (populate_min subscribers that
  // take every change, and those on request that wait for the version it
  // reached). A subscriber may be named more than once.
  std::vector<SubPtr> MinPushesDue(const SubscriberRegistry& registry,
                                   const SubscriberRecord* active_catalogd);

  // Drops the tombstones that every subscriber of their topic has been sent
  // and that are older than `retention`. Returns how many.
  int64_t CollectTombstones(std::chrono::milliseconds retention, SteadyTime now);

  std::vector<TopicStats> Stats() const;

 private:
  struct Record {
    std::unique_ptr<Topic> topic;
    std::multiset<int64_t> versions;  // last_version of every subscriber (tombstone floor)
    // acked_version of every subscriber but the HA catalogds (Min adds the
    // active catalogd's).
    std::multiset<int64_t> acked;
    int64_t published_min = 0;  // the minimum MinPushesDue last reported
    // Subscriptions that read the topic's minimum now (SubscribedTopic::
    // reads_min): while there is one, the topic's updates wait for replies,
    // so that the acknowledgements the minimum counts keep coming.
    int min_readers = 0;
  };

  int64_t MinOf(const std::string& topic, const Record& r,
                const SubscriberRecord* active_catalogd) const;
  // Recomputes whether `st` (a subscription to `topic`) reads the minimum
  // now and keeps the topic's min_readers in step; `removed`: the
  // registration ends.
  void NoteMinReader(const std::string& topic, SubscribedTopic* st, bool removed = false);

  std::map<std::string, Record> topics_;
};

}  // namespace ics::statestore
