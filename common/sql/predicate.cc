#include "common/sql/predicate.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <set>
#include <string>
#include <utility>

#include "common/hive/scalar_text.h"

namespace ics::sql {

namespace {

using Kind = PredicateNode::Kind;

enum class Tri : uint8_t { kFalse, kTrue, kUnknown };

Tri Not(Tri t) { return t == Tri::kUnknown ? t : (t == Tri::kTrue ? Tri::kFalse : Tri::kTrue); }
Tri TriOf(bool b) { return b ? Tri::kTrue : Tri::kFalse; }

HiveValue Negate(const HiveValue& v) {
  if (v.kind == HiveValue::Kind::kInt && v.i != INT64_MIN) return HiveValue::Int(-v.i);
  if (!v.is_numeric()) return HiveValue::Null();
  ExactNumber n = v.AsNumber();
  n.negative = !n.negative && !n.is_zero();
  return HiveValue::Number(std::move(n));
}

Tri TruthOf(const PredicateNode& n, const std::vector<HiveValue>& keys);

// The value of `n`: a reference to a key value or to the node's constant,
// or a value computed into *scratch.
const HiveValue& ValueOf(const PredicateNode& n, const std::vector<HiveValue>& keys,
                         HiveValue* scratch) {
  switch (n.kind) {
    case Kind::kConst:
      return n.constant;
    case Kind::kKey:
      return keys[n.key];
    case Kind::kConvert: {
      HiveValue inner;
      const HiveValue& v = ValueOf(*n.children[0], keys, &inner);
      std::optional<HiveValue> converted;
      if (!v.is_null()) converted = ConvertValue(v, n.children[0]->type, n.type);
      *scratch = converted ? std::move(*converted) : HiveValue::Null();
      return *scratch;
    }
    case Kind::kNegate: {
      HiveValue inner;
      const HiveValue& v = ValueOf(*n.children[0], keys, &inner);
      *scratch = v.is_null() ? HiveValue::Null() : Negate(v);
      return *scratch;
    }
    case Kind::kAsInt: {
      HiveValue inner;
      const HiveValue& v = ValueOf(*n.children[0], keys, &inner);
      std::optional<int64_t> x;
      if (v.kind == HiveValue::Kind::kString) x = ParsePlainInteger(v.s);
      *scratch = x ? HiveValue::Int(*x) : HiveValue::Null();
      return *scratch;
    }
    default: {
      const Tri t = TruthOf(n, keys);
      *scratch = t == Tri::kUnknown ? HiveValue::Null() : HiveValue::Bool(t == Tri::kTrue);
      return *scratch;
    }
  }
}

Tri Compare(const HiveValue& a, BinaryOp op, const HiveValue& b) {
  std::optional<int> c = CompareValues(a, b);
  if (!c) return Tri::kUnknown;
  switch (op) {
    case BinaryOp::kEq:
      return TriOf(*c == 0);
    case BinaryOp::kNe:
      return TriOf(*c != 0);
    case BinaryOp::kLt:
      return TriOf(*c < 0);
    case BinaryOp::kLe:
      return TriOf(*c <= 0);
    case BinaryOp::kGt:
      return TriOf(*c > 0);
    case BinaryOp::kGe:
      return TriOf(*c >= 0);
    default:
      return Tri::kUnknown;
  }
}

Tri TruthOf(const PredicateNode& n, const std::vector<HiveValue>& keys) {
  switch (n.kind) {
    case Kind::kConst:
    case Kind::kKey:
    case Kind::kConvert:
    case Kind::kNegate:
    case Kind::kAsInt: {
      HiveValue scratch;
      const HiveValue& v = ValueOf(n, keys, &scratch);
      if (v.kind != HiveValue::Kind::kBool) return Tri::kUnknown;
      return TriOf(v.i != 0);
    }
    case Kind::kCompare: {
      HiveValue sa, sb;
      const HiveValue& a = ValueOf(*n.children[0], keys, &sa);
      if (a.is_null()) return Tri::kUnknown;
      return Compare(a, n.op, ValueOf(*n.children[1], keys, &sb));
    }
    case Kind::kIn: {
      HiveValue sv;
      const HiveValue& v = ValueOf(*n.children[0], keys, &sv);
      Tri out = v.is_null() ? Tri::kUnknown : Tri::kFalse;
      for (size_t i = 1; out != Tri::kTrue && !v.is_null() && i < n.children.size(); ++i) {
        HiveValue si;
        const Tri t = Compare(v, BinaryOp::kEq, ValueOf(*n.children[i], keys, &si));
        if (t != Tri::kFalse) out = t;
      }
      return n.negated ? Not(out) : out;
    }
    case Kind::kBetween: {
      HiveValue sv, slo, shi;
      const HiveValue& v = ValueOf(*n.children[0], keys, &sv);
      const Tri lo = Compare(v, BinaryOp::kGe, ValueOf(*n.children[1], keys, &slo));
      const Tri hi = Compare(v, BinaryOp::kLe, ValueOf(*n.children[2], keys, &shi));
      Tri out = Tri::kTrue;
      if (lo == Tri::kFalse || hi == Tri::kFalse) {
        out = Tri::kFalse;
      } else if (lo == Tri::kUnknown || hi == Tri::kUnknown) {
        out = Tri::kUnknown;
      }
      return n.negated ? Not(out) : out;
    }
    case Kind::kIsNull: {
      HiveValue sv;
      return TriOf(ValueOf(*n.children[0], keys, &sv).is_null() != n.negated);
    }
    case Kind::kLike: {
      HiveValue ss, sp;
      const HiveValue& s = ValueOf(*n.children[0], keys, &ss);
      const HiveValue& p = ValueOf(*n.children[1], keys, &sp);
      if (s.kind != HiveValue::Kind::kString || p.kind != HiveValue::Kind::kString) {
        return Tri::kUnknown;
      }
      const bool m =
          n.like == LikeSyntax::kRegexSubset ? RegexSubsetMatches(s.s, p.s) : LikeMatches(s.s, p.s);
      return TriOf(m != n.negated);
    }
    case Kind::kNot:
      return Not(TruthOf(*n.children[0], keys));
    case Kind::kAnd:
    case Kind::kOr: {
      // FALSE decides an AND, TRUE decides an OR; otherwise unknown wins.
      const Tri decisive = n.kind == Kind::kAnd ? Tri::kFalse : Tri::kTrue;
      Tri out = Not(decisive);
      for (const auto& c : n.children) {
        const Tri t = TruthOf(*c, keys);
        if (t == decisive) return t;
        if (t == Tri::kUnknown) out = t;
      }
      return out;
    }
  }
  return Tri::kUnknown;
}

// ---- constraints for indexes ----

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

bool IsKey(const PredicateNode& n) { return n.kind == Kind::kKey; }
bool IsConst(const PredicateNode& n) { return n.kind == Kind::kConst; }

void Collect(const PredicateNode& n, std::map<size_t, KeyConstraint>* out) {
  if (n.kind == Kind::kAnd) {
    for (const auto& c : n.children) Collect(*c, out);
    return;
  }
  if (n.kind == Kind::kCompare) {
    const PredicateNode *col = n.children[0].get(), *lit = n.children[1].get();
    BinaryOp op = n.op;
    if (!IsKey(*col)) {
      std::swap(col, lit);
      op = SwapComparison(op);
    }
    if (!IsKey(*col) || !IsConst(*lit) || op == BinaryOp::kNe) return;
    KeyConstraint& c = (*out)[col->key];
    if (lit->constant.is_null()) {
      c.impossible = true;
      return;
    }
    switch (op) {
      case BinaryOp::kEq:
        AddPoints(&c, {lit->constant});
        break;
      case BinaryOp::kLt:
        Tighten(&c, lit->constant, false, false);
        break;
      case BinaryOp::kLe:
        Tighten(&c, lit->constant, true, false);
        break;
      case BinaryOp::kGt:
        Tighten(&c, lit->constant, false, true);
        break;
      case BinaryOp::kGe:
        Tighten(&c, lit->constant, true, true);
        break;
      default:
        break;
    }
    return;
  }
  if ((n.kind == Kind::kIn || n.kind == Kind::kBetween) && !n.negated && IsKey(*n.children[0])) {
    for (size_t i = 1; i < n.children.size(); ++i) {
      if (!IsConst(*n.children[i])) return;
    }
    KeyConstraint& c = (*out)[n.children[0]->key];
    if (n.kind == Kind::kIn) {
      std::vector<HiveValue> points;
      for (size_t i = 1; i < n.children.size(); ++i) {
        if (!n.children[i]->constant.is_null()) points.push_back(n.children[i]->constant);
      }
      AddPoints(&c, std::move(points));
    } else if (n.children[1]->constant.is_null() || n.children[2]->constant.is_null()) {
      c.impossible = true;
    } else {
      Tighten(&c, n.children[1]->constant, true, true);
      Tighten(&c, n.children[2]->constant, true, false);
    }
  }
}

}  // namespace

ValueClass ClassOf(KeyKind kind) {
  switch (kind) {
    case KeyKind::kBool:
      return ValueClass::kBool;
    case KeyKind::kInt:
    case KeyKind::kFloat:
    case KeyKind::kDecimal:
      return ValueClass::kNumber;
    case KeyKind::kString:
      return ValueClass::kString;
    case KeyKind::kDate:
      return ValueClass::kDate;
    case KeyKind::kTimestamp:
      return ValueClass::kTimestamp;
  }
  return ValueClass::kNull;
}

std::optional<HiveValue> ConvertValue(const HiveValue& v, ValueClass from, ValueClass to) {
  if (from == to) return v;
  if (from == ValueClass::kString && v.kind == HiveValue::Kind::kString) {
    if (to == ValueClass::kDate) {
      std::optional<std::string> d = ParseDateText(v.s);
      std::optional<int64_t> days = d ? DateDays(*d) : std::nullopt;
      if (!days) return std::nullopt;
      return HiveValue::Date(*days);
    }
    if (to == ValueClass::kTimestamp) {
      std::optional<std::string> t = ParseTimestampText(v.s);
      if (!t) return std::nullopt;
      return HiveValue::String(std::move(*t));
    }
  }
  if (from == ValueClass::kDate && to == ValueClass::kTimestamp &&
      v.kind == HiveValue::Kind::kDate) {
    return HiveValue::String(FormatDate(v.i) + " 00:00:00.000000000");
  }
  return std::nullopt;
}

bool LikeMatches(std::string_view s, std::string_view pattern) {
  enum class Tok { kLiteral, kOne, kAny };
  std::vector<std::pair<Tok, char>> pat;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      pat.emplace_back(Tok::kLiteral, pattern[++i]);
    } else if (c == '%') {
      pat.emplace_back(Tok::kAny, c);
    } else if (c == '_') {
      pat.emplace_back(Tok::kOne, c);
    } else {
      pat.emplace_back(Tok::kLiteral, c);
    }
  }
  // Greedy match with one backtrack point: the last '%' seen.
  size_t si = 0, pi = 0, star_p = std::string::npos, star_s = 0;
  while (si < s.size()) {
    if (pi < pat.size() && (pat[pi].first == Tok::kOne ||
                            (pat[pi].first == Tok::kLiteral && pat[pi].second == s[si]))) {
      ++si;
      ++pi;
    } else if (pi < pat.size() && pat[pi].first == Tok::kAny) {
      star_p = pi++;
      star_s = si;
    } else if (star_p != std::string::npos) {
      pi = star_p + 1;
      si = ++star_s;
    } else {
      return false;
    }
  }
  while (pi < pat.size() && pat[pi].first == Tok::kAny) ++pi;
  return pi == pat.size();
}

namespace {

// One element of a regular-expression-subset pattern: a byte (or any byte),
// optionally repeated zero or more times.
struct PatternItem {
  bool any = false;
  char ch = 0;
  bool star = false;
};

// The items of `p`, or the first problem.
std::optional<PatternProblem> CompileRegexSubset(std::string_view p,
                                                 std::vector<PatternItem>* out) {
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '*') {
      if (out->empty() || out->back().star) {
        return PatternProblem{i, "'*' must follow a character or '.' in a LIKE pattern"};
      }
      out->back().star = true;
      continue;
    }
    PatternItem item;
    if (c == '\\') {
      if (i + 1 >= p.size()) return PatternProblem{i, "LIKE pattern ends with a lone '\\'"};
      item.ch = p[++i];
    } else if (c == '.') {
      item.any = true;
    } else if (std::string_view("[](){}+?|^$").find(c) != std::string_view::npos) {
      return PatternProblem{i, std::string("regular-expression operator '") + c +
                                   "' is not supported in LIKE patterns (supported: '.', '*', "
                                   "'\\')"};
    } else {
      item.ch = c;
    }
    out->push_back(item);
  }
  return std::nullopt;
}

}  // namespace

std::optional<PatternProblem> CheckRegexSubset(std::string_view pattern) {
  std::vector<PatternItem> items;
  return CompileRegexSubset(pattern, &items);
}

bool RegexSubsetMatches(std::string_view v, std::string_view pattern) {
  std::vector<PatternItem> pat;
  if (CompileRegexSubset(pattern, &pat)) return false;
  // reach[j]: the items so far can match the first j bytes of v.
  std::vector<char> reach(v.size() + 1, 0), next(v.size() + 1, 0);
  reach[0] = 1;
  for (const PatternItem& item : pat) {
    std::fill(next.begin(), next.end(), 0);
    for (size_t j = 0; j <= v.size(); ++j) {
      const bool step = j > 0 && (item.any || v[j - 1] == item.ch);
      if (item.star) {
        // zero repetitions, or one more after a match of j - 1 bytes
        next[j] = reach[j] || (step && next[j - 1]);
      } else {
        next[j] = step && reach[j - 1];
      }
    }
    reach.swap(next);
  }
  return reach[v.size()] != 0;
}

std::optional<int64_t> ParsePlainInteger(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return v;
}

Predicate::Predicate(PredicateNodePtr root) : root_(std::move(root)) {
  std::set<size_t> used;
  std::vector<const PredicateNode*> stack;
  if (root_) stack.push_back(root_.get());
  while (!stack.empty()) {
    const PredicateNode* n = stack.back();
    stack.pop_back();
    if (n->kind == Kind::kKey) used.insert(n->key);
    for (const auto& c : n->children) stack.push_back(c.get());
  }
  referenced_.assign(used.begin(), used.end());
}

bool Predicate::Matches(const std::vector<HiveValue>& values) const {
  return root_ == nullptr || TruthOf(*root_, values) == Tri::kTrue;
}

std::map<size_t, KeyConstraint> Predicate::Constraints() const {
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

}  // namespace ics::sql
