// Hive text data files: writing them (INSERT), reading them back (COMPUTE
// STATS), and the typed reading of a field's text that both the stats scanner
// and the partition pruner use.
//
// File format (Hive LazySimpleSerDe with 'escape.delim'='\\'):
//   * one row per line, lines end with '\n' (a '\r' right before the '\n' of
//     a foreign file is dropped; the last line may lack its '\n');
//   * fields separated by `field_delim` (default '\x01', Hive's ^A);
//   * NULL is written as the two bytes \N (the whole field, unescaped);
//   * the escape character is '\\': inside a value, '\\' is written as "\\\\",
//     the field delimiter as "\\<delim>", '\n' as "\\n" and '\r' as "\\r" (as
//     Hive does with serialization.escape.crlf=true), so no raw newline ever
//     appears inside a value and every line is exactly one row. A value that
//     is literally the text \N is written as "\\\\N" and reads back as that
//     text, not as NULL. On reading, "\\n"/"\\r" give '\n'/'\r' and '\\'
//     followed by any other byte gives that byte.
//   * A row of zero fields is an empty line, which reads back as one empty
//     string followed by NULLs (as in Hive); an empty file has no rows.
// The delimiter may not be '\\', '\n', '\r', 'n', 'r' or 'N' (each would make
// the escapes or the NULL marker ambiguous).
//
// Thread-safety: stateless functions; safe from any thread. Files are
// written under a hidden temporary name (".<name>.tmp") and renamed, so a
// concurrent reader (or a listing that skips hidden files, as Hive's and
// Impala's do) never sees a partial file.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "Types_types.h"
#include "common/util/result.h"

namespace ics::coord {

using TextRow = std::vector<std::optional<std::string>>;

inline constexpr char kDefaultFieldDelim = '\x01';

// Writes `rows` as a new text data file in `dir` (created with its parents if
// needed) and returns the file's name (not its path):
//   <file_prefix>_<32 random hex digits>_data.0.txt
// `file_prefix` must be non-empty, must not start with '.' or '_' (such files
// are hidden from readers) and must not contain '/' or NUL.
// INVALID_ARGUMENT for a bad prefix or delimiter; IO_ERROR (with the path and
// the OS error) when the directory or file cannot be written.
Result<std::string> WriteTextDataFile(const std::string& dir, const std::string& file_prefix,
                                      const std::vector<TextRow>& rows,
                                      char field_delim = kDefaultFieldDelim);

// Reads a whole text data file: every row has exactly `num_columns` fields
// (missing trailing fields are NULL, extra fields are ignored).
// IO_ERROR when the file cannot be read; INVALID_ARGUMENT for a bad delimiter.
Result<std::vector<TextRow>> ReadTextDataFile(const std::string& path, char field_delim,
                                              size_t num_columns);

// The same parser over bytes already in memory.
Result<std::vector<TextRow>> ParseTextData(std::string_view data, char field_delim,
                                           size_t num_columns);

// Streaming form: calls `fn` with each row (num_columns fields, the same
// TextRow object reused) and stops at the first non-OK status it returns.
[[nodiscard]] Status ForEachTextRow(std::string_view data, char field_delim, size_t num_columns,
                                    const std::function<Status(const TextRow&)>& fn);

// The whole content of a file. IO_ERROR with the path and OS error.
Result<std::string> ReadWholeFile(const std::string& path);

// Encodes one row as a line (with its '\n'); exposed for tests and tools.
std::string EncodeTextRow(const TextRow& row, char field_delim = kDefaultFieldDelim);

// ---- Typed reading of field text ----

// An exact decimal number: digits without leading (integer part) or trailing
// (fraction part) zeros; zero is {false, "", ""}.
struct ExactNumber {
  bool negative = false;
  std::string int_digits;
  std::string frac_digits;

  bool is_zero() const { return int_digits.empty() && frac_digits.empty(); }
  // "-12.5", "0", "0.25".
  std::string ToString() const;
};

// Parses [+-]digits[.digits][(e|E)[+-]digits] (at least one digit before or
// after the point; surrounding ASCII whitespace allowed). nullopt for anything
// else, and for numbers needing more than kMaxExactDigits digits.
inline constexpr size_t kMaxExactDigits = 4096;
std::optional<ExactNumber> ParseExactNumber(std::string_view text);

// <0, 0, >0 as a is less than, equal to, greater than b.
int CompareExactNumbers(const ExactNumber& a, const ExactNumber& b);

// "yyyy-mm-dd" (month and day may have one digit; year 0001..9999, a real
// calendar day; surrounding whitespace allowed) -> canonical "yyyy-mm-dd".
std::optional<std::string> ParseDateText(std::string_view text);

// "yyyy-mm-dd[( |T)hh:mm[:ss[.fffffffff]]]" -> canonical
// "yyyy-mm-dd hh:mm:ss.fffffffff" (always nine fraction digits, so canonical
// texts compare in time order as strings).
std::optional<std::string> ParseTimestampText(std::string_view text);

// The value of a text field as a scalar column of `type` reads it, in a
// canonical text form: the same value always gives the same text (used as
// the NDV hash input). nullopt when the text is not a valid value of the
// type, which Hive and Impala read as NULL:
//   BOOLEAN    "true"/"false" in any case        -> "true" / "false"
//   TINYINT..BIGINT  [+-]digits within range      -> decimal digits ("-12")
//   FLOAT, DOUBLE    a number, inf or nan         -> "%.9g" / "%.17g" of it
//   DECIMAL(p,s)     a number; rounded half away from zero to s digits;
//                    NULL if more than p-s integer digits -> "-1.50"
//   DATE, TIMESTAMP  see ParseDateText / ParseTimestampText
//   STRING, BINARY   the text itself
//   VARCHAR(n)       the first n bytes;  CHAR(n) truncated or space-padded to n
// Integers, floats and decimals allow surrounding whitespace, as Impala's
// text scanner does. Complex and unknown types give nullopt.
std::optional<std::string> CanonicalTextValue(std::string_view text,
                                              const impala::TColumnType& type);

}  // namespace ics::coord
