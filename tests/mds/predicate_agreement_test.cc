// The two front ends of the shared partition predicate agree: a filter the
// metastore service's ListPartitions accepts and the same text as a SQL
// WHERE conjunct of the coordinator's pruner select the same partitions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalogd/ops/partition_predicate.h"
#include "common/sql/parser.h"
#include "common/sql/predicate_compiler.h"

namespace ics::catalog::ops {
namespace {

const std::vector<PartitionKeyInfo> kKeys = {{"year", KeyKind::kInt},
                                             {"region", KeyKind::kString},
                                             {"dt", KeyKind::kDate},
                                             {"price", KeyKind::kDecimal},
                                             {"ok", KeyKind::kBool}};

Result<sql::PredicateKey> ResolveSql(const sql::Expr& ref) {
  for (size_t i = 0; i < kKeys.size(); ++i) {
    if (kKeys[i].name == ref.column_name()) {
      return sql::PredicateKey{i, sql::ClassOf(kKeys[i].kind),
                               std::string(KeyKindName(kKeys[i].kind))};
    }
  }
  return Status(ErrorCode::kAnalysisError, "Column '" + ref.column_name() + "' not found");
}

TEST(PredicateAgreementTest, SameFilterSamePartitions) {
  const std::string null = "__HIVE_DEFAULT_PARTITION__";
  const std::vector<std::vector<std::string>> rows = {
      {"2024", "eu", "2024-03-15", "9.50", "true"},
      {"2023", "us", "2023-12-31", "0.1", "false"},
      {"9007199254740992", "eu", "1999-01-01", "100", "true"},
      {null, null, null, null, null},
      {"-5", "", "2024-02-29", "-0.000000000000000000001", "false"}};
  const std::vector<std::string> filters = {
      "year = 2024",
      "year <> 2024",
      "year > 2023 AND region = 'eu'",
      "year = 9007199254740993",
      "year < 2024.5 OR ok",
      "price = 0.1",
      "price < 0",
      "price BETWEEN 1 AND 10",
      "year NOT IN (2023, 2024)",
      "year IN (1, NULL)",
      "year NOT IN (1, NULL)",
      "NOT (year = 2024)",
      "region IS NULL OR dt IS NULL",
      "dt >= DATE '2024-01-01'",
      "dt = '2024-2-29'",
      "year = -5 AND NOT ok",
      "(year = 2023 OR year = 2024) AND price > 1",
      "year NOT BETWEEN 2000 AND 3000",
  };
  for (const std::string& f : filters) {
    auto mds = PartitionPredicate::Compile(f, kKeys);
    ASSERT_TRUE(mds.ok()) << f << ": " << mds.status().ToString();
    auto expr = sql::ParseExpression(f);
    ASSERT_TRUE(expr.ok()) << f << ": " << expr.status().ToString();
    auto root = sql::CompileCondition(**expr, ResolveSql);
    ASSERT_TRUE(root.ok()) << f << ": " << root.status().ToString();
    const sql::Predicate pruner(std::move(root).value());
    EXPECT_EQ(mds->referenced_keys(), pruner.referenced_keys()) << f;
    for (const auto& row : rows) {
      auto values = TypedValues(kKeys, row, {0, 1, 2, 3, 4});
      ASSERT_TRUE(values.ok()) << values.status().ToString();
      EXPECT_EQ(mds->Matches(*values), pruner.Matches(*values)) << f << " on " << row[0];
    }
  }
}

}  // namespace
}  // namespace ics::catalog::ops
