// SELECT / EXPLAIN, expressions and column types (see parser.h for the grammar).
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/sql/parser.h"
#include "common/sql/parser_internal.h"

namespace ics::sql::internal {

// ---- queries ----

Result<StmtPtr> Parser::ParseExplain() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("explain"));
  if (!AtKeyword("select")) return Expected("SELECT (EXPLAIN supports queries only)");
  auto stmt = std::make_unique<ExplainStmt>();
  const Token& first = Peek();
  ICS_ASSIGN_OR_RETURN(stmt->query, ParseSelect());
  const Token& last = tokens_[pos_ - 1];
  stmt->query->text =
      std::string(sql_.substr(first.offset, last.offset + last.length - first.offset));
  stmt->query->line = first.line;
  stmt->query->column = first.column;
  return StmtPtr(std::move(stmt));
}

Result<int64_t> Parser::ParseSignedInteger(std::string_view clause) {
  const Token& at = Peek();
  bool negative = false;
  if ((AtPunct("-") || AtPunct("+")) && Peek(1).kind == TokenKind::kInteger) {
    negative = Consume().IsPunct("-");
  }
  if (Peek().kind != TokenKind::kInteger) return Expected("an integer " + std::string(clause));
  ICS_ASSIGN_OR_RETURN(Literal lit, ParseNumber(negative));
  if (lit.kind != LiteralKind::kInteger) {
    return ErrorAt(at, std::string(clause) + " value out of range: " + lit.value);
  }
  return lit.int_value;
}

Result<std::unique_ptr<SelectStmt>> Parser::ParseSelect() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("select"));
  auto stmt = std::make_unique<SelectStmt>();
  if (AcceptKeyword("distinct")) {
    stmt->distinct = true;
  } else {
    AcceptKeyword("all");
  }
  do {
    SelectItem item;
    if (AcceptPunct("*")) {
      item.star = true;
    } else if (AtIdentifier() && AtPunct(".", 1) && AtPunct("*", 2)) {
      item.star = true;
      item.star_qualifier = Consume().value;
      Consume();
      Consume();
    } else {
      ICS_ASSIGN_OR_RETURN(item.expr, ParseExpr());
      if (AcceptKeyword("as")) {
        if (Peek().kind == TokenKind::kString) {
          item.alias = Consume().value;
        } else {
          ICS_ASSIGN_OR_RETURN(item.alias, ParseIdentifier("alias name"));
        }
      } else if (AtIdentifier()) {
        item.alias = Consume().value;
      }
    }
    stmt->items.push_back(std::move(item));
  } while (AcceptPunct(","));

  if (AcceptKeyword("from")) {
    if (AtPunct("(")) return ErrorAt(Peek(), "subqueries in FROM are not supported");
    TableRef ref;
    ICS_ASSIGN_OR_RETURN(ref.name, ParseTableName("table name"));
    if (AcceptKeyword("as")) {
      ICS_ASSIGN_OR_RETURN(ref.alias, ParseIdentifier("alias name"));
    } else if (AtIdentifier()) {
      ref.alias = Consume().value;
    }
    if (AtPunct(",") || AtKeyword("join")) {
      return ErrorAt(Peek(), "joins are not supported: FROM takes a single table");
    }
    stmt->from = std::move(ref);
  }
  if (AcceptKeyword("where")) {
    ICS_ASSIGN_OR_RETURN(stmt->where, ParseExpr());
  }
  if (AcceptKeyword("group")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("by"));
    do {
      ICS_ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      stmt->group_by.push_back(std::move(e));
    } while (AcceptPunct(","));
  }
  if (AcceptKeyword("having")) {
    ICS_ASSIGN_OR_RETURN(stmt->having, ParseExpr());
  }
  if (AcceptKeyword("order")) {
    ICS_RETURN_IF_ERROR(ExpectKeyword("by"));
    do {
      OrderByItem item;
      ICS_ASSIGN_OR_RETURN(item.expr, ParseExpr());
      if (AcceptKeyword("desc")) {
        item.ascending = false;
      } else {
        AcceptKeyword("asc");
      }
      stmt->order_by.push_back(std::move(item));
    } while (AcceptPunct(","));
  }
  if (AcceptKeyword("limit")) {
    ICS_ASSIGN_OR_RETURN(stmt->limit, ParseSignedInteger("LIMIT"));
    if (AcceptKeyword("offset")) {
      ICS_ASSIGN_OR_RETURN(stmt->offset, ParseSignedInteger("OFFSET"));
    }
  }
  if (AtKeyword("union")) return ErrorAt(Peek(), "UNION is not supported");
  return stmt;
}

// ---- expressions ----

Result<ExprPtr> Parser::ParseExpr() {
  ICS_RETURN_IF_ERROR(EnterNesting());
  Result<ExprPtr> result = ParseOr();
  LeaveNesting();
  return result;
}

Result<ExprPtr> Parser::ParseOr() {
  ICS_ASSIGN_OR_RETURN(ExprPtr lhs, ParseAnd());
  while (AtKeyword("or") || AtPunct("||")) {
    const Token& op = Consume();
    ICS_ASSIGN_OR_RETURN(ExprPtr rhs, ParseAnd());
    ICS_ASSIGN_OR_RETURN(lhs, MakeBinary(ExprKind::kOr, op, std::move(lhs), std::move(rhs)));
  }
  return lhs;
}

Result<ExprPtr> Parser::ParseAnd() {
  ICS_ASSIGN_OR_RETURN(ExprPtr lhs, ParseNot());
  while (AtKeyword("and") || AtPunct("&&")) {
    const Token& op = Consume();
    ICS_ASSIGN_OR_RETURN(ExprPtr rhs, ParseNot());
    ICS_ASSIGN_OR_RETURN(lhs, MakeBinary(ExprKind::kAnd, op, std::move(lhs), std::move(rhs)));
  }
  return lhs;
}

Result<ExprPtr> Parser::ParseNot() {
  if (!AtKeyword("not")) return ParsePredicate();
  const Token& op = Consume();
  ICS_RETURN_IF_ERROR(EnterNesting());
  Result<ExprPtr> operand = ParseNot();
  LeaveNesting();
  if (!operand.ok()) return operand.status();
  ExprPtr e = MakeExpr(ExprKind::kNot, op);
  ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(operand).value(), op));
  return e;
}

Result<ExprPtr> Parser::ParsePredicate() {
  ICS_ASSIGN_OR_RETURN(ExprPtr lhs, ParseAdditive());
  static constexpr std::pair<std::string_view, BinaryOp> kComparisons[] = {
      {"=", BinaryOp::kEq},  {"!=", BinaryOp::kNe}, {"<>", BinaryOp::kNe}, {"<", BinaryOp::kLt},
      {"<=", BinaryOp::kLe}, {">", BinaryOp::kGt},  {">=", BinaryOp::kGe},
  };
  while (true) {
    const Token& at = Peek();
    bool matched = false;
    for (const auto& [text, op] : kComparisons) {
      if (at.IsPunct(text)) {
        Consume();
        ICS_ASSIGN_OR_RETURN(ExprPtr rhs, ParseAdditive());
        ICS_ASSIGN_OR_RETURN(lhs,
                             MakeBinary(ExprKind::kComparison, at, std::move(lhs), std::move(rhs)));
        lhs->op = op;
        matched = true;
        break;
      }
    }
    if (matched) continue;

    if (AtKeyword("is")) {
      Consume();
      ExprPtr e = MakeExpr(ExprKind::kIsNull, at);
      e->negated = AcceptKeyword("not");
      ICS_RETURN_IF_ERROR(ExpectKeyword("null"));
      e->line = lhs->line;
      e->column = lhs->column;
      ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(lhs), at));
      lhs = std::move(e);
      continue;
    }
    const bool negated =
        AtKeyword("not") && (AtKeyword("in", 1) || AtKeyword("between", 1) || AtKeyword("like", 1));
    const size_t kw = negated ? 1 : 0;
    if (AtKeyword("in", kw)) {
      pos_ += kw + 1;
      ExprPtr e = MakeExpr(ExprKind::kIn, at);
      e->negated = negated;
      e->line = lhs->line;
      e->column = lhs->column;
      ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(lhs), at));
      ICS_RETURN_IF_ERROR(ExpectPunct("("));
      if (AtKeyword("select")) return ErrorAt(Peek(), "subqueries are not supported");
      do {
        const Token& item_at = Peek();
        ICS_ASSIGN_OR_RETURN(ExprPtr item, ParseExpr());
        ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(item), item_at));
      } while (AcceptPunct(","));
      ICS_RETURN_IF_ERROR(ExpectPunct(")"));
      lhs = std::move(e);
      continue;
    }
    if (AtKeyword("between", kw)) {
      pos_ += kw + 1;
      ExprPtr e = MakeExpr(ExprKind::kBetween, at);
      e->negated = negated;
      e->line = lhs->line;
      e->column = lhs->column;
      ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(lhs), at));
      ICS_ASSIGN_OR_RETURN(ExprPtr lo, ParseAdditive());
      ICS_RETURN_IF_ERROR(ExpectKeyword("and"));
      ICS_ASSIGN_OR_RETURN(ExprPtr hi, ParseAdditive());
      ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(lo), at));
      ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(hi), at));
      lhs = std::move(e);
      continue;
    }
    if (AtKeyword("like", kw)) {
      pos_ += kw + 1;
      ICS_ASSIGN_OR_RETURN(ExprPtr pattern, ParseAdditive());
      ICS_ASSIGN_OR_RETURN(lhs,
                           MakeBinary(ExprKind::kLike, at, std::move(lhs), std::move(pattern)));
      lhs->negated = negated;
      continue;
    }
    return lhs;
  }
}

Result<ExprPtr> Parser::ParseAdditive() {
  ICS_ASSIGN_OR_RETURN(ExprPtr lhs, ParseMultiplicative());
  while (AtPunct("+") || AtPunct("-")) {
    const Token& op = Consume();
    ICS_ASSIGN_OR_RETURN(ExprPtr rhs, ParseMultiplicative());
    ICS_ASSIGN_OR_RETURN(lhs,
                         MakeBinary(ExprKind::kArithmetic, op, std::move(lhs), std::move(rhs)));
    lhs->op = op.IsPunct("+") ? BinaryOp::kAdd : BinaryOp::kSub;
  }
  return lhs;
}

Result<ExprPtr> Parser::ParseMultiplicative() {
  ICS_ASSIGN_OR_RETURN(ExprPtr lhs, ParseUnary());
  while (AtPunct("*") || AtPunct("/") || AtPunct("%")) {
    const Token& op = Consume();
    ICS_ASSIGN_OR_RETURN(ExprPtr rhs, ParseUnary());
    ICS_ASSIGN_OR_RETURN(lhs,
                         MakeBinary(ExprKind::kArithmetic, op, std::move(lhs), std::move(rhs)));
    lhs->op = op.IsPunct("*") ? BinaryOp::kMul : op.IsPunct("/") ? BinaryOp::kDiv : BinaryOp::kMod;
  }
  return lhs;
}

Result<ExprPtr> Parser::ParseUnary() {
  if (!AtPunct("-") && !AtPunct("+")) return ParsePrimary();
  const Token& op = Peek();
  const TokenKind next = Peek(1).kind;
  if (next == TokenKind::kInteger || next == TokenKind::kDecimal) {
    // A signed number is one literal: -5, not -(5).
    Consume();
    ExprPtr e = MakeExpr(ExprKind::kLiteral, op);
    ICS_ASSIGN_OR_RETURN(e->literal, ParseNumber(op.IsPunct("-")));
    return e;
  }
  Consume();
  ICS_RETURN_IF_ERROR(EnterNesting());
  Result<ExprPtr> operand = ParseUnary();
  LeaveNesting();
  if (!operand.ok()) return operand.status();
  if (op.IsPunct("+")) return operand;
  ExprPtr e = MakeExpr(ExprKind::kNegate, op);
  ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(operand).value(), op));
  return e;
}

Result<ExprPtr> Parser::ParsePrimary() {
  const Token& at = Peek();
  switch (at.kind) {
    case TokenKind::kString:
    case TokenKind::kInteger:
    case TokenKind::kDecimal: {
      ExprPtr e = MakeExpr(ExprKind::kLiteral, at);
      ICS_ASSIGN_OR_RETURN(e->literal, ParseLiteralValue());
      return e;
    }
    case TokenKind::kPunct:
      if (AcceptPunct("(")) {
        if (AtKeyword("select")) return ErrorAt(Peek(), "subqueries are not supported");
        ICS_ASSIGN_OR_RETURN(ExprPtr inner, ParseExpr());
        ICS_RETURN_IF_ERROR(ExpectPunct(")"));
        return inner;
      }
      return Expected("an expression");
    case TokenKind::kQuotedIdentifier:
      return ParseNameOrCall();
    case TokenKind::kIdentifier:
      break;
    case TokenKind::kEnd:
      return Expected("an expression");
  }
  if (at.IsKeyword("null") || at.IsKeyword("true") || at.IsKeyword("false") ||
      (at.IsKeyword("date") && Peek(1).kind == TokenKind::kString)) {
    ExprPtr e = MakeExpr(ExprKind::kLiteral, at);
    ICS_ASSIGN_OR_RETURN(e->literal, ParseLiteralValue());
    return e;
  }
  if (at.IsKeyword("cast")) {
    Consume();
    ExprPtr e = MakeExpr(ExprKind::kCast, at);
    ICS_RETURN_IF_ERROR(ExpectPunct("("));
    ICS_ASSIGN_OR_RETURN(ExprPtr operand, ParseExpr());
    ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(operand), at));
    ICS_RETURN_IF_ERROR(ExpectKeyword("as"));
    ICS_ASSIGN_OR_RETURN(e->type, ParseType(0));
    ICS_RETURN_IF_ERROR(ExpectPunct(")"));
    return e;
  }
  // if(cond, a, b) is a function although IF is reserved.
  if (AtIdentifier() || (at.IsKeyword("if") && AtPunct("(", 1))) return ParseNameOrCall();
  return Expected("an expression");
}

Result<ExprPtr> Parser::ParseNameOrCall() {
  const Token& at = Peek();
  std::vector<std::string> path;
  path.push_back(Consume().value);
  while (AtPunct(".") && path.size() < 3) {
    Consume();
    ICS_ASSIGN_OR_RETURN(std::string part, ParseIdentifier("column name"));
    path.push_back(std::move(part));
  }
  if (!AtPunct("(")) {
    ExprPtr e = MakeExpr(ExprKind::kColumnRef, at);
    e->path = std::move(path);
    return e;
  }
  Consume();
  ExprPtr e = MakeExpr(ExprKind::kFunctionCall, at);
  e->path = std::move(path);
  if (AcceptPunct("*")) {
    e->star = true;
  } else if (!AtPunct(")")) {
    if (AcceptKeyword("distinct")) {
      e->distinct = true;
    } else {
      AcceptKeyword("all");
    }
    do {
      const Token& arg_at = Peek();
      ICS_ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
      ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(arg), arg_at));
    } while (AcceptPunct(","));
  }
  ICS_RETURN_IF_ERROR(ExpectPunct(")"));
  return e;
}

// ---- types ----

Result<int> Parser::ParseTypeParam(std::string_view what, int min, int max) {
  const Token& tok = Peek();
  if (tok.kind != TokenKind::kInteger)
    return Expected(std::string("an integer ") + std::string(what));
  Consume();
  const bool too_long = tok.value.size() > 9;
  const int v = too_long ? max + 1 : std::stoi(tok.value);
  if (v < min || v > max) {
    return ErrorAt(tok, std::string(what) + " " + tok.value + " out of range " +
                            std::to_string(min) + ".." + std::to_string(max));
  }
  return v;
}

Result<std::string> Parser::ParseType(int depth) {
  const Token& tok = Peek();
  if (tok.kind != TokenKind::kIdentifier) return Expected("a type");
  const std::string& w = tok.value;
  static constexpr std::pair<std::string_view, std::string_view> kSimple[] = {
      {"boolean", "boolean"}, {"tinyint", "tinyint"},     {"smallint", "smallint"},
      {"int", "int"},         {"integer", "int"},         {"bigint", "bigint"},
      {"float", "float"},     {"real", "float"},          {"double", "double"},
      {"date", "date"},       {"timestamp", "timestamp"}, {"string", "string"},
      {"binary", "binary"},
  };
  for (const auto& [name, canonical] : kSimple) {
    if (w == name) {
      Consume();
      if (canonical == "double") AcceptKeyword("precision");
      return std::string(canonical);
    }
  }
  if (w == "decimal" || w == "dec" || w == "numeric") {
    Consume();
    int precision = 10;
    int scale = 0;
    if (AcceptPunct("(")) {
      ICS_ASSIGN_OR_RETURN(precision, ParseTypeParam("decimal precision", 1, 38));
      if (AcceptPunct(",")) {
        ICS_ASSIGN_OR_RETURN(scale, ParseTypeParam("decimal scale", 0, precision));
      }
      ICS_RETURN_IF_ERROR(ExpectPunct(")"));
    }
    return "decimal(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
  }
  if (w == "char" || w == "varchar") {
    const std::string name = Consume().value;
    ICS_RETURN_IF_ERROR(ExpectPunct("("));
    ICS_ASSIGN_OR_RETURN(int len,
                         ParseTypeParam(name + " length", 1, name == "char" ? 255 : 65535));
    ICS_RETURN_IF_ERROR(ExpectPunct(")"));
    return name + "(" + std::to_string(len) + ")";
  }
  if (w == "array" || w == "map" || w == "struct") {
    if (depth >= kMaxTypeDepth) {
      return ErrorAt(
          tok, "type nested too deeply (more than " + std::to_string(kMaxTypeDepth) + " levels)");
    }
    const std::string name = Consume().value;
    ICS_RETURN_IF_ERROR(ExpectPunct("<"));
    std::string out = name + "<";
    if (name == "struct") {
      ICS_ASSIGN_OR_RETURN(std::string fields, ParseStructType(depth + 1));
      out += fields;
    } else if (name == "array") {
      ICS_ASSIGN_OR_RETURN(std::string elem, ParseType(depth + 1));
      out += elem;
    } else {
      const Token& key_tok = Peek();
      ICS_ASSIGN_OR_RETURN(std::string key, ParseType(depth + 1));
      if (key.find('<') != std::string::npos) {
        return ErrorAt(key_tok, "map key type must be a scalar type, not " + key);
      }
      ICS_RETURN_IF_ERROR(ExpectPunct(","));
      ICS_ASSIGN_OR_RETURN(std::string value, ParseType(depth + 1));
      out += key + "," + value;
    }
    ICS_RETURN_IF_ERROR(ExpectPunct(">"));
    return out + ">";
  }
  return ErrorAt(tok, "unknown type " + DescribeToken(tok, sql_));
}

namespace {
// A struct field name as TypeToString prints it.
std::string FieldName(const std::string& name) {
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      std::string out = "`";
      for (char q : name) {
        if (q == '`') out += '`';
        out += q;
      }
      return out + "`";
    }
  }
  return name;
}

std::string QuoteComment(const std::string& text) {
  std::string out = " comment '";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}
}  // namespace

Result<std::string> Parser::ParseStructType(int depth) {
  std::string out;
  std::set<std::string> seen;
  do {
    const Token& tok = Peek();
    if (tok.kind != TokenKind::kIdentifier && tok.kind != TokenKind::kQuotedIdentifier) {
      return Expected("a struct field name");
    }
    if (!seen.insert(tok.value).second) {
      return ErrorAt(tok, "duplicate struct field name '" + tok.value + "'");
    }
    const std::string& name = Consume().value;
    ICS_RETURN_IF_ERROR(ExpectPunct(":"));
    ICS_ASSIGN_OR_RETURN(std::string type, ParseType(depth));
    if (!out.empty()) out += ",";
    out += FieldName(name) + ":" + type;
    if (AcceptKeyword("comment")) {
      ICS_ASSIGN_OR_RETURN(std::string comment, ParseString("a comment string"));
      out += QuoteComment(comment);
    }
  } while (AcceptPunct(","));
  return out;
}

}  // namespace ics::sql::internal
