// The coordinator's SQL front end (common/sql): lexer, statement
// splitter, parser (scripts, expressions, column types) and the catalog-free
// analyzer, on the same input.
//
// Properties: the parser's depth contract (no returned expression higher than
// kMaxExprDepth), and expression printing: an expression that parses prints
// (Expr::ToSql) as SQL that parses back to the same printed text. An
// expression is also compiled as a partition predicate (predicate_compiler.h)
// over fixed keys and evaluated; a partition it matches satisfies every
// constraint it reports for an index.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/sql/analyzer.h"
#include "common/sql/lexer.h"
#include "common/sql/parser.h"
#include "common/sql/predicate.h"
#include "common/sql/predicate_compiler.h"
#include "common/sql/splitter.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using ics::HiveValue;
using ics::sql::KeyConstraint;
using ics::sql::PredicateKey;
using ics::sql::ValueClass;

ics::Result<PredicateKey> ResolveKey(const ics::sql::Expr& ref) {
  static const std::pair<const char*, PredicateKey> kKeys[] = {
      {"a", {0, ValueClass::kNumber, "INT"}},   {"s", {1, ValueClass::kString, "STRING"}},
      {"d", {2, ValueClass::kDate, "DATE"}},    {"t", {3, ValueClass::kTimestamp, "TIMESTAMP"}},
      {"b", {4, ValueClass::kBool, "BOOLEAN"}}, {"x", {5, ValueClass::kNumber, "DECIMAL(38,10)"}}};
  for (const auto& [name, key] : kKeys) {
    if (ref.column_name() == name) return key;
  }
  return ics::Status(ics::ErrorCode::kAnalysisError, "Column not found");
}

bool Satisfies(const KeyConstraint& c, const HiveValue& v) {
  if (c.impossible) return false;
  if (c.points) {
    bool found = false;
    for (const HiveValue& p : *c.points) found = found || ics::CompareValues(v, p) == 0;
    if (!found) return false;
  }
  if (c.lo) {
    auto cmp = ics::CompareValues(v, *c.lo);
    if (!cmp || *cmp < 0 || (*cmp == 0 && !c.lo_inclusive)) return false;
  }
  if (c.hi) {
    auto cmp = ics::CompareValues(v, *c.hi);
    if (!cmp || *cmp > 0 || (*cmp == 0 && !c.hi_inclusive)) return false;
  }
  return true;
}

void CheckPredicate(const ics::sql::Expr& expr) {
  auto root = ics::sql::CompileCondition(expr, ResolveKey);
  if (!root.ok()) return;
  const ics::sql::Predicate pred(std::move(root).value());
  const auto constraints = pred.Constraints();
  const std::vector<std::vector<HiveValue>> rows = {
      {HiveValue::Int(2024), HiveValue::String("eu"), HiveValue::Date(19737),
       HiveValue::String("2024-01-15 10:00:00"), HiveValue::Bool(true),
       *ics::ParseNumericLiteral("0.1")},
      {HiveValue::Int(INT64_MIN), HiveValue::String(""), HiveValue::Date(0),
       HiveValue::String("1970-01-01 00:00:00"), HiveValue::Bool(false), HiveValue::Int(-1)},
      std::vector<HiveValue>(6, HiveValue::Null())};
  for (const auto& row : rows) {
    if (!pred.Matches(row)) continue;
    for (const auto& [key, c] : constraints) {
      FUZZ_CHECK(key < row.size() && Satisfies(c, row[key]),
                 "a matching partition violates the constraint on key " + std::to_string(key));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  (void)ics::sql::Tokenize(sql);
  (void)ics::sql::SplitStatements(sql);
  (void)ics::sql::IsStatementComplete(sql);
  auto script = ics::sql::ParseScript(sql);
  if (script.ok()) {
    for (const auto& stmt : *script) (void)ics::sql::AnalyzeStatement(*stmt);
  }
  (void)ics::sql::ParseColumnType(sql);
  auto expr = ics::sql::ParseExpression(sql);
  if (expr.ok()) {
    FUZZ_CHECK((*expr)->height <= ics::sql::kMaxExprDepth,
               "expression of height " + std::to_string((*expr)->height));
    const std::string printed = (*expr)->ToSql();
    auto again = ics::sql::ParseExpression(printed);
    FUZZ_CHECK(again.ok(), "printed expression does not parse: '" + printed +
                               "': " + again.status().ToString());
    FUZZ_CHECK((*again)->ToSql() == printed,
               "printing is not stable: '" + printed + "' -> '" + (*again)->ToSql() + "'");
    CheckPredicate(**expr);
  }
  return 0;
}
