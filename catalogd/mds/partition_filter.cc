#include "catalogd/mds/partition_filter.h"
#include "common/util/ascii.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace ics::catalog::mds {

namespace {

struct Token {
  enum class Type { kEnd, kIdent, kQuotedIdent, kNumber, kString, kOp, kLParen, kRParen, kComma };
  Type type = Type::kEnd;
  std::string text;  // identifier (as written), number text, unescaped string, operator
  size_t pos = 0;
};

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

Status ErrorAt(size_t pos, const std::string& what) {
  return Status::InvalidArgument("filter: " + what + " at position " + std::to_string(pos));
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : s_(text) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> out;
    while (true) {
      while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
      Token t;
      t.pos = i_;
      if (i_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      const char c = s_[i_];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        const size_t start = i_;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) {
          ++i_;
        }
        t.type = Token::Type::kIdent;
        t.text = std::string(s_.substr(start, i_ - start));
      } else if (c == '`') {
        const size_t end = s_.find('`', i_ + 1);
        if (end == std::string_view::npos) return ErrorAt(i_, "unterminated `identifier`");
        if (end == i_ + 1) return ErrorAt(i_, "empty `identifier`");
        t.type = Token::Type::kQuotedIdent;
        t.text = std::string(s_.substr(i_ + 1, end - i_ - 1));
        i_ = end + 1;
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && i_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_ + 1])))) {
        const size_t start = i_;
        while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) ++i_;
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
          ++i_;
          if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
          while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
        }
        if (i_ < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) {
          return ErrorAt(start, "malformed number");
        }
        t.type = Token::Type::kNumber;
        t.text = std::string(s_.substr(start, i_ - start));
      } else if (c == '\'' || c == '"') {
        ICS_ASSIGN_OR_RETURN(t.text, String(c));
        t.type = Token::Type::kString;
      } else if (c == '(' || c == ')' || c == ',') {
        t.type = c == '(' ? Token::Type::kLParen
                          : (c == ')' ? Token::Type::kRParen : Token::Type::kComma);
        t.text = std::string(1, c);
        ++i_;
      } else {
        static const char* kOps[] = {"<=", ">=", "<>", "!=", "==", "=", "<", ">", "-", "+"};
        bool found = false;
        for (const char* op : kOps) {
          std::string_view o(op);
          if (s_.substr(i_, o.size()) == o) {
            t.type = Token::Type::kOp;
            t.text = std::string(o);
            i_ += o.size();
            found = true;
            break;
          }
        }
        if (!found) return ErrorAt(i_, "unexpected character '" + std::string(1, c) + "'");
      }
      out.push_back(std::move(t));
    }
  }

 private:
  Result<std::string> String(char quote) {
    const size_t start = i_++;
    std::string out;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == quote) {
        if (i_ + 1 < s_.size() && s_[i_ + 1] == quote) {  // doubled quote
          out += quote;
          i_ += 2;
          continue;
        }
        ++i_;
        return out;
      }
      if (c == '\\' && i_ + 1 < s_.size()) {
        const char e = s_[i_ + 1];
        out += e == 'n' ? '\n' : (e == 't' ? '\t' : (e == 'r' ? '\r' : (e == '0' ? '\0' : e)));
        i_ += 2;
        continue;
      }
      out += c;
      ++i_;
    }
    return ErrorAt(start, "unterminated string");
  }

  std::string_view s_;
  size_t i_ = 0;
};

std::string Describe(const Token& t) {
  switch (t.type) {
    case Token::Type::kEnd: return "the end of the filter";
    case Token::Type::kString: return "'" + t.text + "'";
    case Token::Type::kQuotedIdent: return "`" + t.text + "`";
    default: return "'" + t.text + "'";
  }
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  Result<std::unique_ptr<FilterNode>> Parse() {
    ICS_ASSIGN_OR_RETURN(auto node, Or(0));
    if (Peek().type != Token::Type::kEnd) {
      return ErrorAt(Peek().pos, "expected AND, OR or the end of the filter, found " +
                                     Describe(Peek()));
    }
    return node;
  }

 private:
  const Token& Peek(size_t ahead = 0) const {
    return t_[std::min(k_ + ahead, t_.size() - 1)];
  }
  bool IsKeyword(const Token& t, const char* kw) const {
    return t.type == Token::Type::kIdent && Upper(t.text) == kw;
  }
  bool Accept(const char* kw) {
    if (!IsKeyword(Peek(), kw)) return false;
    ++k_;
    return true;
  }
  Status Expect(Token::Type type, const char* what) {
    if (Peek().type != type) {
      return ErrorAt(Peek().pos, std::string("expected ") + what + ", found " + Describe(Peek()));
    }
    ++k_;
    return Status::OK();
  }
  Status ExpectKeyword(const char* kw) {
    if (!Accept(kw)) {
      return ErrorAt(Peek().pos, std::string("expected ") + kw + ", found " + Describe(Peek()));
    }
    return Status::OK();
  }

  // Nesting past kMaxFilterDepth (parentheses, NOT chains, CAST in CAST).
  Status TooDeep() const {
    return ErrorAt(Peek().pos, "nested deeper than " + std::to_string(kMaxFilterDepth) + " levels");
  }

  Result<std::unique_ptr<FilterNode>> Or(int depth) {
    if (depth > kMaxFilterDepth) return TooDeep();
    const size_t pos = Peek().pos;
    ICS_ASSIGN_OR_RETURN(auto first, And(depth));
    if (!IsKeyword(Peek(), "OR")) return first;
    auto node = std::make_unique<FilterNode>();
    node->kind = FilterNode::Kind::kOr;
    node->pos = pos;
    node->children.push_back(std::move(first));
    while (Accept("OR")) {
      ICS_ASSIGN_OR_RETURN(auto next, And(depth));
      node->children.push_back(std::move(next));
    }
    return node;
  }

  Result<std::unique_ptr<FilterNode>> And(int depth) {
    const size_t pos = Peek().pos;
    ICS_ASSIGN_OR_RETURN(auto first, Not(depth));
    if (!IsKeyword(Peek(), "AND")) return first;
    auto node = std::make_unique<FilterNode>();
    node->kind = FilterNode::Kind::kAnd;
    node->pos = pos;
    node->children.push_back(std::move(first));
    while (Accept("AND")) {
      ICS_ASSIGN_OR_RETURN(auto next, Not(depth));
      node->children.push_back(std::move(next));
    }
    return node;
  }

  Result<std::unique_ptr<FilterNode>> Not(int depth) {
    if (depth > kMaxFilterDepth) return TooDeep();
    const size_t pos = Peek().pos;
    if (Accept("NOT")) {
      ICS_ASSIGN_OR_RETURN(auto child, Not(depth + 1));
      auto node = std::make_unique<FilterNode>();
      node->kind = FilterNode::Kind::kNot;
      node->pos = pos;
      node->children.push_back(std::move(child));
      return node;
    }
    return Predicate(depth);
  }

  Result<std::unique_ptr<FilterNode>> Predicate(int depth) {
    if (Peek().type == Token::Type::kLParen) {
      ++k_;
      ICS_ASSIGN_OR_RETURN(auto inner, Or(depth + 1));
      ICS_RETURN_IF_ERROR(Expect(Token::Type::kRParen, "')'"));
      return inner;
    }
    auto node = std::make_unique<FilterNode>();
    node->pos = Peek().pos;
    ICS_ASSIGN_OR_RETURN(FilterOperand lhs, Operand());
    node->operands.push_back(std::move(lhs));
    const Token& t = Peek();
    if (t.type == Token::Type::kOp && t.text != "-" && t.text != "+") {
      node->kind = FilterNode::Kind::kCompare;
      node->op = t.text == "=" || t.text == "=="    ? BinaryOp::kEq
                 : t.text == "!=" || t.text == "<>" ? BinaryOp::kNe
                 : t.text == "<"                    ? BinaryOp::kLt
                 : t.text == "<="                   ? BinaryOp::kLe
                 : t.text == ">"                    ? BinaryOp::kGt
                                                    : BinaryOp::kGe;
      ++k_;
      ICS_ASSIGN_OR_RETURN(FilterOperand rhs, Operand());
      node->operands.push_back(std::move(rhs));
      return node;
    }
    if (IsKeyword(t, "IS")) {
      ++k_;
      node->kind = FilterNode::Kind::kIsNull;
      node->negated = Accept("NOT");
      ICS_RETURN_IF_ERROR(ExpectKeyword("NULL"));
      return node;
    }
    const bool negated = IsKeyword(t, "NOT") &&
                         (IsKeyword(Peek(1), "IN") || IsKeyword(Peek(1), "BETWEEN"));
    if (negated) ++k_;
    if (Accept("IN")) {
      node->kind = FilterNode::Kind::kIn;
      node->negated = negated;
      ICS_RETURN_IF_ERROR(Expect(Token::Type::kLParen, "'(' after IN"));
      do {
        ICS_ASSIGN_OR_RETURN(FilterOperand item, Operand());
        node->operands.push_back(std::move(item));
      } while (Peek().type == Token::Type::kComma && (++k_, true));
      ICS_RETURN_IF_ERROR(Expect(Token::Type::kRParen, "',' or ')' in the IN list"));
      return node;
    }
    if (Accept("BETWEEN")) {
      node->kind = FilterNode::Kind::kBetween;
      node->negated = negated;
      ICS_ASSIGN_OR_RETURN(FilterOperand lo, Operand());
      ICS_RETURN_IF_ERROR(ExpectKeyword("AND"));
      ICS_ASSIGN_OR_RETURN(FilterOperand hi, Operand());
      node->operands.push_back(std::move(lo));
      node->operands.push_back(std::move(hi));
      return node;
    }
    if (IsKeyword(t, "LIKE")) return ErrorAt(t.pos, "LIKE is not supported");
    node->kind = FilterNode::Kind::kBare;
    return node;
  }

  Result<FilterOperand> Operand() {
    const Token& t = Peek();
    FilterOperand op;
    op.pos = t.pos;
    if (t.type == Token::Type::kQuotedIdent) {
      op.is_column = true;
      op.column = AsciiLower(t.text);
      ++k_;
      return op;
    }
    if (t.type == Token::Type::kIdent) {
      const std::string kw = Upper(t.text);
      if (kw == "TRUE" || kw == "FALSE" || kw == "NULL" || kw == "DATE" || kw == "TIMESTAMP" ||
          kw == "CAST") {
        ICS_ASSIGN_OR_RETURN(op.literal, Literal());
        return op;
      }
      static const char* kReserved[] = {"AND", "OR", "NOT", "IN", "BETWEEN", "IS", "AS", "LIKE"};
      for (const char* r : kReserved) {
        if (kw == r) return ErrorAt(t.pos, "expected a partition key or a literal, found " + kw);
      }
      if (Peek(1).type == Token::Type::kLParen) {
        return ErrorAt(t.pos, "function " + t.text + "() is not supported; only partition keys, "
                              "literals and CAST can be used");
      }
      op.is_column = true;
      op.column = AsciiLower(t.text);
      ++k_;
      return op;
    }
    ICS_ASSIGN_OR_RETURN(op.literal, Literal());
    return op;
  }

  Result<HiveValue> Number(bool negative) {
    const Token& t = Peek();
    if (t.type != Token::Type::kNumber) {
      return ErrorAt(t.pos, "expected a number after the sign, found " + Describe(t));
    }
    ++k_;
    const std::string text = (negative ? "-" : "") + t.text;
    std::optional<HiveValue> v = ParseNumericLiteral(text);
    if (!v) return ErrorAt(t.pos, "malformed number '" + t.text + "'");
    return *v;
  }

  // `cast_depth`: how many CASTs this literal is inside of.
  Result<HiveValue> Literal(int cast_depth = 0) {
    if (cast_depth > kMaxFilterDepth) return TooDeep();
    const Token t = Peek();
    if (t.type == Token::Type::kOp && (t.text == "-" || t.text == "+")) {
      ++k_;
      return Number(t.text == "-");
    }
    if (t.type == Token::Type::kNumber) return Number(false);
    if (t.type == Token::Type::kString) {
      ++k_;
      return HiveValue::String(t.text);
    }
    if (t.type != Token::Type::kIdent) {
      return ErrorAt(t.pos, "expected a partition key or a literal, found " + Describe(t));
    }
    const std::string kw = Upper(t.text);
    ++k_;
    if (kw == "TRUE" || kw == "FALSE") return HiveValue::Bool(kw == "TRUE");
    if (kw == "NULL") return HiveValue::Null();
    if (kw == "DATE" || kw == "TIMESTAMP") {
      const Token& s = Peek();
      if (s.type != Token::Type::kString) {
        return ErrorAt(s.pos, "expected a quoted value after " + kw + ", found " + Describe(s));
      }
      ++k_;
      return Cast(HiveValue::String(s.text), kw, s.pos);
    }
    if (kw == "CAST") {
      ICS_RETURN_IF_ERROR(Expect(Token::Type::kLParen, "'(' after CAST"));
      const size_t vpos = Peek().pos;
      ICS_ASSIGN_OR_RETURN(HiveValue v, Literal(cast_depth + 1));
      ICS_RETURN_IF_ERROR(ExpectKeyword("AS"));
      const Token& ty = Peek();
      if (ty.type != Token::Type::kIdent) {
        return ErrorAt(ty.pos, "expected a type name, found " + Describe(ty));
      }
      const std::string type = Upper(ty.text);
      ++k_;
      if (Peek().type == Token::Type::kLParen) {  // DECIMAL(p,s), VARCHAR(n): size ignored
        while (Peek().type != Token::Type::kRParen && Peek().type != Token::Type::kEnd) ++k_;
        ICS_RETURN_IF_ERROR(Expect(Token::Type::kRParen, "')'"));
      }
      ICS_RETURN_IF_ERROR(Expect(Token::Type::kRParen, "')' to close CAST"));
      return Cast(v, type, vpos);
    }
    return ErrorAt(t.pos, "expected a literal, found " + Describe(t));
  }

  // CAST(v AS type) of a literal, computed here.
  Result<HiveValue> Cast(const HiveValue& v, const std::string& type, size_t pos) {
    using K = HiveValue::Kind;
    if (v.is_null()) return v;
    auto fail = [&] { return ErrorAt(pos, "cannot cast " + v.ToString() + " to " + type); };
    auto text = [&]() -> std::string {
      switch (v.kind) {
        case K::kString: return v.s;
        case K::kDate: return FormatDate(v.i);
        case K::kBool: return v.i ? "true" : "false";
        default: return v.ToString();
      }
    };
    if (type == "DATE") {
      if (v.kind == K::kDate) return v;
      if (v.kind != K::kString) return fail();
      std::optional<int64_t> d = ParseDateDays(v.s);
      if (!d) return ErrorAt(pos, "invalid date '" + v.s + "' (expected yyyy-mm-dd)");
      return HiveValue::Date(*d);
    }
    if (type == "TIMESTAMP") {
      if (v.kind == K::kDate) return HiveValue::String(FormatDate(v.i) + " 00:00:00");
      if (v.kind != K::kString) return fail();
      if (!ParseDateDays(v.s.substr(0, 10))) return ErrorAt(pos, "invalid timestamp '" + v.s + "'");
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
    if (!is_int && !is_float) return ErrorAt(pos, "unsupported CAST type " + type);
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
  size_t k_ = 0;
};

}  // namespace

Result<std::unique_ptr<FilterNode>> ParsePartitionFilter(std::string_view text) {
  if (text.size() > kMaxFilterBytes) {
    return Status::InvalidArgument("filter: " + std::to_string(text.size()) +
                                   " bytes is over the limit of " +
                                   std::to_string(kMaxFilterBytes) + " bytes");
  }
  ICS_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lexer(text).Run());
  if (tokens.size() == 1) return std::unique_ptr<FilterNode>();
  return Parser(std::move(tokens)).Parse();
}

}  // namespace ics::catalog::mds
