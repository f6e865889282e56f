// The coordinator's SQL front end (common/sql): lexer, statement
// splitter, parser (scripts, expressions, column types) and the catalog-free
// analyzer, on the same input.
//
// Properties: the parser's depth contract (no returned expression higher than
// kMaxExprDepth), and expression printing: an expression that parses prints
// (Expr::ToSql) as SQL that parses back to the same printed text.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/sql/analyzer.h"
#include "common/sql/lexer.h"
#include "common/sql/parser.h"
#include "common/sql/splitter.h"
#include "tests/fuzz/fuzz_check.h"

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
  }
  return 0;
}
