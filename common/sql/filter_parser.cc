#include "common/sql/filter_parser.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "common/util/ascii.h"

namespace ics::sql {

namespace {

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

struct Token {
  enum class Type : uint8_t {
    kEnd,
    kIdent,
    kQuotedIdent,
    kNumber,
    kString,
    kOp,
    kLParen,
    kRParen,
    kComma,
    kBad,  // a lexing error (FilterLexer::error); always the last token
  };
  Type type = Type::kEnd;
  std::string text;  // identifier or number as written, unescaped string, operator
  size_t pos = 0;
};

// Splits the text into tokens in the dialect's rules. Stops at the first
// error: the last token is then kBad and `error` says what is wrong.
class FilterLexer {
 public:
  FilterLexer(std::string_view text, const FilterDialect& d) : s_(text), d_(d) {}

  std::vector<Token> Run() {
    std::vector<Token> out;
    while (true) {
      while (i_ < s_.size() && IsSpace(s_[i_])) ++i_;
      Token t;
      t.pos = i_;
      if (i_ >= s_.size()) {
        out.push_back(std::move(t));
        return out;
      }
      Status st = Next(&t);
      if (!st.ok()) {
        error = std::move(st);
        t.type = Token::Type::kBad;
        out.push_back(std::move(t));
        return out;
      }
      out.push_back(std::move(t));
    }
  }

  Status error;

 private:
  Status ErrorAt(size_t pos, const std::string& what) const { return FilterErrorAt(d_, pos, what); }

  Status Next(Token* t) {
    const char c = s_[i_];
    const bool next_digit = i_ + 1 < s_.size() && IsDigit(s_[i_ + 1]);
    if (IsDigit(c) || (c == '.' && next_digit && d_.decimal_numbers) ||
        (c == '-' && next_digit && d_.negative_integers)) {
      std::optional<Status> st = Number(t);
      if (st) return *st;  // a number, or a malformed one
      // Otherwise a word that starts with digits: an identifier.
    }
    if (IsAlpha(c) || c == '_' || (d_.digit_leading_identifiers && IsDigit(c))) {
      const size_t start = i_;
      while (i_ < s_.size() && IsWordChar(s_[i_])) ++i_;
      t->type = Token::Type::kIdent;
      t->text = std::string(s_.substr(start, i_ - start));
      return Status::OK();
    }
    if (c == '`' && d_.backquoted_identifiers) {
      const size_t end = s_.find('`', i_ + 1);
      if (end == std::string_view::npos) return ErrorAt(i_, "unterminated `identifier`");
      if (end == i_ + 1) return ErrorAt(i_, "empty `identifier`");
      t->type = Token::Type::kQuotedIdent;
      t->text = std::string(s_.substr(i_ + 1, end - i_ - 1));
      i_ = end + 1;
      return Status::OK();
    }
    if (c == '\'' || c == '"') return String(c, t);
    if (c == '(' || c == ')' || (c == ',' && d_.allow_in)) {
      t->type =
          c == '(' ? Token::Type::kLParen : (c == ')' ? Token::Type::kRParen : Token::Type::kComma);
      t->text = std::string(1, c);
      ++i_;
      return Status::OK();
    }
    static constexpr std::string_view kOps[] = {
        "<=", ">=", "<>", "!=", "==", "=", "<", ">", "-", "+"};
    for (std::string_view op : kOps) {
      if (op == "==" && !d_.double_equals) continue;
      if ((op == "-" || op == "+") && !d_.sign_operators) continue;
      if (s_.substr(i_, op.size()) == op) {
        t->type = Token::Type::kOp;
        t->text = std::string(op);
        i_ += op.size();
        return Status::OK();
      }
    }
    if (c == '!' && !d_.lone_bang.empty()) return ErrorAt(i_, d_.lone_bang);
    return ErrorAt(i_, "unexpected character '" + std::string(1, c) + "'");
  }

  // A number at i_: OK with *t filled, an error for a malformed one, or
  // nullopt (nothing consumed) for digits that begin an identifier.
  std::optional<Status> Number(Token* t) {
    const size_t start = i_;
    size_t j = i_ + 1;
    if (d_.decimal_numbers) {
      while (j < s_.size() && (IsDigit(s_[j]) || s_[j] == '.')) ++j;
      if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
        ++j;
        if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
        while (j < s_.size() && IsDigit(s_[j])) ++j;
      }
    } else {
      while (j < s_.size() && IsDigit(s_[j])) ++j;
    }
    if (j < s_.size() && (IsAlpha(s_[j]) || s_[j] == '_')) {
      if (d_.digit_leading_identifiers && s_[start] != '-') return std::nullopt;
      return ErrorAt(start, "malformed number");
    }
    t->type = Token::Type::kNumber;
    t->text = std::string(s_.substr(start, j - start));
    i_ = j;
    return Status::OK();
  }

  Status String(char quote, Token* t) {
    const size_t start = i_++;
    std::string out;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == quote) {
        if (d_.sql_string_escapes && i_ + 1 < s_.size() && s_[i_ + 1] == quote) {
          out += quote;  // a doubled quote
          i_ += 2;
          continue;
        }
        ++i_;
        t->type = Token::Type::kString;
        t->text = std::move(out);
        return Status::OK();
      }
      if (c == '\\' && i_ + 1 < s_.size()) {
        char e = s_[i_ + 1];
        if (d_.sql_string_escapes) {
          e = e == 'n' ? '\n' : (e == 't' ? '\t' : (e == 'r' ? '\r' : (e == '0' ? '\0' : e)));
        }
        out += e;
        i_ += 2;
        continue;
      }
      out += c;
      ++i_;
    }
    return ErrorAt(start, d_.unterminated_string);
  }

  std::string_view s_;
  const FilterDialect& d_;
  size_t i_ = 0;
};

class FilterParser {
 public:
  FilterParser(std::vector<Token> tokens, Status lex_error, const FilterDialect& d,
               const FilterLeafCheck& check)
      : t_(std::move(tokens)), lex_error_(std::move(lex_error)), d_(d), check_(check) {}

  Result<std::unique_ptr<FilterExpr>> Parse() {
    ICS_ASSIGN_OR_RETURN(auto node, Or(0));
    if (Peek().type != Token::Type::kEnd) {
      return Expected("expected AND, OR or the end of the filter");
    }
    return node;
  }

 private:
  using Type = Token::Type;
  using Kind = FilterExpr::Kind;

  const Token& Peek(size_t ahead = 0) const { return t_[std::min(k_ + ahead, t_.size() - 1)]; }
  bool IsKeyword(const Token& t, std::string_view kw) const {
    return t.type == Type::kIdent && Upper(t.text) == kw;
  }
  bool Accept(std::string_view kw) {
    if (!IsKeyword(Peek(), kw)) return false;
    ++k_;
    return true;
  }
  bool IsReserved(const Token& t) const {
    if (t.type != Type::kIdent) return false;
    const std::string w = Upper(t.text);
    return std::find(d_.reserved_words.begin(), d_.reserved_words.end(), w) !=
           d_.reserved_words.end();
  }

  // Every error is raised at the current token; when that token is a bad
  // one, the lexing error is what is reported (it comes first in the text).
  Status At(size_t pos, const std::string& what) const {
    if (Peek().type == Type::kBad) return lex_error_;
    return FilterErrorAt(d_, pos, what);
  }
  std::string Describe(const Token& t) const {
    switch (t.type) {
      case Type::kEnd:
        return d_.end_of_input;
      case Type::kString:
        return d_.message_quote + t.text + d_.message_quote;
      case Type::kQuotedIdent:
        return "`" + t.text + "`";
      default:
        return "'" + t.text + "'";
    }
  }
  // "expected ..." at the current token, naming what was found.
  Status Expected(const std::string& what) const {
    if (Peek().type == Type::kBad) return lex_error_;
    return Status::InvalidArgument(
        d_.prefix + what +
        FillTemplate(d_.found_format,
                     {{"found", Describe(Peek())}, {"pos", std::to_string(Peek().pos)}}));
  }
  Status Expect(Type type, const std::string& what) {
    if (Peek().type != type) return Expected(what);
    ++k_;
    return Status::OK();
  }
  Status ExpectKeyword(std::string_view kw) {
    if (!Accept(kw)) return Expected("expected " + std::string(kw));
    return Status::OK();
  }
  Status TooDeep() const {
    return At(Peek().pos, "nested deeper than " + std::to_string(d_.max_depth) + " levels");
  }

  Result<std::unique_ptr<FilterExpr>> Or(int depth) {
    if (depth > d_.max_depth) return TooDeep();
    const size_t pos = Peek().pos;
    ICS_ASSIGN_OR_RETURN(auto first, And(depth));
    if (!IsKeyword(Peek(), "OR")) return first;
    auto node = std::make_unique<FilterExpr>();
    node->kind = Kind::kOr;
    node->pos = pos;
    node->children.push_back(std::move(first));
    while (Accept("OR")) {
      ICS_ASSIGN_OR_RETURN(auto next, And(depth));
      node->children.push_back(std::move(next));
    }
    return node;
  }

  Result<std::unique_ptr<FilterExpr>> And(int depth) {
    const size_t pos = Peek().pos;
    ICS_ASSIGN_OR_RETURN(auto first, Not(depth));
    if (!IsKeyword(Peek(), "AND")) return first;
    auto node = std::make_unique<FilterExpr>();
    node->kind = Kind::kAnd;
    node->pos = pos;
    node->children.push_back(std::move(first));
    while (Accept("AND")) {
      ICS_ASSIGN_OR_RETURN(auto next, Not(depth));
      node->children.push_back(std::move(next));
    }
    return node;
  }

  Result<std::unique_ptr<FilterExpr>> Not(int depth) {
    if (depth > d_.max_depth) return TooDeep();
    const size_t pos = Peek().pos;
    if (d_.allow_not && Accept("NOT")) {
      ICS_ASSIGN_OR_RETURN(auto child, Not(depth + 1));
      auto node = std::make_unique<FilterExpr>();
      node->kind = Kind::kNot;
      node->pos = pos;
      node->children.push_back(std::move(child));
      return node;
    }
    if (Peek().type == Type::kLParen) {
      ++k_;
      ICS_ASSIGN_OR_RETURN(auto inner, Or(depth + 1));
      ICS_RETURN_IF_ERROR(Expect(Type::kRParen, "expected ')'"));
      return inner;
    }
    ICS_ASSIGN_OR_RETURN(auto leaf, Predicate());
    if (check_) {
      if (Peek().type == Type::kBad) return lex_error_;
      ICS_RETURN_IF_ERROR(check_(*leaf));
    }
    return leaf;
  }

  bool IsComparison(const Token& t) const {
    return t.type == Type::kOp && t.text != "-" && t.text != "+";
  }

  // The right-hand side of a comparison or LIKE whose left is `lhs`.
  Status RightOperand(FilterExpr* node) {
    if (d_.key_against_literal) {
      // One key and one literal: what may follow is known before reading it.
      const Token& t = Peek();
      if (node->operands[0].is_column) {
        if (t.type != Type::kString && t.type != Type::kNumber)
          return Expected(d_.expected_literal);
      } else if (t.type != Type::kIdent || IsReserved(t)) {
        return Expected(d_.expected_key);
      }
    }
    ICS_ASSIGN_OR_RETURN(FilterOperand rhs, Operand());
    node->operands.push_back(std::move(rhs));
    return Status::OK();
  }

  Result<std::unique_ptr<FilterExpr>> Predicate() {
    auto node = std::make_unique<FilterExpr>();
    node->pos = Peek().pos;
    ICS_ASSIGN_OR_RETURN(FilterOperand lhs, Operand());
    node->operands.push_back(std::move(lhs));
    const Token& t = Peek();
    node->op_pos = t.pos;
    if (IsComparison(t)) {
      node->kind = Kind::kCompare;
      node->op = t.text == "=" || t.text == "=="    ? BinaryOp::kEq
                 : t.text == "!=" || t.text == "<>" ? BinaryOp::kNe
                 : t.text == "<"                    ? BinaryOp::kLt
                 : t.text == "<="                   ? BinaryOp::kLe
                 : t.text == ">"                    ? BinaryOp::kGt
                                                    : BinaryOp::kGe;
      ++k_;
      ICS_RETURN_IF_ERROR(RightOperand(node.get()));
      return node;
    }
    if (d_.like != FilterLike::kNone && IsKeyword(t, "LIKE")) {
      node->kind = Kind::kLike;
      ++k_;
      ICS_RETURN_IF_ERROR(RightOperand(node.get()));
      return node;
    }
    if (d_.allow_is_null && IsKeyword(t, "IS")) {
      ++k_;
      node->kind = Kind::kIsNull;
      node->negated = Accept("NOT");
      ICS_RETURN_IF_ERROR(ExpectKeyword("NULL"));
      return node;
    }
    const bool negated = d_.allow_not && IsKeyword(t, "NOT") &&
                         ((d_.allow_in && IsKeyword(Peek(1), "IN")) ||
                          (d_.allow_between && IsKeyword(Peek(1), "BETWEEN")));
    if (negated) ++k_;
    if (d_.allow_in && Accept("IN")) {
      node->kind = Kind::kIn;
      node->negated = negated;
      ICS_RETURN_IF_ERROR(Expect(Type::kLParen, "expected '(' after IN"));
      do {
        ICS_ASSIGN_OR_RETURN(FilterOperand item, Operand());
        node->operands.push_back(std::move(item));
      } while (Peek().type == Type::kComma && (++k_, true));
      ICS_RETURN_IF_ERROR(Expect(Type::kRParen, "expected ',' or ')' in the IN list"));
      return node;
    }
    if (d_.allow_between && Accept("BETWEEN")) {
      node->kind = Kind::kBetween;
      node->negated = negated;
      ICS_ASSIGN_OR_RETURN(FilterOperand lo, Operand());
      ICS_RETURN_IF_ERROR(ExpectKeyword("AND"));
      ICS_ASSIGN_OR_RETURN(FilterOperand hi, Operand());
      node->operands.push_back(std::move(lo));
      node->operands.push_back(std::move(hi));
      return node;
    }
    if (IsKeyword(t, "LIKE")) return At(t.pos, d_.like_refused);
    if (!d_.bare_operand_is_condition) return Expected(d_.expected_operator);
    node->kind = Kind::kBare;
    return node;
  }

  Result<FilterOperand> Operand() {
    const Token& t = Peek();
    FilterOperand op;
    op.pos = t.pos;
    if (t.type == Type::kQuotedIdent) {
      op.is_column = true;
      op.column = AsciiLower(t.text);
      op.written = t.text;
      ++k_;
      return op;
    }
    if (t.type == Type::kIdent) {
      const std::string kw = Upper(t.text);
      if (d_.typed_literals && (kw == "TRUE" || kw == "FALSE" || kw == "NULL" || kw == "DATE" ||
                                kw == "TIMESTAMP" || kw == "CAST")) {
        ICS_ASSIGN_OR_RETURN(op.literal, Literal());
        return op;
      }
      if (IsReserved(t)) {
        if (d_.reserved_operand.empty()) return Expected(d_.expected_operand);
        return At(t.pos, FillTemplate(d_.reserved_operand, {{"word", kw}}));
      }
      if (!d_.function_refused.empty() && Peek(1).type == Type::kLParen) {
        return At(t.pos, FillTemplate(d_.function_refused, {{"name", t.text}}));
      }
      op.is_column = true;
      op.column = AsciiLower(t.text);
      op.written = t.text;
      ++k_;
      return op;
    }
    op.string_literal = t.type == Type::kString;
    if (t.type == Type::kNumber || (t.type == Type::kOp && (t.text == "-" || t.text == "+"))) {
      op.written = t.type == Type::kNumber ? t.text : t.text + Peek(1).text;
    }
    ICS_ASSIGN_OR_RETURN(op.literal, Literal());
    return op;
  }

  Result<HiveValue> Number(bool negative) {
    const Token& t = Peek();
    if (t.type != Type::kNumber) return Expected("expected a number after the sign");
    ++k_;
    const std::string text = (negative ? "-" : "") + t.text;
    std::optional<HiveValue> v = ParseNumericLiteral(text);
    if (!v) return FilterErrorAt(d_, t.pos, "malformed number '" + t.text + "'");
    return *v;
  }

  // `cast_depth`: how many CASTs this literal is inside of.
  Result<HiveValue> Literal(int cast_depth = 0) {
    if (cast_depth > d_.max_depth) return TooDeep();
    const Token t = Peek();
    if (t.type == Type::kOp && (t.text == "-" || t.text == "+")) {
      ++k_;
      return Number(t.text == "-");
    }
    if (t.type == Type::kNumber) return Number(false);
    if (t.type == Type::kString) {
      ++k_;
      return HiveValue::String(t.text);
    }
    if (t.type != Type::kIdent || !d_.typed_literals) return Expected(d_.expected_operand);
    const std::string kw = Upper(t.text);
    ++k_;
    if (kw == "TRUE" || kw == "FALSE") return HiveValue::Bool(kw == "TRUE");
    if (kw == "NULL") return HiveValue::Null();
    if (kw == "DATE" || kw == "TIMESTAMP") {
      const Token& s = Peek();
      if (s.type != Type::kString) return Expected("expected a quoted value after " + kw);
      ++k_;
      return Cast(HiveValue::String(s.text), kw, s.pos);
    }
    if (kw == "CAST") {
      ICS_RETURN_IF_ERROR(Expect(Type::kLParen, "expected '(' after CAST"));
      const size_t vpos = Peek().pos;
      ICS_ASSIGN_OR_RETURN(HiveValue v, Literal(cast_depth + 1));
      ICS_RETURN_IF_ERROR(ExpectKeyword("AS"));
      const Token& ty = Peek();
      if (ty.type != Type::kIdent) return Expected("expected a type name");
      const std::string type = Upper(ty.text);
      ++k_;
      if (Peek().type == Type::kLParen) {  // DECIMAL(p,s), VARCHAR(n): size ignored
        while (Peek().type != Type::kRParen && Peek().type != Type::kEnd &&
               Peek().type != Type::kBad) {
          ++k_;
        }
        ICS_RETURN_IF_ERROR(Expect(Type::kRParen, "expected ')'"));
      }
      ICS_RETURN_IF_ERROR(Expect(Type::kRParen, "expected ')' to close CAST"));
      return Cast(v, type, vpos);
    }
    --k_;
    return Expected("expected a literal");
  }

  // CAST(v AS type) of a literal, computed here.
  Result<HiveValue> Cast(const HiveValue& v, const std::string& type, size_t pos) {
    using K = HiveValue::Kind;
    if (v.is_null()) return v;
    auto fail = [&] {
      return FilterErrorAt(d_, pos, "cannot cast " + v.ToString() + " to " + type);
    };
    auto text = [&]() -> std::string {
      switch (v.kind) {
        case K::kString:
          return v.s;
        case K::kDate:
          return FormatDate(v.i);
        case K::kBool:
          return v.i ? "true" : "false";
        default:
          return v.ToString();
      }
    };
    if (type == "DATE") {
      if (v.kind == K::kDate) return v;
      if (v.kind != K::kString) return fail();
      std::optional<int64_t> d = ParseDateDays(v.s);
      if (!d) return FilterErrorAt(d_, pos, "invalid date '" + v.s + "' (expected yyyy-mm-dd)");
      return HiveValue::Date(*d);
    }
    if (type == "TIMESTAMP") {
      if (v.kind == K::kDate) return HiveValue::String(FormatDate(v.i) + " 00:00:00");
      if (v.kind != K::kString) return fail();
      if (!ParseDateDays(v.s.substr(0, 10))) {
        return FilterErrorAt(d_, pos, "invalid timestamp '" + v.s + "'");
      }
      return v;
    }
    if (type == "STRING" || type == "VARCHAR" || type == "CHAR") return HiveValue::String(text());
    if (type == "BOOL" || type == "BOOLEAN") {
      if (v.kind == K::kBool) return v;
      const std::string s = AsciiLower(text());
      if (s == "true" || s == "1") return HiveValue::Bool(true);
      if (s == "false" || s == "0") return HiveValue::Bool(false);
      return fail();
    }
    const bool is_int = type == "TINYINT" || type == "SMALLINT" || type == "INT" ||
                        type == "INTEGER" || type == "BIGINT" || type == "INT64";
    const bool is_float = type == "FLOAT" || type == "DOUBLE" || type == "FLOAT64" ||
                          type == "DECIMAL" || type == "NUMERIC" || type == "REAL";
    if (!is_int && !is_float) return FilterErrorAt(d_, pos, "unsupported CAST type " + type);
    std::optional<HiveValue> n;
    if (v.is_numeric()) {
      n = v;
    } else if (v.kind == K::kString) {
      n = ParseNumericLiteral(v.s);
    }
    if (!n) return fail();
    if (!is_int || n->kind == K::kInt) return *n;
    // To an integer type: a whole number within int64.
    if (!n->num.frac_digits.empty()) return fail();
    std::optional<HiveValue> whole = ParseNumericLiteral(n->num.ToString());
    if (!whole || whole->kind != K::kInt) return fail();
    return *whole;
  }

  std::vector<Token> t_;
  Status lex_error_;
  const FilterDialect& d_;
  const FilterLeafCheck& check_;
  size_t k_ = 0;
};

}  // namespace

Status FilterErrorAt(const FilterDialect& dialect, size_t pos, const std::string& what) {
  return Status::InvalidArgument(dialect.prefix + what + " at position " + std::to_string(pos));
}

std::string FillTemplate(std::string_view tmpl,
                         const std::vector<std::pair<std::string_view, std::string>>& values) {
  std::string out;
  size_t i = 0;
  while (i < tmpl.size()) {
    bool replaced = false;
    if (tmpl[i] == '{') {
      for (const auto& [name, value] : values) {
        if (tmpl.substr(i + 1, name.size()) == name && i + 1 + name.size() < tmpl.size() &&
            tmpl[i + 1 + name.size()] == '}') {
          out += value;
          i += name.size() + 2;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += tmpl[i++];
  }
  return out;
}

Result<std::unique_ptr<FilterExpr>> ParseFilter(std::string_view text, const FilterDialect& dialect,
                                                const FilterLeafCheck& check) {
  if (text.size() > dialect.max_bytes) {
    return Status::InvalidArgument(
        dialect.prefix +
        FillTemplate(dialect.too_long, {{"size", std::to_string(text.size())},
                                        {"limit", std::to_string(dialect.max_bytes)}}));
  }
  FilterLexer lexer(text, dialect);
  std::vector<Token> tokens = lexer.Run();
  if (!lexer.error.ok() && !dialect.errors_in_text_order) return lexer.error;
  if (tokens.size() == 1 && tokens[0].type == Token::Type::kEnd) {
    return std::unique_ptr<FilterExpr>();
  }
  return FilterParser(std::move(tokens), lexer.error, dialect, check).Parse();
}

}  // namespace ics::sql
