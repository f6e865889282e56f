// Partition filter expressions: one tokenizer and one parser for the filter
// texts that metastore APIs take (ListPartitions' SQL filter, the Hive
// Metastore's get_partitions_by_filter, ...), each a dialect of one
// language. A FilterDialect value says what a dialect's text may contain,
// how it is tokenized, its limits and its error messages; adding a dialect
// is adding a FilterDialect value (filter_dialects.h), not a parser.
// Binding a parsed filter to a table's keys yields the shared partition
// predicate (filter_binder.h, predicate.h).
//
// The language, with what each dialect switches on or off in [brackets]:
//   expr      := or
//   or        := and { OR and }
//   and       := not { AND not }
//   not       := NOT not [allow_not] | predicate
//   predicate := '(' expr ')'
//              | operand [ cmp operand
//                        | LIKE operand                          [like]
//                        | [NOT] IN '(' operand {',' operand} ')' [allow_in]
//                        | [NOT] BETWEEN operand AND operand      [allow_between]
//                        | IS [NOT] NULL ]                        [allow_is_null]
//              (a bare operand only where bare_operand_is_condition; a
//               key against a literal, either way round, only where
//               key_against_literal)
//   cmp       := = | == [double_equals] | != | <> | < | <= | > | >=
//   operand   := identifier | `quoted identifier` [backquoted_identifiers]
//              | literal
//   literal   := number | 'string' | "string"
//              | ['-'|'+'] number                     [sign_operators]
//              | TRUE | FALSE | NULL | DATE 'yyyy-mm-dd' | TIMESTAMP '...'
//              | CAST '(' literal AS type ')'         [typed_literals]
// Keywords and identifiers are case-insensitive; an identifier is stored
// lower-cased (FilterOperand::column) and as written (::written).
//
// Errors are INVALID_ARGUMENT in the dialect's words (FilterDialect's
// message fields), naming 0-based byte positions. Limits: the text is at
// most max_bytes (checked before anything is allocated); parentheses and
// NOT chains nest at most max_depth levels, and so do CASTs inside CASTs.
// AND/OR chains and IN lists are flat (one node with many children), so
// every recursive walk of the tree (binding, evaluation, destruction) is
// bounded by about 2 * max_depth levels.
//
// Thread-safety: stateless functions; the tree is a plain value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/hive/typed_value.h"
#include "common/sql/ast.h"
#include "common/util/result.h"

namespace ics::sql {

// How a dialect's LIKE reads its pattern (none: LIKE is refused).
enum class FilterLike : uint8_t {
  kNone,
  kRegexSubset,  // the Hive Metastore's whole-value subset (predicate.h)
  kSql,          // SQL's '%' and '_' (no dialect uses it yet)
};

// How literals meet keys when a filter is bound (filter_binder.h).
enum class FilterTyping : uint8_t {
  // Values are typed by their key's kind; a literal is converted to the
  // type of the key it meets; SQL's three-valued logic.
  kTyped,
  // Hive's metastore: every value is its stored text; a key of kind kInt
  // against an integer literal compares numbers (a value that is not an
  // integer matches nothing), anything else compares text byte-wise.
  kHiveText,
};

// Everything that distinguishes one filter dialect from another. A field's
// comment says what it changes; messages are the dialect's own words. A
// message must be set when the dialect's switches make it reachable
// (like_refused when like is kNone, expected_operator without bare
// operands, expected_literal and expected_key with key_against_literal).
// Messages of constructs only one dialect has today (IN, BETWEEN, CAST,
// ...) are fixed in the parser; a dialect that words them differently
// turns them into fields here.
struct FilterDialect {
  // ---- limits ----
  size_t max_bytes = 0;
  int max_depth = 0;

  // ---- tokens ----
  bool backquoted_identifiers = false;     // `name`
  bool decimal_numbers = false;            // 1.5, .5, 1e3 (otherwise digits only)
  bool sign_operators = false;             // '-' / '+' tokens before a number
  bool negative_integers = false;          // "-5" is one number token
  bool digit_leading_identifiers = false;  // "2020abc" is an identifier
  bool double_equals = false;              // "==" means "="
  // Inside a string: SQL's doubled quote ('it''s') and control escapes
  // (\n \t \r \0, any other \c is c); otherwise a backslash takes the next
  // byte literally and nothing else is special.
  bool sql_string_escapes = false;

  // ---- grammar ----
  bool allow_not = false;
  bool allow_in = false;
  bool allow_between = false;
  bool allow_is_null = false;
  bool typed_literals = false;             // TRUE FALSE NULL DATE TIMESTAMP CAST
  bool bare_operand_is_condition = false;  // "ok" alone (a boolean key)
  bool key_against_literal = false;        // every comparison: one key, one literal
  FilterLike like = FilterLike::kNone;
  // Words that are never identifiers (upper-case).
  std::vector<std::string> reserved_words;

  // ---- binding ----
  FilterTyping typing = FilterTyping::kTyped;
  // Which error a text with several gets. true: the first in the text, as
  // the parser reaches it; a bad token, a syntax error and (CompileFilter)
  // a key or literal that does not bind alike. false: any bad token first,
  // then the first syntax error, then the first binding error.
  bool errors_in_text_order = false;

  // ---- messages ----
  std::string prefix;  // before every message, e.g. "filter: "
  // Placeholders: {size} {limit}.
  std::string too_long;
  // Syntax errors read "<what><found_format>": {found} is the token met, {pos}
  // its byte offset, e.g. ", found {found} at position {pos}".
  std::string found_format;
  std::string end_of_input;         // how the end shows as {found}
  char message_quote = '\'';        // quotes a string literal shown as {found}
  std::string unterminated_string;  // + " at position N" (the opening quote)
  std::string lone_bang;            // '!' without '='; empty: unexpected character
  std::string expected_operand;     // where an operand must start
  std::string expected_operator;    // after an operand (no bare operands)
  std::string expected_literal;     // after a key (key_against_literal)
  std::string expected_key;         // after a literal (key_against_literal)
  // A reserved word where an operand must be; {word} upper-cased. Empty:
  // expected_operand with the word as {found}.
  std::string reserved_operand;
  std::string like_refused;  // LIKE where like == kNone; + " at position N"
  // An identifier followed by '(' ({name} as written); empty: not checked.
  std::string function_refused;
  // An identifier that is no key: {column} lower-cased, {written} as
  // written, {keys} the key names, {pos} its byte offset.
  std::string unknown_key;
};

// One operand: a key reference or a literal.
struct FilterOperand {
  bool is_column = false;
  std::string column;           // lower-cased (is_column)
  std::string written;          // an identifier or a number as written (sign included)
  HiveValue literal;            // !is_column
  bool string_literal = false;  // the literal was a quoted string
  size_t pos = 0;               // where it starts in the text
};

// The parsed tree, before binding to keys.
struct FilterExpr {
  enum class Kind : uint8_t {
    kAnd,      // children
    kOr,       // children
    kNot,      // children[0]
    kCompare,  // operands[0] op operands[1]
    kIn,       // operands[0] [NOT] IN (operands[1..])
    kBetween,  // operands[0] [NOT] BETWEEN operands[1] AND operands[2]
    kIsNull,   // operands[0] IS [NOT] NULL
    kLike,     // operands[0] LIKE operands[1]
    kBare,     // operands[0] used as a condition
  };
  Kind kind = Kind::kAnd;
  BinaryOp op = BinaryOp::kEq;  // kCompare: one of = != < <= > >=
  bool negated = false;         // NOT IN, NOT BETWEEN, IS NOT NULL
  size_t pos = 0;               // where the node starts
  size_t op_pos = 0;            // kCompare, kLike: where the operator is
  std::vector<std::unique_ptr<FilterExpr>> children;
  std::vector<FilterOperand> operands;
};

// Called for each leaf (a node with operands) as soon as it and the token
// after it have been read; an error stops the parse and is returned. A
// dialect that reports errors in text order binds leaves through it.
using FilterLeafCheck = std::function<Status(const FilterExpr& leaf)>;

// Parses `text` in `dialect`. An empty (or all-blank) text yields nullptr:
// no filter.
[[nodiscard]] Result<std::unique_ptr<FilterExpr>> ParseFilter(std::string_view text,
                                                              const FilterDialect& dialect,
                                                              const FilterLeafCheck& check = {});

// `what` in a dialect's words: prefix + what + " at position " + pos.
[[nodiscard]] Status FilterErrorAt(const FilterDialect& dialect, size_t pos,
                                   const std::string& what);

// `tmpl` with each "{name}" replaced by its value (unknown names are kept).
std::string FillTemplate(std::string_view tmpl,
                         const std::vector<std::pair<std::string_view, std::string>>& values);

}  // namespace ics::sql
