// Internal to the partition pruner: the typed values and compiled
// predicate trees that partition_pruner.cc builds and partition_eval.cc
// evaluates against each partition's key values (SQL three-valued logic).
// Not a public API.
//
// Thread-safety: plain data and stateless functions.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "CatalogObjects_types.h"
#include "common/hive/scalar_text.h"
#include "common/util/ascii.h"
#include "coordinator-sim/exec/text_data.h"
#include "coordinator-sim/sql/ast.h"

namespace ics::coord::prune_internal {

// The value categories that compare with each other.
enum class Cat { kNull, kBool, kNumber, kString, kDate, kTimestamp };

struct Value {
  bool null = true;
  bool b = false;
  ExactNumber num;
  std::string text;  // kString, kDate (yyyy-mm-dd), kTimestamp (canonical)
};

inline Value NullValue() { return Value{}; }

inline Value BoolValue(bool b) {
  Value v;
  v.null = false;
  v.b = b;
  return v;
}

inline Value Not3(Value v) {
  if (!v.null) v.b = !v.b;
  return v;
}

enum class NodeKind {
  kConst, kKey, kConvert, kNegate, kCompare, kIn, kBetween, kIsNull, kLike, kNot, kAnd, kOr
};

struct Node {
  NodeKind kind = NodeKind::kConst;
  Cat type = Cat::kNull;   // of the node's result
  std::string type_name;   // for messages: "INT", "STRING", "BOOLEAN", ...
  Cat operand_cat = Cat::kNull;  // kCompare/kIn/kBetween: the common operand type
  Value constant;          // kConst
  size_t key = 0;          // kKey: partition key index
  sql::BinaryOp op = sql::BinaryOp::kEq;
  bool negated = false;
  std::vector<std::unique_ptr<Node>> children;
};
using NodePtr = std::unique_ptr<Node>;

// Converts a value between categories (e.g. a string literal to a DATE);
// nullopt when it is not a valid value of the target category.
std::optional<Value> ConvertValue(const Value& v, Cat from, Cat to);

// Evaluates a compiled predicate for one partition's key values.
Value Eval(const Node& n, const std::vector<Value>& keys);

// A partition key's text as a value of its column's type; nullopt when the
// text is not a valid value of that type.
std::optional<Value> ParseKeyValue(const std::string& text, const impala::TColumnType& type,
                                   Cat cat);

}  // namespace ics::coord::prune_internal
