#include "common/sql/filter_binder.h"

#include <memory>
#include <utility>

#include "common/util/ascii.h"

namespace ics::sql {

namespace {

using Kind = FilterExpr::Kind;
using PKind = PredicateNode::Kind;

class Binder {
 public:
  Binder(const FilterDialect& d, const std::vector<FilterKey>& keys) : d_(d), keys_(keys) {}

  Result<PredicateNodePtr> Bind(const FilterExpr& f) {
    if (d_.typing == FilterTyping::kHiveText) return BindText(f);
    return BindTyped(f);
  }

 private:
  Status ErrorAt(size_t pos, const std::string& what) const { return FilterErrorAt(d_, pos, what); }

  static PredicateNodePtr Node(PKind kind, ValueClass type) {
    auto n = std::make_unique<PredicateNode>();
    n->kind = kind;
    n->type = type;
    return n;
  }

  Result<size_t> KeyIndex(const FilterOperand& o) const {
    std::string names;
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (AsciiLower(keys_[i].name) == o.column) return i;
      names += (i ? ", " : "") + keys_[i].name;
    }
    return Status::InvalidArgument(d_.prefix +
                                   FillTemplate(d_.unknown_key, {{"column", o.column},
                                                                 {"written", o.written},
                                                                 {"keys", names},
                                                                 {"pos", std::to_string(o.pos)}}));
  }

  // ---- kTyped ----

  Result<PredicateNodePtr> BindTyped(const FilterExpr& f) {
    auto n = Node(PKind::kAnd, ValueClass::kBool);
    n->op = f.op;
    n->negated = f.negated;
    for (const auto& c : f.children) {
      ICS_ASSIGN_OR_RETURN(PredicateNodePtr child, BindTyped(*c));
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
      case Kind::kLike:
        n->kind = PKind::kLike;
        n->like = d_.like == FilterLike::kRegexSubset ? LikeSyntax::kRegexSubset : LikeSyntax::kSql;
        for (size_t i = 0; i < 2; ++i) {
          const PredicateNode& c = *n->children[i];
          const bool text = c.kind == PKind::kKey ? c.type == ValueClass::kString
                                                  : c.constant.kind == HiveValue::Kind::kString;
          if (!text) return ErrorAt(f.operands[i].pos, "LIKE needs text on both sides");
        }
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

  Result<PredicateNodePtr> Resolve(const FilterOperand& o) {
    if (!o.is_column) {
      auto out = Node(PKind::kConst, ValueClass::kNull);
      out->constant = o.literal;
      return out;
    }
    ICS_ASSIGN_OR_RETURN(size_t i, KeyIndex(o));
    auto out = Node(PKind::kKey, ClassOf(keys_[i].kind));
    out->key = i;
    return out;
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

  Status Coerce(KeyKind kind, PredicateNode* lit, const FilterOperand& f) const {
    Result<HiveValue> v = CoerceLiteral(lit->constant, kind);
    if (!v.ok()) return ErrorAt(f.pos, v.status().message());
    lit->constant = std::move(v).value();
    lit->type = lit->constant.is_null() ? ValueClass::kNull : ClassOf(kind);
    return Status::OK();
  }

  // ---- kHiveText ----

  Result<PredicateNodePtr> BindText(const FilterExpr& f) {
    switch (f.kind) {
      case Kind::kAnd:
      case Kind::kOr:
      case Kind::kNot: {
        auto n = Node(f.kind == Kind::kAnd  ? PKind::kAnd
                      : f.kind == Kind::kOr ? PKind::kOr
                                            : PKind::kNot,
                      ValueClass::kBool);
        for (const auto& c : f.children) {
          ICS_ASSIGN_OR_RETURN(PredicateNodePtr child, BindText(*c));
          n->children.push_back(std::move(child));
        }
        return n;
      }
      case Kind::kCompare:
      case Kind::kLike:
        break;
      default:
        return ErrorAt(f.pos, "only comparisons and LIKE are supported");
    }
    if (f.operands.size() != 2 || f.operands[0].is_column == f.operands[1].is_column) {
      return ErrorAt(f.pos, "a comparison needs one partition key and one literal");
    }
    const bool key_first = f.operands[0].is_column;
    const FilterOperand& key_op = f.operands[key_first ? 0 : 1];
    const FilterOperand& lit = f.operands[key_first ? 1 : 0];
    ICS_ASSIGN_OR_RETURN(size_t key, KeyIndex(key_op));
    auto key_node = Node(PKind::kKey, ValueClass::kString);
    key_node->key = key;
    auto lit_node = Node(PKind::kConst, ValueClass::kString);
    auto n = Node(f.kind == Kind::kLike ? PKind::kLike : PKind::kCompare, ValueClass::kBool);
    if (f.kind == Kind::kLike) {
      if (!key_first) return ErrorAt(f.op_pos, "LIKE needs the partition key on its left");
      if (!lit.string_literal) return ErrorAt(lit.pos, "LIKE needs a string pattern");
      // +1: the pattern starts after its opening quote.
      if (std::optional<PatternProblem> p = CheckRegexSubset(lit.literal.s)) {
        return ErrorAt(lit.pos + 1 + p->offset, p->message);
      }
      n->like = d_.like == FilterLike::kSql ? LikeSyntax::kSql : LikeSyntax::kRegexSubset;
      lit_node->constant = lit.literal;
    } else {
      n->op = key_first ? f.op : SwapComparison(f.op);
      if (!lit.string_literal && keys_[key].kind == KeyKind::kInt) {
        std::optional<int64_t> x = ParsePlainInteger(lit.written);
        if (!x) return ErrorAt(lit.pos, "integer " + lit.written + " out of range");
        auto as_int = Node(PKind::kAsInt, ValueClass::kNumber);
        as_int->children.push_back(std::move(key_node));
        key_node = std::move(as_int);
        lit_node->type = ValueClass::kNumber;
        lit_node->constant = HiveValue::Int(*x);
      } else {
        lit_node->constant = HiveValue::String(lit.string_literal ? lit.literal.s : lit.written);
      }
    }
    n->children.push_back(std::move(key_node));
    n->children.push_back(std::move(lit_node));
    return n;
  }

  const FilterDialect& d_;
  const std::vector<FilterKey>& keys_;
};

}  // namespace

Result<Predicate> BindFilter(const FilterExpr* filter, const FilterDialect& dialect,
                             const std::vector<FilterKey>& keys) {
  if (filter == nullptr) return Predicate();
  ICS_ASSIGN_OR_RETURN(PredicateNodePtr root, Binder(dialect, keys).Bind(*filter));
  return Predicate(std::move(root));
}

Result<Predicate> CompileFilter(std::string_view text, const FilterDialect& dialect,
                                const std::vector<FilterKey>& keys) {
  FilterLeafCheck check;
  if (dialect.errors_in_text_order) {
    check = [&](const FilterExpr& leaf) -> Status {
      return Binder(dialect, keys).Bind(leaf).status();
    };
  }
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<FilterExpr> tree, ParseFilter(text, dialect, check));
  return BindFilter(tree.get(), dialect, keys);
}

}  // namespace ics::sql
