// Partition predicates: a boolean expression over a table's partition keys,
// bound (columns resolved to key positions, literals converted to the key
// types) and ready to evaluate against one partition's typed key values.
//
// One tree and one evaluator serve every front end: the coordinator's
// pruner compiles a SQL WHERE conjunct into it (predicate_compiler.h), and
// the metastore service's ListPartitions binds its filter text into it
// (catalogd/mds/partition_predicate.h). A front end does the typing and
// reports its own errors; the tree it hands over is well typed.
//
// Evaluation is SQL's three-valued logic: a comparison with NULL is
// unknown, NOT unknown is unknown, AND is FALSE if any operand is FALSE,
// OR is TRUE if any operand is TRUE, and a partition matches only when the
// whole predicate is TRUE. Values compare as common/hive/typed_value.h
// says (numbers exactly, DECIMAL included; dates as days; strings and
// canonical timestamps byte-wise).
//
// Depth: evaluation and destruction recurse once per level of the tree; a
// front end bounds the nesting of what it builds (AND/OR chains and IN
// lists are flat: one node with many children).
//
// Hive's text semantics (the HMS filter dialect) take two more pieces: an
// integer key's stored text read as a number (kAsInt; text that is not an
// integer is NULL, so it matches no comparison: Hive's text-vs-number
// comparison) and LIKE as a whole-value regular-expression subset
// (LikeSyntax::kRegexSubset).
//
// Thread-safety: a Predicate is immutable; Matches() and Constraints() may
// run concurrently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/hive/typed_value.h"
#include "common/sql/ast.h"

namespace ics::sql {

// The classes of values that compare with each other. Numbers of every
// kind are one class; a TIMESTAMP is held as its canonical text.
enum class ValueClass : uint8_t { kNull, kBool, kNumber, kString, kDate, kTimestamp };

// The class of a partition key's values.
ValueClass ClassOf(KeyKind kind);

// Converts a non-NULL value of class `from` to class `to`: a string to a
// DATE (yyyy-m[m]-d[d], blanks around allowed) or a TIMESTAMP (its canonical
// text), a DATE to the TIMESTAMP at midnight; a value already of class `to`
// is returned unchanged. nullopt when the text is not a valid value of
// `to`, or for any other pair.
std::optional<HiveValue> ConvertValue(const HiveValue& v, ValueClass from, ValueClass to);

// SQL LIKE: '%' any run of bytes, '_' one byte, '\' takes the next byte
// literally. Time proportional to |value| x |pattern| at worst.
bool LikeMatches(std::string_view value, std::string_view pattern);

// The regular-expression subset the Hive Metastore's filter LIKE takes,
// matched against the whole value: a literal byte, '.' (any byte), a postfix
// '*' (zero or more of the byte or '.' before it) and '\' (the next byte
// taken literally). No other regular-expression operator is part of it.
struct PatternProblem {
  size_t offset = 0;    // byte offset of the offending character in the pattern
  std::string message;  // what is wrong, without a position
};
// nullopt when `pattern` is in the subset; otherwise the first problem.
std::optional<PatternProblem> CheckRegexSubset(std::string_view pattern);
// True if the whole `value` matches `pattern`; false for a pattern that
// CheckRegexSubset rejects. Time proportional to |value| x |pattern|, no
// backtracking.
bool RegexSubsetMatches(std::string_view value, std::string_view pattern);

// A whole partition value read as a plain decimal integer, the way the Hive
// Metastore reads values of integer-typed keys: an optional '-', then
// digits, at most 20 bytes, within int64. nullopt for anything else
// ("+1", " 1", "1.0", "__HIVE_DEFAULT_PARTITION__", 2^63).
std::optional<int64_t> ParsePlainInteger(std::string_view text);

// Which pattern language a kLike node speaks.
enum class LikeSyntax : uint8_t {
  kSql,          // LikeMatches: '%', '_', '\'
  kRegexSubset,  // RegexSubsetMatches: the Hive Metastore's whole-value subset
};

struct PredicateNode {
  enum class Kind : uint8_t {
    kConst,    // constant
    kKey,      // the value of partition key `key`
    kConvert,  // children[0] converted to class `type` (NULL if not valid)
    kAsInt,    // children[0] (text) read by ParsePlainInteger, NULL if not one
    kNegate,   // -children[0] (a number)
    kCompare,  // children[0] op children[1]
    kIn,       // children[0] [NOT] IN (children[1..])
    kBetween,  // children[0] [NOT] BETWEEN children[1] AND children[2]
    kIsNull,   // children[0] IS [NOT] NULL
    kLike,     // children[0] [NOT] LIKE children[1] (strings), `like` syntax
    kNot,      // NOT children[0]
    kAnd,      // children, all of them
    kOr,       // children, any of them
  };
  Kind kind = Kind::kConst;
  ValueClass type = ValueClass::kNull;  // of the node's value
  BinaryOp op = BinaryOp::kEq;          // kCompare: one of = != < <= > >=
  bool negated = false;                 // NOT IN, NOT BETWEEN, IS NOT NULL, NOT LIKE
  LikeSyntax like = LikeSyntax::kSql;   // kLike
  size_t key = 0;                       // kKey
  HiveValue constant;                   // kConst
  std::vector<std::unique_ptr<PredicateNode>> children;
};
using PredicateNodePtr = std::unique_ptr<PredicateNode>;

// What a predicate requires of one key, from the conjuncts at its top level
// (key = v, key IN (...), key BETWEEN a AND b, key < v, ...). A partition
// that matches the predicate satisfies every constraint; the converse need
// not hold (the predicate is still evaluated on every candidate).
struct KeyConstraint {
  bool impossible = false;                       // no value can match (e.g. key = NULL)
  std::optional<std::vector<HiveValue>> points;  // one of these values (sorted, unique)
  std::optional<HiveValue> lo;                   // range bounds (non-NULL values)
  bool lo_inclusive = true;
  std::optional<HiveValue> hi;
  bool hi_inclusive = true;
};

class Predicate {
 public:
  // Matches every partition.
  Predicate() = default;
  // `root` must be well typed for boolean use (its value a BOOLEAN or NULL).
  explicit Predicate(PredicateNodePtr root);

  bool matches_all() const { return root_ == nullptr; }

  // Positions of the keys the predicate reads, ascending.
  const std::vector<size_t>& referenced_keys() const { return referenced_; }

  // True if the predicate is TRUE for these key values (one per key; only
  // referenced positions are read, and they must exist).
  bool Matches(const std::vector<HiveValue>& values) const;

  // Constraints by key position (keys without one are absent).
  std::map<size_t, KeyConstraint> Constraints() const;

 private:
  std::shared_ptr<const PredicateNode> root_;
  std::vector<size_t> referenced_;
};

}  // namespace ics::sql
