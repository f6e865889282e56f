#include "coordinator-sim/exec/partition_pruner.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "common/hive/scalar_text.h"
#include "common/types/column_type.h"
#include "coordinator-sim/exec/partition_prune_internal.h"
#include "coordinator-sim/exec/text_data.h"

namespace ics::coord {

namespace {

using namespace prune_internal;  // NOLINT(google-build-using-namespace): this file's own helpers
using impala::TPrimitiveType;
using sql::BinaryOp;
using sql::Expr;
using sql::ExprKind;
using sql::LiteralKind;

// Deepest compiled expression (AND/OR chains are flattened, so only real
// nesting counts); deeper is an error rather than a stack overflow.
constexpr int kMaxDepth = 1000;

Status AnalysisError(std::string msg) {
  return Status(ErrorCode::kAnalysisError, std::move(msg));
}

std::optional<Cat> CatOf(const impala::TColumnType& type) {
  if (IsNumericType(type)) return Cat::kNumber;
  switch (PrimitiveOf(type)) {
    case TPrimitiveType::BOOLEAN:
      return Cat::kBool;
    case TPrimitiveType::STRING:
    case TPrimitiveType::VARCHAR:
    case TPrimitiveType::CHAR:
      return Cat::kString;
    case TPrimitiveType::DATE:
      return Cat::kDate;
    case TPrimitiveType::TIMESTAMP:
      return Cat::kTimestamp;
    default:
      return std::nullopt;
  }
}

std::string Upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}


std::string JoinPath(const std::vector<std::string>& path) {
  std::string out;
  for (const std::string& p : path) out += (out.empty() ? "" : ".") + p;
  return out;
}

struct ColumnInfo {
  bool partition = false;
  size_t index = 0;
  const impala::TColumnType* type = nullptr;
  std::string name;
};

// Column references -> the table's columns.
class Resolver {
 public:
  explicit Resolver(const LocalTable& table) {
    for (size_t i = 0; i < table.clustering_columns.size(); ++i) {
      const impala::TColumn& c = table.clustering_columns[i];
      by_name_.emplace(AsciiLower(c.columnName), ColumnInfo{true, i, &c.columnType, c.columnName});
    }
    for (size_t i = 0; i < table.columns.size(); ++i) {
      const impala::TColumn& c = table.columns[i];
      by_name_.emplace(AsciiLower(c.columnName), ColumnInfo{false, i, &c.columnType, c.columnName});
    }
  }

  Result<ColumnInfo> Resolve(const Expr& ref) const {
    if (ref.path.empty()) return Status::Internal("column reference without a name");
    auto it = by_name_.find(AsciiLower(ref.path.back()));
    if (it != by_name_.end()) return it->second;
    // s.field of a struct column s (possibly qualified): a data column ref.
    for (size_t i = 0; i + 1 < ref.path.size(); ++i) {
      auto prefix = by_name_.find(AsciiLower(ref.path[i]));
      if (prefix != by_name_.end() && !prefix->second.partition) return prefix->second;
    }
    return AnalysisError("Column '" + JoinPath(ref.path) + "' not found");
  }

 private:
  std::map<std::string, ColumnInfo> by_name_;
};

struct Classification {
  bool evaluable = true;  // only node kinds and column types the evaluator supports
  bool has_data_ref = false;
};

// Resolves every column reference of `conjunct` (iteratively: chains of
// binary operators can be long) and says whether it can prune.
Result<Classification> Classify(const Expr& conjunct, const Resolver& resolver) {
  Classification out;
  std::vector<const Expr*> stack = {&conjunct};
  while (!stack.empty()) {
    const Expr* e = stack.back();
    stack.pop_back();
    switch (e->kind) {
      case ExprKind::kColumnRef: {
        ICS_ASSIGN_OR_RETURN(ColumnInfo col, resolver.Resolve(*e));
        if (!col.partition) {
          out.has_data_ref = true;
        } else if (!CatOf(*col.type)) {
          out.evaluable = false;
        }
        break;
      }
      case ExprKind::kFunctionCall:
      case ExprKind::kCast:
      case ExprKind::kArithmetic:
        out.evaluable = false;
        break;
      default:
        break;
    }
    for (const auto& child : e->children) {
      if (child) stack.push_back(child.get());
    }
  }
  return out;
}

// The operands of a chain of `kind` (a AND b AND c), left to right.
std::vector<const Expr*> FlattenChain(const Expr* root, ExprKind kind) {
  std::vector<const Expr*> out;
  if (root == nullptr) return out;
  std::vector<const Expr*> stack = {root};
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

// ---- compiled conjuncts ----

std::string IntegerLiteralType(int64_t v) {
  if (v >= INT8_MIN && v <= INT8_MAX) return "TINYINT";
  if (v >= INT16_MIN && v <= INT16_MAX) return "SMALLINT";
  if (v >= INT32_MIN && v <= INT32_MAX) return "INT";
  return "BIGINT";
}

const char* CatName(Cat c) {
  switch (c) {
    case Cat::kNull: return "NULL";
    case Cat::kBool: return "BOOLEAN";
    case Cat::kNumber: return "DECIMAL";
    case Cat::kString: return "STRING";
    case Cat::kDate: return "DATE";
    case Cat::kTimestamp: return "TIMESTAMP";
  }
  return "?";
}


class Compiler {
 public:
  explicit Compiler(const Resolver& resolver) : resolver_(resolver) {}

  Result<NodePtr> Compile(const Expr& e, int depth) {
    if (depth > kMaxDepth) {
      return AnalysisError("expression nested more than " + std::to_string(kMaxDepth) +
                           " levels deep");
    }
    auto node = std::make_unique<Node>();
    switch (e.kind) {
      case ExprKind::kLiteral:
        ICS_RETURN_IF_ERROR(CompileLiteral(e, node.get()));
        return node;
      case ExprKind::kColumnRef: {
        ICS_ASSIGN_OR_RETURN(ColumnInfo col, resolver_.Resolve(e));
        if (!col.partition || !CatOf(*col.type)) {
          return Status::Internal("column '" + col.name + "' cannot be evaluated per partition");
        }
        node->kind = NodeKind::kKey;
        node->key = col.index;
        node->type = *CatOf(*col.type);
        node->type_name = Upper(TypeToString(*col.type));
        keys_used_.insert(col.index);
        return node;
      }
      case ExprKind::kNegate: {
        ICS_ASSIGN_OR_RETURN(NodePtr child, Compile(*e.children.at(0), depth + 1));
        if (child->type != Cat::kNumber && child->type != Cat::kNull) {
          return AnalysisError("unary minus requires a numeric operand, not " + child->type_name +
                               ": " + e.ToSql());
        }
        node->kind = NodeKind::kNegate;
        node->type = child->type;
        node->type_name = child->type_name;
        node->children.push_back(std::move(child));
        return node;
      }
      case ExprKind::kComparison:
      case ExprKind::kIn:
      case ExprKind::kBetween: {
        node->kind = e.kind == ExprKind::kComparison ? NodeKind::kCompare
                     : e.kind == ExprKind::kIn        ? NodeKind::kIn
                                                      : NodeKind::kBetween;
        node->op = e.op;
        node->negated = e.negated;
        for (const auto& child : e.children) {
          ICS_ASSIGN_OR_RETURN(NodePtr c, Compile(*child, depth + 1));
          node->children.push_back(std::move(c));
        }
        if (node->children.size() < 2 ||
            (node->kind == NodeKind::kBetween && node->children.size() != 3)) {
          return Status::Internal("malformed predicate: " + e.ToSql());
        }
        ICS_RETURN_IF_ERROR(UnifyOperands(node.get(), e));
        SetBoolean(node.get());
        return node;
      }
      case ExprKind::kIsNull: {
        ICS_ASSIGN_OR_RETURN(NodePtr child, Compile(*e.children.at(0), depth + 1));
        node->kind = NodeKind::kIsNull;
        node->negated = e.negated;
        node->children.push_back(std::move(child));
        SetBoolean(node.get());
        return node;
      }
      case ExprKind::kLike: {
        node->kind = NodeKind::kLike;
        node->negated = e.negated;
        for (size_t i = 0; i < 2; ++i) {
          ICS_ASSIGN_OR_RETURN(NodePtr c, Compile(*e.children.at(i), depth + 1));
          if (c->type != Cat::kString && c->type != Cat::kNull) {
            return AnalysisError(std::string(i == 0 ? "left" : "right") +
                                 " operand of LIKE must be of type STRING: " + e.ToSql());
          }
          node->children.push_back(std::move(c));
        }
        SetBoolean(node.get());
        return node;
      }
      case ExprKind::kNot: {
        ICS_ASSIGN_OR_RETURN(NodePtr child, Compile(*e.children.at(0), depth + 1));
        ICS_RETURN_IF_ERROR(RequireBoolean(*child, *e.children[0], e));
        node->kind = NodeKind::kNot;
        node->children.push_back(std::move(child));
        SetBoolean(node.get());
        return node;
      }
      case ExprKind::kAnd:
      case ExprKind::kOr: {
        node->kind = e.kind == ExprKind::kAnd ? NodeKind::kAnd : NodeKind::kOr;
        for (const Expr* operand : FlattenChain(&e, e.kind)) {
          ICS_ASSIGN_OR_RETURN(NodePtr c, Compile(*operand, depth + 1));
          ICS_RETURN_IF_ERROR(RequireBoolean(*c, *operand, e));
          node->children.push_back(std::move(c));
        }
        SetBoolean(node.get());
        return node;
      }
      default:
        return Status::Internal("expression cannot be evaluated per partition: " + e.ToSql());
    }
  }

  const std::set<size_t>& keys_used() const { return keys_used_; }

 private:
  static void SetBoolean(Node* node) {
    node->type = Cat::kBool;
    node->type_name = "BOOLEAN";
  }

  static Status RequireBoolean(const Node& operand, const Expr& operand_expr, const Expr& pred) {
    if (operand.type == Cat::kBool || operand.type == Cat::kNull) return Status::OK();
    return AnalysisError("Operand '" + operand_expr.ToSql() + "' part of predicate '" +
                         pred.ToSql() + "' should return type 'BOOLEAN' but returns type '" +
                         operand.type_name + "'.");
  }

  static Status CompileLiteral(const Expr& e, Node* node) {
    const sql::Literal& lit = e.literal;
    node->kind = NodeKind::kConst;
    Value& v = node->constant;
    switch (lit.kind) {
      case LiteralKind::kNull:
        node->type = Cat::kNull;
        node->type_name = "NULL";
        return Status::OK();
      case LiteralKind::kBoolean:
        node->type = Cat::kBool;
        node->type_name = "BOOLEAN";
        v = BoolValue(lit.bool_value);
        return Status::OK();
      case LiteralKind::kInteger:
      case LiteralKind::kDecimal: {
        auto num = ParseExactNumber(lit.value);
        if (!num) return AnalysisError("invalid numeric literal '" + lit.value + "'");
        node->type = Cat::kNumber;
        node->type_name =
            lit.kind == LiteralKind::kInteger ? IntegerLiteralType(lit.int_value) : "DECIMAL";
        v.null = false;
        v.num = std::move(*num);
        return Status::OK();
      }
      case LiteralKind::kString:
        node->type = Cat::kString;
        node->type_name = "STRING";
        v.null = false;
        v.text = lit.value;
        return Status::OK();
      case LiteralKind::kDate: {
        auto d = ParseDateText(lit.value);
        if (!d) return AnalysisError("invalid DATE literal '" + lit.value + "'");
        node->type = Cat::kDate;
        node->type_name = "DATE";
        v.null = false;
        v.text = *d;
        return Status::OK();
      }
    }
    return Status::Internal("unknown literal kind");
  }

  // Finds the common type of a comparison's operands and converts them to it.
  static Status UnifyOperands(Node* node, const Expr& e) {
    Cat common = Cat::kNull;
    const Node* first = nullptr;
    for (const auto& c : node->children) {
      if (c->type == Cat::kNull) continue;
      if (first == nullptr) {
        first = c.get();
        common = c->type;
        continue;
      }
      const Cat t = c->type;
      if (t == common) continue;
      auto temporal = [](Cat x) {
        return x == Cat::kString || x == Cat::kDate || x == Cat::kTimestamp;
      };
      if (temporal(t) && temporal(common)) {
        // STRING < DATE < TIMESTAMP: the wider one wins.
        common = std::max(common, t);
        continue;
      }
      return AnalysisError("operands of type " + first->type_name + " and " + c->type_name +
                           " are not comparable: " + e.ToSql());
    }
    node->operand_cat = common;
    for (auto& c : node->children) ICS_RETURN_IF_ERROR(Coerce(&c, common, e));
    return Status::OK();
  }

  static Status Coerce(NodePtr* slot, Cat to, const Expr& e) {
    Node& n = **slot;
    if (n.type == Cat::kNull || n.type == to) return Status::OK();
    if (n.kind == NodeKind::kConst) {
      auto converted = ConvertValue(n.constant, n.type, to);
      if (!converted) {
        const std::string shown = n.type == Cat::kString ? "'" + n.constant.text + "'"
                                                         : n.constant.text;
        return AnalysisError("invalid " + std::string(CatName(to)) + " value " + shown +
                             " in: " + e.ToSql());
      }
      n.constant = std::move(*converted);
      n.type = to;
      n.type_name = CatName(to);
      return Status::OK();
    }
    auto conv = std::make_unique<Node>();
    conv->kind = NodeKind::kConvert;
    conv->type = to;
    conv->type_name = CatName(to);
    conv->children.push_back(std::move(*slot));
    *slot = std::move(conv);
    return Status::OK();
  }

  const Resolver& resolver_;
  std::set<size_t> keys_used_;
};

}  // namespace

std::vector<const sql::Expr*> SplitConjuncts(const sql::Expr* where) {
  return FlattenChain(where, ExprKind::kAnd);
}

Result<PruneResult> PrunePartitions(
    const LocalTable& table, const std::vector<std::shared_ptr<const LocalPartition>>& partitions,
    const sql::Expr* where) {
  PruneResult out;
  const Resolver resolver(table);
  std::vector<NodePtr> compiled;
  std::set<size_t> keys_used;
  for (const Expr* conjunct : SplitConjuncts(where)) {
    ICS_ASSIGN_OR_RETURN(Classification cls, Classify(*conjunct, resolver));
    if (!cls.evaluable || cls.has_data_ref) {
      out.other_conjuncts.push_back(conjunct);
      continue;
    }
    Compiler compiler(resolver);
    ICS_ASSIGN_OR_RETURN(NodePtr node, compiler.Compile(*conjunct, 0));
    if (node->type != Cat::kBool && node->type != Cat::kNull) {
      return AnalysisError("WHERE clause '" + conjunct->ToSql() +
                           "' requires return type 'BOOLEAN'. Actual type is '" +
                           node->type_name + "'.");
    }
    keys_used.insert(compiler.keys_used().begin(), compiler.keys_used().end());
    out.partition_conjuncts.push_back(conjunct);
    compiled.push_back(std::move(node));
  }

  // Partition values repeat a lot (year=2024 in thousands of partitions):
  // parse each distinct text once per key.
  std::vector<std::unordered_map<std::string, Value>> parsed(table.clustering_columns.size());
  std::vector<Value> keys(table.clustering_columns.size());
  for (const auto& part : partitions) {
    if (!part) return Status::InvalidArgument("null partition in the partition list");
    if (compiled.empty()) {
      out.selected_ids.push_back(part->id);
      continue;
    }
    for (size_t k : keys_used) {
      if (k >= part->values.size()) {
        return Status::Corruption("partition '" + part->name + "' of " + table.db + "." +
                                  table.name + " has " + std::to_string(part->values.size()) +
                                  " key values, the table has " +
                                  std::to_string(table.clustering_columns.size()) +
                                  " partition columns");
      }
      const std::string& text = part->values[k];
      auto it = parsed[k].find(text);
      if (it == parsed[k].end()) {
        const impala::TColumn& col = table.clustering_columns[k];
        auto v = ParseKeyValue(text, col.columnType, *CatOf(col.columnType));
        if (!v) {
          return Status::InvalidArgument("partition '" + part->name + "' of " + table.db + "." +
                                         table.name + ": value '" + text + "' of column '" +
                                         col.columnName + "' is not a valid " +
                                         Upper(TypeToString(col.columnType)));
        }
        it = parsed[k].emplace(text, std::move(*v)).first;
      }
      keys[k] = it->second;
    }
    bool keep = true;
    for (const NodePtr& node : compiled) {
      const Value v = Eval(*node, keys);
      if (v.null || !v.b) {
        keep = false;
        break;
      }
    }
    if (keep) out.selected_ids.push_back(part->id);
  }
  return out;
}

}  // namespace ics::coord
