#include "statestore/topic.h"

#include <gtest/gtest.h>

namespace ics::statestore {
namespace {

using std::chrono::milliseconds;

const SteadyTime kT0{};

std::vector<std::string> Keys(const impala::TTopicDelta& d) {
  std::vector<std::string> keys;
  for (const auto& e : d.topic_entries) keys.push_back(e.key + (e.deleted ? "(del)" : ""));
  return keys;
}

TEST(TopicTest, VersionsAdvanceAndRewriteMovesKey) {
  Topic t("t");
  EXPECT_EQ(t.Apply({{"a", "1"}, {"b", "2"}}, "", false, kT0), 2);
  EXPECT_EQ(t.Apply({{"a", "3"}}, "", false, kT0), 3);
  auto full = t.BuildDelta(0, "");
  EXPECT_FALSE(full.is_delta);
  EXPECT_EQ(full.to_version, 3);
  EXPECT_EQ(Keys(full), (std::vector<std::string>{"b", "a"}));
  auto delta = t.BuildDelta(2, "");
  EXPECT_TRUE(delta.is_delta);
  EXPECT_EQ(delta.from_version, 2);
  ASSERT_EQ(delta.topic_entries.size(), 1u);
  EXPECT_EQ(delta.topic_entries[0].value, "3");
}

TEST(TopicTest, PrefixFilterAndTombstones) {
  Topic t("t");
  t.Apply({{"1:x", "v"}, {"2:x", "v"}, {"1:y", "v"}}, "", false, kT0);
  t.Apply({{"1:x", "", true}}, "", false, kT0);
  EXPECT_EQ(Keys(t.BuildDelta(0, "1:")), (std::vector<std::string>{"1:y"}));  // full: no tombstones
  EXPECT_EQ(Keys(t.BuildDelta(3, "1:")), (std::vector<std::string>{"1:x(del)"}));
  auto empty = t.BuildDelta(3, "!");
  EXPECT_TRUE(empty.topic_entries.empty());
  EXPECT_EQ(empty.to_version, 4);
  auto stats = t.Stats();
  EXPECT_EQ(stats.num_entries, 2);
  EXPECT_EQ(stats.num_tombstones, 1);
}

TEST(TopicTest, TransientEntriesRemovedUnlessOverwritten) {
  Topic t("t");
  t.Apply({{"a", "1"}, {"b", "1"}}, "reg1", true, kT0);
  t.Apply({{"b", "2"}}, "reg2", true, kT0);
  EXPECT_EQ(t.RemoveEntriesOf("reg1", kT0), 1);
  EXPECT_EQ(Keys(t.BuildDelta(3, "")), (std::vector<std::string>{"a(del)"}));
  EXPECT_EQ(t.RemoveEntriesOf("reg1", kT0), 0);
  // Persistent writes have no owner.
  t.Apply({{"c", "1"}}, "reg3", false, kT0);
  EXPECT_EQ(t.RemoveEntriesOf("reg3", kT0), 0);
}

TEST(TopicTest, TombstoneGcRespectsProcessedVersionAndRetention) {
  Topic t("t");
  t.Apply({{"a", "1"}, {"b", "1"}}, "", false, kT0);
  t.Apply({{"a", "", true}}, "", false, kT0);  // version 3
  // Not yet processed by everyone.
  EXPECT_EQ(t.CollectTombstones(2, milliseconds(0), kT0), 0);
  // Processed but inside the retention window.
  EXPECT_EQ(t.CollectTombstones(3, milliseconds(1000), kT0 + milliseconds(10)), 0);
  EXPECT_EQ(t.CollectTombstones(3, milliseconds(1000), kT0 + milliseconds(2000)), 1);
  // A base below the floor now gets a full update (no lost delete).
  auto d = t.BuildDelta(2, "");
  EXPECT_FALSE(d.is_delta);
  EXPECT_EQ(Keys(d), (std::vector<std::string>{"b"}));
  EXPECT_TRUE(t.BuildDelta(3, "").is_delta);
}

TEST(TopicTest, ClearForcesFullUpdates) {
  Topic t("t");
  t.Apply({{"a", "1"}}, "", false, kT0);
  t.ClearAll();
  EXPECT_FALSE(t.BuildDelta(1, "").is_delta);
  t.Apply({{"b", "1"}}, "", false, kT0);
  auto d = t.BuildDelta(1, "");
  EXPECT_FALSE(d.is_delta);
  EXPECT_EQ(Keys(d), (std::vector<std::string>{"b"}));
  EXPECT_TRUE(t.BuildDelta(2, "").is_delta);
}

TEST(TopicTest, BaseAheadOfTopicGetsFullUpdate) {
  Topic t("t");
  t.Apply({{"a", "1"}}, "", false, kT0);
  EXPECT_FALSE(t.BuildDelta(99, "").is_delta);
}

}  // namespace
}  // namespace ics::statestore
