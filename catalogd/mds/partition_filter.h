// Partition filters: a SQL boolean expression over partition keys, as
// ListPartitions takes it, parsed into a small tree (this file) and then
// bound to a table's keys and evaluated (partition_predicate.h).
//
// Grammar (keywords case-insensitive; identifiers case-insensitive, plain
// or `back-quoted`):
//   expr      := or
//   or        := and { OR and }
//   and       := not { AND not }
//   not       := NOT not | predicate
//   predicate := '(' expr ')'
//              | operand [ cmp operand
//                        | [NOT] IN '(' operand { ',' operand } ')'
//                        | [NOT] BETWEEN operand AND operand
//                        | IS [NOT] NULL ]
//   cmp       := = | == | != | <> | < | <= | > | >=
//   operand   := identifier | literal
//   literal   := ['-'|'+'] number | 'string' | "string" | TRUE | FALSE | NULL
//              | DATE 'yyyy-mm-dd' | TIMESTAMP '...'
//              | CAST '(' literal AS type ')'
// A bare operand as a predicate must be a boolean key or TRUE/FALSE/NULL.
// Strings take '' / "" doubling and backslash escapes (\\ \' \" \n \t).
// CAST types: DATE, TIMESTAMP, STRING, VARCHAR, CHAR, BOOL, BOOLEAN,
// TINYINT, SMALLINT, INT, INTEGER, BIGINT, INT64, FLOAT, DOUBLE, FLOAT64,
// DECIMAL, NUMERIC (optionally with "(p[,s])").
//
// Errors are INVALID_ARGUMENT naming the 0-based byte position, e.g.
//   "filter: expected ')' at position 17, found 'AND'". Limits: the text is at
// most kMaxFilterBytes; parentheses plus NOT chains nest at most
// kMaxFilterDepth levels, and so do CASTs inside CASTs ("filter: nested
// deeper than 200 levels at position N"). AND/OR chains and IN lists are
// flat (one node with many children/operands), so the tree is at most about
// 2 * kMaxFilterDepth nodes high and every recursive walk of it (binding,
// evaluation, destruction) is bounded.
//
// Thread-safety: stateless functions; the tree is a plain value.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/hive/typed_value.h"
#include "common/sql/ast.h"
#include "common/util/result.h"

namespace ics::catalog::mds {

inline constexpr size_t kMaxFilterBytes = 1 << 20;
// Deepest nesting of parentheses/NOT (and, separately, of CAST) in a filter.
inline constexpr int kMaxFilterDepth = 200;

// Comparison operators are the SQL front end's (one of = != < <= > >=).
using sql::BinaryOp;

struct FilterOperand {
  bool is_column = false;
  std::string column;  // lower-cased
  HiveValue literal;
  size_t pos = 0;      // where it starts in the text
};

struct FilterNode {
  enum class Kind : uint8_t {
    kAnd,      // children
    kOr,       // children
    kNot,      // children[0]
    kCompare,  // operands[0] op operands[1]
    kIn,       // operands[0] [NOT] IN (operands[1..])
    kBetween,  // operands[0] [NOT] BETWEEN operands[1] AND operands[2]
    kIsNull,   // operands[0] IS [NOT] NULL
    kBare,     // operands[0] used as a condition
  };
  Kind kind = Kind::kAnd;
  BinaryOp op = BinaryOp::kEq;  // kCompare
  bool negated = false;  // NOT IN, NOT BETWEEN, IS NOT NULL
  size_t pos = 0;
  std::vector<std::unique_ptr<FilterNode>> children;
  std::vector<FilterOperand> operands;
};

// Parses `text`; an empty (or all-blank) text yields nullptr (no filter).
Result<std::unique_ptr<FilterNode>> ParsePartitionFilter(std::string_view text);

}  // namespace ics::catalog::mds
