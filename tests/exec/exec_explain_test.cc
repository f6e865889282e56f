// EXPLAIN: partition pruning, files, sizes and cardinality from the local
// catalog (ExecExplain* suites).
#include "common/sql/parser.h"
#include "tests/exec/exec_test_util.h"

namespace ics::coord::testing {
namespace {

using Lines = std::vector<std::string>;

class ExecExplainTest : public ExecTest {
 protected:
  ExecExplainTest() {
    cat().AddTable("db1", "p", {{"x", "int"}, {"s", "string"}}, {{"year", "int"}});
    cat().AddPartition("db1", "p", "year=2023", {"2023"}, "/w/p/year=2023", {{"a", 1000}}, 100);
    cat().AddPartition("db1", "p", "year=2024", {"2024"}, "/w/p/year=2024",
                       {{"b", 2048}, {"c", 2048}}, 300);
    cat().AddPartition("db1", "p", "year=2025", {"2025"}, "/w/p/year=2025", {{"d", 10}}, -1);
    cat().AddTable("db1", "t", {{"a", "bigint"}});
    cat().tables.at({"db1", "t"})->num_rows = 50;
    session_.db = "db1";
  }
};

TEST_F(ExecExplainTest, PrunesAndCountsFiles) {
  StatementResult r = MustRun("EXPLAIN SELECT x FROM p WHERE year = 2024 AND x > 1");
  EXPECT_EQ(r.messages, (Lines{"PLAN:", "PLAN-ROOT SINK", "|", "00:SCAN HDFS [db1.p]",
                               "   partition predicates: year = 2024",
                               "   partitions=1/3 files=2 size=4.00KB", "   predicates: x > 1",
                               "   row-size=4B cardinality=30"}));
  // Only the surviving partition's files were fetched.
  EXPECT_EQ(cat().files_fetched, 1);
}

TEST_F(ExecExplainTest, RangesAndUnknownRowCounts) {
  StatementResult r = MustRun("EXPLAIN SELECT * FROM p WHERE year BETWEEN 2023 AND 2024");
  EXPECT_EQ(r.messages[4], "   partition predicates: year BETWEEN 2023 AND 2024");
  EXPECT_EQ(r.messages[5], "   partitions=2/3 files=3 size=4.98KB");
  EXPECT_EQ(r.messages[6], "   row-size=20B cardinality=400");
  r = MustRun("EXPLAIN SELECT s FROM p");
  EXPECT_EQ(r.messages[4], "   partitions=3/3 files=4 size=4.99KB");
  EXPECT_EQ(r.messages[5], "   row-size=12B cardinality=unavailable");
  r = MustRun("EXPLAIN SELECT s FROM p WHERE year > 3000");
  EXPECT_EQ(r.messages[5], "   partitions=0/3 files=0 size=0B");
  EXPECT_EQ(r.messages[6], "   row-size=12B cardinality=0");
}

TEST_F(ExecExplainTest, UnpartitionedWithAggregateAndLimit) {
  StatementResult r = MustRun("EXPLAIN SELECT count(*) FROM t");
  EXPECT_EQ(r.messages, (Lines{"PLAN:", "PLAN-ROOT SINK", "|", "01:AGGREGATE [FINALIZE]",
                               "|  output: count(*)", "|  row-size=8B cardinality=1", "|",
                               "00:SCAN HDFS [db1.t]", "   partitions=1/1 files=0 size=0B",
                               "   row-size=0B cardinality=50"}));
  r = MustRun("EXPLAIN SELECT a FROM t x LIMIT 5");
  EXPECT_EQ(r.messages[3], "00:SCAN HDFS [db1.t x]");
  EXPECT_EQ(r.messages[5], "   limit: 5");
  EXPECT_EQ(r.messages[6], "   row-size=8B cardinality=5");
  r = MustRun("EXPLAIN SELECT a FROM t ORDER BY a DESC LIMIT 3");
  EXPECT_EQ(r.messages[3], "01:TOP-N [LIMIT=3]");
  EXPECT_EQ(r.messages[4], "|  order by: a DESC");
}

TEST_F(ExecExplainTest, Errors) {
  EXPECT_EQ(Error("EXPLAIN SELECT zz FROM p"), "Column 'zz' not found in db1.p");
  EXPECT_EQ(Error("EXPLAIN SELECT x FROM p WHERE nope = 1"), "Column 'nope' not found in db1.p");
  EXPECT_EQ(Error("EXPLAIN SELECT x FROM nope"), "Table does not exist: db1.nope");
  EXPECT_NE(Error("EXPLAIN SELECT x FROM p WHERE year = 'abc'").find("not comparable"),
            std::string::npos);
  EXPECT_EQ(Error("SELECT x FROM p"), "only EXPLAIN SELECT is supported by the simulated coordinator");
}

TEST_F(ExecExplainTest, TooDeepStatementsAreErrorsAndTheExecutorKeepsWorking) {
  // A 200,000-term operator chain: an analysis error from the parser, no crash.
  std::string chain = "SELECT 1";
  for (int i = 1; i < 200000; ++i) chain += "+1";
  Result<StatementResult> r = Run(chain);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().Is(ErrorCode::kAnalysisError)) << r.status().ToString();
  EXPECT_NE(r.status().message().find("expression nested too deeply (more than 1000 levels"),
            std::string::npos)
      << r.status().message();
  std::string ors = "EXPLAIN SELECT x FROM p WHERE year = 0";
  for (int i = 1; i < 200000; ++i) ors += " OR year = " + std::to_string(i);
  EXPECT_NE(Error(ors).find("expression nested too deeply"), std::string::npos);
  const std::string parens = "EXPLAIN SELECT x FROM p WHERE " + std::string(100000, '(') +
                             "year = 1" + std::string(100000, ')');
  EXPECT_NE(Error(parens).find("nesting too deep (more than 200 levels)"), std::string::npos);
  // A chain up to the limit goes through analysis, pruning and printing.
  std::string at_limit = "EXPLAIN SELECT x + 1";
  for (int i = 0; i < sql::kMaxExprDepth - 2; ++i) at_limit += " + x";
  at_limit += " FROM p WHERE year = 2024";
  for (int i = 0; i < sql::kMaxExprDepth - 10; ++i) {
    at_limit += " OR year = " + std::to_string(3000 + i);
  }
  StatementResult ok = MustRun(at_limit);
  ASSERT_GE(ok.messages.size(), 6u);
  EXPECT_EQ(ok.messages[5], "   partitions=1/3 files=2 size=4.00KB");
  EXPECT_EQ(MustRun("EXPLAIN SELECT x FROM p WHERE year = 2024 AND x > 1").messages[5],
            "   partitions=1/3 files=2 size=4.00KB");
}

}  // namespace
}  // namespace ics::coord::testing
