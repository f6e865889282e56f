// SQL lexer: turns statement text into tokens for the recursive-descent parser.
//
// Token rules (Impala dialect):
//   - whitespace and comments (`-- to end of line`, `/* block */`, not nested)
//     separate tokens and are dropped;
//   - identifiers: [A-Za-z0-9_]+ containing at least one letter or '_' (Impala
//     allows a leading digit, e.g. `1st_tbl`), or `back-quoted` (any text but
//     a back-quote; a doubled back-quote stands for one). Both are lower-cased,
//     since identifiers are case-insensitive; keywords are unquoted identifiers;
//   - string literals: '...' or "..." with backslash escapes
//     (\n \t \r \b \0 \Z \\ \' \"; \% and \_ keep their backslash, as in Hive;
//     any other \c is c). `value` holds the unescaped text;
//   - numbers: digits [. digits] [e [+-] digits], or . digits;
//   - punctuation: ( ) , ; . = != <> < <= > >= + - * / % : && || ?
//
// Errors (unterminated string/comment/quoted identifier, stray character,
// malformed number) are kAnalysisError statuses of the form
//   "Syntax error at line L, column C: <what>"
// with the 1-based line and byte column where the offending token starts.
//
// Thread-safety: stateless functions; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/result.h"

namespace ics::sql {

enum class TokenKind {
  kIdentifier,        // unquoted word: keyword or name; `value` lower-cased
  kQuotedIdentifier,  // `back-quoted` name; `value` lower-cased, never a keyword
  kString,            // 'text' or "text"; `value` unescaped
  kInteger,           // 123; `value` is the digits
  kDecimal,           // 1.5, .5, 1e10; `value` as written
  kPunct,             // operators and punctuation; `value` as written, e.g. "<="
  kEnd,               // end of input (always the last token)
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string value;
  // Position of the first character: byte offset, 1-based line and column.
  size_t offset = 0;
  size_t length = 0;  // bytes of source text covered (0 for kEnd)
  int line = 1;
  int column = 1;

  bool IsPunct(std::string_view p) const { return kind == TokenKind::kPunct && value == p; }
  // True for an unquoted identifier equal to `kw` (lower-case).
  bool IsKeyword(std::string_view kw) const {
    return kind == TokenKind::kIdentifier && value == kw;
  }
};

// Splits `sql` into tokens; the last token is always kEnd.
Result<std::vector<Token>> Tokenize(std::string_view sql);

// The status every lexer/parser syntax error uses:
// kAnalysisError "Syntax error at line L, column C: <message>".
Status SyntaxErrorAt(int line, int column, std::string_view message);

// True for words that cannot be used as unquoted identifiers (SELECT, FROM,
// WHERE, TABLE, PARTITION, ...); `word` must be lower-case. Back-quote them.
bool IsReservedWord(std::string_view word);

// How a token is shown in error messages: its source text in quotes
// ('FROM', '<='), shortened if long; "end of input" for kEnd.
std::string DescribeToken(const Token& token, std::string_view sql);

}  // namespace ics::sql
