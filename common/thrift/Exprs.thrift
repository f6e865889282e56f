// Expression trees, reduced to what the catalog needs: literal expressions such as
// partition key values. Field ids and enum values match Apache Impala's Exprs.thrift
// for wire compatibility.

namespace cpp impala

include "Types.thrift"

// Node kinds (full list kept so values from the peer are recognised).
enum TExprNodeType {
  NULL_LITERAL = 0
  BOOL_LITERAL = 1
  INT_LITERAL = 2
  FLOAT_LITERAL = 3
  STRING_LITERAL = 4
  DECIMAL_LITERAL = 5
  TIMESTAMP_LITERAL = 6
  CASE_EXPR = 7
  COMPOUND_PRED = 8
  IN_PRED = 9
  IS_NULL_PRED = 10
  LIKE_PRED = 11
  SLOT_REF = 12
  TUPLE_IS_NULL_PRED = 13
  FUNCTION_CALL = 14
  AGGREGATE_EXPR = 15
  IS_NOT_EMPTY_PRED = 16
  KUDU_PARTITION_EXPR = 17
  VALID_TUPLE_ID_EXPR = 18
  DATE_LITERAL = 19
}

// Literal payloads, one struct per literal kind.
struct TBoolLiteral {
  1: required bool value
}

// DATE literal: days since 1970-01-01 plus its text form.
struct TDateLiteral {
  1: required i32 days_since_epoch
  2: required string date_string
}

// DECIMAL literal as big-endian two's-complement unscaled bytes.
struct TDecimalLiteral {
  1: required binary value
}

struct TFloatLiteral {
  1: required double value
}

struct TIntLiteral {
  1: required i64 value
}

// TIMESTAMP literal in Impala's packed in-memory layout.
struct TTimestampLiteral {
  1: required binary value
}

struct TStringLiteral {
  1: required binary value;
}

// One node of an expression tree (pre-order). Only literal payloads are kept here;
// predicate, slot, function and Kudu payload fields (ids 5, 6, 8, 12-15, 17, 19,
// 21-23) are omitted.
struct TExprNode {
  1: required TExprNodeType node_type
  2: required Types.TColumnType type
  3: required i32 num_children
  4: required bool is_constant
  7: optional TBoolLiteral bool_literal
  9: optional TDateLiteral date_literal
  10: optional TFloatLiteral float_literal
  11: optional TIntLiteral int_literal
  16: optional TStringLiteral string_literal
  18: optional TDecimalLiteral decimal_literal
  20: optional TTimestampLiteral timestamp_literal
}

// An expression: its nodes flattened in pre-order.
struct TExpr {
  1: required list<TExprNode> nodes
}
