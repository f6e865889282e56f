// Partition pruning: every operator, NULL partitions and three-valued
// logic, typing, mixed conjuncts and errors.
#include "coordinator-sim/exec/partition_pruner.h"

#include "common/sql/parser.h"
#include "common/types/column_type.h"
#include "tests/exec_scan/exec_scan_test_util.h"

namespace ics::coord {
namespace {

using Ids = std::vector<int64_t>;
constexpr const char* kNull = kDefaultPartitionName;

impala::TColumn Col(const std::string& name, const char* type) {
  impala::TColumn c;
  c.columnName = name;
  c.columnType = *ParseHiveType(type);
  return c;
}

std::shared_ptr<const LocalPartition> Part(int64_t id, std::vector<std::string> values) {
  auto p = std::make_shared<LocalPartition>();
  p->id = id;
  p->values = std::move(values);
  p->name = "p" + std::to_string(id);
  return p;
}

class ExecScanPrunerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    table_.db = "db";
    table_.name = "t";
    table_.clustering_columns = {Col("year", "int"), Col("month", "int"),
                                 Col("region", "string"), Col("d", "date"),
                                 Col("amt", "decimal(10,2)")};
    table_.columns = {Col("id", "bigint"), Col("s", "string"),
                      Col("st", "struct<f:int,g:string>")};
    parts_ = {
        Part(1, {"2023", "1", "us", "2023-01-15", "1.50"}),
        Part(2, {"2023", "12", "eu", "2023-12-01", "2"}),
        Part(3, {"2024", "1", "us", "2024-01-15", "10.25"}),
        Part(4, {"2024", "2", "asia", "2024-02-29", "-3"}),
        Part(5, {"2024", kNull, "us", kNull, kNull}),
        Part(6, {kNull, "3", kNull, "2024-03-01", "0.00"}),
        Part(7, {"2025", "10", "eu", "2025-10-10", "100"}),
    };
  }

  Result<PruneResult> Prune(const std::string& where) {
    auto expr = sql::ParseExpression(where);
    if (!expr.ok()) return expr.status();
    exprs_.push_back(std::move(expr).value());
    return PrunePartitions(table_, parts_, exprs_.back().get());
  }

  Ids Selected(const std::string& where) {
    auto r = Prune(where);
    EXPECT_TRUE(r.ok()) << where << ": " << r.status().ToString();
    if (!r.ok()) return {-1};
    EXPECT_TRUE(r->other_conjuncts.empty()) << where;
    return r->selected_ids;
  }

  Status Error(const std::string& where) {
    auto r = Prune(where);
    EXPECT_FALSE(r.ok()) << where << " should fail";
    return r.ok() ? Status::OK() : r.status();
  }

  LocalTable table_;
  std::vector<std::shared_ptr<const LocalPartition>> parts_;
  std::vector<sql::ExprPtr> exprs_;
};

TEST_F(ExecScanPrunerTest, NoWhereKeepsAll) {
  auto r = PrunePartitions(table_, parts_, nullptr);
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(r->selected_ids, (Ids{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_TRUE(r->partition_conjuncts.empty());
  EXPECT_TRUE(r->other_conjuncts.empty());
}

TEST_F(ExecScanPrunerTest, Comparisons) {
  EXPECT_EQ(Selected("year = 2024"), (Ids{3, 4, 5}));
  EXPECT_EQ(Selected("2024 = year"), (Ids{3, 4, 5}));
  EXPECT_EQ(Selected("year != 2024"), (Ids{1, 2, 7}));  // NULL year is not kept
  EXPECT_EQ(Selected("year <> 2024"), (Ids{1, 2, 7}));
  EXPECT_EQ(Selected("year < 2024"), (Ids{1, 2}));
  EXPECT_EQ(Selected("year <= 2024"), (Ids{1, 2, 3, 4, 5}));
  EXPECT_EQ(Selected("year > 2024"), (Ids{7}));
  EXPECT_EQ(Selected("year >= 2024"), (Ids{3, 4, 5, 7}));
  EXPECT_EQ(Selected("2024 < year"), (Ids{7}));
  EXPECT_EQ(Selected("year = month"), (Ids{}));
  EXPECT_EQ(Selected("month < year"), (Ids{1, 2, 3, 4, 7}));
  EXPECT_EQ(Selected("year = NULL"), (Ids{}));
  EXPECT_EQ(Selected("year != NULL"), (Ids{}));
}

TEST_F(ExecScanPrunerTest, NumbersCompareNumerically) {
  EXPECT_EQ(Selected("year = 2024.0"), (Ids{3, 4, 5}));
  EXPECT_EQ(Selected("year > 2023.5"), (Ids{3, 4, 5, 7}));
  EXPECT_EQ(Selected("-year = -2024"), (Ids{3, 4, 5}));
  EXPECT_EQ(Selected("amt = 1.5"), (Ids{1}));
  EXPECT_EQ(Selected("amt > 2"), (Ids{3, 7}));  // 10.25 > 2, unlike as text
  EXPECT_EQ(Selected("amt < 0"), (Ids{4}));
  EXPECT_EQ(Selected("amt = 0"), (Ids{6}));
  EXPECT_EQ(Selected("amt = 1e2"), (Ids{7}));
  EXPECT_EQ(Selected("amt >= -3 AND amt <= 2"), (Ids{1, 2, 4, 6}));
  EXPECT_EQ(Selected("month = 99999999999999999999999"), (Ids{}));
}

TEST_F(ExecScanPrunerTest, StringsCompareLexicographically) {
  EXPECT_EQ(Selected("region = 'us'"), (Ids{1, 3, 5}));
  EXPECT_EQ(Selected("region > 'b'"), (Ids{1, 2, 3, 5, 7}));
  EXPECT_EQ(Selected("region < 'eu'"), (Ids{4}));
  EXPECT_EQ(Selected("region LIKE 'e%'"), (Ids{2, 7}));
  EXPECT_EQ(Selected("region LIKE '_s'"), (Ids{1, 3, 5}));
  EXPECT_EQ(Selected("region NOT LIKE 'u_'"), (Ids{2, 4, 7}));
  EXPECT_EQ(Selected("region LIKE '%'"), (Ids{1, 2, 3, 4, 5, 7}));  // not the NULL one
}

TEST_F(ExecScanPrunerTest, Dates) {
  EXPECT_EQ(Selected("d = '2024-01-15'"), (Ids{3}));
  EXPECT_EQ(Selected("d = DATE '2024-01-15'"), (Ids{3}));
  EXPECT_EQ(Selected("d >= DATE '2024-01-01'"), (Ids{3, 4, 6, 7}));
  EXPECT_EQ(Selected("d < '2024-1-20'"), (Ids{1, 2, 3}));  // lenient literal
  EXPECT_EQ(Selected("d BETWEEN '2024-02-01' AND '2024-12-31'"), (Ids{4, 6}));
  EXPECT_EQ(Selected("d IN ('2023-01-15', DATE '2025-10-10')"), (Ids{1, 7}));
}

TEST_F(ExecScanPrunerTest, InAndNotIn) {
  EXPECT_EQ(Selected("month IN (1, 2)"), (Ids{1, 3, 4}));
  EXPECT_EQ(Selected("month NOT IN (1, 2)"), (Ids{2, 6, 7}));  // NULL month unknown
  EXPECT_EQ(Selected("month IN (1, NULL)"), (Ids{1, 3}));
  EXPECT_EQ(Selected("month NOT IN (1, NULL)"), (Ids{}));  // never TRUE
  EXPECT_EQ(Selected("region IN ('eu', 'asia')"), (Ids{2, 4, 7}));
  EXPECT_EQ(Selected("year IN (month)"), (Ids{}));
}

TEST_F(ExecScanPrunerTest, Between) {
  EXPECT_EQ(Selected("year BETWEEN 2023 AND 2024"), (Ids{1, 2, 3, 4, 5}));
  EXPECT_EQ(Selected("year NOT BETWEEN 2023 AND 2024"), (Ids{7}));
  EXPECT_EQ(Selected("month BETWEEN 2 AND 10"), (Ids{4, 6, 7}));
  // Three-valued: month < 2 makes BETWEEN FALSE even with a NULL bound.
  EXPECT_EQ(Selected("month BETWEEN 2 AND NULL"), (Ids{}));
  EXPECT_EQ(Selected("month NOT BETWEEN 2 AND NULL"), (Ids{1, 3}));
  EXPECT_EQ(Selected("month NOT BETWEEN NULL AND 2"), (Ids{2, 6, 7}));
}

TEST_F(ExecScanPrunerTest, IsNull) {
  EXPECT_EQ(Selected("year IS NULL"), (Ids{6}));
  EXPECT_EQ(Selected("year IS NOT NULL"), (Ids{1, 2, 3, 4, 5, 7}));
  EXPECT_EQ(Selected("month IS NULL OR region IS NULL"), (Ids{5, 6}));
  EXPECT_EQ(Selected("d IS NULL AND amt IS NULL"), (Ids{5}));
  EXPECT_EQ(Selected("(year = 2024) IS NULL"), (Ids{6}));
}

TEST_F(ExecScanPrunerTest, ThreeValuedLogic) {
  EXPECT_EQ(Selected("NOT (year = 2024)"), (Ids{1, 2, 7}));
  EXPECT_EQ(Selected("NOT (month = 1)"), (Ids{2, 4, 6, 7}));  // NULL month stays unknown
  EXPECT_EQ(Selected("month = 1 OR region = 'eu'"), (Ids{1, 2, 3, 7}));
  // NULL OR TRUE is TRUE; NULL OR FALSE is NULL.
  EXPECT_EQ(Selected("month = 1 OR year = 2024"), (Ids{1, 3, 4, 5}));
  // NULL AND FALSE is FALSE, so NOT(...) is TRUE for partitions 5 and 6 ...
  EXPECT_EQ(Selected("NOT (month = 7 AND region = 'xx')"), (Ids{1, 2, 3, 4, 5, 6, 7}));
  // ... but NULL AND TRUE is NULL, and so is NOT of it.
  EXPECT_EQ(Selected("NOT (month = 3 AND region = 'us')"), (Ids{1, 2, 3, 4, 7}));
  EXPECT_EQ(Selected("NOT (month = 1 AND region = 'us')"), (Ids{2, 4, 6, 7}));
  EXPECT_EQ(Selected("NOT (month = 2 OR year = 2023)"), (Ids{3, 7}));
  EXPECT_EQ(Selected("(year = 2024 AND month > 1) OR (year = 2023 AND region = 'eu')"),
            (Ids{2, 4}));
  EXPECT_EQ(Selected("NOT NOT year = 2025"), (Ids{7}));
  EXPECT_EQ(Selected("year = 2024 && month = 1 || d IS NULL"), (Ids{3, 5}));
}

TEST_F(ExecScanPrunerTest, ConstantConjuncts) {
  EXPECT_EQ(Selected("1 = 0"), (Ids{}));
  EXPECT_EQ(Selected("TRUE"), (Ids{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(Selected("NULL"), (Ids{}));
  EXPECT_EQ(Selected("NOT FALSE AND 'a' < 'b'"), (Ids{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(Selected("year = 2024 AND NULL IS NULL"), (Ids{3, 4, 5}));
}

TEST_F(ExecScanPrunerTest, MixedConjuncts) {
  auto r = Prune("year = 2024 AND id > 5 AND upper(region) = 'US' AND month IN (1, 2)"
                 " AND s LIKE 'x%' AND (year = 2023 OR id = 1) AND CAST(month AS STRING) = '1'"
                 " AND month + 1 = 2");
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(r->selected_ids, (Ids{3, 4}));
  const auto conjuncts = SplitConjuncts(exprs_.back().get());
  ASSERT_EQ(conjuncts.size(), 8u);
  EXPECT_EQ(r->partition_conjuncts, (std::vector<const sql::Expr*>{conjuncts[0], conjuncts[3]}));
  EXPECT_EQ(r->other_conjuncts,
            (std::vector<const sql::Expr*>{conjuncts[1], conjuncts[2], conjuncts[4], conjuncts[5],
                                           conjuncts[6], conjuncts[7]}));
  EXPECT_EQ(conjuncts[0]->ToSql(), "year = 2024");
}

TEST_F(ExecScanPrunerTest, QualifiedAndStructRefs) {
  EXPECT_EQ(Selected("t.year = 2024"), (Ids{3, 4, 5}));
  EXPECT_EQ(Selected("x.month = 1 AND db.t.region = 'us'"), (Ids{1, 3}));
  auto r = Prune("st.f = 1 AND t.st.g = 'a' AND year = 2023");
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(r->selected_ids, (Ids{1, 2}));
  EXPECT_EQ(r->other_conjuncts.size(), 2u);
}

TEST_F(ExecScanPrunerTest, Errors) {
  Status s = Error("nosuch = 1");
  EXPECT_TRUE(s.Is(ErrorCode::kAnalysisError));
  EXPECT_EQ(s.message(), "Column 'nosuch' not found");
  EXPECT_EQ(Error("t.nosuch = 1").message(), "Column 't.nosuch' not found");
  // Also inside conjuncts that do not prune, and in function arguments.
  EXPECT_EQ(Error("id = nosuch").message(), "Column 'nosuch' not found");
  EXPECT_EQ(Error("year = 2024 AND lower(zz) = 'a'").message(), "Column 'zz' not found");
  EXPECT_EQ(Error("year = 'abc'").message(),
            "operands of type INT and STRING are not comparable: year = 'abc'");
  EXPECT_EQ(Error("region = 1").message(),
            "operands of type STRING and TINYINT are not comparable: region = 1");
  EXPECT_TRUE(Error("year IN (2024, 'x')").Is(ErrorCode::kAnalysisError));
  EXPECT_TRUE(Error("d = 5").Is(ErrorCode::kAnalysisError));
  EXPECT_TRUE(Error("year BETWEEN DATE '2024-01-01' AND 3").Is(ErrorCode::kAnalysisError));
  EXPECT_TRUE(Error("d = 'not a date'").Is(ErrorCode::kAnalysisError));
  EXPECT_TRUE(Error("d = TRUE").Is(ErrorCode::kAnalysisError));
  EXPECT_EQ(Error("year").message(),
            "WHERE clause 'year' requires return type 'BOOLEAN'. Actual type is 'INT'.");
  EXPECT_TRUE(Error("year AND month = 1").Is(ErrorCode::kAnalysisError));
  EXPECT_TRUE(Error("NOT region").Is(ErrorCode::kAnalysisError));
  EXPECT_TRUE(Error("region LIKE 1").Is(ErrorCode::kAnalysisError));
  EXPECT_TRUE(Error("year LIKE 'a%'").Is(ErrorCode::kAnalysisError));
  EXPECT_TRUE(Error("-region = 'a'").Is(ErrorCode::kAnalysisError));
}

TEST_F(ExecScanPrunerTest, InvalidPartitionValue) {
  parts_.push_back(Part(8, {"abc", "1", "us", "2024-01-01", "1"}));
  // Only conjuncts that read the bad key fail.
  EXPECT_EQ(Selected("month = 1"), (Ids{1, 3, 8}));
  Status s = Error("year = 2024");
  EXPECT_TRUE(s.Is(ErrorCode::kInvalidArgument));
  EXPECT_NE(s.message().find("'abc'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("p8"), std::string::npos) << s.message();
}

TEST_F(ExecScanPrunerTest, LongOrChain) {
  // An OR chain is a left-deep tree, one level per OR: as long as the
  // parser's kMaxExprDepth allows, it prunes (the pruner walks the chain
  // iteratively).
  std::string where = "year = 0";
  for (int i = 1; i < sql::kMaxExprDepth - 10; ++i) {
    where += " OR year = " + std::to_string(i + 20000);
  }
  EXPECT_EQ(Selected(where + " OR month = 12"), (Ids{2}));
  // A longer chain is a parse error (no deep tree reaches the pruner) ...
  std::string too_long = "year = 0";
  for (int i = 1; i < 5000; ++i) too_long += " OR year = " + std::to_string(i + 20000);
  Status s = Error(too_long + " OR month = 12");
  EXPECT_TRUE(s.Is(ErrorCode::kAnalysisError)) << s.ToString();
  EXPECT_NE(s.message().find("expression nested too deeply"), std::string::npos) << s.message();
  // ... and the same list of values as IN (...) is flat and fine.
  std::string in = "year IN (0";
  for (int i = 1; i < 5000; ++i) in += ", " + std::to_string(i + 20000);
  EXPECT_EQ(Selected(in + ") OR month = 12"), (Ids{2}));
}

TEST(ExecScanPruner, OtherKeyTypesAndUnpartitioned) {
  LocalTable table;
  table.clustering_columns = {Col("flag", "boolean"), Col("ts", "timestamp"),
                              Col("v", "varchar(5)"), Col("b", "binary")};
  table.columns = {Col("x", "int")};
  const std::vector<std::shared_ptr<const LocalPartition>> parts = {
      Part(1, {"true", "2024-01-01 00:00:00", "abc", "q"}),
      Part(2, {"false", "2024-01-01 10:30:00", "abd", "r"}),
      Part(3, {kNull, kNull, kNull, kNull}),
  };
  auto run = [&](const std::string& w) -> Ids {
    auto e = sql::ParseExpression(w);
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    auto r = PrunePartitions(table, parts, e->get());
    EXPECT_TRUE(r.ok()) << w << ": " << r.status().ToString();
    return r.ok() ? r->selected_ids : Ids{-1};
  };
  EXPECT_EQ(run("flag"), (Ids{1}));
  EXPECT_EQ(run("NOT flag"), (Ids{2}));
  EXPECT_EQ(run("flag = FALSE"), (Ids{2}));
  EXPECT_EQ(run("flag > FALSE"), (Ids{1}));
  EXPECT_EQ(run("ts = DATE '2024-01-01'"), (Ids{1}));  // midnight
  EXPECT_EQ(run("ts > '2024-01-01 10:00'"), (Ids{2}));
  EXPECT_EQ(run("ts < '2024-01-01 10:30:00.000000001'"), (Ids{1, 2}));
  EXPECT_EQ(run("v >= 'abd'"), (Ids{2}));
  // BINARY keys cannot be evaluated: the conjunct does not prune.
  EXPECT_EQ(run("b = 'q'"), (Ids{1, 2, 3}));

  LocalTable flat;
  flat.columns = {Col("x", "int")};
  const std::vector<std::shared_ptr<const LocalPartition>> one = {Part(42, {})};
  auto e = sql::ParseExpression("x = 1 AND 1 = 1");
  ASSERT_RESULT_OK(e);
  auto r = PrunePartitions(flat, one, e->get());
  ASSERT_RESULT_OK(r);
  EXPECT_EQ(r->selected_ids, (Ids{42}));
  EXPECT_EQ(r->other_conjuncts.size(), 1u);
  EXPECT_EQ(r->partition_conjuncts.size(), 1u);
  auto never = sql::ParseExpression("x = 1 AND 1 = 0");
  ASSERT_RESULT_OK(never);
  EXPECT_TRUE(PrunePartitions(flat, one, never->get())->selected_ids.empty());
}

}  // namespace
}  // namespace ics::coord
