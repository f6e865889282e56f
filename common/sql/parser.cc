#include "common/sql/parser.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <limits>
#include <utility>

#include "common/hive/scalar_text.h"
#include "common/sql/parser_internal.h"

namespace ics::sql {
namespace internal {

ExprPtr MakeExpr(ExprKind kind, const Token& at) {
  auto e = std::make_unique<Expr>();
  e->kind = kind;
  e->line = at.line;
  e->column = at.column;
  return e;
}

// ---- tokens ----

const Token& Parser::Peek(size_t ahead) const {
  const size_t i = pos_ + ahead;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const Token& Parser::Consume() {
  const Token& tok = Peek();
  if (pos_ + 1 < tokens_.size()) ++pos_;  // never move past kEnd
  return tok;
}

bool Parser::AcceptKeyword(std::string_view kw) {
  if (!AtKeyword(kw)) return false;
  Consume();
  return true;
}

bool Parser::AcceptPunct(std::string_view p) {
  if (!AtPunct(p)) return false;
  Consume();
  return true;
}

namespace {
std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}
}  // namespace

Status Parser::ExpectKeyword(std::string_view kw) {
  if (AcceptKeyword(kw)) return Status::OK();
  return Expected(Upper(kw));
}

Status Parser::ExpectPunct(std::string_view p) {
  if (AcceptPunct(p)) return Status::OK();
  return Expected("'" + std::string(p) + "'");
}

Result<bool> Parser::AcceptIfNotExists() {
  if (!AcceptKeyword("if")) return false;
  ICS_RETURN_IF_ERROR(ExpectKeyword("not"));
  ICS_RETURN_IF_ERROR(ExpectKeyword("exists"));
  return true;
}

Result<bool> Parser::AcceptIfExists() {
  if (!AcceptKeyword("if")) return false;
  ICS_RETURN_IF_ERROR(ExpectKeyword("exists"));
  return true;
}

bool Parser::AtIdentifier(size_t ahead) const {
  const Token& t = Peek(ahead);
  return t.kind == TokenKind::kQuotedIdentifier ||
         (t.kind == TokenKind::kIdentifier && !IsReservedWord(t.value));
}

Status Parser::ErrorAt(const Token& tok, std::string_view msg) const {
  return SyntaxErrorAt(tok.line, tok.column, msg);
}

Status Parser::Expected(std::string_view what) const {
  const Token& t = Peek();
  std::string msg = "expected " + std::string(what) + " but found " + DescribeToken(t, sql_);
  if (t.kind == TokenKind::kIdentifier && IsReservedWord(t.value) &&
      what.find("name") != std::string_view::npos) {
    msg += " (a reserved word; quote it with back-quotes to use it as a name)";
  }
  return ErrorAt(t, msg);
}

Status Parser::EnterNesting() {
  if (++depth_ > kMaxParseDepth) {
    --depth_;
    return ErrorAt(Peek(),
                   "nesting too deep (more than " + std::to_string(kMaxParseDepth) + " levels)");
  }
  return Status::OK();
}

Status Parser::AddChild(Expr* parent, ExprPtr child, const Token& at) {
  const int height = child->height + 1;
  if (height > kMaxExprDepth) {
    return ErrorAt(at, "expression nested too deeply (more than " + std::to_string(kMaxExprDepth) +
                           " levels; each operator of a chain such as a + b + c or a OR b OR c "
                           "adds a level; write a long list of values as IN (...))");
  }
  parent->height = std::max(parent->height, height);
  parent->children.push_back(std::move(child));
  return Status::OK();
}

Result<ExprPtr> Parser::MakeBinary(ExprKind kind, const Token& op, ExprPtr lhs, ExprPtr rhs) {
  ExprPtr e = MakeExpr(kind, op);
  e->line = lhs->line;
  e->column = lhs->column;
  ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(lhs), op));
  ICS_RETURN_IF_ERROR(AddChild(e.get(), std::move(rhs), op));
  return e;
}

// ---- shared clauses ----

Result<std::string> Parser::ParseIdentifier(std::string_view what) {
  if (!AtIdentifier()) return Expected(what);
  return Consume().value;
}

Result<TableName> Parser::ParseTableName(std::string_view what) {
  TableName name;
  ICS_ASSIGN_OR_RETURN(name.table, ParseIdentifier(what));
  if (AcceptPunct(".")) {
    name.db = std::move(name.table);
    ICS_ASSIGN_OR_RETURN(name.table, ParseIdentifier(what));
  }
  return name;
}

Result<std::string> Parser::ParseString(std::string_view what) {
  if (Peek().kind != TokenKind::kString) return Expected(what);
  return Consume().value;
}

Result<Literal> Parser::ParseNumber(bool negative) {
  const Token& tok = Consume();
  Literal lit;
  lit.value = (negative ? "-" : "") + tok.value;
  if (tok.kind == TokenKind::kDecimal) {
    lit.kind = LiteralKind::kDecimal;
    return lit;
  }
  // Integer: accumulate as unsigned with overflow checks; out of int64 range
  // it stays a (decimal) number.
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t v = 0;
  bool fits = true;
  for (char c : tok.value) {
    const auto d = static_cast<uint64_t>(c - '0');
    if (v > (limit - d) / 10) {
      fits = false;
      break;
    }
    v = v * 10 + d;
  }
  if (!fits) {
    lit.kind = LiteralKind::kDecimal;
    return lit;
  }
  lit.kind = LiteralKind::kInteger;
  lit.int_value = negative ? static_cast<int64_t>(~v + 1) : static_cast<int64_t>(v);
  return lit;
}

namespace {

// Validates 'yyyy-m[m]-d[d]' (no surrounding space) and returns it
// zero-padded; empty if invalid.
std::string NormalizeDate(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s.front())) ||
      std::isspace(static_cast<unsigned char>(s.back()))) {
    return "";
  }
  const std::optional<std::string> d = ParseDateText(s);
  return d ? *d : "";
}

}  // namespace

Result<Literal> Parser::ParseLiteralValue() {
  const Token& tok = Peek();
  Literal lit;
  if (tok.kind == TokenKind::kString) {
    lit.kind = LiteralKind::kString;
    lit.value = Consume().value;
    return lit;
  }
  if (tok.kind == TokenKind::kInteger || tok.kind == TokenKind::kDecimal) return ParseNumber(false);
  if ((tok.IsPunct("-") || tok.IsPunct("+")) &&
      (Peek(1).kind == TokenKind::kInteger || Peek(1).kind == TokenKind::kDecimal)) {
    const bool negative = Consume().IsPunct("-");
    return ParseNumber(negative);
  }
  if (tok.IsKeyword("null")) {
    Consume();
    return lit;
  }
  if (tok.IsKeyword("true") || tok.IsKeyword("false")) {
    lit.kind = LiteralKind::kBoolean;
    lit.bool_value = tok.IsKeyword("true");
    lit.value = Consume().value;
    return lit;
  }
  if (tok.IsKeyword("date") && Peek(1).kind == TokenKind::kString) {
    Consume();
    const Token& str = Consume();
    lit.kind = LiteralKind::kDate;
    lit.value = NormalizeDate(str.value);
    if (lit.value.empty()) {
      return ErrorAt(str, "invalid DATE literal '" + str.value + "' (expected 'yyyy-mm-dd')");
    }
    return lit;
  }
  return Expected("a literal value");
}

Result<PartitionSpec> Parser::ParsePartitionSpec(bool allow_dynamic) {
  ICS_RETURN_IF_ERROR(ExpectPunct("("));
  PartitionSpec spec;
  do {
    PartitionKeyValue kv;
    ICS_ASSIGN_OR_RETURN(kv.column, ParseIdentifier("partition column name"));
    if (AcceptPunct("=")) {
      ICS_ASSIGN_OR_RETURN(kv.value, ParseLiteralValue());
    } else if (!allow_dynamic) {
      return Expected("'='");
    }
    spec.push_back(std::move(kv));
  } while (AcceptPunct(","));
  ICS_RETURN_IF_ERROR(ExpectPunct(")"));
  return spec;
}

Result<std::optional<PartitionSpec>> Parser::ParseOptionalPartition() {
  if (!AcceptKeyword("partition")) return std::optional<PartitionSpec>();
  ICS_ASSIGN_OR_RETURN(PartitionSpec spec, ParsePartitionSpec(false));
  return std::optional<PartitionSpec>(std::move(spec));
}

Result<std::vector<std::string>> Parser::ParsePropertyKeys() {
  ICS_RETURN_IF_ERROR(ExpectPunct("("));
  std::vector<std::string> keys;
  do {
    ICS_ASSIGN_OR_RETURN(std::string key, ParseString("a property key string"));
    keys.push_back(std::move(key));
  } while (AcceptPunct(","));
  ICS_RETURN_IF_ERROR(ExpectPunct(")"));
  return keys;
}

Result<Properties> Parser::ParseProperties() {
  ICS_RETURN_IF_ERROR(ExpectPunct("("));
  Properties props;
  do {
    ICS_ASSIGN_OR_RETURN(std::string key, ParseString("a property key string"));
    ICS_RETURN_IF_ERROR(ExpectPunct("="));
    ICS_ASSIGN_OR_RETURN(std::string value, ParseString("a property value string"));
    props.emplace_back(std::move(key), std::move(value));
  } while (AcceptPunct(","));
  ICS_RETURN_IF_ERROR(ExpectPunct(")"));
  return props;
}

Result<ColumnDef> Parser::ParseColumnDef() {
  ColumnDef col;
  ICS_ASSIGN_OR_RETURN(col.name, ParseIdentifier("column name"));
  ICS_ASSIGN_OR_RETURN(col.type, ParseType(0));
  ICS_ASSIGN_OR_RETURN(col.comment, ParseOptionalComment());
  return col;
}

Result<std::vector<ColumnDef>> Parser::ParseColumnDefs(bool allow_empty) {
  ICS_RETURN_IF_ERROR(ExpectPunct("("));
  std::vector<ColumnDef> cols;
  if (allow_empty && AcceptPunct(")")) return cols;  // the analyzer reports it
  do {
    ICS_ASSIGN_OR_RETURN(ColumnDef col, ParseColumnDef());
    cols.push_back(std::move(col));
  } while (AcceptPunct(","));
  ICS_RETURN_IF_ERROR(ExpectPunct(")"));
  return cols;
}

Result<std::vector<std::string>> Parser::ParseIdentifierList(std::string_view what) {
  ICS_RETURN_IF_ERROR(ExpectPunct("("));
  std::vector<std::string> names;
  do {
    ICS_ASSIGN_OR_RETURN(std::string name, ParseIdentifier(what));
    names.push_back(std::move(name));
  } while (AcceptPunct(","));
  ICS_RETURN_IF_ERROR(ExpectPunct(")"));
  return names;
}

Result<FileFormat> Parser::ParseFileFormat() {
  static constexpr std::pair<std::string_view, FileFormat> kFormats[] = {
      {"textfile", FileFormat::kText},
      {"parquet", FileFormat::kParquet},
      {"parquetfile", FileFormat::kParquet},
      {"sequencefile", FileFormat::kSequenceFile},
      {"rcfile", FileFormat::kRcFile},
      {"avro", FileFormat::kAvro},
      {"orc", FileFormat::kOrc},
      {"kudu", FileFormat::kKudu},
      {"iceberg", FileFormat::kIceberg},
      {"jsonfile", FileFormat::kJson},
  };
  const Token& tok = Peek();
  if (tok.kind != TokenKind::kIdentifier) return Expected("a file format");
  for (const auto& [name, format] : kFormats) {
    if (tok.value == name) {
      Consume();
      return format;
    }
  }
  return ErrorAt(tok, "unknown file format " + DescribeToken(tok, sql_) +
                          " (expected TEXTFILE, PARQUET, SEQUENCEFILE, RCFILE, AVRO, ORC, "
                          "KUDU, ICEBERG or JSONFILE)");
}

Result<Owner> Parser::ParseOwner() {
  ICS_RETURN_IF_ERROR(ExpectKeyword("owner"));
  Owner owner;
  if (AcceptKeyword("user")) {
    owner.type = PrincipalType::kUser;
  } else if (AcceptKeyword("role")) {
    owner.type = PrincipalType::kRole;
  } else {
    return Expected("USER or ROLE");
  }
  if (Peek().kind == TokenKind::kString) {
    owner.name = Consume().value;
  } else {
    ICS_ASSIGN_OR_RETURN(owner.name, ParseIdentifier("owner name"));
  }
  return owner;
}

Result<std::optional<std::string>> Parser::ParseOptionalComment() {
  if (!AcceptKeyword("comment")) return std::optional<std::string>();
  ICS_ASSIGN_OR_RETURN(std::string text, ParseString("a comment string"));
  return std::optional<std::string>(std::move(text));
}

// ---- statements ----

Result<StmtPtr> Parser::ParseOne() {
  const Token& tok = Peek();
  if (tok.kind == TokenKind::kIdentifier) {
    const std::string& w = tok.value;
    if (w == "create") return ParseCreate();
    if (w == "drop") return ParseDrop();
    if (w == "alter") return ParseAlter();
    if (w == "truncate") return ParseTruncate();
    if (w == "compute") return ParseComputeStats();
    if (w == "insert") return ParseInsert();
    if (w == "show") return ParseShow();
    if (w == "describe" || w == "desc") return ParseDescribe();
    if (w == "explain") return ParseExplain();
    if (w == "select") {
      ICS_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> select, ParseSelect());
      return StmtPtr(std::move(select));
    }
    if (w == "invalidate") return ParseInvalidate();
    if (w == "refresh") return ParseRefresh();
    if (w == "use") return ParseUse();
    if (w == "set") return ParseSet();
    if (w == "comment") return ParseCommentOn();
  }
  return ErrorAt(tok, "unknown statement " + DescribeToken(tok, sql_));
}

Result<std::vector<StmtPtr>> Parser::ParseAll(bool single) {
  std::vector<StmtPtr> out;
  while (true) {
    while (AcceptPunct(";")) {
    }
    if (AtEnd()) break;
    if (single && !out.empty()) {
      return ErrorAt(Peek(), "expected end of input but found " + DescribeToken(Peek(), sql_) +
                                 " (only one statement is allowed here)");
    }
    const Token& first = Peek();
    const size_t first_index = pos_;
    ICS_ASSIGN_OR_RETURN(StmtPtr stmt, ParseOne());
    if (!AtEnd() && !AtPunct(";")) return Expected("';' or end of statement");
    if (pos_ > first_index) {
      const Token& last = tokens_[pos_ - 1];
      stmt->text = std::string(sql_.substr(first.offset, last.offset + last.length - first.offset));
    }
    stmt->line = first.line;
    stmt->column = first.column;
    out.push_back(std::move(stmt));
  }
  if (single && out.empty()) return ErrorAt(Peek(), "empty statement");
  return out;
}

Result<ExprPtr> Parser::ParseStandaloneExpr() {
  ICS_ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
  if (!AtEnd()) return Expected("end of expression");
  return e;
}

Result<std::string> Parser::ParseStandaloneType() {
  ICS_ASSIGN_OR_RETURN(std::string type, ParseType(0));
  if (!AtEnd()) return Expected("end of type");
  return type;
}

}  // namespace internal

Result<std::unique_ptr<Statement>> ParseStatement(std::string_view sql) {
  ICS_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  internal::Parser parser(sql, std::move(tokens));
  ICS_ASSIGN_OR_RETURN(std::vector<internal::StmtPtr> stmts, parser.ParseAll(true));
  return std::move(stmts.front());
}

Result<std::vector<std::unique_ptr<Statement>>> ParseScript(std::string_view sql) {
  ICS_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  internal::Parser parser(sql, std::move(tokens));
  return parser.ParseAll(false);
}

Result<ExprPtr> ParseExpression(std::string_view sql) {
  ICS_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  internal::Parser parser(sql, std::move(tokens));
  return parser.ParseStandaloneExpr();
}

Result<std::string> ParseColumnType(std::string_view sql) {
  ICS_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(sql));
  internal::Parser parser(sql, std::move(tokens));
  return parser.ParseStandaloneType();
}

}  // namespace ics::sql
