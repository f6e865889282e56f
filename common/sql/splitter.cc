#include "common/sql/splitter.h"

#include <cctype>

#include "common/sql/lexer.h"

namespace ics::sql {
namespace {

// One pass over the text; reports each top-level ';' and what is open at the end.
struct Scan {
  std::vector<size_t> semicolons;  // offsets of statement-ending ';'
  // What the text ends inside, if anything, and where it started.
  enum class Open { kNone, kString, kQuotedIdentifier, kBlockComment } open = Open::kNone;
  int open_line = 0;
  int open_column = 0;
  // Offset just past the last character that is neither whitespace nor comment.
  size_t last_code_end = 0;
};

Scan ScanText(std::string_view s) {
  Scan scan;
  int line = 1;
  size_t line_start = 0;
  size_t i = 0;
  auto advance = [&]() {
    if (s[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    ++i;
  };
  auto open = [&](Scan::Open what) {
    scan.open = what;
    scan.open_line = line;
    scan.open_column = static_cast<int>(i - line_start) + 1;
  };
  while (i < s.size()) {
    const char c = s[i];
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      while (i < s.size() && s[i] != '\n') advance();
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      open(Scan::Open::kBlockComment);
      advance();
      advance();
      while (i < s.size() && !(s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/')) advance();
      if (i >= s.size()) return scan;
      advance();
      advance();
      scan.open = Scan::Open::kNone;
    } else if (c == '\'' || c == '"' || c == '`') {
      open(c == '`' ? Scan::Open::kQuotedIdentifier : Scan::Open::kString);
      advance();
      while (i < s.size() && s[i] != c) {
        if (c != '`' && s[i] == '\\' && i + 1 < s.size()) advance();
        advance();
      }
      if (i >= s.size()) return scan;
      advance();
      scan.open = Scan::Open::kNone;
      scan.last_code_end = i;
    } else {
      if (c == ';') scan.semicolons.push_back(i);
      advance();
      if (!std::isspace(static_cast<unsigned char>(c))) scan.last_code_end = i;
    }
  }
  return scan;
}

// True if `piece` has something besides whitespace and comments.
bool HasCode(std::string_view piece) {
  auto tokens = Tokenize(piece);
  // A piece the lexer rejects (e.g. a stray '$') still is a statement for the parser to report.
  return !tokens.ok() || tokens->size() > 1;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<std::vector<std::string>> SplitStatements(std::string_view sql) {
  const Scan scan = ScanText(sql);
  switch (scan.open) {
    case Scan::Open::kNone:
      break;
    case Scan::Open::kString:
      return SyntaxErrorAt(scan.open_line, scan.open_column, "unterminated string literal");
    case Scan::Open::kQuotedIdentifier:
      return SyntaxErrorAt(scan.open_line, scan.open_column, "unterminated quoted identifier");
    case Scan::Open::kBlockComment:
      return SyntaxErrorAt(scan.open_line, scan.open_column, "unterminated comment");
  }
  std::vector<std::string> out;
  size_t start = 0;
  auto add = [&](size_t end) {
    std::string_view piece = Trim(sql.substr(start, end - start));
    if (HasCode(piece)) out.emplace_back(piece);
  };
  for (size_t semi : scan.semicolons) {
    add(semi);
    start = semi + 1;
  }
  add(sql.size());
  return out;
}

bool IsStatementComplete(std::string_view text) {
  const Scan scan = ScanText(text);
  if (scan.open != Scan::Open::kNone || scan.semicolons.empty()) return false;
  // The last code character must be a ';', and some statement must have code.
  if (scan.last_code_end != scan.semicolons.back() + 1) return false;
  auto pieces = SplitStatements(text);
  return pieces.ok() && !pieces->empty();
}

}  // namespace ics::sql
