// TopicPusher: pushes after Notify(), falls back to asking for an update
// when the publisher defers or a push fails, backs off after a failure, and
// does nothing while it may not push (a standby catalogd).
#include "catalogd/topic/topic_pusher.h"

#include <gtest/gtest.h>

#include <atomic>

#include "catalog_test_util.h"
#include "tests/util/eventually.h"

namespace ics::catalog {
namespace {

using ::ics::testing::Eventually;

impala::TTopicDelta Update(int64_t from, bool is_delta) {
  return testing::TopicUpdate(from, from, is_delta);
}

class TopicPusherTest : public ::testing::Test {
 protected:
  void AddDatabase(const std::string& name) {
    ChangeSet cs;
    cs.put_databases.push_back(testing::Db(name));
    catalog_.Install(std::move(cs));
  }
  // The reply path: a full publication, then an update that confirms it.
  void PublishInReplies() {
    std::vector<impala::TTopicDelta> out;
    publisher_.OnTopicUpdate(Update(0, false), &out);
    out.clear();
    publisher_.OnTopicUpdate(Update(1, true), &out);
  }
  std::unique_ptr<TopicPusher> MakePusher(Status answer) {
    return std::make_unique<TopicPusher>(
        &publisher_,
        [this, answer](std::vector<impala::TTopicDelta>, std::chrono::steady_clock::time_point) {
          ++pushes_;
          return answer;
        },
        [this] { ++requests_; }, [this] { return may_push_.load(); });
  }

  Catalog catalog_;
  CatalogTopicPublisher publisher_{&catalog_, {TopicMode::kMinimal, true}};
  std::atomic<int> pushes_{0};
  std::atomic<int> requests_{0};
  std::atomic<bool> may_push_{true};
};

TEST_F(TopicPusherTest, PushesChangesAndAsksForAnUpdateWhenDeferred) {
  AddDatabase("d");
  auto pusher = MakePusher(Status::OK());
  pusher->Start();
  pusher->Notify();  // the first publication is the reply path's
  ASSERT_TRUE(Eventually([&] { return requests_ == 1; }));
  EXPECT_EQ(pushes_, 0);
  PublishInReplies();
  AddDatabase("d2");
  pusher->Notify();
  ASSERT_TRUE(Eventually([&] { return pushes_ == 1; }));
  EXPECT_EQ(publisher_.last_published_version(), 2);
  EXPECT_EQ(requests_, 1);
  pusher->Stop();
}

TEST_F(TopicPusherTest, AFailedPushBacksOffToTheReplyPath) {
  AddDatabase("d");
  PublishInReplies();
  auto pusher = MakePusher(Status::NetworkError("refused"));
  pusher->Start();
  AddDatabase("d2");
  pusher->Notify();
  ASSERT_TRUE(Eventually([&] { return requests_ == 1; }));
  EXPECT_EQ(pushes_, 1);
  EXPECT_EQ(pusher->failed_pushes(), 1);
  AddDatabase("d3");
  pusher->Notify();  // within the backoff: no push, only the request
  ASSERT_TRUE(Eventually([&] { return requests_ == 2; }));
  EXPECT_EQ(pushes_, 1);
  pusher->Stop();
}

TEST_F(TopicPusherTest, NothingWhileItMayNotPush) {
  AddDatabase("d");
  PublishInReplies();
  may_push_ = false;
  auto pusher = MakePusher(Status::OK());
  pusher->Start();
  AddDatabase("d2");
  pusher->Notify();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(pushes_, 0);
  EXPECT_EQ(requests_, 0);
  may_push_ = true;
  pusher->Notify();
  ASSERT_TRUE(Eventually([&] { return pushes_ == 1; }));
  pusher->Stop();
  pusher->Stop();  // idempotent
}

}  // namespace
}  // namespace ics::catalog

