// Constants of INSERT VALUES and PARTITION clauses (exec_values.cc).
//
// Thread-safety: stateless functions.
#pragma once

#include <optional>
#include <string>

#include "Types_types.h"
#include "common/sql/ast.h"
#include "common/util/result.h"

namespace ics::coord::exec {

// ---- constants of INSERT VALUES and PARTITION clauses (exec_values.cc) ----
// Where a constant goes, for error messages.
struct CoercionTarget {
  std::string table;  // "db.t"
  std::string column;
  bool partition_spec = false;  // a PARTITION (k=v) value rather than an INSERT value
};
// Folds `e` (a literal, -literal or CAST of one) and converts it to `type`
// as Impala's implicit casts allow; the text form written to a text file
// (nullopt for NULL).
Result<std::optional<std::string>> CoerceValue(const sql::Expr& e, const impala::TColumnType& type,
                                               const CoercionTarget& target);
Result<std::optional<std::string>> CoerceLiteral(const sql::Literal& lit,
                                                 const impala::TColumnType& type,
                                                 const CoercionTarget& target);
// A partition key value in catalogd's canonical form (NULL and "" ->
// kDefaultPartitionName).
Result<std::string> PartitionValue(const sql::Literal& lit, const impala::TColumnType& type,
                                   const CoercionTarget& target);
// The stored text of a coerced value: NULL (nullopt) and "" are the NULL
// partition's name.
std::string PartitionValueOrNull(const std::optional<std::string>& v);

}  // namespace ics::coord::exec
