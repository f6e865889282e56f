#include "catalogd/mds/partition_predicate.h"

#include <memory>

namespace ics::catalog::mds {

namespace {

using Kind = FilterNode::Kind;
using PKind = sql::PredicateNode::Kind;
using sql::PredicateNode;
using sql::PredicateNodePtr;

Status ErrorAt(size_t pos, const std::string& what) {
  return Status::InvalidArgument("filter: " + what + " at position " + std::to_string(pos));
}

// Binds a parsed filter to the keys: the shared predicate tree, typed by
// this service's rules (a literal takes the type of the key it meets).
class Binder {
 public:
  explicit Binder(const std::vector<PartitionKeyInfo>& keys) : keys_(keys) {}

  Result<PredicateNodePtr> Bind(const FilterNode& f) {
    auto n = std::make_unique<PredicateNode>();
    n->op = f.op;
    n->negated = f.negated;
    n->type = sql::ValueClass::kBool;
    for (const auto& c : f.children) {
      ICS_ASSIGN_OR_RETURN(PredicateNodePtr child, Bind(*c));
      n->children.push_back(std::move(child));
    }
    for (const FilterOperand& o : f.operands) {
      ICS_ASSIGN_OR_RETURN(PredicateNodePtr operand, Resolve(o));
      n->children.push_back(std::move(operand));
    }
    switch (f.kind) {
      case Kind::kAnd:
        n->kind = PKind::kAnd;
        break;
      case Kind::kOr:
        n->kind = PKind::kOr;
        break;
      case Kind::kNot:
        n->kind = PKind::kNot;
        break;
      case Kind::kIsNull:
        n->kind = PKind::kIsNull;
        break;
      case Kind::kCompare:
      case Kind::kIn:
      case Kind::kBetween:
        n->kind = f.kind == Kind::kCompare ? PKind::kCompare
                  : f.kind == Kind::kIn    ? PKind::kIn
                                           : PKind::kBetween;
        // Every other operand is compared with the first.
        for (size_t i = 1; i < n->children.size(); ++i) {
          ICS_RETURN_IF_ERROR(
              Unify(n->children[0].get(), f.operands[0], n->children[i].get(), f.operands[i]));
        }
        break;
      case Kind::kBare: {
        // The operand itself is the condition.
        PredicateNodePtr operand = std::move(n->children[0]);
        const bool is_bool =
            operand->kind == PKind::kKey
                ? keys_[operand->key].kind == KeyKind::kBool
                : (operand->constant.kind == HiveValue::Kind::kBool || operand->constant.is_null());
        if (!is_bool) {
          return ErrorAt(f.pos, "expected a condition (a comparison, IN, BETWEEN or IS NULL)");
        }
        return operand;
      }
    }
    return n;
  }

 private:
  Result<PredicateNodePtr> Resolve(const FilterOperand& o) {
    auto out = std::make_unique<PredicateNode>();
    if (!o.is_column) {
      out->kind = PKind::kConst;
      out->constant = o.literal;
      return out;
    }
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i].name == o.column) {
        out->kind = PKind::kKey;
        out->key = i;
        out->type = sql::ClassOf(keys_[i].kind);
        return out;
      }
    }
    std::string names;
    for (const PartitionKeyInfo& k : keys_) names += (names.empty() ? "" : ", ") + k.name;
    return ErrorAt(o.pos, "'" + o.column + "' is not a partition key (partition keys: " + names + ")");
  }

  Status Unify(PredicateNode* a, const FilterOperand& fa, PredicateNode* b,
               const FilterOperand& fb) {
    const bool a_key = a->kind == PKind::kKey, b_key = b->kind == PKind::kKey;
    if (a_key && !b_key) return Coerce(keys_[a->key].kind, b, fb);
    if (b_key && !a_key) return Coerce(keys_[b->key].kind, a, fa);
    if (a_key && b_key) {
      const KeyKind x = keys_[a->key].kind, y = keys_[b->key].kind;
      const bool numeric = IsNumericKind(x) && IsNumericKind(y);
      if (x != y && !numeric) {
        return ErrorAt(fb.pos, "cannot compare " + std::string(KeyKindName(x)) + " key '" +
                                   keys_[a->key].name + "' with " + std::string(KeyKindName(y)) +
                                   " key '" + keys_[b->key].name + "'");
      }
      return Status::OK();
    }
    if (!a->constant.is_null() && !b->constant.is_null() &&
        !CompareValues(a->constant, b->constant).has_value()) {
      return ErrorAt(
          fb.pos, "cannot compare " + a->constant.ToString() + " with " + b->constant.ToString());
    }
    return Status::OK();
  }

  static Status Coerce(KeyKind kind, PredicateNode* lit, const FilterOperand& f) {
    Result<HiveValue> v = CoerceLiteral(lit->constant, kind);
    if (!v.ok()) return ErrorAt(f.pos, v.status().message());
    lit->constant = std::move(v).value();
    lit->type = lit->constant.is_null() ? sql::ValueClass::kNull : sql::ClassOf(kind);
    return Status::OK();
  }

  const std::vector<PartitionKeyInfo>& keys_;
};

}  // namespace

Result<PartitionPredicate> PartitionPredicate::Bind(const FilterNode* filter,
                                                    const std::vector<PartitionKeyInfo>& keys) {
  if (filter == nullptr) return PartitionPredicate();
  ICS_ASSIGN_OR_RETURN(PredicateNodePtr root, Binder(keys).Bind(*filter));
  return PartitionPredicate(sql::Predicate(std::move(root)));
}

Result<PartitionPredicate> PartitionPredicate::Compile(std::string_view filter,
                                                       const std::vector<PartitionKeyInfo>& keys) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<FilterNode> tree, ParsePartitionFilter(filter));
  return Bind(tree.get(), keys);
}

Result<std::vector<HiveValue>> TypedValues(const std::vector<PartitionKeyInfo>& keys,
                                           const std::vector<std::string>& stored,
                                           const std::vector<size_t>& which) {
  std::vector<HiveValue> out(keys.size());
  for (size_t k : which) {
    if (k >= stored.size()) return Status::InvalidArgument("partition has too few values");
    ICS_ASSIGN_OR_RETURN(out[k], ParseStoredValue(keys[k].kind, stored[k]));
  }
  return out;
}

}  // namespace ics::catalog::mds
