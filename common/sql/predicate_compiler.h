// Compiles a SQL boolean expression over partition keys (a WHERE conjunct
// the parser produced) into a Predicate (predicate.h), typing it as Impala
// does.
//
// Accepted: literals, references to partition keys, unary minus,
// = != <> < <= > >=, [NOT] IN, [NOT] BETWEEN, IS [NOT] NULL, [NOT] LIKE,
// NOT, AND, OR. Anything else (a function call, CAST, arithmetic) is
// INTERNAL: the caller decides first which expressions it compiles.
//
// Typing:
//   numbers  compare with numbers, exactly (integer literals are typed
//            TINYINT..BIGINT by value, other numbers DECIMAL);
//   STRING   with STRING, byte-wise; a string literal (or a STRING key)
//            compared with a DATE or a TIMESTAMP is converted to it
//            (ANALYSIS_ERROR "invalid DATE value 'x' in: ..." for a literal
//            that is not one; a key value that is not one is NULL), and a
//            DATE compared with a TIMESTAMP is midnight of that day;
//   BOOLEAN  with BOOLEAN (false < true);
//   NULL     with anything, giving NULL.
// Any other pairing is ANALYSIS_ERROR "operands of type INT and STRING are
// not comparable: year = 'x'"; the operands of LIKE must be strings, of
// AND/OR/NOT and the whole expression BOOLEAN (Impala's messages).
// Nesting deeper than kMaxPredicateDepth is ANALYSIS_ERROR.
//
// Thread-safety: stateless.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "common/sql/ast.h"
#include "common/sql/predicate.h"
#include "common/util/result.h"

namespace ics::sql {

inline constexpr int kMaxPredicateDepth = 1000;

// A partition key a column reference names.
struct PredicateKey {
  size_t index = 0;  // position among the table's partition keys
  ValueClass cls = ValueClass::kString;
  std::string type_name;  // for messages: "INT", "STRING", ...
};

// Resolves a kColumnRef expression to a partition key, or fails (the
// status is returned as is).
using PredicateKeyResolver = std::function<Result<PredicateKey>(const Expr& column_ref)>;

// Compiles `condition` (as the expression of a WHERE clause: its value must
// be BOOLEAN or NULL, else ANALYSIS_ERROR "WHERE clause '...' requires
// return type 'BOOLEAN'. Actual type is 'INT'.").
Result<PredicateNodePtr> CompileCondition(const Expr& condition,
                                          const PredicateKeyResolver& resolve);

}  // namespace ics::sql
