#include "catalogd/mds/partition_predicate.h"

#include <algorithm>
#include <set>

namespace ics::catalog::mds {

struct PartitionPredicate::Node {
  FilterNode::Kind kind = FilterNode::Kind::kAnd;
  CmpOp op = CmpOp::kEq;
  bool negated = false;
  std::vector<std::unique_ptr<Node>> children;
  struct Operand {
    int key = -1;  // >= 0: a key position; -1: the literal
    HiveValue literal;
  };
  std::vector<Operand> operands;
};

namespace {

using Node = PartitionPredicate::Node;
using Kind = FilterNode::Kind;

enum class Tri : uint8_t { kFalse, kTrue, kUnknown };

Tri Not(Tri t) { return t == Tri::kUnknown ? t : (t == Tri::kTrue ? Tri::kFalse : Tri::kTrue); }

Status ErrorAt(size_t pos, const std::string& what) {
  return Status::InvalidArgument("filter: " + what + " at position " + std::to_string(pos));
}

class Binder {
 public:
  explicit Binder(const std::vector<PartitionKeyInfo>& keys) : keys_(keys) {}

  Result<std::unique_ptr<Node>> Bind(const FilterNode& f) {
    auto n = std::make_unique<Node>();
    n->kind = f.kind;
    n->op = f.op;
    n->negated = f.negated;
    for (const auto& c : f.children) {
      ICS_ASSIGN_OR_RETURN(auto child, Bind(*c));
      n->children.push_back(std::move(child));
    }
    for (const FilterOperand& o : f.operands) {
      ICS_ASSIGN_OR_RETURN(Node::Operand op, Resolve(o));
      n->operands.push_back(std::move(op));
    }
    switch (f.kind) {
      case Kind::kCompare:
      case Kind::kIn:
      case Kind::kBetween:
        // Every other operand is compared with the first.
        for (size_t i = 1; i < n->operands.size(); ++i) {
          ICS_RETURN_IF_ERROR(Unify(&n->operands[0], f.operands[0], &n->operands[i], f.operands[i]));
        }
        break;
      case Kind::kBare: {
        const Node::Operand& o = n->operands[0];
        const bool is_bool =
            o.key >= 0 ? keys_[o.key].kind == KeyKind::kBool
                       : (o.literal.kind == HiveValue::Kind::kBool || o.literal.is_null());
        if (!is_bool) {
          return ErrorAt(f.pos, "expected a condition (a comparison, IN, BETWEEN or IS NULL)");
        }
        break;
      }
      default:
        break;
    }
    return n;
  }

  std::vector<size_t> referenced() const { return {used_.begin(), used_.end()}; }

 private:
  Result<Node::Operand> Resolve(const FilterOperand& o) {
    Node::Operand out;
    if (!o.is_column) {
      out.literal = o.literal;
      return out;
    }
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i].name == o.column) {
        out.key = static_cast<int>(i);
        used_.insert(i);
        return out;
      }
    }
    std::string names;
    for (const PartitionKeyInfo& k : keys_) names += (names.empty() ? "" : ", ") + k.name;
    return ErrorAt(o.pos, "'" + o.column + "' is not a partition key (partition keys: " + names + ")");
  }

  Status Unify(Node::Operand* a, const FilterOperand& fa, Node::Operand* b,
               const FilterOperand& fb) {
    if (a->key >= 0 && b->key < 0) return Coerce(keys_[a->key].kind, b, fb);
    if (b->key >= 0 && a->key < 0) return Coerce(keys_[b->key].kind, a, fa);
    if (a->key >= 0 && b->key >= 0) {
      const KeyKind x = keys_[a->key].kind, y = keys_[b->key].kind;
      const bool numeric = IsNumericKind(x) && IsNumericKind(y);
      if (x != y && !numeric) {
        return ErrorAt(fb.pos, "cannot compare " + std::string(KeyKindName(x)) + " key '" +
                                   keys_[a->key].name + "' with " + std::string(KeyKindName(y)) +
                                   " key '" + keys_[b->key].name + "'");
      }
      return Status::OK();
    }
    if (!a->literal.is_null() && !b->literal.is_null() &&
        !CompareValues(a->literal, b->literal).has_value()) {
      return ErrorAt(fb.pos, "cannot compare " + a->literal.ToString() + " with " +
                                 b->literal.ToString());
    }
    return Status::OK();
  }

  Status Coerce(KeyKind kind, Node::Operand* lit, const FilterOperand& f) {
    Result<HiveValue> v = CoerceLiteral(lit->literal, kind);
    if (!v.ok()) return ErrorAt(f.pos, v.status().message());
    lit->literal = std::move(v).value();
    return Status::OK();
  }

  const std::vector<PartitionKeyInfo>& keys_;
  std::set<size_t> used_;
};

const HiveValue& Get(const Node::Operand& o, const std::vector<HiveValue>& values) {
  return o.key >= 0 ? values[o.key] : o.literal;
}

Tri Compare(const HiveValue& a, CmpOp op, const HiveValue& b) {
  std::optional<int> c = CompareValues(a, b);
  if (!c) return Tri::kUnknown;
  bool r = false;
  switch (op) {
    case CmpOp::kEq: r = *c == 0; break;
    case CmpOp::kNe: r = *c != 0; break;
    case CmpOp::kLt: r = *c < 0; break;
    case CmpOp::kLe: r = *c <= 0; break;
    case CmpOp::kGt: r = *c > 0; break;
    case CmpOp::kGe: r = *c >= 0; break;
  }
  return r ? Tri::kTrue : Tri::kFalse;
}

Tri Eval(const Node& n, const std::vector<HiveValue>& values) {
  switch (n.kind) {
    case Kind::kAnd: {
      Tri out = Tri::kTrue;
      for (const auto& c : n.children) {
        const Tri t = Eval(*c, values);
        if (t == Tri::kFalse) return t;
        if (t == Tri::kUnknown) out = t;
      }
      return out;
    }
    case Kind::kOr: {
      Tri out = Tri::kFalse;
      for (const auto& c : n.children) {
        const Tri t = Eval(*c, values);
        if (t == Tri::kTrue) return t;
        if (t == Tri::kUnknown) out = t;
      }
      return out;
    }
    case Kind::kNot: return Not(Eval(*n.children[0], values));
    case Kind::kCompare:
      return Compare(Get(n.operands[0], values), n.op, Get(n.operands[1], values));
    case Kind::kIn: {
      const HiveValue& x = Get(n.operands[0], values);
      Tri out = Tri::kFalse;
      for (size_t i = 1; i < n.operands.size(); ++i) {
        const Tri t = Compare(x, CmpOp::kEq, Get(n.operands[i], values));
        if (t == Tri::kTrue) {
          out = t;
          break;
        }
        if (t == Tri::kUnknown) out = t;
      }
      return n.negated ? Not(out) : out;
    }
    case Kind::kBetween: {
      const HiveValue& x = Get(n.operands[0], values);
      const Tri lo = Compare(x, CmpOp::kGe, Get(n.operands[1], values));
      const Tri hi = Compare(x, CmpOp::kLe, Get(n.operands[2], values));
      Tri out = Tri::kTrue;
      if (lo == Tri::kFalse || hi == Tri::kFalse) {
        out = Tri::kFalse;
      } else if (lo == Tri::kUnknown || hi == Tri::kUnknown) {
        out = Tri::kUnknown;
      }
      return n.negated ? Not(out) : out;
    }
    case Kind::kIsNull: {
      const bool is_null = Get(n.operands[0], values).is_null();
      return (is_null != n.negated) ? Tri::kTrue : Tri::kFalse;
    }
    case Kind::kBare: {
      const HiveValue& v = Get(n.operands[0], values);
      if (v.is_null()) return Tri::kUnknown;
      return v.i != 0 ? Tri::kTrue : Tri::kFalse;
    }
  }
  return Tri::kUnknown;
}

// Narrows `c` with a lower (is_lo) or upper bound.
void Tighten(KeyConstraint* c, const HiveValue& v, bool inclusive, bool is_lo) {
  std::optional<HiveValue>& bound = is_lo ? c->lo : c->hi;
  bool& incl = is_lo ? c->lo_inclusive : c->hi_inclusive;
  if (!bound) {
    bound = v;
    incl = inclusive;
    return;
  }
  std::optional<int> cmp = CompareValues(v, *bound);
  if (!cmp) return;
  if ((is_lo && *cmp > 0) || (!is_lo && *cmp < 0)) {
    bound = v;
    incl = inclusive;
  } else if (*cmp == 0 && !inclusive) {
    incl = false;
  }
}

void AddPoints(KeyConstraint* c, std::vector<HiveValue> points) {
  std::sort(points.begin(), points.end(), ValueLess);
  points.erase(std::unique(points.begin(), points.end(),
                           [](const HiveValue& a, const HiveValue& b) {
                             return !ValueLess(a, b) && !ValueLess(b, a);
                           }),
               points.end());
  if (!c->points) {
    c->points = std::move(points);
    return;
  }
  std::vector<HiveValue> both;
  std::set_intersection(c->points->begin(), c->points->end(), points.begin(), points.end(),
                        std::back_inserter(both), ValueLess);
  c->points = std::move(both);
}

bool InRange(const KeyConstraint& c, const HiveValue& v) {
  if (c.lo) {
    std::optional<int> cmp = CompareValues(v, *c.lo);
    if (!cmp || *cmp < 0 || (*cmp == 0 && !c.lo_inclusive)) return false;
  }
  if (c.hi) {
    std::optional<int> cmp = CompareValues(v, *c.hi);
    if (!cmp || *cmp > 0 || (*cmp == 0 && !c.hi_inclusive)) return false;
  }
  return true;
}

void Collect(const Node& n, std::map<size_t, KeyConstraint>* out) {
  if (n.kind == Kind::kAnd) {
    for (const auto& c : n.children) Collect(*c, out);
    return;
  }
  if (n.kind == Kind::kCompare) {
    const Node::Operand *col = &n.operands[0], *lit = &n.operands[1];
    CmpOp op = n.op;
    if (col->key < 0) {
      std::swap(col, lit);
      op = FlipCmp(op);
    }
    if (col->key < 0 || lit->key >= 0 || op == CmpOp::kNe) return;
    KeyConstraint& c = (*out)[col->key];
    if (lit->literal.is_null()) {
      c.impossible = true;
      return;
    }
    switch (op) {
      case CmpOp::kEq: AddPoints(&c, {lit->literal}); break;
      case CmpOp::kLt: Tighten(&c, lit->literal, false, false); break;
      case CmpOp::kLe: Tighten(&c, lit->literal, true, false); break;
      case CmpOp::kGt: Tighten(&c, lit->literal, false, true); break;
      case CmpOp::kGe: Tighten(&c, lit->literal, true, true); break;
      default: break;
    }
    return;
  }
  if ((n.kind == Kind::kIn || n.kind == Kind::kBetween) && !n.negated && n.operands[0].key >= 0) {
    for (size_t i = 1; i < n.operands.size(); ++i) {
      if (n.operands[i].key >= 0) return;
    }
    KeyConstraint& c = (*out)[n.operands[0].key];
    if (n.kind == Kind::kIn) {
      std::vector<HiveValue> points;
      for (size_t i = 1; i < n.operands.size(); ++i) {
        if (!n.operands[i].literal.is_null()) points.push_back(n.operands[i].literal);
      }
      AddPoints(&c, std::move(points));
    } else if (n.operands[1].literal.is_null() || n.operands[2].literal.is_null()) {
      c.impossible = true;
    } else {
      Tighten(&c, n.operands[1].literal, true, true);
      Tighten(&c, n.operands[2].literal, true, false);
    }
  }
}

}  // namespace

Result<PartitionPredicate> PartitionPredicate::Bind(const FilterNode* filter,
                                                    const std::vector<PartitionKeyInfo>& keys) {
  PartitionPredicate p;
  if (filter == nullptr) return p;
  Binder binder(keys);
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<Node> root, binder.Bind(*filter));
  p.root_ = std::shared_ptr<const Node>(std::move(root));
  p.referenced_ = binder.referenced();
  return p;
}

Result<PartitionPredicate> PartitionPredicate::Compile(std::string_view filter,
                                                       const std::vector<PartitionKeyInfo>& keys) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<FilterNode> tree, ParsePartitionFilter(filter));
  return Bind(tree.get(), keys);
}

bool PartitionPredicate::Matches(const std::vector<HiveValue>& values) const {
  return root_ == nullptr || Eval(*root_, values) == Tri::kTrue;
}

std::map<size_t, KeyConstraint> PartitionPredicate::Constraints() const {
  std::map<size_t, KeyConstraint> out;
  if (root_ == nullptr) return out;
  Collect(*root_, &out);
  for (auto& [key, c] : out) {
    if (c.points) {
      std::vector<HiveValue> kept;
      for (HiveValue& v : *c.points) {
        if (InRange(c, v)) kept.push_back(std::move(v));
      }
      c.points = std::move(kept);
      if (c.points->empty()) c.impossible = true;
    }
    if (c.lo && c.hi) {
      std::optional<int> cmp = CompareValues(*c.lo, *c.hi);
      if (cmp && (*cmp > 0 || (*cmp == 0 && !(c.lo_inclusive && c.hi_inclusive)))) {
        c.impossible = true;
      }
    }
  }
  return out;
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
