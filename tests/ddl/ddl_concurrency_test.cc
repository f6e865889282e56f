// DDL on different tables runs in parallel; DDL on one table is serialized.
//
// An ADD PARTITION on db.a is paused inside its critical section (while it
// creates the partition directory, holding a's lock): an ALTER of db.b must
// complete meanwhile, a second ALTER of db.a must wait until the first one
// is released.
#include <atomic>
#include <future>
#include <thread>

#include "tests/ddl/ddl_test_util.h"

namespace ics::catalog::testing {
namespace {

using A = impala::TAlterTableType;
using namespace std::chrono_literals;

class DdlConcurrencyTest : public DdlTest {
 protected:
  void SetUp() override {
    DdlTest::SetUp();
    ASSERT_TRUE(CreateDb("db").ok());
    MakePartitionedTable("db", "a");
    MakePartitionedTable("db", "b");
  }

  impala::TDdlExecRequest AddColumn(const std::string& table, const std::string& col) {
    impala::TDdlExecRequest r = AlterReq("db", table, A::ADD_COLUMNS);
    r.alter_table_params.__isset.add_cols_params = true;
    r.alter_table_params.add_cols_params.__set_columns({Col(col, "int")});
    r.alter_table_params.add_cols_params.if_not_exists = false;
    return r;
  }
};

TEST_F(DdlConcurrencyTest, DifferentTablesInParallelSameTableSerialized) {
  fs_.PauseCreate("/a/year=1");
  auto first = std::async(std::launch::async, [&] {
    return AddPartitions("db", "a", {{Kv("year", "1"), Kv("month", "x")}});
  });
  ASSERT_TRUE(fs_.WaitPaused(10s)) << "ADD PARTITION never reached the filesystem";

  // Another table: completes while db.a's DDL is paused.
  auto other = std::async(std::launch::async, [&] { return Exec(AddColumn("b", "c1")); });
  ASSERT_EQ(other.wait_for(10s), std::future_status::ready) << "db.b was blocked by db.a";
  auto other_result = other.get();
  ASSERT_TRUE(other_result.ok()) << other_result.status().ToString();
  auto other_partition = AddPartitions("db", "b", {{Kv("year", "1"), Kv("month", "x")}});
  ASSERT_TRUE(other_partition.ok()) << other_partition.status().ToString();

  // The same table: waits for the first DDL.
  auto second = std::async(std::launch::async, [&] { return Exec(AddColumn("a", "c2")); });
  EXPECT_EQ(second.wait_for(300ms), std::future_status::timeout)
      << "a second DDL on db.a ran while the first held its lock";
  EXPECT_EQ(first.wait_for(0ms), std::future_status::timeout);

  fs_.Release();
  auto first_result = first.get();
  auto second_result = second.get();
  ASSERT_TRUE(first_result.ok()) << first_result.status().ToString();
  ASSERT_TRUE(second_result.ok()) << second_result.status().ToString();
  EXPECT_LT(first_result->version, second_result->version) << "serialized in order";
  TablePtr a = catalog_->GetTable("db", "a");
  EXPECT_EQ(a->partitions.size(), 1u) << "the second DDL built on the first one's state";
  EXPECT_EQ(a->columns.back().columnName, "c2");
}

TEST_F(DdlConcurrencyTest, ManyThreadsManyTables) {
  constexpr int kThreads = 4;
  constexpr int kPerThread = 5;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      const std::string table = i % 2 == 0 ? "a" : "b";  // two threads per table
      for (int j = 0; j < kPerThread; ++j) {
        auto r = AddPartitions("db", table,
                               {{Kv("year", std::to_string(i * 100 + j)), Kv("month", "m")}});
        if (!r.ok()) ++failures;
        auto c = Exec(AddColumn(table, "c" + std::to_string(i) + "_" + std::to_string(j)));
        if (!c.ok()) ++failures;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  for (const std::string table : {"a", "b"}) {
    TablePtr t = catalog_->GetTable("db", table);
    EXPECT_EQ(t->partitions.size(), 2u * kPerThread) << table;
    EXPECT_EQ(t->columns.size(), 2u + 2u * kPerThread) << table;
    EXPECT_EQ(metastore_->GetPartitions("db", table)->size(), 2u * kPerThread);
  }
}

}  // namespace
}  // namespace ics::catalog::testing
