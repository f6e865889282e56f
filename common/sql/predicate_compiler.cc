#include "common/sql/predicate_compiler.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/hive/scalar_text.h"

namespace ics::sql {

namespace {

using Kind = PredicateNode::Kind;

Status AnalysisError(std::string msg) { return Status(ErrorCode::kAnalysisError, std::move(msg)); }

const char* ClassName(ValueClass c) {
  switch (c) {
    case ValueClass::kNull:
      return "NULL";
    case ValueClass::kBool:
      return "BOOLEAN";
    case ValueClass::kNumber:
      return "DECIMAL";
    case ValueClass::kString:
      return "STRING";
    case ValueClass::kDate:
      return "DATE";
    case ValueClass::kTimestamp:
      return "TIMESTAMP";
  }
  return "?";
}

// A compiled node and its type's name, for messages.
struct Typed {
  PredicateNodePtr node;
  std::string type_name;
};

class Compiler {
 public:
  explicit Compiler(const PredicateKeyResolver& resolve) : resolve_(resolve) {}

  Result<Typed> Compile(const Expr& e, int depth) {
    if (depth > kMaxPredicateDepth) {
      return AnalysisError("expression nested more than " + std::to_string(kMaxPredicateDepth) +
                           " levels deep");
    }
    Typed out{std::make_unique<PredicateNode>(), ""};
    PredicateNode* node = out.node.get();
    switch (e.kind) {
      case ExprKind::kLiteral:
        ICS_RETURN_IF_ERROR(CompileLiteral(e, &out));
        return out;
      case ExprKind::kColumnRef: {
        ICS_ASSIGN_OR_RETURN(PredicateKey key, resolve_(e));
        node->kind = Kind::kKey;
        node->key = key.index;
        node->type = key.cls;
        out.type_name = key.type_name;
        return out;
      }
      case ExprKind::kNegate: {
        ICS_ASSIGN_OR_RETURN(Typed child, Compile(*e.children.at(0), depth + 1));
        const ValueClass t = child.node->type;
        if (t != ValueClass::kNumber && t != ValueClass::kNull) {
          return AnalysisError("unary minus requires a numeric operand, not " + child.type_name +
                               ": " + e.ToSql());
        }
        node->kind = Kind::kNegate;
        node->type = t;
        out.type_name = child.type_name;
        node->children.push_back(std::move(child.node));
        return out;
      }
      case ExprKind::kComparison:
      case ExprKind::kIn:
      case ExprKind::kBetween: {
        node->kind = e.kind == ExprKind::kComparison ? Kind::kCompare
                     : e.kind == ExprKind::kIn       ? Kind::kIn
                                                     : Kind::kBetween;
        node->op = e.op;
        node->negated = e.negated;
        std::vector<Typed> operands;
        for (const auto& child : e.children) {
          ICS_ASSIGN_OR_RETURN(Typed c, Compile(*child, depth + 1));
          operands.push_back(std::move(c));
        }
        if (operands.size() < 2 || (node->kind == Kind::kBetween && operands.size() != 3) ||
            (node->kind == Kind::kCompare && operands.size() != 2)) {
          return Status::Internal("malformed predicate: " + e.ToSql());
        }
        ICS_RETURN_IF_ERROR(UnifyOperands(&operands, e));
        for (Typed& c : operands) node->children.push_back(std::move(c.node));
        SetBoolean(&out);
        return out;
      }
      case ExprKind::kIsNull: {
        ICS_ASSIGN_OR_RETURN(Typed child, Compile(*e.children.at(0), depth + 1));
        node->kind = Kind::kIsNull;
        node->negated = e.negated;
        node->children.push_back(std::move(child.node));
        SetBoolean(&out);
        return out;
      }
      case ExprKind::kLike: {
        node->kind = Kind::kLike;
        node->negated = e.negated;
        for (size_t i = 0; i < 2; ++i) {
          ICS_ASSIGN_OR_RETURN(Typed c, Compile(*e.children.at(i), depth + 1));
          if (c.node->type != ValueClass::kString && c.node->type != ValueClass::kNull) {
            return AnalysisError(std::string(i == 0 ? "left" : "right") +
                                 " operand of LIKE must be of type STRING: " + e.ToSql());
          }
          node->children.push_back(std::move(c.node));
        }
        SetBoolean(&out);
        return out;
      }
      case ExprKind::kNot: {
        ICS_ASSIGN_OR_RETURN(Typed child, Compile(*e.children.at(0), depth + 1));
        ICS_RETURN_IF_ERROR(RequireBoolean(child, *e.children[0], e));
        node->kind = Kind::kNot;
        node->children.push_back(std::move(child.node));
        SetBoolean(&out);
        return out;
      }
      case ExprKind::kAnd:
      case ExprKind::kOr: {
        node->kind = e.kind == ExprKind::kAnd ? Kind::kAnd : Kind::kOr;
        for (const Expr* operand : FlattenChain(e, e.kind)) {
          ICS_ASSIGN_OR_RETURN(Typed c, Compile(*operand, depth + 1));
          ICS_RETURN_IF_ERROR(RequireBoolean(c, *operand, e));
          node->children.push_back(std::move(c.node));
        }
        SetBoolean(&out);
        return out;
      }
      default:
        return Status::Internal("expression cannot be evaluated per partition: " + e.ToSql());
    }
  }

 private:
  static void SetBoolean(Typed* t) {
    t->node->type = ValueClass::kBool;
    t->type_name = "BOOLEAN";
  }

  static Status RequireBoolean(const Typed& operand, const Expr& operand_expr, const Expr& pred) {
    const ValueClass t = operand.node->type;
    if (t == ValueClass::kBool || t == ValueClass::kNull) return Status::OK();
    return AnalysisError("Operand '" + operand_expr.ToSql() + "' part of predicate '" +
                         pred.ToSql() + "' should return type 'BOOLEAN' but returns type '" +
                         operand.type_name + "'.");
  }

  static Status CompileLiteral(const Expr& e, Typed* out) {
    const Literal& lit = e.literal;
    PredicateNode* node = out->node.get();
    node->kind = Kind::kConst;
    switch (lit.kind) {
      case LiteralKind::kNull:
        node->type = ValueClass::kNull;
        out->type_name = "NULL";
        return Status::OK();
      case LiteralKind::kBoolean:
        node->type = ValueClass::kBool;
        out->type_name = "BOOLEAN";
        node->constant = HiveValue::Bool(lit.bool_value);
        return Status::OK();
      case LiteralKind::kInteger:
      case LiteralKind::kDecimal: {
        std::optional<HiveValue> num = ParseNumericLiteral(lit.value);
        if (!num) return AnalysisError("invalid numeric literal '" + lit.value + "'");
        node->type = ValueClass::kNumber;
        out->type_name =
            lit.kind == LiteralKind::kInteger ? std::string(IntegerLiteralTypeName(lit.int_value)) : "DECIMAL";
        node->constant = std::move(*num);
        return Status::OK();
      }
      case LiteralKind::kString:
        node->type = ValueClass::kString;
        out->type_name = "STRING";
        node->constant = HiveValue::String(lit.value);
        return Status::OK();
      case LiteralKind::kDate: {
        std::optional<std::string> d = ParseDateText(lit.value);
        std::optional<int64_t> days = d ? DateDays(*d) : std::nullopt;
        if (!days) return AnalysisError("invalid DATE literal '" + lit.value + "'");
        node->type = ValueClass::kDate;
        out->type_name = "DATE";
        node->constant = HiveValue::Date(*days);
        return Status::OK();
      }
    }
    return Status::Internal("unknown literal kind");
  }

  // Finds the common class of a comparison's operands and converts them to it.
  static Status UnifyOperands(std::vector<Typed>* operands, const Expr& e) {
    ValueClass common = ValueClass::kNull;
    const Typed* first = nullptr;
    for (const Typed& c : *operands) {
      const ValueClass t = c.node->type;
      if (t == ValueClass::kNull) continue;
      if (first == nullptr) {
        first = &c;
        common = t;
        continue;
      }
      if (t == common) continue;
      auto temporal = [](ValueClass x) {
        return x == ValueClass::kString || x == ValueClass::kDate || x == ValueClass::kTimestamp;
      };
      if (temporal(t) && temporal(common)) {
        // STRING < DATE < TIMESTAMP: the wider one wins.
        common = std::max(common, t);
        continue;
      }
      return AnalysisError("operands of type " + first->type_name + " and " + c.type_name +
                           " are not comparable: " + e.ToSql());
    }
    for (Typed& c : *operands) ICS_RETURN_IF_ERROR(Coerce(&c, common, e));
    return Status::OK();
  }

  static Status Coerce(Typed* t, ValueClass to, const Expr& e) {
    PredicateNode& n = *t->node;
    if (n.type == ValueClass::kNull || n.type == to) return Status::OK();
    if (n.kind == Kind::kConst) {
      std::optional<HiveValue> converted = ConvertValue(n.constant, n.type, to);
      if (!converted) {
        const std::string shown = n.constant.kind == HiveValue::Kind::kString
                                      ? "'" + n.constant.s + "'"
                                      : n.constant.ToString();
        return AnalysisError("invalid " + std::string(ClassName(to)) + " value " + shown +
                             " in: " + e.ToSql());
      }
      n.constant = std::move(*converted);
      n.type = to;
      t->type_name = ClassName(to);
      return Status::OK();
    }
    auto conv = std::make_unique<PredicateNode>();
    conv->kind = Kind::kConvert;
    conv->type = to;
    conv->children.push_back(std::move(t->node));
    t->node = std::move(conv);
    t->type_name = ClassName(to);
    return Status::OK();
  }

  const PredicateKeyResolver& resolve_;
};

}  // namespace

Result<PredicateNodePtr> CompileCondition(const Expr& condition,
                                          const PredicateKeyResolver& resolve) {
  Compiler compiler(resolve);
  ICS_ASSIGN_OR_RETURN(Typed t, compiler.Compile(condition, 0));
  if (t.node->type != ValueClass::kBool && t.node->type != ValueClass::kNull) {
    return AnalysisError("WHERE clause '" + condition.ToSql() +
                         "' requires return type 'BOOLEAN'. Actual type is '" + t.type_name + "'.");
  }
  return std::move(t.node);
}

}  // namespace ics::sql
