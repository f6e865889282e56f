// EXPLAIN SELECT ... FROM t [WHERE ...]: a single-node plan in Impala's
// text form, planned from the local catalog alone (partitions, files and
// statistics fetched on demand):
//
//   PLAN:
//   PLAN-ROOT SINK
//   |
//   02:TOP-N [LIMIT=10]            (ORDER BY + LIMIT; SORT without LIMIT)
//   |  order by: x ASC
//   |  row-size=12B cardinality=10
//   |
//   01:AGGREGATE [FINALIZE]        (aggregate functions or GROUP BY)
//   |  output: count(*)
//   |  group by: y
//   |  row-size=8B cardinality=unavailable
//   |
//   00:SCAN HDFS [db.t]
//      partition predicates: year = 2024
//      partitions=1/3 files=2 size=1.20KB
//      predicates: x > 1
//      row-size=12B cardinality=10
//
// Partitions are pruned by the WHERE conjuncts on partition columns
// (partition_pruner.h); only the surviving partitions' files are fetched.
// Cardinality: the selected partitions' row counts (the table's for an
// unpartitioned table), times 1/NDV for "col = constant" with column stats
// and 0.1 for any other non-partition conjunct; "unavailable" when a
// selected partition has no row count.
#include <algorithm>
#include <cmath>
#include <set>

#include "common/types/column_type.h"
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_format.h"
#include "coordinator-sim/exec/exec_select.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"
#include "coordinator-sim/exec/partition_pruner.h"

namespace ics::coord::exec {

namespace {

using P = impala::TPrimitiveType;

bool IsAggregate(const sql::Expr& e) {
  static const std::set<std::string> kAggregates = {
      "count", "sum", "min", "max", "avg", "ndv", "group_concat", "stddev", "stddev_samp",
      "stddev_pop", "variance", "var_samp", "var_pop", "appx_median", "sample"};
  return e.kind == sql::ExprKind::kFunctionCall && e.path.size() == 1 &&
         kAggregates.count(e.path[0]) > 0;
}

void CollectAggregates(const sql::Expr& e, std::vector<const sql::Expr*>* out) {
  if (IsAggregate(e)) {
    out->push_back(&e);
    return;
  }
  for (const auto& c : e.children) CollectAggregates(*c, out);
}

void CollectColumns(const sql::Expr& e, std::set<std::string>* out) {
  if (e.kind == sql::ExprKind::kColumnRef) out->insert(e.column_name());
  for (const auto& c : e.children) CollectColumns(*c, out);
}

// Impala's slot bytes: fixed-width types their size, variable-width 12
// plus the average length when column stats know it.
int64_t SlotBytes(const LocalTable& t, const impala::TColumn& c) {
  if (!IsScalar(c.columnType)) return 12;
  const impala::TScalarType& st = c.columnType.types[0].scalar_type;
  switch (st.type) {
    case P::BOOLEAN:
    case P::TINYINT: return 1;
    case P::SMALLINT: return 2;
    case P::INT:
    case P::FLOAT:
    case P::DATE: return 4;
    case P::BIGINT:
    case P::DOUBLE: return 8;
    case P::TIMESTAMP: return 16;
    case P::DECIMAL: return st.precision <= 9 ? 4 : st.precision <= 18 ? 8 : 16;
    case P::CHAR: return st.__isset.len ? st.len : 12;
    default: break;
  }
  auto it = t.column_stats.find(c.columnName);
  double avg = -1;
  if (it != t.column_stats.end() && it->second.statsData.__isset.stringStats) {
    avg = it->second.statsData.stringStats.avgColLen;
  } else if (c.__isset.col_stats) {
    avg = c.col_stats.avg_size;
  }
  return 12 + (avg > 0 ? static_cast<int64_t>(std::ceil(avg)) : 0);
}

int64_t NdvOf(const LocalTable& t, const std::string& col) {
  auto it = t.column_stats.find(col);
  if (it != t.column_stats.end()) {
    const auto& d = it->second.statsData;
    if (d.__isset.longStats) return d.longStats.numDVs;
    if (d.__isset.doubleStats) return d.doubleStats.numDVs;
    if (d.__isset.stringStats) return d.stringStats.numDVs;
    if (d.__isset.decimalStats) return d.decimalStats.numDVs;
    if (d.__isset.dateStats) return d.dateStats.numDVs;
    if (d.__isset.timestampStats) return d.timestampStats.numDVs;
    if (d.__isset.booleanStats) return 2;
  }
  const impala::TColumn* c = FindColumn(t, col);
  if (c != nullptr && c->__isset.col_stats) return c->col_stats.num_distinct_values;
  return -1;
}

// Selectivity of a non-partition conjunct.
double Selectivity(const LocalTable& t, const sql::Expr& e) {
  if (e.kind == sql::ExprKind::kComparison && e.op == sql::BinaryOp::kEq) {
    const sql::Expr* col = nullptr;
    if (e.children[0]->kind == sql::ExprKind::kColumnRef &&
        e.children[1]->kind == sql::ExprKind::kLiteral) {
      col = e.children[0].get();
    } else if (e.children[1]->kind == sql::ExprKind::kColumnRef &&
               e.children[0]->kind == sql::ExprKind::kLiteral) {
      col = e.children[1].get();
    }
    if (col != nullptr) {
      const int64_t ndv = NdvOf(t, col->column_name());
      if (ndv > 0) return 1.0 / static_cast<double>(ndv);
    }
  }
  return 0.1;
}

// Plan node ids print with two digits: "00", "01", ...
std::string NodeId(int* next_id) {
  const int id = (*next_id)++;
  return (id < 10 ? "0" : "") + std::to_string(id);
}

std::string Card(int64_t c) { return c < 0 ? "unavailable" : std::to_string(c); }

std::string JoinSql(const std::vector<const sql::Expr*>& exprs) {
  std::string out;
  for (const sql::Expr* e : exprs) out += (out.empty() ? "" : ", ") + e->ToSql();
  return out;
}

std::string JoinConjuncts(const std::vector<const sql::Expr*>& exprs) {
  std::string out;
  for (const sql::Expr* e : exprs) {
    const bool paren = e->kind == sql::ExprKind::kOr;
    out += (out.empty() ? "" : " AND ") + (paren ? "(" + e->ToSql() + ")" : e->ToSql());
  }
  return out;
}

// The nodes above the scan: aggregation, then sort / top-n. Lines are
// returned top-down, each node followed by "|".
std::vector<std::string> UpperNodes(const LocalTable* t, const sql::SelectStmt& q,
                                    int64_t scan_card, int* next_id, int64_t* out_card) {
  std::vector<const sql::Expr*> aggs;
  for (const sql::SelectItem& item : q.items) {
    if (item.expr) CollectAggregates(*item.expr, &aggs);
  }
  if (q.having) CollectAggregates(*q.having, &aggs);
  std::vector<std::vector<std::string>> nodes;  // bottom-up
  int64_t card = scan_card;
  const bool limit_on_agg = q.limit && q.order_by.empty();
  if (!aggs.empty() || !q.group_by.empty()) {
    std::vector<std::string> n;
    n.push_back(NodeId(next_id) + ":AGGREGATE [FINALIZE]");
    if (!aggs.empty()) n.push_back("|  output: " + JoinSql(aggs));
    std::vector<const sql::Expr*> groups;
    for (const auto& g : q.group_by) groups.push_back(g.get());
    if (!groups.empty()) n.push_back("|  group by: " + JoinSql(groups));
    if (q.having) n.push_back("|  having: " + q.having->ToSql());
    if (groups.empty()) {
      card = 1;
    } else {
      int64_t product = 1;
      for (const sql::Expr* g : groups) {
        const int64_t ndv = (t != nullptr && g->kind == sql::ExprKind::kColumnRef)
                                ? NdvOf(*t, g->column_name())
                                : -1;
        if (ndv < 0 || product < 0) {
          product = -1;
        } else {
          product = std::min<int64_t>(product * std::max<int64_t>(ndv, 1), INT64_C(1) << 50);
        }
      }
      card = (product < 0 || card < 0) ? (product < 0 ? card : product) : std::min(product, card);
      if (q.having && card > 0) card = std::max<int64_t>(1, card / 10);
    }
    if (limit_on_agg) {
      n.push_back("|  limit: " + std::to_string(*q.limit));
      if (card >= 0) card = std::min(card, *q.limit);
    }
    n.push_back("|  row-size=" + std::to_string(8 * (aggs.size() + groups.size())) +
                "B cardinality=" + Card(card));
    nodes.push_back(std::move(n));
  }
  if (!q.order_by.empty()) {
    std::vector<std::string> n;
    std::string order;
    for (const auto& o : q.order_by) {
      order += (order.empty() ? "" : ", ") + o.expr->ToSql() + (o.ascending ? " ASC" : " DESC");
    }
    if (q.limit) {
      n.push_back(NodeId(next_id) + ":TOP-N [LIMIT=" + std::to_string(*q.limit) + "]");
      if (q.offset) n.back() += " OFFSET=" + std::to_string(*q.offset);
      if (card >= 0) card = std::min(card, *q.limit);
    } else {
      n.push_back(NodeId(next_id) + ":SORT");
    }
    n.push_back("|  order by: " + order);
    n.push_back("|  cardinality=" + Card(card));
    nodes.push_back(std::move(n));
  }
  *out_card = card;
  std::vector<std::string> lines;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    lines.insert(lines.end(), it->begin(), it->end());
    lines.push_back("|");
  }
  return lines;
}

}  // namespace

Result<StatementResult> ExecExplain(const ExecContext& ctx, const sql::ExplainStmt& s) {
  const sql::SelectStmt& q = *s.query;
  StatementResult out;
  std::vector<std::string>& lines = out.messages;
  lines = {"PLAN:", "PLAN-ROOT SINK", "|"};
  int next_id = 1;
  int64_t card = 1;
  if (!q.from) {
    ICS_RETURN_IF_ERROR(CheckSelectColumns(q, SelectSource{}));
    std::vector<std::string> upper = UpperNodes(nullptr, q, 1, &next_id, &card);
    lines.insert(lines.end(), upper.begin(), upper.end());
    lines.push_back("00:UNION");
    lines.push_back("   constant-operands=1");
    lines.push_back("   row-size=0B cardinality=1");
    return out;
  }
  SelectSource src;
  ICS_ASSIGN_OR_RETURN(src.table, ResolveTable(ctx, q.from->name));
  src.alias = q.from->alias;
  const LocalTable& t = *src.table;
  if (t.is_view) {
    return AnalysisError("EXPLAIN of a query on view " + FullName(t) +
                         " is not supported by the simulated coordinator");
  }
  ICS_RETURN_IF_ERROR(CheckSelectColumns(q, src));

  // Prune, then fetch the files of the surviving partitions only.
  std::vector<PartitionPtr> all;
  if (!t.partition_names.empty()) {
    ICS_ASSIGN_OR_RETURN(all, ctx.catalog()->GetPartitions(t, {}, false, false));
  }
  ICS_ASSIGN_OR_RETURN(PruneResult pruned, PrunePartitions(t, all, q.where.get()));
  std::vector<PartitionPtr> selected;
  if (!pruned.selected_ids.empty()) {
    ICS_ASSIGN_OR_RETURN(selected, ctx.catalog()->GetPartitions(t, pruned.selected_ids, true, false));
  }
  int64_t files = 0, bytes = 0, rows = 0;
  bool rows_known = true;
  for (const PartitionPtr& p : selected) {
    ICS_ASSIGN_OR_RETURN(std::vector<DataFile> fs, FilesOf(*p));
    files += static_cast<int64_t>(fs.size());
    for (const DataFile& f : fs) bytes += f.length;
    const int64_t n = (t.clustering_columns.empty() && p->num_rows < 0) ? t.num_rows : p->num_rows;
    if (n < 0) {
      rows_known = false;
    } else {
      rows += n;
    }
  }
  int64_t scan_card = -1;
  if (rows_known) {
    double c = static_cast<double>(rows);
    for (const sql::Expr* e : pruned.other_conjuncts) c *= Selectivity(t, *e);
    scan_card = rows == 0 ? 0 : std::max<int64_t>(1, std::llround(c));
  }
  const bool has_upper = !q.group_by.empty() || !q.order_by.empty() ||
                         std::any_of(q.items.begin(), q.items.end(), [](const sql::SelectItem& i) {
                           std::vector<const sql::Expr*> aggs;
                           if (i.expr) CollectAggregates(*i.expr, &aggs);
                           return !aggs.empty();
                         });
  const bool scan_limit = q.limit && !has_upper;
  if (scan_limit && scan_card >= 0) scan_card = std::min(scan_card, *q.limit);

  // Row size of the scan: the columns the query reads (partition keys come
  // from metadata and are not counted unless selected).
  std::set<std::string> used;
  for (const sql::SelectItem& item : q.items) {
    if (item.star) {
      for (const auto& c : ColumnsInHiveOrder(t)) used.insert(c.columnName);
    } else {
      CollectColumns(*item.expr, &used);
    }
  }
  for (const sql::Expr* e : pruned.other_conjuncts) CollectColumns(*e, &used);
  for (const auto& g : q.group_by) CollectColumns(*g, &used);
  for (const auto& o : q.order_by) CollectColumns(*o.expr, &used);
  int64_t row_size = 0;
  for (const std::string& name : used) {
    const impala::TColumn* c = FindColumn(t, name);
    if (c != nullptr) row_size += SlotBytes(t, *c);
  }

  std::vector<std::string> upper = UpperNodes(&t, q, scan_card, &next_id, &card);
  lines.insert(lines.end(), upper.begin(), upper.end());
  std::string ref = FullName(t);
  if (!src.alias.empty()) ref += " " + src.alias;
  lines.push_back("00:SCAN HDFS [" + ref + "]");
  if (!pruned.partition_conjuncts.empty()) {
    lines.push_back("   partition predicates: " + JoinConjuncts(pruned.partition_conjuncts));
  }
  const size_t total_parts = t.partition_names.empty() ? 1 : t.partition_names.size();
  lines.push_back("   partitions=" + std::to_string(selected.size()) + "/" +
                  std::to_string(total_parts) + " files=" + std::to_string(files) +
                  " size=" + PrintBytes(bytes));
  if (!pruned.other_conjuncts.empty()) {
    lines.push_back("   predicates: " + JoinConjuncts(pruned.other_conjuncts));
  }
  if (scan_limit) lines.push_back("   limit: " + std::to_string(*q.limit));
  lines.push_back("   row-size=" + std::to_string(row_size) + "B cardinality=" + Card(scan_card));
  return out;
}

}  // namespace ics::coord::exec
