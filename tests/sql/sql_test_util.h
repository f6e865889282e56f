// Helpers for the SQL front-end tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "common/sql/parser.h"

namespace ics::sql::testing {

// Parses `sql`, which must be one statement of type T; nullptr (and a test
// failure) otherwise.
template <typename T>
std::unique_ptr<T> ParseAs(std::string_view sql) {
  auto r = ParseStatement(sql);
  if (!r.ok()) {
    ADD_FAILURE() << "failed to parse: " << sql << "\n  " << r.status().ToString();
    return nullptr;
  }
  std::unique_ptr<Statement> stmt = std::move(r).value();
  if (stmt->kind != T::kKind) {
    ADD_FAILURE() << "parsed as " << StatementKindName(stmt->kind) << ", expected "
                  << StatementKindName(T::kKind) << ": " << sql;
    return nullptr;
  }
  return std::unique_ptr<T>(static_cast<T*>(stmt.release()));
}

// The error message of parsing `sql`, which must fail with kAnalysisError;
// "<parsed OK>" if it parsed.
inline std::string ParseError(std::string_view sql) {
  auto r = ParseStatement(sql);
  if (r.ok()) return "<parsed OK>";
  EXPECT_EQ(r.status().code(), ErrorCode::kAnalysisError) << r.status().ToString();
  return r.status().message();
}

// The canonical SQL of an expression, or the error.
inline std::string ExprSql(std::string_view sql) {
  auto r = ParseExpression(sql);
  return r.ok() ? (*r)->ToSql() : "ERROR: " + r.status().message();
}

}  // namespace ics::sql::testing
