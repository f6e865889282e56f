#include "catalogd/topic/catalog_topic_publisher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

#include "catalog_test_util.h"
#include "common/codec/topic_value.h"

namespace ics::catalog {
namespace {

using testing::Db;
using testing::Table;

std::vector<std::string> Keys(const impala::TTopicDelta& d) {
  std::vector<std::string> keys;
  for (const auto& e : d.topic_entries) keys.push_back(e.key + (e.deleted ? " (deleted)" : ""));
  return keys;
}

impala::TTopicDelta Update(int64_t from, int64_t to, bool is_delta) {
  return testing::TopicUpdate(from, to, is_delta);
}

impala::TTopicDelta Publish(CatalogTopicPublisher* p, const impala::TTopicDelta& in) {
  std::vector<impala::TTopicDelta> out;
  p->OnTopicUpdate(in, &out);
  return out.empty() ? impala::TTopicDelta() : out[0];
}

class PublisherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ChangeSet cs;
    cs.put_databases.push_back(Db("d"));
    cs.put_tables.push_back(Table("d", "t", 2, 3));
    catalog_.Install(std::move(cs));  // version 1
  }
  Catalog catalog_;
};

TEST_F(PublisherTest, FirstPublicationIsFullWithClearAndCatalogLast) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMixed, true});
  auto d = Publish(&pub, Update(0, 0, false));
  EXPECT_TRUE(d.__isset.clear_topic_entries && d.clear_topic_entries);
  EXPECT_FALSE(d.is_delta);
  EXPECT_EQ(Keys(d), (std::vector<std::string>{
                         "1:DATABASE:d", "2:DATABASE:d", "1:TABLE:d.t", "1:HDFS_PARTITION:d.t:p=0",
                         "1:HDFS_PARTITION:d.t:p=1", "2:TABLE:d.t", "1:CATALOG_SERVICE_ID",
                         "2:CATALOG_SERVICE_ID"}));
  impala::TCatalogObject cat;
  ASSERT_TRUE(DecodeTopicValue(d.topic_entries.back().value, true, &cat).ok());
  EXPECT_EQ(cat.type, impala::TCatalogObjectType::CATALOG);
  EXPECT_EQ(cat.catalog_version, 1);
  EXPECT_EQ(cat.catalog.catalog_service_id, catalog_.service_id());
  // Partition entries carry their files; the table entry only ids + names.
  impala::TCatalogObject part;
  ASSERT_TRUE(DecodeTopicValue(d.topic_entries[3].value, true, &part).ok());
  EXPECT_EQ(part.hdfs_partition.file_desc.size(), 3u);
  EXPECT_EQ(part.catalog_version, 1);
  EXPECT_EQ(pub.last_published_version(), 1);
}

TEST_F(PublisherTest, ModesSelectPrefixes) {
  CatalogTopicPublisher full(&catalog_, {TopicMode::kFull, false});
  for (const auto& k : Keys(Publish(&full, Update(0, 0, false)))) EXPECT_EQ(k.substr(0, 2), "1:");
  CatalogTopicPublisher minimal(&catalog_, {TopicMode::kMinimal, false});
  auto d = Publish(&minimal, Update(0, 0, false));
  for (const auto& k : Keys(d)) EXPECT_EQ(k.substr(0, 2), "2:");
  // Uncompacted values are plain TBinaryProtocol.
  impala::TCatalogObject obj;
  EXPECT_TRUE(DecodeTopicValue(d.topic_entries[0].value, false, &obj).ok());
}

TEST_F(PublisherTest, DeltasCarryOnlyChangesAndDeletions) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMixed, true});
  Publish(&pub, Update(0, 0, false));
  // Nothing changed: no publication.
  EXPECT_TRUE(Publish(&pub, Update(10, 10, true)).topic_entries.empty());
  // Add a partition (keep p=0 and p=1 objects) and drop the table later.
  auto t = std::make_shared<TableState>(*catalog_.GetTable("d", "t"));
  auto extra = Table("d", "t", 1, 1, 50)->partitions.begin()->second;
  auto p = NewPartition(*extra);
  p->set_name("p=9");
  p->added_version = 0;
  t->partitions[p->id] = p;
  ChangeSet cs;
  cs.put_tables.push_back(t);
  catalog_.Install(std::move(cs));  // v2
  auto d = Publish(&pub, Update(10, 10, true));
  EXPECT_TRUE(d.is_delta);
  EXPECT_EQ(Keys(d), (std::vector<std::string>{"1:TABLE:d.t", "1:HDFS_PARTITION:d.t:p=9",
                                                "2:TABLE:d.t", "1:CATALOG_SERVICE_ID",
                                                "2:CATALOG_SERVICE_ID"}));
  ChangeSet drop;
  drop.drop_tables.emplace_back("d", "t");
  catalog_.Install(std::move(drop));  // v3
  d = Publish(&pub, Update(15, 15, true));
  EXPECT_EQ(Keys(d), (std::vector<std::string>{"1:TABLE:d.t (deleted)", "2:TABLE:d.t (deleted)",
                                                "1:CATALOG_SERVICE_ID", "2:CATALOG_SERVICE_ID"}));
  impala::TCatalogObject removed;
  ASSERT_TRUE(DecodeTopicValue(d.topic_entries[0].value, true, &removed).ok());
  EXPECT_EQ(removed.catalog_version, 3);
}

TEST_F(PublisherTest, ReplacedPartitionEndsUpLiveUnderItsKey) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kFull, true});
  Publish(&pub, Update(0, 0, false));
  // REFRESH-like: partition p=0 gets a new id (same name), p=1 unchanged.
  auto t = std::make_shared<TableState>(*catalog_.GetTable("d", "t"));
  auto old = t->partitions.begin()->second;
  auto fresh = NewPartition(*old);
  fresh->id = 99;
  fresh->prev_id = old->id;
  fresh->added_version = 0;
  t->partitions.erase(old->id);
  t->partitions[fresh->id] = fresh;
  ChangeSet cs;
  cs.put_tables.push_back(t);
  catalog_.Install(std::move(cs));
  auto d = Publish(&pub, Update(7, 7, true));
  // The statestore keeps the last write per key: the live partition must
  // come after the tombstone of the partition it replaced.
  EXPECT_EQ(Keys(d), (std::vector<std::string>{"1:HDFS_PARTITION:d.t:p=0 (deleted)", "1:TABLE:d.t",
                                                "1:HDFS_PARTITION:d.t:p=0",
                                                "1:CATALOG_SERVICE_ID"}));
}

TEST_F(PublisherTest, StatestoreRestartTriggersFullResend) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMinimal, true});
  Publish(&pub, Update(0, 0, false));
  auto d = Publish(&pub, Update(0, 0, false));  // a new statestore with an empty topic
  EXPECT_TRUE(d.__isset.clear_topic_entries && d.clear_topic_entries);
  EXPECT_EQ(pub.Stats().full_publications, 2);
}

TEST_F(PublisherTest, LostReplyIsSentAgain) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMinimal, true});
  Publish(&pub, Update(0, 0, false));
  ChangeSet cs;
  cs.put_databases.push_back(Db("d2"));
  catalog_.Install(std::move(cs));  // v2
  auto first = Publish(&pub, Update(5, 5, true));
  ASSERT_FALSE(first.topic_entries.empty());
  pub.OnPublicationLost();
  auto again = Publish(&pub, Update(5, 5, true));
  EXPECT_EQ(Keys(again), Keys(first));
}

TEST_F(PublisherTest, WaitForPublicationReturnsCoveringVersion) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMinimal, true});
  auto timeout = pub.WaitForPublication(1, std::chrono::milliseconds(10));
  EXPECT_EQ(timeout.status().code(), ErrorCode::kTimedOut);
  Publish(&pub, Update(0, 0, false));
  auto ok = pub.WaitForPublication(1, std::chrono::milliseconds(10));
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 1);
}

// New partitions are found by difference from the table as last published
// (or, when that is newer than the delta's start, by looking at every one):
// random adds, replacements and drops, with lost replies in between, must
// publish exactly the partitions (re)created since the last publication.
TEST_F(PublisherTest, FreshPartitionsMatchAFullScan) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMixed, true});
  {
    ChangeSet cs;
    cs.put_tables.push_back(Table("d", "t", 200, 1));
    catalog_.Install(std::move(cs));
  }
  Publish(&pub, Update(0, 0, false));
  std::mt19937 rng(7);
  int64_t next_id = 1000;
  int64_t topic_version = 10;
  for (int step = 0; step < 60; ++step) {
    auto t = std::make_shared<TableState>(*catalog_.GetTable("d", "t"));
    std::vector<int64_t> ids;
    for (const auto& [id, p] : t->partitions) ids.push_back(id);
    const int64_t victim = ids[rng() % ids.size()];
    switch (rng() % 4) {
      case 0: {  // add
        auto p = NewPartition(*t->partitions.at(victim));
        p->id = next_id++;
        p->set_name("p=n" + std::to_string(p->id));
        p->prev_id = -1;
        p->added_version = 0;
        t->partitions[p->id] = p;
        break;
      }
      case 1: {  // replace (REFRESH): same name, new id
        auto p = NewPartition(*t->partitions.at(victim));
        p->id = next_id++;
        p->prev_id = victim;
        p->added_version = 0;
        t->partitions.erase(victim);
        t->partitions[p->id] = p;
        break;
      }
      case 2:  // drop
        if (ids.size() > 1) t->partitions.erase(victim);
        break;
      default:  // the table only
        break;
    }
    ChangeSet cs;
    cs.put_tables.push_back(t);
    catalog_.Install(std::move(cs));
    if (rng() % 5 == 0) continue;  // several changes in one publication
    if (rng() % 6 == 0) pub.OnPublicationLost();
    const int64_t from = pub.last_published_version();
    std::set<std::string> expected;
    for (const auto& [id, p] : catalog_.GetTable("d", "t")->partitions) {
      if (p->added_version > from) expected.insert("1:HDFS_PARTITION:d.t:" + std::string(p->name()));
    }
    std::set<std::string> got;
    for (const auto& key : Keys(Publish(&pub, Update(topic_version, topic_version, true)))) {
      if (key.rfind("1:HDFS_PARTITION:", 0) == 0 && key.find("(deleted)") == std::string::npos) {
        got.insert(key);
      }
    }
    topic_version += 3;
    EXPECT_EQ(got, expected) << "step " << step << ", from version " << from;
  }
}

// Pushing (PushChanges): only while the reply path has nothing unconfirmed.
class PushTest : public PublisherTest {
 protected:
  void AddDatabase(const std::string& name) {
    ChangeSet cs;
    cs.put_databases.push_back(Db(name));
    catalog_.Install(std::move(cs));
  }
  // A push that keeps what it was given and answers `answer`.
  CatalogTopicPublisher::PushFn Recorder(Status answer = Status::OK()) {
    return [this, answer](std::vector<impala::TTopicDelta> deltas, std::chrono::steady_clock::time_point) {
      pushed_.insert(pushed_.end(), deltas.begin(), deltas.end());
      return answer;
    };
  }
  std::vector<impala::TTopicDelta> pushed_;
};

using Outcome = CatalogTopicPublisher::PushOutcome;

TEST_F(PushTest, PushesOnlyOnceTheReplyPathIsConfirmed) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMinimal, true});
  // The first publication is a full resend, made in a reply.
  EXPECT_EQ(pub.PushChanges(Recorder()), Outcome::kDeferred);
  Publish(&pub, Update(0, 0, false));
  AddDatabase("d2");  // v2
  // The full publication is not known applied yet: a push could overtake it.
  EXPECT_EQ(pub.PushChanges(Recorder()), Outcome::kDeferred);
  EXPECT_TRUE(pushed_.empty());
  // The next update confirms it (and collects v2 in its reply).
  ASSERT_FALSE(Publish(&pub, Update(3, 3, true)).topic_entries.empty());
  EXPECT_EQ(pub.PushChanges(Recorder()), Outcome::kDeferred);
  EXPECT_TRUE(Publish(&pub, Update(5, 5, true)).topic_entries.empty());
  EXPECT_EQ(pub.PushChanges(Recorder()), Outcome::kNothing);

  AddDatabase("d3");  // v3
  EXPECT_EQ(pub.PushChanges(Recorder()), Outcome::kPushed);
  ASSERT_EQ(pushed_.size(), 1u);
  EXPECT_EQ(Keys(pushed_[0]),
            (std::vector<std::string>{"2:DATABASE:d3", "2:CATALOG_SERVICE_ID"}));
  EXPECT_TRUE(pushed_[0].is_delta);
  EXPECT_FALSE(pushed_[0].__isset.to_version);
  EXPECT_FALSE(pushed_[0].__isset.clear_topic_entries);
  EXPECT_EQ(pub.last_published_version(), 3);
  EXPECT_EQ(*pub.WaitForPublication(3, std::chrono::milliseconds(10)), 3);
  EXPECT_EQ(pub.Stats().pushed_publications, 1);
  // Pushed is confirmed: the next push needs no update in between, and the
  // next update has nothing left to collect.
  AddDatabase("d4");  // v4
  EXPECT_EQ(pub.PushChanges(Recorder()), Outcome::kPushed);
  EXPECT_EQ(pushed_.size(), 2u);
  EXPECT_TRUE(Publish(&pub, Update(7, 7, true)).topic_entries.empty());
  // A full resend asked for goes through the reply path again.
  pub.RequestFullResend();
  AddDatabase("d5");
  EXPECT_EQ(pub.PushChanges(Recorder()), Outcome::kDeferred);
}

TEST_F(PushTest, AFailedPushLeavesTheChangesToTheReplyPath) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMinimal, true});
  Publish(&pub, Update(0, 0, false));
  Publish(&pub, Update(3, 3, true));
  AddDatabase("d2");  // v2
  EXPECT_EQ(pub.PushChanges(Recorder(Status::NetworkError("statestore unreachable"))),
            Outcome::kFailed);
  EXPECT_EQ(pub.last_published_version(), 1);
  auto d = Publish(&pub, Update(5, 5, true));
  EXPECT_EQ(Keys(d), (std::vector<std::string>{"2:DATABASE:d2", "2:CATALOG_SERVICE_ID"}));
  EXPECT_EQ(pub.last_published_version(), 2);
  EXPECT_EQ(pub.Stats().pushed_publications, 0);
}

TEST_F(PushTest, APushThatThrowsIsAFailureAndWedgesNothing) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMinimal, true});
  Publish(&pub, Update(0, 0, false));
  Publish(&pub, Update(3, 3, true));
  AddDatabase("d2");  // v2
  EXPECT_EQ(pub.PushChanges([](std::vector<impala::TTopicDelta>,
                               std::chrono::steady_clock::time_point) -> Status {
    throw std::runtime_error("connection object broke");
  }),
            Outcome::kFailed);
  EXPECT_EQ(pub.last_published_version(), 1);
  // The next update is not held by a push that never ended.
  EXPECT_EQ(Keys(Publish(&pub, Update(5, 5, true))),
            (std::vector<std::string>{"2:DATABASE:d2", "2:CATALOG_SERVICE_ID"}));
}

TEST_F(PushTest, AnUpdateWaitsForThePushInFlight) {
  CatalogTopicPublisher pub(&catalog_, {TopicMode::kMinimal, true});
  Publish(&pub, Update(0, 0, false));
  Publish(&pub, Update(3, 3, true));
  AddDatabase("d2");  // v2
  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
  std::thread pusher([&] {
    EXPECT_EQ(pub.PushChanges([&](std::vector<impala::TTopicDelta>, std::chrono::steady_clock::time_point) {
      entered.set_value();
      released.wait();
      return Status::OK();
    }),
              Outcome::kPushed);
  });
  entered.get_future().wait();
  std::atomic<bool> done{false};
  impala::TTopicDelta collected;
  std::thread update([&] {
    collected = Publish(&pub, Update(5, 5, true));
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(done.load());  // held until the push is answered
  release.set_value();
  pusher.join();
  update.join();
  // It built from the pushed version: nothing twice.
  EXPECT_TRUE(collected.topic_entries.empty());
  EXPECT_EQ(pub.last_published_version(), 2);
}

}  // namespace
}  // namespace ics::catalog
