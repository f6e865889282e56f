#include "common/sql/ast.h"

#include <cstdint>

#include "common/sql/lexer.h"

namespace ics::sql {
namespace {

std::string QuoteString(const std::string& s) {
  std::string out = "'";
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
      case '\'':
        out += "\\'";
        break;
      case '\\':
        // \% and \_ lex back to themselves (LIKE escapes keep their backslash).
        out += (i + 1 < s.size() && (s[i + 1] == '%' || s[i + 1] == '_')) ? "\\" : "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\0':
        out += "\\0";
        break;
      case '\x1a':
        out += "\\Z";
        break;
      default:
        out += c;
        break;
    }
  }
  return out + "'";
}

// An identifier as SQL: plain if it lexes back as the same unquoted word.
std::string QuoteName(const std::string& name) {
  bool plain = !name.empty() && !IsReservedWord(name);
  for (char c : name) {
    plain = plain && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '_');
  }
  if (plain && name[0] >= '0' && name[0] <= '9') {
    // "123" or "1e5" would lex as numbers.
    auto tokens = Tokenize(name);
    plain = tokens.ok() && tokens->size() == 2 && tokens->front().kind == TokenKind::kIdentifier;
  }
  if (plain) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  return out + "`";
}

// `function`: the path names a function; if(...) is one although IF is reserved.
std::string JoinPath(const std::vector<std::string>& path, bool function = false) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += ".";
    out += (function && path.size() == 1 && path[0] == "if") ? path[i] : QuoteName(path[i]);
  }
  return out;
}

// Binding strength, loosest first; mirrors the parser's precedence levels.
int Precedence(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kOr:
      return 1;
    case ExprKind::kAnd:
      return 2;
    case ExprKind::kNot:
      return 3;
    case ExprKind::kComparison:
    case ExprKind::kIn:
    case ExprKind::kBetween:
    case ExprKind::kIsNull:
    case ExprKind::kLike:
      return 4;
    case ExprKind::kArithmetic:
      return (e.op == BinaryOp::kAdd || e.op == BinaryOp::kSub) ? 5 : 6;
    case ExprKind::kNegate:
      return 7;
    default:
      return 8;
  }
}

std::string Wrap(const Expr& child, bool paren) {
  return paren ? "(" + child.ToSql() + ")" : child.ToSql();
}

// Operands of predicates parse at the additive level, so anything looser needs parentheses.
std::string Operand(const Expr& child) { return Wrap(child, Precedence(child) < 5); }

// Predicates chain to the left at one level (`a = 1 = b` is `(a = 1) = b`), so a
// predicate's left operand needs parentheses only when it binds looser than a
// predicate. Printing one per level would make a long accepted chain print
// deeper than the parser's nesting limit.
std::string LeftOperand(const Expr& child) { return Wrap(child, Precedence(child) < 4); }

std::string JoinExprs(const std::vector<ExprPtr>& exprs, size_t from) {
  std::string out;
  for (size_t i = from; i < exprs.size(); ++i) {
    if (i > from) out += ", ";
    out += exprs[i]->ToSql();
  }
  return out;
}

}  // namespace

std::string Literal::ToSql() const {
  switch (kind) {
    case LiteralKind::kNull:
      return "NULL";
    case LiteralKind::kBoolean:
      return bool_value ? "TRUE" : "FALSE";
    case LiteralKind::kInteger:
    case LiteralKind::kDecimal:
      return value;
    case LiteralKind::kString:
      return QuoteString(value);
    case LiteralKind::kDate:
      return "DATE " + QuoteString(value);
  }
  return "NULL";
}

std::string_view BinaryOpSql(BinaryOp op) {
  switch (op) {
    case BinaryOp::kEq:
      return "=";
    case BinaryOp::kNe:
      return "!=";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kMod:
      return "%";
  }
  return "?";
}

std::string_view IntegerLiteralTypeName(int64_t v) {
  if (v >= INT8_MIN && v <= INT8_MAX) return "TINYINT";
  if (v >= INT16_MIN && v <= INT16_MAX) return "SMALLINT";
  if (v >= INT32_MIN && v <= INT32_MAX) return "INT";
  return "BIGINT";
}

std::vector<const Expr*> FlattenChain(const Expr& root, ExprKind kind) {
  std::vector<const Expr*> out;
  std::vector<const Expr*> stack = {&root};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    if (e->kind == kind && e->children.size() == 2) {
      stack.push_back(e->children[1].get());
      stack.push_back(e->children[0].get());
    } else {
      out.push_back(e);
    }
  }
  return out;
}

BinaryOp SwapComparison(BinaryOp op) {
  switch (op) {
    case BinaryOp::kLt:
      return BinaryOp::kGt;
    case BinaryOp::kLe:
      return BinaryOp::kGe;
    case BinaryOp::kGt:
      return BinaryOp::kLt;
    case BinaryOp::kGe:
      return BinaryOp::kLe;
    default:
      return op;
  }
}

std::string Expr::ToSql() const {
  const int prec = Precedence(*this);
  switch (kind) {
    case ExprKind::kLiteral:
      return literal.ToSql();
    case ExprKind::kColumnRef:
      return JoinPath(path);
    case ExprKind::kFunctionCall:
      if (star) return JoinPath(path, true) + "(*)";
      return JoinPath(path, true) + "(" + (distinct ? "DISTINCT " : "") + JoinExprs(children, 0) +
             ")";
    case ExprKind::kCast:
      return "CAST(" + children[0]->ToSql() + " AS " + type + ")";
    case ExprKind::kNegate: {
      const Expr& c = *children[0];
      // -(5) stays a negation (unparenthesized -5 is a literal); -(-x) must not print as --x.
      const bool numeric_literal =
          c.kind == ExprKind::kLiteral &&
          (c.literal.kind == LiteralKind::kInteger || c.literal.kind == LiteralKind::kDecimal);
      return "-" + Wrap(c, Precedence(c) < 8 || numeric_literal);
    }
    case ExprKind::kArithmetic:
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      const std::string op_text = kind == ExprKind::kAnd  ? "AND"
                                  : kind == ExprKind::kOr ? "OR"
                                                          : std::string(BinaryOpSql(op));
      return Wrap(*children[0], Precedence(*children[0]) < prec) + " " + op_text + " " +
             Wrap(*children[1], Precedence(*children[1]) <= prec);
    }
    case ExprKind::kComparison:
      return LeftOperand(*children[0]) + " " + std::string(BinaryOpSql(op)) + " " +
             Operand(*children[1]);
    case ExprKind::kIn:
      return LeftOperand(*children[0]) + (negated ? " NOT IN (" : " IN (") +
             JoinExprs(children, 1) + ")";
    case ExprKind::kBetween:
      return LeftOperand(*children[0]) + (negated ? " NOT BETWEEN " : " BETWEEN ") +
             Operand(*children[1]) + " AND " + Operand(*children[2]);
    case ExprKind::kIsNull:
      return LeftOperand(*children[0]) + (negated ? " IS NOT NULL" : " IS NULL");
    case ExprKind::kLike:
      return LeftOperand(*children[0]) + (negated ? " NOT LIKE " : " LIKE ") +
             Operand(*children[1]);
    case ExprKind::kNot:
      return "NOT " + Wrap(*children[0], Precedence(*children[0]) < prec);
  }
  return "?";
}

std::string_view FileFormatName(FileFormat format) {
  switch (format) {
    case FileFormat::kText:
      return "TEXTFILE";
    case FileFormat::kSequenceFile:
      return "SEQUENCEFILE";
    case FileFormat::kRcFile:
      return "RCFILE";
    case FileFormat::kAvro:
      return "AVRO";
    case FileFormat::kParquet:
      return "PARQUET";
    case FileFormat::kOrc:
      return "ORC";
    case FileFormat::kKudu:
      return "KUDU";
    case FileFormat::kIceberg:
      return "ICEBERG";
    case FileFormat::kJson:
      return "JSONFILE";
  }
  return "UNKNOWN";
}

std::string_view StatementKindName(StatementKind kind) {
  switch (kind) {
    case StatementKind::kCreateDatabase:
      return "CREATE DATABASE";
    case StatementKind::kDropDatabase:
      return "DROP DATABASE";
    case StatementKind::kAlterDatabaseSetOwner:
      return "ALTER DATABASE SET OWNER";
    case StatementKind::kCreateTable:
      return "CREATE TABLE";
    case StatementKind::kCreateTableLike:
      return "CREATE TABLE LIKE";
    case StatementKind::kCreateView:
      return "CREATE VIEW";
    case StatementKind::kAlterView:
      return "ALTER VIEW";
    case StatementKind::kAlterViewSetTblProperties:
      return "ALTER VIEW SET TBLPROPERTIES";
    case StatementKind::kAlterViewUnsetTblProperties:
      return "ALTER VIEW UNSET TBLPROPERTIES";
    case StatementKind::kDropTable:
      return "DROP TABLE";
    case StatementKind::kDropView:
      return "DROP VIEW";
    case StatementKind::kAlterTableAddPartitions:
      return "ALTER TABLE ADD PARTITION";
    case StatementKind::kAlterTableDropPartitions:
      return "ALTER TABLE DROP PARTITION";
    case StatementKind::kAlterTableAddColumns:
      return "ALTER TABLE ADD COLUMNS";
    case StatementKind::kAlterTableReplaceColumns:
      return "ALTER TABLE REPLACE COLUMNS";
    case StatementKind::kAlterTableDropColumn:
      return "ALTER TABLE DROP COLUMN";
    case StatementKind::kAlterTableChangeColumn:
      return "ALTER TABLE CHANGE COLUMN";
    case StatementKind::kAlterTableRename:
      return "ALTER TABLE RENAME";
    case StatementKind::kAlterTableSetTblProperties:
      return "ALTER TABLE SET TBLPROPERTIES";
    case StatementKind::kAlterTableUnsetTblProperties:
      return "ALTER TABLE UNSET TBLPROPERTIES";
    case StatementKind::kAlterTableSetLocation:
      return "ALTER TABLE SET LOCATION";
    case StatementKind::kAlterTableSetFileFormat:
      return "ALTER TABLE SET FILEFORMAT";
    case StatementKind::kAlterTableSetOwner:
      return "ALTER TABLE SET OWNER";
    case StatementKind::kAlterTableRecoverPartitions:
      return "ALTER TABLE RECOVER PARTITIONS";
    case StatementKind::kTruncate:
      return "TRUNCATE";
    case StatementKind::kComputeStats:
      return "COMPUTE STATS";
    case StatementKind::kDropStats:
      return "DROP STATS";
    case StatementKind::kInsert:
      return "INSERT";
    case StatementKind::kShow:
      return "SHOW";
    case StatementKind::kDescribe:
      return "DESCRIBE";
    case StatementKind::kDescribeDatabase:
      return "DESCRIBE DATABASE";
    case StatementKind::kSelect:
      return "SELECT";
    case StatementKind::kExplain:
      return "EXPLAIN";
    case StatementKind::kInvalidateMetadata:
      return "INVALIDATE METADATA";
    case StatementKind::kRefresh:
      return "REFRESH";
    case StatementKind::kUse:
      return "USE";
    case StatementKind::kSet:
      return "SET";
    case StatementKind::kCommentOn:
      return "COMMENT ON";
  }
  return "UNKNOWN";
}

bool IsDdl(StatementKind kind) {
  switch (kind) {
    case StatementKind::kInsert:
    case StatementKind::kShow:
    case StatementKind::kDescribe:
    case StatementKind::kDescribeDatabase:
    case StatementKind::kSelect:
    case StatementKind::kExplain:
    case StatementKind::kInvalidateMetadata:
    case StatementKind::kRefresh:
    case StatementKind::kUse:
    case StatementKind::kSet:
      return false;
    default:
      return true;
  }
}

}  // namespace ics::sql
