#include "common/sql/filter_dialects.h"

namespace ics::sql {

namespace {

FilterDialect MakeListPartitions() {
  FilterDialect d;
  d.max_bytes = kListPartitionsFilterMaxBytes;
  d.max_depth = kListPartitionsFilterMaxDepth;
  d.backquoted_identifiers = true;
  d.decimal_numbers = true;
  d.sign_operators = true;
  d.double_equals = true;
  d.sql_string_escapes = true;
  d.allow_not = true;
  d.allow_in = true;
  d.allow_between = true;
  d.allow_is_null = true;
  d.typed_literals = true;
  d.bare_operand_is_condition = true;
  d.like = FilterLike::kNone;
  d.reserved_words = {"AND", "OR", "NOT", "IN", "BETWEEN", "IS", "AS", "LIKE"};
  d.typing = FilterTyping::kTyped;
  d.errors_in_text_order = false;
  d.prefix = "filter: ";
  d.too_long = "{size} bytes is over the limit of {limit} bytes";
  d.found_format = ", found {found} at position {pos}";
  d.end_of_input = "the end of the filter";
  d.message_quote = '\'';
  d.unterminated_string = "unterminated string";
  d.expected_operand = "expected a partition key or a literal";
  d.reserved_operand = "expected a partition key or a literal, found {word}";
  d.like_refused = "LIKE is not supported";
  d.function_refused =
      "function {name}() is not supported; only partition keys, literals and CAST can be used";
  d.unknown_key = "'{column}' is not a partition key (partition keys: {keys}) at position {pos}";
  return d;
}

FilterDialect MakeHms() {
  FilterDialect d;
  d.max_bytes = kHmsFilterMaxBytes;
  d.max_depth = kHmsFilterMaxDepth;
  d.negative_integers = true;
  d.digit_leading_identifiers = true;
  d.key_against_literal = true;
  d.like = FilterLike::kRegexSubset;
  d.reserved_words = {"AND", "OR", "LIKE"};
  d.typing = FilterTyping::kHiveText;
  d.errors_in_text_order = true;
  d.prefix = "filter: ";
  d.too_long = "longer than {limit} bytes";
  d.found_format = " at position {pos}, found {found}";
  d.end_of_input = "the end";
  d.message_quote = '"';
  d.unterminated_string = "unterminated string starting";
  d.lone_bang = "expected '!='";
  d.expected_operand = "expected a partition key, a literal or '('";
  d.expected_operator = "expected a comparison operator (=, !=, <>, <, <=, >, >=, LIKE)";
  d.expected_literal = "expected a string or integer literal";
  d.expected_key = "expected a partition key";
  d.unknown_key = "unknown partition key '{written}' at position {pos} (keys: {keys})";
  return d;
}

}  // namespace

const FilterDialect& ListPartitionsFilterDialect() {
  static const FilterDialect* const d = new FilterDialect(MakeListPartitions());
  return *d;
}

const FilterDialect& HmsFilterDialect() {
  static const FilterDialect* const d = new FilterDialect(MakeHms());
  return *d;
}

}  // namespace ics::sql
