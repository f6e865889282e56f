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
#include "common/hive/typed_value.h"
#include "common/sql/predicate.h"
#include "common/sql/predicate_compiler.h"
#include "common/types/column_type.h"
#include "common/util/ascii.h"
#include "coordinator-sim/exec/text_data.h"

namespace ics::coord {

namespace {

using impala::TPrimitiveType;
using sql::BinaryOp;
using sql::Expr;
using sql::ExprKind;
using sql::PredicateKey;
using sql::ValueClass;

Status AnalysisError(std::string msg) {
  return Status(ErrorCode::kAnalysisError, std::move(msg));
}

std::optional<ValueClass> ClassOf(const impala::TColumnType& type) {
  if (IsNumericType(type)) return ValueClass::kNumber;
  switch (PrimitiveOf(type)) {
    case TPrimitiveType::BOOLEAN:
      return ValueClass::kBool;
    case TPrimitiveType::STRING:
    case TPrimitiveType::VARCHAR:
    case TPrimitiveType::CHAR:
      return ValueClass::kString;
    case TPrimitiveType::DATE:
      return ValueClass::kDate;
    case TPrimitiveType::TIMESTAMP:
      return ValueClass::kTimestamp;
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
        } else if (!ClassOf(*col.type)) {
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

// A partition key's text as a value of its column's type; nullopt when the
// text is not a valid value of that type. The default partition is NULL.
std::optional<HiveValue> ParseKeyValue(const std::string& text, const impala::TColumnType& type,
                                       ValueClass cls) {
  if (text == kDefaultPartitionName) return HiveValue::Null();
  switch (cls) {
    case ValueClass::kNumber: {
      const TPrimitiveType::type p = PrimitiveOf(type);
      const bool integral = p == TPrimitiveType::TINYINT || p == TPrimitiveType::SMALLINT ||
                            p == TPrimitiveType::INT || p == TPrimitiveType::BIGINT;
      if (integral && !CanonicalTextValue(text, type)) return std::nullopt;
      std::optional<ExactNumber> num = ParseExactNumber(text);  // blanks around allowed
      if (!num) return std::nullopt;
      std::optional<HiveValue> as_int = ParseNumericLiteral(text);  // an int64 compares fastest
      if (as_int) return as_int;
      return HiveValue::Number(std::move(*num));
    }
    case ValueClass::kString:
      return HiveValue::String(text);
    case ValueClass::kDate: {
      std::optional<std::string> d = ParseDateText(text);
      std::optional<int64_t> days = d ? DateDays(*d) : std::nullopt;
      if (!days) return std::nullopt;
      return HiveValue::Date(*days);
    }
    case ValueClass::kTimestamp: {
      std::optional<std::string> t = ParseTimestampText(text);
      if (!t) return std::nullopt;
      return HiveValue::String(std::move(*t));
    }
    case ValueClass::kBool: {
      const std::string lower = AsciiLower(text);
      if (lower != "true" && lower != "false") return std::nullopt;
      return HiveValue::Bool(lower == "true");
    }
    case ValueClass::kNull:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::vector<const sql::Expr*> SplitConjuncts(const sql::Expr* where) {
  if (where == nullptr) return {};
  return sql::FlattenChain(*where, ExprKind::kAnd);
}

Result<PruneResult> PrunePartitions(
    const LocalTable& table, const std::vector<std::shared_ptr<const LocalPartition>>& partitions,
    const sql::Expr* where) {
  PruneResult out;
  const Resolver resolver(table);
  const sql::PredicateKeyResolver resolve_key = [&](const Expr& ref) -> Result<PredicateKey> {
    ICS_ASSIGN_OR_RETURN(ColumnInfo col, resolver.Resolve(ref));
    std::optional<ValueClass> cls = ClassOf(*col.type);
    if (!col.partition || !cls) {
      return Status::Internal("column '" + col.name + "' cannot be evaluated per partition");
    }
    return PredicateKey{col.index, *cls, Upper(TypeToString(*col.type))};
  };
  auto all = std::make_unique<sql::PredicateNode>();
  all->kind = sql::PredicateNode::Kind::kAnd;
  all->type = ValueClass::kBool;
  for (const Expr* conjunct : SplitConjuncts(where)) {
    ICS_ASSIGN_OR_RETURN(Classification cls, Classify(*conjunct, resolver));
    if (!cls.evaluable || cls.has_data_ref) {
      out.other_conjuncts.push_back(conjunct);
      continue;
    }
    ICS_ASSIGN_OR_RETURN(sql::PredicateNodePtr node, sql::CompileCondition(*conjunct, resolve_key));
    out.partition_conjuncts.push_back(conjunct);
    all->children.push_back(std::move(node));
  }
  const bool prunes = !all->children.empty();
  // Every partition conjunct must be TRUE: one AND of them all.
  const sql::Predicate predicate = prunes ? sql::Predicate(std::move(all)) : sql::Predicate();

  // Partition values repeat a lot (year=2024 in thousands of partitions):
  // parse each distinct text once per key.
  std::vector<std::unordered_map<std::string, HiveValue>> parsed(table.clustering_columns.size());
  std::vector<HiveValue> keys(table.clustering_columns.size());
  for (const auto& part : partitions) {
    if (!part) return Status::InvalidArgument("null partition in the partition list");
    if (!prunes) {
      out.selected_ids.push_back(part->id);
      continue;
    }
    for (size_t k : predicate.referenced_keys()) {
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
        auto v = ParseKeyValue(text, col.columnType, *ClassOf(col.columnType));
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
    if (predicate.Matches(keys)) out.selected_ids.push_back(part->id);
  }
  return out;
}

}  // namespace ics::coord
