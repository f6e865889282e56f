// PartitionIndex: lookups agree with a full scan for many filters, and the
// index follows table changes (Sync by partition ids).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>
#include <thread>

#include "catalogd/ops/partition_index.h"
#include "catalogd/ops/partition_index_manager.h"
#include "catalogd/ops/partition_predicate.h"
#include "common/hive/partition_name.h"
#include "common/types/column_type.h"

namespace ics::catalog::ops {
namespace {

impala::TColumn Key(const std::string& name, const std::string& type) {
  impala::TColumn c;
  c.columnName = name;
  c.columnType = *ParseHiveType(type);
  return c;
}

// A table partitioned by (year int, month int, region string) with
// partitions for years 2000..2000+years-1, months 1..12, regions r0..r3
// (plus one NULL-region partition per year).
std::shared_ptr<TableState> MakeTable(int years, int64_t* next_id) {
  auto t = std::make_shared<TableState>();
  t->db = "d";
  t->name = "t";
  t->version = 1;
  t->loaded = true;
  t->clustering_columns = {Key("year", "int"), Key("month", "int"), Key("region", "string")};
  auto add = [&](std::vector<std::string> values) {
    auto p = NewPartition();
    p->id = (*next_id)++;
    p->set_name(*MakePartitionName({"year", "month", "region"}, values));
    p->set_values(values);
    t->partitions_by_name.Put(p);
    t->partitions.emplace(p->id, p);
  };
  for (int y = 0; y < years; ++y) {
    for (int m = 1; m <= 12; ++m) {
      for (int r = 0; r < 4; ++r) add({std::to_string(2000 + y), std::to_string(m), "r" + std::to_string(r)});
    }
    add({std::to_string(2000 + y), "1", "__HIVE_DEFAULT_PARTITION__"});
  }
  return t;
}

std::vector<PartitionKeyInfo> Keys() {
  return {{"year", KeyKind::kInt}, {"month", KeyKind::kInt}, {"region", KeyKind::kString}};
}

std::vector<int64_t> Scan(const TableState& t, const PartitionPredicate& pred) {
  std::vector<int64_t> out;
  for (const auto& [id, p] : t.partitions) {
    auto v = TypedValues(Keys(), p->values(), {0, 1, 2});
    if (v.ok() && pred.Matches(*v)) out.push_back(id);
  }
  return out;
}

// Index candidates filtered by the predicate, sorted.
std::optional<std::vector<int64_t>> ViaIndex(PartitionIndex* index, const TableState& t,
                                             const PartitionPredicate& pred) {
  auto ids = index->Lookup(t, pred.Constraints());
  if (!ids) return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t id : *ids) {
    const auto& p = t.partitions.at(id);
    auto v = TypedValues(Keys(), p->values(), {0, 1, 2});
    if (v.ok() && pred.Matches(*v)) out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PartitionIndexTest, AgreesWithScan) {
  int64_t next_id = 1;
  auto t = MakeTable(10, &next_id);
  PartitionIndex index({0, 1}, Keys());  // (year, month)
  EXPECT_TRUE(index.Build(*t).empty());
  EXPECT_EQ(index.size(), t->partitions.size());
  const std::vector<std::string> usable = {
      "year = 2003",
      "year = 2003 AND month = 7",
      "year IN (2001, 2005, 2042) AND month BETWEEN 3 AND 5",
      "year >= 2004",
      "year > 2004 AND year < 2007",
      "year <= 2000",
      "year = 2003 AND month > 10 AND region = 'r1'",
      "year = 2003 AND month IN (1, 2) AND region IS NULL",
      "year BETWEEN 2002 AND 2003 AND NOT (month = 4)",
      "year = 2003 AND year = 2004",
      "year = 2003.0",
      "year < 2003.5 AND year > 2001",
      "year = NULL",
      "year IN (2003, NULL)",
  };
  for (const std::string& f : usable) {
    auto pred = PartitionPredicate::Compile(f, Keys());
    ASSERT_TRUE(pred.ok()) << f;
    auto scan = Scan(*t, *pred);
    auto idx = ViaIndex(&index, *t, *pred);
    ASSERT_TRUE(idx.has_value()) << "index not used for: " << f;
    EXPECT_EQ(*idx, scan) << f;
  }
  // Filters that do not pin the first indexed key cannot use it.
  for (const std::string f : {"month = 3", "region = 'r1'", "year = 2003 OR month = 1",
                              "year IS NULL", "year != 2003"}) {
    auto pred = PartitionPredicate::Compile(f, Keys());
    ASSERT_TRUE(pred.ok()) << f;
    EXPECT_FALSE(index.Lookup(*t, pred->Constraints()).has_value()) << f;
  }
}

TEST(PartitionIndexTest, RandomFiltersAgreeWithScan) {
  int64_t next_id = 1;
  auto t = MakeTable(6, &next_id);
  PartitionIndex index({0, 1, 2}, Keys());
  ASSERT_TRUE(index.Build(*t).empty());
  std::mt19937 rng(7);
  auto year = [&] { return std::to_string(1999 + static_cast<int>(rng() % 8)); };
  auto month = [&] { return std::to_string(static_cast<int>(rng() % 14)); };
  const char* ops[] = {"=", "<", "<=", ">", ">="};
  for (int i = 0; i < 300; ++i) {
    std::string f = "year " + std::string(ops[rng() % 5]) + " " + year();
    if (rng() % 2) f += " AND month " + std::string(ops[rng() % 5]) + " " + month();
    if (rng() % 3 == 0) f += " AND region IN ('r" + std::to_string(rng() % 5) + "', 'r1')";
    if (rng() % 4 == 0) f = "year IN (" + year() + ", " + year() + ") AND " + f;
    auto pred = PartitionPredicate::Compile(f, Keys());
    ASSERT_TRUE(pred.ok()) << f;
    auto idx = ViaIndex(&index, *t, *pred);
    ASSERT_TRUE(idx.has_value()) << f;
    EXPECT_EQ(*idx, Scan(*t, *pred)) << f;
  }
}

TEST(PartitionIndexTest, FollowsTableChanges) {
  int64_t next_id = 1;
  auto t = MakeTable(3, &next_id);
  PartitionIndex index({0}, Keys());
  ASSERT_TRUE(index.Build(*t).empty());
  // A new state: drop every 2001 partition, add two 2042 ones, replace one
  // 2000 partition (new id, same values).
  auto next = std::make_shared<TableState>(*t);
  next->version = 2;
  std::vector<int64_t> drop;
  for (const auto& [id, p] : next->partitions) {
    if (p->values()[0] == "2001") drop.push_back(id);
  }
  for (int64_t id : drop) next->partitions.erase(id);
  for (const char* r : {"r0", "r1"}) {
    auto p = NewPartition();
    p->id = next_id++;
    p->set_name(*MakePartitionName({"year", "month", "region"}, {"2042", "1", r}));
    p->set_values({"2042", "1", r});
    next->partitions.emplace(p->id, p);
  }
  const int64_t replaced = next->partitions.begin()->first;
  auto copy = NewPartition(*next->partitions.begin()->second);
  copy->id = next_id++;
  next->partitions.erase(replaced);
  next->partitions.emplace(copy->id, copy);

  for (const std::string f : {"year = 2001", "year = 2042", "year = 2000", "year >= 2000"}) {
    auto pred = PartitionPredicate::Compile(f, Keys());
    ASSERT_TRUE(pred.ok());
    auto idx = ViaIndex(&index, *next, *pred);  // syncs to `next` first
    ASSERT_TRUE(idx.has_value());
    EXPECT_EQ(*idx, Scan(*next, *pred)) << f;
  }
  EXPECT_EQ(index.version(), 2);
  EXPECT_EQ(index.size(), next->partitions.size());
  // And back to the old state.
  auto pred = PartitionPredicate::Compile("year = 2001", Keys());
  EXPECT_EQ(*ViaIndex(&index, *t, *pred), Scan(*t, *pred));
}

TEST(PartitionIndexTest, BackfillErrorsForValuesThatDoNotFit) {
  int64_t next_id = 1;
  auto t = MakeTable(1, &next_id);
  auto bad = NewPartition();
  bad->id = next_id++;
  bad->set_name("year=not-a-year/month=1/region=r0");
  bad->set_values({"not-a-year", "1", "r0"});
  t->partitions.emplace(bad->id, bad);
  auto short_values = NewPartition();
  short_values->id = next_id++;
  short_values->set_name("year=2000");
  short_values->set_values({"2000"});
  t->partitions.emplace(short_values->id, short_values);
  PartitionIndex index({0, 1}, Keys());
  auto errors = index.Build(*t);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].code, "INVALID_PARTITION_TYPE_DATA_ERROR");
  ASSERT_EQ(errors[0].partitions.size(), 1u);
  EXPECT_EQ(errors[0].partitions[0][0], "not-a-year");
  EXPECT_EQ(errors[1].code, "MISSING_PARTITION_VALUE_ERROR");
  // Unindexed partitions are always candidates, so lookups stay correct.
  auto pred = PartitionPredicate::Compile("year = 2000", Keys());
  auto ids = index.Lookup(*t, pred->Constraints());
  ASSERT_TRUE(ids.has_value());
  EXPECT_NE(std::find(ids->begin(), ids->end(), bad->id), ids->end());
}

// Waits until `pred` holds for index `name` of d.<table> (up to 30 s).
template <typename Pred>
std::optional<IndexInfo> WaitForIndex(PartitionIndexManager* m, const std::string& table,
                                      const std::string& name, Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    std::optional<IndexInfo> info = m->Get("d", table, name);
    if (info && pred(*info)) return info;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return m->Get("d", table, name);
}

TEST(PartitionIndexManagerTest, AJobThatThrowsFailsItsIndexAndTheWorkerGoesOn) {
  PartitionIndexManager m;
  m.SetJobHookForTesting([](const std::string& table_key) {
    if (table_key == "d.t") throw std::runtime_error("index job exploded");
  });
  int64_t next_id = 1;
  auto t = MakeTable(2, &next_id);
  t->hms.parameters[std::string(kIndexParamPrefix) + "ix"] = "year,month";
  m.SyncTable(t);
  auto failed = WaitForIndex(&m, "t", "ix",
                             [](const IndexInfo& i) { return i.state == IndexState::kFailed; });
  ASSERT_TRUE(failed.has_value());
  EXPECT_EQ(failed->state, IndexState::kFailed);
  EXPECT_NE(failed->failure.find("index job exploded"), std::string::npos) << failed->failure;
  EXPECT_EQ(m.job_exceptions(), 1);

  // The same worker builds the next table's index.
  auto other = MakeTable(2, &next_id);
  other->name = "other";
  other->hms.parameters[std::string(kIndexParamPrefix) + "ix"] = "year";
  m.SyncTable(other);
  auto active = WaitForIndex(&m, "other", "ix",
                             [](const IndexInfo& i) { return i.state == IndexState::kActive; });
  ASSERT_TRUE(active.has_value());
  EXPECT_EQ(active->state, IndexState::kActive);

  // A sync job that throws takes the (possibly half-synced) index out of use.
  m.SetJobHookForTesting([](const std::string& table_key) {
    if (table_key == "d.other") throw std::runtime_error("sync exploded");
  });
  auto next = std::make_shared<TableState>(*other);
  next->version = other->version + 1;
  m.Changed(next);
  auto out = WaitForIndex(&m, "other", "ix",
                          [](const IndexInfo& i) { return i.state == IndexState::kFailed; });
  ASSERT_TRUE(out.has_value());
  EXPECT_EQ(out->state, IndexState::kFailed);
  EXPECT_EQ(m.job_exceptions(), 2);
  auto pred = PartitionPredicate::Compile("year = 2000", Keys());
  ASSERT_TRUE(pred.ok());
  EXPECT_FALSE(m.Find(next, pred->Constraints()).has_value());  // scans instead
  m.Shutdown();
}

}  // namespace
}  // namespace ics::catalog::ops
