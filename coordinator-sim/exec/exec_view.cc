// CREATE VIEW / ALTER VIEW, and the SELECT analysis they share with EXPLAIN:
// column resolution, result column names and types, and the fully
// qualified re-print of the query (the view's expanded text).
//
// The view's query must be within the parser's SELECT subset (one table,
// no joins or subqueries): its result columns are typed from the table's
// columns, literals, CASTs and a few well-known functions; anything else is
// typed STRING.
#include <algorithm>
#include <cstdint>
#include <set>

#include "common/sql/analyzer.h"
#include "common/sql/parser.h"
#include "common/types/column_type.h"
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_format.h"
#include "coordinator-sim/exec/exec_select.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"

namespace ics::coord::exec {

namespace {

using P = impala::TPrimitiveType;

// Whether a column reference's qualifier names the source (t.c, alias.c, db.t.c).
bool QualifierMatches(const std::vector<std::string>& path, const SelectSource& src) {
  if (path.size() == 1) return true;
  if (path.size() == 2) {
    return src.alias.empty() ? path[0] == src.table->name : path[0] == src.alias;
  }
  return path.size() == 3 && src.alias.empty() && path[0] == src.table->db &&
         path[1] == src.table->name;
}

const impala::TColumn* ResolveRef(const sql::Expr& e, const SelectSource& src) {
  if (src.table == nullptr || !QualifierMatches(e.path, src)) return nullptr;
  return FindColumn(*src.table, e.column_name());
}

std::string PathSql(const std::vector<std::string>& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) out += (i > 0 ? "." : "") + QuoteIdent(path[i]);
  return out;
}

Result<impala::TColumnType> Scalar(P::type t, int precision = 0, int scale = 0) {
  return MakeScalarType(t, 0, precision, scale);
}

bool IsNumeric(P::type t) {
  return t == P::TINYINT || t == P::SMALLINT || t == P::INT || t == P::BIGINT || t == P::FLOAT ||
         t == P::DOUBLE || t == P::DECIMAL;
}

// The result type of an expression of the SELECT list.
Result<impala::TColumnType> ExprType(const sql::Expr& e, const SelectSource& src) {
  using K = sql::ExprKind;
  switch (e.kind) {
    case K::kLiteral:
      switch (e.literal.kind) {
        case sql::LiteralKind::kNull:
        case sql::LiteralKind::kBoolean: return Scalar(P::BOOLEAN);
        case sql::LiteralKind::kInteger: {
          const int64_t v = e.literal.int_value;
          if (v >= -128 && v <= 127) return Scalar(P::TINYINT);
          if (v >= -32768 && v <= 32767) return Scalar(P::SMALLINT);
          if (v >= INT32_MIN && v <= INT32_MAX) return Scalar(P::INT);
          return Scalar(P::BIGINT);
        }
        case sql::LiteralKind::kDecimal: {
          const std::string& t = e.literal.value;
          if (t.find_first_of("eE") != std::string::npos) return Scalar(P::DOUBLE);
          const size_t dot = t.find('.');
          const int scale = dot == std::string::npos ? 0 : static_cast<int>(t.size() - dot - 1);
          int digits = 0;
          for (char c : t) digits += (c >= '0' && c <= '9') ? 1 : 0;
          return Scalar(P::DECIMAL, std::min(38, std::max(digits, 1)), std::min(scale, 38));
        }
        case sql::LiteralKind::kString: return Scalar(P::STRING);
        case sql::LiteralKind::kDate: return Scalar(P::DATE);
      }
      return Scalar(P::STRING);
    case K::kColumnRef: {
      const impala::TColumn* c = ResolveRef(e, src);
      if (c == nullptr) return Status::Internal("unresolved column " + PathSql(e.path));
      return c->columnType;
    }
    case K::kCast: {
      Result<impala::TColumnType> t = ParseHiveType(e.type);
      if (!t.ok()) return AnalysisError("Invalid type in " + e.ToSql() + ": " + t.status().message());
      return t;
    }
    case K::kNegate:
      return ExprType(*e.children[0], src);
    case K::kArithmetic: {
      ICS_ASSIGN_OR_RETURN(impala::TColumnType l, ExprType(*e.children[0], src));
      ICS_ASSIGN_OR_RETURN(impala::TColumnType r, ExprType(*e.children[1], src));
      const P::type a = PrimitiveOf(l), b = PrimitiveOf(r);
      if (!IsNumeric(a) || !IsNumeric(b)) {
        return AnalysisError("Arithmetic operation requires numeric operands: " + e.ToSql());
      }
      if (e.op == sql::BinaryOp::kDiv || a == P::FLOAT || a == P::DOUBLE || b == P::FLOAT ||
          b == P::DOUBLE) {
        return Scalar(P::DOUBLE);
      }
      if (a == P::DECIMAL || b == P::DECIMAL) {
        const int s = std::max(a == P::DECIMAL ? l.types[0].scalar_type.scale : 0,
                               b == P::DECIMAL ? r.types[0].scalar_type.scale : 0);
        return Scalar(P::DECIMAL, 38, s);
      }
      return Scalar(P::BIGINT);
    }
    case K::kFunctionCall: {
      const std::string name = e.path.back();
      if (name == "count" || name == "ndv") return Scalar(P::BIGINT);
      if (name == "avg" || name == "stddev" || name == "variance") return Scalar(P::DOUBLE);
      if ((name == "sum" || name == "min" || name == "max") && e.children.size() == 1) {
        ICS_ASSIGN_OR_RETURN(impala::TColumnType t, ExprType(*e.children[0], src));
        const P::type p = PrimitiveOf(t);
        if (name == "sum") {
          if (p == P::FLOAT || p == P::DOUBLE) return Scalar(P::DOUBLE);
          if (p == P::DECIMAL) return Scalar(P::DECIMAL, 38, t.types[0].scalar_type.scale);
          return Scalar(P::BIGINT);
        }
        return t;
      }
      if (name == "now" || name == "current_timestamp") return Scalar(P::TIMESTAMP);
      return Scalar(P::STRING);
    }
    default:  // comparisons and logic
      return Scalar(P::BOOLEAN);
  }
}

// Names and types of the SELECT's result columns, Impala's way: an alias,
// else a column's name, else "_c<i>".
Result<std::vector<impala::TColumn>> ResultColumns(const sql::SelectStmt& q,
                                                   const SelectSource& src) {
  std::vector<impala::TColumn> out;
  for (size_t i = 0; i < q.items.size(); ++i) {
    const sql::SelectItem& item = q.items[i];
    if (item.star) {
      if (src.table == nullptr) return AnalysisError("'*' expression in select list requires FROM clause.");
      if (!item.star_qualifier.empty() && item.star_qualifier != src.table->name &&
          item.star_qualifier != src.alias) {
        return AnalysisError("Could not resolve star expression: '" + item.star_qualifier + ".*'");
      }
      for (const impala::TColumn& c : ColumnsInHiveOrder(*src.table)) {
        impala::TColumn col;
        col.columnName = c.columnName;
        col.columnType = c.columnType;
        out.push_back(std::move(col));
      }
      continue;
    }
    impala::TColumn col;
    if (!item.alias.empty()) {
      col.columnName = item.alias;
    } else if (item.expr->kind == sql::ExprKind::kColumnRef) {
      col.columnName = item.expr->column_name();
    } else {
      col.columnName = "_c" + std::to_string(i);
    }
    ICS_ASSIGN_OR_RETURN(col.columnType, ExprType(*item.expr, src));
    out.push_back(std::move(col));
  }
  return out;
}

// Parses and analyzes a view's query; fills the source table.
Result<std::unique_ptr<sql::Statement>> AnalyzeViewQuery(const ExecContext& ctx,
                                                         const std::string& text,
                                                         SelectSource* src) {
  Result<std::unique_ptr<sql::Statement>> parsed = sql::ParseStatement(text);
  if (!parsed.ok()) {
    return AnalysisError("The view's query is not supported by the simulated coordinator "
                         "(one-table SELECT only): " + parsed.status().message());
  }
  const auto* q = (*parsed)->As<sql::SelectStmt>();
  if (q == nullptr) return AnalysisError("A view must be defined by a SELECT statement");
  ICS_RETURN_IF_ERROR(sql::AnalyzeStatement(**parsed));
  if (q->from) {
    ICS_ASSIGN_OR_RETURN(src->table, ResolveTable(ctx, q->from->name));
    src->alias = q->from->alias;
  }
  ICS_RETURN_IF_ERROR(CheckSelectColumns(*q, *src));
  return parsed;
}

Result<impala::TCreateOrAlterViewParams> ViewParams(const ExecContext& ctx,
                                                    const sql::TableName& name,
                                                    const std::string& select_text,
                                                    const std::vector<sql::ViewColumn>* col_list) {
  SelectSource src;
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<sql::Statement> stmt, AnalyzeViewQuery(ctx, select_text, &src));
  const auto& q = *stmt->As<sql::SelectStmt>();
  ICS_ASSIGN_OR_RETURN(std::vector<impala::TColumn> cols, ResultColumns(q, src));
  if (col_list != nullptr && !col_list->empty()) {
    if (col_list->size() != cols.size()) {
      return AnalysisError("Column-definition list has " +
                           std::string(col_list->size() < cols.size() ? "fewer" : "more") +
                           " columns (" + std::to_string(col_list->size()) +
                           ") than the view-definition query's select list (" +
                           std::to_string(cols.size()) + ")");
    }
    for (size_t i = 0; i < cols.size(); ++i) {
      cols[i].columnName = (*col_list)[i].name;
      if ((*col_list)[i].comment) cols[i].__set_comment(*(*col_list)[i].comment);
    }
  }
  std::set<std::string> seen;
  for (const impala::TColumn& c : cols) {
    if (!seen.insert(c.columnName).second) return AnalysisError("Duplicate column name: " + c.columnName);
  }
  impala::TCreateOrAlterViewParams p;
  p.view_name = ToTTableName(name, ctx);
  p.columns = std::move(cols);
  p.owner = "";
  p.original_view_def = select_text;
  p.expanded_view_def = SelectToSql(q, src);
  return p;
}

}  // namespace

Status CheckColumnRefs(const sql::Expr& expr, const SelectSource& src) {
  if (expr.kind == sql::ExprKind::kColumnRef) {
    if (src.table == nullptr) {
      return AnalysisError("Could not resolve column/field reference: '" + PathSql(expr.path) + "'");
    }
    if (!QualifierMatches(expr.path, src)) {
      return AnalysisError("Could not resolve column/field reference: '" + PathSql(expr.path) +
                           "'");
    }
    if (FindColumn(*src.table, expr.column_name()) == nullptr) {
      return ColumnNotFound(expr.column_name(), *src.table);
    }
  }
  for (const auto& c : expr.children) ICS_RETURN_IF_ERROR(CheckColumnRefs(*c, src));
  return Status::OK();
}

Status CheckSelectColumns(const sql::SelectStmt& q, const SelectSource& src) {
  for (const sql::SelectItem& item : q.items) {
    if (item.expr) ICS_RETURN_IF_ERROR(CheckColumnRefs(*item.expr, src));
  }
  if (q.where) ICS_RETURN_IF_ERROR(CheckColumnRefs(*q.where, src));
  for (const auto& g : q.group_by) ICS_RETURN_IF_ERROR(CheckColumnRefs(*g, src));
  if (q.having) ICS_RETURN_IF_ERROR(CheckColumnRefs(*q.having, src));
  // ORDER BY may name a select-list alias.
  std::set<std::string> aliases;
  for (const sql::SelectItem& item : q.items) {
    if (!item.alias.empty()) aliases.insert(item.alias);
  }
  for (const sql::OrderByItem& o : q.order_by) {
    if (o.expr->kind == sql::ExprKind::kColumnRef && o.expr->path.size() == 1 &&
        aliases.count(o.expr->path[0]) > 0) {
      continue;
    }
    ICS_RETURN_IF_ERROR(CheckColumnRefs(*o.expr, src));
  }
  return Status::OK();
}

std::string SelectToSql(const sql::SelectStmt& q, const SelectSource& src) {
  std::string out = "SELECT ";
  if (q.distinct) out += "DISTINCT ";
  for (size_t i = 0; i < q.items.size(); ++i) {
    const sql::SelectItem& item = q.items[i];
    if (i > 0) out += ", ";
    if (item.star) {
      out += item.star_qualifier.empty() ? "*" : QuoteIdent(item.star_qualifier) + ".*";
    } else {
      out += item.expr->ToSql();
      if (!item.alias.empty()) out += " " + QuoteIdent(item.alias);
    }
  }
  if (q.from) {
    out += " FROM ";
    out += src.table != nullptr ? QuoteIdent(src.table->db) + "." + QuoteIdent(src.table->name)
                                : q.from->name.ToString();
    if (!q.from->alias.empty()) out += " " + QuoteIdent(q.from->alias);
  }
  if (q.where) out += " WHERE " + q.where->ToSql();
  for (size_t i = 0; i < q.group_by.size(); ++i) {
    out += (i == 0 ? " GROUP BY " : ", ") + q.group_by[i]->ToSql();
  }
  if (q.having) out += " HAVING " + q.having->ToSql();
  for (size_t i = 0; i < q.order_by.size(); ++i) {
    out += (i == 0 ? " ORDER BY " : ", ") + q.order_by[i].expr->ToSql() +
           (q.order_by[i].ascending ? " ASC" : " DESC");
  }
  if (q.limit) out += " LIMIT " + std::to_string(*q.limit);
  if (q.offset) out += " OFFSET " + std::to_string(*q.offset);
  return out;
}

Result<StatementResult> ExecCreateView(const ExecContext& ctx, const sql::CreateViewStmt& s) {
  const std::string db = DbOf(s.view, ctx);
  ICS_RETURN_IF_ERROR(CheckDbExists(ctx, db));
  ICS_ASSIGN_OR_RETURN(bool exists, TableExists(ctx, db, s.view.table));
  if (exists && !s.if_not_exists) return AnalysisError("Table already exists: " + db + "." + s.view.table);
  ICS_ASSIGN_OR_RETURN(impala::TCreateOrAlterViewParams p,
                       ViewParams(ctx, s.view, s.select_text, &s.columns));
  if (s.comment) p.__set_comment(*s.comment);
  p.__set_if_not_exists(s.if_not_exists);
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::CREATE_VIEW;
  req.__set_create_view_params(p);
  return RunDdl(ctx, std::move(req));
}

Result<StatementResult> ExecAlterView(const ExecContext& ctx, const sql::AlterViewStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr v, ResolveTable(ctx, s.view));
  if (!v->is_view) return AnalysisError("ALTER VIEW not allowed on a table: " + FullName(*v));
  ICS_ASSIGN_OR_RETURN(impala::TCreateOrAlterViewParams p,
                       ViewParams(ctx, s.view, s.select_text, nullptr));
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::ALTER_VIEW;
  req.__set_alter_view_params(p);
  return RunDdl(ctx, std::move(req));
}

}  // namespace ics::coord::exec
