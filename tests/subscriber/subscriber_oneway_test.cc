// Oneway topic updates (UpdateStateOneway) between the real broker and the
// subscriber library: which updates go without a reply, that they carry the
// same changes (a subscriber that does not accept them, as Impala's, is
// covered in subscriber_test.cc), and how what a reply would say (publications, a failed
// delta, a new base) comes back by RequestTopicUpdate and is resent. What
// the subscriber sends back for each kind of delta is checked against a
// scripted statestore in subscriber_protocol_test.cc.
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "common/util/unique_id.h"
#include "statestore/statestore_server.h"
#include "statestore/subscriber.h"
#include "tests/subscriber/subscriber_test_util.h"
#include "tests/util/eventually.h"

namespace ics::statestore {
namespace {

using ::ics::testing::Eventually;
using std::chrono::milliseconds;

int64_t OnewaySent(StatestoreServer* ss) { return ss->statestore()->Counters().oneway_updates_sent; }
int64_t Resends(StatestoreServer* ss) { return ss->statestore()->Counters().oneway_resends; }

// What the broker holds for subscriber `id`'s subscription to kTopic
// (versions -1 when not registered).
SubscriberInfo::TopicState BrokerStateOf(StatestoreServer* ss, const std::string& id) {
  for (const SubscriberInfo& s : ss->statestore()->Subscribers()) {
    if (s.id != id) continue;
    for (const auto& t : s.topics) {
      if (t.topic == kTopic) return t;
    }
  }
  SubscriberInfo::TopicState none;
  none.last_version = none.acked_version = -1;
  return none;
}
// The broker's base for subscriber `id`'s next delta.
int64_t BrokerVersionOf(StatestoreServer* ss, const std::string& id) {
  return BrokerStateOf(ss, id).last_version;
}
int64_t AckedVersionOf(StatestoreServer* ss, const std::string& id) {
  return BrokerStateOf(ss, id).acked_version;
}
int64_t UpdatesSentTo(StatestoreServer* ss, const std::string& id) {
  for (const SubscriberInfo& s : ss->statestore()->Subscribers()) {
    if (s.id == id) return s.updates_sent;
  }
  return 0;
}

// A statestore, a writer and a reader, both registered; stopped in TearDown.
class OnewayTest : public ::testing::Test {
 protected:
  // `reader_reads_min`: the reader registers with populate_min (on request
  // only with `min_on_request`).
  void Start(bool reader_reads_min = false, int update_frequency_ms = 200,
             bool min_on_request = false) {
    ss_ = StartStatestore(0, update_frequency_ms);
    ASSERT_NE(ss_, nullptr);
    writer_ = StartSubscriber(SubscriberOptions("writer", ss_->port()), &writer_mirror_);
    reader_ = StartSubscriber(SubscriberOptions("reader", ss_->port()), &reader_mirror_,
                              reader_reads_min, min_on_request);
    ASSERT_TRUE(writer_->WaitForRegistration(milliseconds(5000)).ok());
    ASSERT_TRUE(reader_->WaitForRegistration(milliseconds(5000)).ok());
  }
  void TearDown() override {
    if (reader_) reader_->Stop();
    if (writer_) writer_->Stop();
    if (ss_) ss_->Stop();
  }

  std::unique_ptr<StatestoreServer> ss_;
  TopicMirror writer_mirror_, reader_mirror_;
  std::unique_ptr<StatestoreSubscriber> writer_, reader_;
};

TEST_F(OnewayTest, UpdatesGoOnewayAndCarryTheSameChanges) {
  Start();
  // Publications made in callbacks of oneway updates travel back pushed.
  writer_mirror_.Publish("first", "1");
  writer_->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(reader_mirror_.Get("first") == "1");
  // Updates are full until a non-zero version was processed; deltas after.
  const int full_updates = reader_mirror_.full_updates();
  for (int i = 0; i < 20; ++i) {
    writer_mirror_.Publish("k" + std::to_string(i), "v" + std::to_string(i));
    writer_->RequestTopicUpdate();
  }
  writer_mirror_.Publish("k0", "", /*deleted=*/true);
  writer_->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(reader_mirror_.Get("k19") == "v19" &&
                         reader_mirror_.Get("k0") == "<none>");
  EXPECT_EQ(reader_mirror_.Get("k7"), "v7");
  EXPECT_GT(OnewaySent(ss_.get()), 0);
  EXPECT_EQ(reader_mirror_.full_updates(), full_updates);
  const int64_t v = TopicVersion(ss_.get(), kTopic);
  EXPECT_TRUE(reader_->WaitForTopicVersion(kTopic, v, milliseconds(5000)).ok());
  EXPECT_TRUE(writer_->WaitForTopicVersion(kTopic, v, milliseconds(5000)).ok());
  EXPECT_EQ(reader_->num_failed_updates(), 0);
  EXPECT_EQ(Resends(ss_.get()), 0);
  EXPECT_EQ(ss_->statestore()->Counters().update_failures, 0);
}

TEST_F(OnewayTest, TopicsWhoseMinimumIsReadKeepTheReply) {
  Start(/*reader_reads_min=*/true);
  writer_mirror_.Publish("k", "v");
  writer_->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(reader_mirror_.Get("k") == "v");
  const int64_t v = TopicVersion(ss_.get(), kTopic);
  // The minimum counts only acknowledged versions, so it is right.
  EXPECT_TRUE(reader_->WaitForMinSubscriberTopicVersion(kTopic, v, milliseconds(5000)).ok());
  ASSERT_EVENTUALLY_TRUE(ss_->statestore()->Counters().updates_sent >= 10);
  EXPECT_EQ(OnewaySent(ss_.get()), 0);
}

// A minimum read on request only (SYNC_DDL's) leaves the updates oneway
// until someone waits for a version; it still counts only versions the
// subscribers acknowledged.
TEST_F(OnewayTest, AMinimumOnRequestCountsOnlyAcknowledgedVersions) {
  Start(/*reader_reads_min=*/true, /*update_frequency_ms=*/300, /*min_on_request=*/true);
  TopicMirror slow_mirror;
  auto slow = StartSubscriber(SubscriberOptions("slow", ss_->port()), &slow_mirror);
  ASSERT_TRUE(slow->WaitForRegistration(milliseconds(5000)).ok());
  // Each registration's first update is answered; the reader's minimum is
  // on request once its first RequestTopicUpdate said so.
  ASSERT_EVENTUALLY_TRUE(UpdatesSentTo(ss_.get(), "slow") >= 1 &&
                         UpdatesSentTo(ss_.get(), "reader") >= 1 &&
                         BrokerStateOf(ss_.get(), "reader").min_on_request);
  const int64_t oneway_before = OnewaySent(ss_.get());
  auto first = writer_->Publish({OneEntry(kTopic, "a", "1")});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  const int64_t v1 = first->at(kTopic);
  ASSERT_TRUE(slow->WaitForTopicVersion(kTopic, v1, milliseconds(5000)).ok());
  ASSERT_EVENTUALLY_TRUE(BrokerVersionOf(ss_.get(), "slow") == v1);
  // Written oneway: the base moved, the acknowledged version did not.
  EXPECT_GT(OnewaySent(ss_.get()), oneway_before);
  EXPECT_LT(AckedVersionOf(ss_.get(), "slow"), v1);
  // A wish for v1 gets the acknowledgements (answered updates) it needs.
  ASSERT_TRUE(reader_->WaitForMinSubscriberTopicVersion(kTopic, v1, milliseconds(5000)).ok());
  EXPECT_GE(AckedVersionOf(ss_.get(), "slow"), v1);
  EXPECT_GE(AckedVersionOf(ss_.get(), "writer"), v1);

  // A subscriber that cannot apply v2 holds the minimum below it, however
  // often v2 is written to it.
  slow_mirror.ThrowNext(1 << 30);
  auto second = writer_->Publish({OneEntry(kTopic, "b", "2")});
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  const int64_t v2 = second->at(kTopic);
  ASSERT_TRUE(reader_->WaitForTopicVersion(kTopic, v2, milliseconds(5000)).ok());
  ASSERT_EVENTUALLY_TRUE(slow_mirror.updates() >= 3);
  EXPECT_FALSE(reader_->WaitForMinSubscriberTopicVersion(kTopic, v2, milliseconds(1000)).ok());
  EXPECT_LT(reader_->min_subscriber_topic_version(kTopic), v2);
  EXPECT_LT(AckedVersionOf(ss_.get(), "slow"), v2);
  EXPECT_EQ(slow_mirror.Get("b"), "<none>");
  // Failing updates are retried at the periodic pace, not in a loop.
  const int failed = slow_mirror.updates();
  std::this_thread::sleep_for(milliseconds(900));
  EXPECT_LE(slow_mirror.updates() - failed, 12);
  // Once it applies v2, the minimum gets there.
  slow_mirror.ThrowNext(0);
  EXPECT_TRUE(reader_->WaitForMinSubscriberTopicVersion(kTopic, v2, milliseconds(10000)).ok());
  EXPECT_EQ(slow_mirror.Get("b"), "2");
  slow->Stop();
}

// SYNC_DDL's way: the wait is announced before the version exists, so the
// update that brings it is answered and needs no second round.
TEST_F(OnewayTest, AnAnnouncedMinimumWaitKeepsTheNextVersionAnswered) {
  Start(/*reader_reads_min=*/true, /*update_frequency_ms=*/60000, /*min_on_request=*/true);
  ASSERT_EVENTUALLY_TRUE(UpdatesSentTo(ss_.get(), "writer") >= 1 &&
                         UpdatesSentTo(ss_.get(), "reader") >= 1 &&
                         BrokerStateOf(ss_.get(), "reader").min_on_request);
  reader_->ExpectMinWait(kTopic);
  const int64_t next = TopicVersion(ss_.get(), kTopic) + 1;
  ASSERT_EVENTUALLY_TRUE(BrokerStateOf(ss_.get(), "reader").min_wanted == next);
  const int64_t oneway_before = OnewaySent(ss_.get());
  auto pushed = writer_->Publish({OneEntry(kTopic, "sync", "1")});
  ASSERT_TRUE(pushed.ok()) << pushed.status().ToString();
  const int64_t v = pushed->at(kTopic);
  ASSERT_TRUE(reader_->WaitForMinSubscriberTopicVersion(kTopic, v, milliseconds(5000)).ok());
  EXPECT_EQ(OnewaySent(ss_.get()), oneway_before);
  // Booked once the reply to the update that carried it is read.
  ASSERT_EVENTUALLY_TRUE(BrokerStateOf(ss_.get(), "reader").min_wanted == 0);
  // With the wish answered, the next change goes oneway again.
  auto later = writer_->Publish({OneEntry(kTopic, "later", "1")});
  ASSERT_TRUE(later.ok()) << later.status().ToString();
  ASSERT_TRUE(reader_->WaitForTopicVersion(kTopic, later->at(kTopic), milliseconds(5000)).ok());
  ASSERT_EVENTUALLY_TRUE(OnewaySent(ss_.get()) > oneway_before);
}

TEST_F(OnewayTest, AnUpdateTheCallbackFailedIsResent) {
  Start();
  ASSERT_EVENTUALLY_TRUE(OnewaySent(ss_.get()) >= 2);
  reader_mirror_.ThrowNext();
  auto pushed = writer_->Publish({OneEntry(kTopic, "boom", "1")});
  ASSERT_TRUE(pushed.ok()) << pushed.status().ToString();
  // The failed update left the reader's version behind; it asked for the
  // update again and got it.
  ASSERT_EVENTUALLY_TRUE(reader_mirror_.Get("boom") == "1");
  EXPECT_EQ(reader_->num_failed_updates(), 1);
  EXPECT_GE(Resends(ss_.get()), 1);
  EXPECT_TRUE(reader_->WaitForTopicVersion(kTopic, pushed->at(kTopic), milliseconds(5000)).ok());
}

TEST_F(OnewayTest, ACallbackThatKeepsFailingIsRetriedAtThePeriodicPace) {
  Start(/*reader_reads_min=*/false, /*update_frequency_ms=*/300);
  ASSERT_EVENTUALLY_TRUE(OnewaySent(ss_.get()) >= 2);
  reader_mirror_.ThrowNext(1 << 30);
  auto pushed = writer_->Publish({OneEntry(kTopic, "never", "1")});
  ASSERT_TRUE(pushed.ok()) << pushed.status().ToString();
  ASSERT_EVENTUALLY_TRUE(reader_mirror_.updates() >= 2);
  const int failed = reader_mirror_.updates();
  std::this_thread::sleep_for(milliseconds(900));
  // Each resend is answered once more at once, then at the periodic pace:
  // about three periods, with room for a slow machine.
  EXPECT_LE(reader_mirror_.updates() - failed, 12);
  reader_mirror_.ThrowNext(0);
  ASSERT_EVENTUALLY_TRUE(reader_mirror_.Get("never") == "1");
}

class ResendTest : public OnewayTest {
 protected:
  void SetUp() override {
    // No periodic updates: versions move only when this test moves them.
    Start(/*reader_reads_min=*/false, /*update_frequency_ms=*/60000);
    if (HasFatalFailure()) return;
    ASSERT_EVENTUALLY_TRUE(reader_mirror_.updates() >= 1);
    // One change after the first (replied) update: it goes oneway.
    auto pushed = writer_->Publish({OneEntry(kTopic, "a", "1")});
    ASSERT_TRUE(pushed.ok()) << pushed.status().ToString();
    version_ = pushed->at(kTopic);
    ASSERT_TRUE(reader_->WaitForTopicVersion(kTopic, version_, milliseconds(5000)).ok());
    ASSERT_EVENTUALLY_TRUE(BrokerVersionOf(ss_.get(), "reader") == version_);
    ASSERT_GE(OnewaySent(ss_.get()), 1);
  }
  Status Ask(const std::string& topic, int64_t from, int64_t rejected) {
    impala::TRequestTopicUpdateRequest req;
    req.registration_id = *reader_->registration_id();
    impala::TTopicResend r;
    r.topic_name = topic;
    r.from_version = from;
    r.rejected_to_version = rejected;
    req.__set_resend_from({r});
    return ss_->statestore()->RequestTopicUpdate(req);
  }

  int64_t version_ = 0;
};

TEST_F(ResendTest, ResendsAreCheckedAndOnlyTheLastUpdateSentCounts) {
  EXPECT_TRUE(Ask("no-such-topic", 0, version_).Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(Ask(kTopic, version_ + 1, version_).Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(Ask(kTopic, -1, version_).Is(ErrorCode::kInvalidArgument));
  impala::TRequestTopicUpdateRequest stranger;
  stranger.registration_id = GenerateUniqueId();
  stranger.__set_resend_from({});
  EXPECT_TRUE(ss_->statestore()->RequestTopicUpdate(stranger).Is(ErrorCode::kNotFound));
  // The rejection of an update older than the last one sent is ignored.
  EXPECT_TRUE(Ask(kTopic, 0, version_ + 5).ok());
  EXPECT_EQ(Resends(ss_.get()), 0);
  EXPECT_EQ(BrokerVersionOf(ss_.get(), "reader"), version_);
  const int full_before = reader_mirror_.full_updates();
  // The last one's is taken: from version 0, a full update.
  EXPECT_TRUE(Ask(kTopic, 0, version_).ok());
  EXPECT_EQ(Resends(ss_.get()), 1);
  ASSERT_EVENTUALLY_TRUE(reader_mirror_.full_updates() == full_before + 1);
  EXPECT_EQ(reader_mirror_.Get("a"), "1");
  ASSERT_EVENTUALLY_TRUE(BrokerVersionOf(ss_.get(), "reader") == version_);
}

}  // namespace
}  // namespace ics::statestore
