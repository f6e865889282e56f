#include "common/sql/lexer.h"
#include "common/util/ascii.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

namespace ics::sql {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsWordChar(char c) { return IsDigit(c) || IsAlpha(c); }

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    while (true) {
      ICS_RETURN_IF_ERROR(SkipSpaceAndComments());
      Token tok;
      tok.offset = pos_;
      tok.line = line_;
      tok.column = static_cast<int>(pos_ - line_start_) + 1;
      if (pos_ >= sql_.size()) {
        tokens.push_back(std::move(tok));
        return tokens;
      }
      ICS_RETURN_IF_ERROR(Next(&tok, tokens.empty() ? nullptr : &tokens.back()));
      tok.length = pos_ - tok.offset;
      tokens.push_back(std::move(tok));
    }
  }

 private:
  char At(size_t i) const { return i < sql_.size() ? sql_[i] : '\0'; }

  // Advances over one character, keeping line bookkeeping.
  void Advance() {
    if (sql_[pos_] == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
    ++pos_;
  }

  Status ErrorHere(const Token& tok, std::string_view msg) const {
    return SyntaxErrorAt(tok.line, tok.column, msg);
  }

  Status SkipSpaceAndComments() {
    while (pos_ < sql_.size()) {
      const char c = sql_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        Advance();
      } else if (c == '-' && At(pos_ + 1) == '-') {
        while (pos_ < sql_.size() && sql_[pos_] != '\n') Advance();
      } else if (c == '/' && At(pos_ + 1) == '*') {
        const int line = line_;
        const int column = static_cast<int>(pos_ - line_start_) + 1;
        Advance();
        Advance();
        while (true) {
          if (pos_ >= sql_.size()) return SyntaxErrorAt(line, column, "unterminated comment");
          if (sql_[pos_] == '*' && At(pos_ + 1) == '/') {
            Advance();
            Advance();
            break;
          }
          Advance();
        }
      } else {
        break;
      }
    }
    return Status::OK();
  }

  Status Next(Token* tok, const Token* prev) {
    const char c = sql_[pos_];
    if (c == '\'' || c == '"') return LexString(tok);
    if (c == '`') return LexQuotedIdentifier(tok);
    // Right after a name, ".1" separates name parts (t.1st_col); else it is a number.
    const bool after_name =
        prev != nullptr && prev->offset + prev->length == pos_ &&
        (prev->kind == TokenKind::kIdentifier || prev->kind == TokenKind::kQuotedIdentifier);
    if (IsDigit(c) || (c == '.' && IsDigit(At(pos_ + 1)) && !after_name)) return LexNumber(tok);
    if (IsAlpha(c)) {
      while (pos_ < sql_.size() && IsWordChar(sql_[pos_])) Advance();
      tok->kind = TokenKind::kIdentifier;
      tok->value = AsciiLower(sql_.substr(tok->offset, pos_ - tok->offset));
      return Status::OK();
    }
    return LexPunct(tok);
  }

  Status LexString(Token* tok) {
    const char quote = sql_[pos_];
    Advance();
    std::string value;
    while (true) {
      if (pos_ >= sql_.size()) return ErrorHere(*tok, "unterminated string literal");
      const char c = sql_[pos_];
      if (c == quote) {
        Advance();
        break;
      }
      if (c == '\\') {
        if (pos_ + 1 >= sql_.size()) return ErrorHere(*tok, "unterminated string literal");
        Advance();
        const char e = sql_[pos_];
        switch (e) {
          case 'n':
            value += '\n';
            break;
          case 't':
            value += '\t';
            break;
          case 'r':
            value += '\r';
            break;
          case 'b':
            value += '\b';
            break;
          case '0':
            value += '\0';
            break;
          case 'Z':
            value += '\x1a';
            break;
          case '%':
            value += "\\%";
            break;
          case '_':
            value += "\\_";
            break;
          default:
            value += e;
            break;
        }
        Advance();
        continue;
      }
      value += c;
      Advance();
    }
    tok->kind = TokenKind::kString;
    tok->value = std::move(value);
    return Status::OK();
  }

  Status LexQuotedIdentifier(Token* tok) {
    Advance();
    std::string value;
    while (true) {
      if (pos_ >= sql_.size()) return ErrorHere(*tok, "unterminated quoted identifier");
      if (sql_[pos_] == '`') {
        if (At(pos_ + 1) == '`') {
          value += '`';
          Advance();
          Advance();
          continue;
        }
        Advance();
        break;
      }
      value += sql_[pos_];
      Advance();
    }
    if (value.empty()) return ErrorHere(*tok, "empty quoted identifier");
    tok->kind = TokenKind::kQuotedIdentifier;
    tok->value = AsciiLower(value);
    return Status::OK();
  }

  Status LexNumber(Token* tok) {
    bool is_decimal = false;
    while (pos_ < sql_.size() && IsDigit(sql_[pos_])) Advance();
    // A word starting with digits (e.g. 1st_tbl, 123abc) is an identifier.
    if (pos_ < sql_.size() && IsAlpha(sql_[pos_]) && !IsExponentAhead()) {
      while (pos_ < sql_.size() && IsWordChar(sql_[pos_])) Advance();
      tok->kind = TokenKind::kIdentifier;
      tok->value = AsciiLower(sql_.substr(tok->offset, pos_ - tok->offset));
      return Status::OK();
    }
    if (At(pos_) == '.' && IsFractionStart(pos_ + 1)) {
      is_decimal = true;
      Advance();
      while (pos_ < sql_.size() && IsDigit(sql_[pos_])) Advance();
    }
    if (IsExponentAhead()) {
      is_decimal = true;
      Advance();
      if (sql_[pos_] == '+' || sql_[pos_] == '-') Advance();
      while (pos_ < sql_.size() && IsDigit(sql_[pos_])) Advance();
    }
    if (pos_ < sql_.size() && IsWordChar(sql_[pos_])) {
      while (pos_ < sql_.size() && IsWordChar(sql_[pos_])) Advance();
      return ErrorHere(*tok, "invalid number '" +
                                 std::string(sql_.substr(tok->offset, pos_ - tok->offset)) + "'");
    }
    tok->kind = is_decimal ? TokenKind::kDecimal : TokenKind::kInteger;
    tok->value = std::string(sql_.substr(tok->offset, pos_ - tok->offset));
    return Status::OK();
  }

  // True if the '.' before position i is a decimal point: it is followed by
  // a digit or by something that cannot start a name ("1." is 1.0, but in
  // "1.e" the '.' separates name parts).
  bool IsFractionStart(size_t i) const { return i >= sql_.size() || !IsAlpha(sql_[i]); }

  // True if pos_ starts an exponent: e|E [+-] digit.
  bool IsExponentAhead() const {
    const char c = At(pos_);
    if (c != 'e' && c != 'E') return false;
    size_t i = pos_ + 1;
    if (At(i) == '+' || At(i) == '-') ++i;
    if (!IsDigit(At(i))) return false;
    // "1e5x" is a word, not an exponent.
    while (IsDigit(At(i))) ++i;
    return !IsAlpha(At(i));
  }

  Status LexPunct(Token* tok) {
    static constexpr std::string_view kTwo[] = {"!=", "<>", "<=", ">=", "&&", "||"};
    tok->kind = TokenKind::kPunct;
    for (std::string_view p : kTwo) {
      if (sql_.substr(pos_, 2) == p) {
        tok->value = std::string(p);
        Advance();
        Advance();
        return Status::OK();
      }
    }
    static constexpr std::string_view kOne = "(),;.=<>+-*/%:?";
    const char c = sql_[pos_];
    if (kOne.find(c) == std::string_view::npos) {
      std::string shown;
      if (std::isprint(static_cast<unsigned char>(c))) {
        shown = std::string("'") + c + "'";
      } else {
        static const char kHex[] = "0123456789abcdef";
        const auto u = static_cast<unsigned char>(c);
        shown = std::string("0x") + kHex[u >> 4] + kHex[u & 15];
      }
      return ErrorHere(*tok, "unexpected character " + shown);
    }
    tok->value = std::string(1, c);
    Advance();
    return Status::OK();
  }

  std::string_view sql_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
};

}  // namespace

Result<std::vector<Token>> Tokenize(std::string_view sql) { return Lexer(sql).Run(); }

Status SyntaxErrorAt(int line, int column, std::string_view message) {
  return Status(ErrorCode::kAnalysisError, "Syntax error at line " + std::to_string(line) +
                                               ", column " + std::to_string(column) + ": " +
                                               std::string(message));
}

std::string DescribeToken(const Token& token, std::string_view sql) {
  if (token.kind == TokenKind::kEnd) return "end of input";
  constexpr size_t kMaxShown = 40;
  std::string_view text = sql.substr(std::min(token.offset, sql.size()), token.length);
  std::string shown;
  for (char c : text.substr(0, kMaxShown)) {
    shown += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  }
  if (text.size() > kMaxShown) shown += "...";
  return "'" + shown + "'";
}

}  // namespace ics::sql

namespace ics::sql {

bool IsReservedWord(std::string_view word) {
  // Words whose use as a name would make the grammar ambiguous (an alias
  // after a table name, a column after DROP, ...). Kept short so common
  // column names (date, location, comment, owner, ...) stay usable.
  static constexpr std::string_view kReserved[] = {
      "all",    "alter", "and",       "as",        "asc",         "between", "by",      "cast",
      "create", "desc",  "describe",  "distinct",  "drop",        "exists",  "explain", "external",
      "false",  "from",  "group",     "having",    "if",          "in",      "insert",  "into",
      "is",     "join",  "like",      "limit",     "not",         "null",    "offset",  "on",
      "or",     "order", "overwrite", "partition", "partitioned", "select",  "set",     "show",
      "table",  "true",  "union",     "values",    "view",        "where",   "with",
  };
  for (std::string_view r : kReserved) {
    if (r == word) return true;
  }
  return false;
}

}  // namespace ics::sql
