// Hive text data files: writing them (INSERT) and reading them back (COMPUTE
// STATS). A field's text is read as a typed value by common/hive/scalar_text.h.
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

}  // namespace ics::coord
