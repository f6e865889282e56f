// Evaluation of compiled partition predicates (see partition_prune_internal.h).
#include <cctype>
#include <string>
#include <string_view>

#include "common/hive/scalar_text.h"
#include "common/types/column_type.h"
#include "coordinator-sim/catalog/local_catalog.h"
#include "coordinator-sim/exec/partition_prune_internal.h"

namespace ics::coord::prune_internal {

namespace {

using impala::TPrimitiveType;
using sql::BinaryOp;

}  // namespace

// Converts a non-NULL value between categories (string -> date/timestamp,
// date -> timestamp); nullopt when the text is not a valid value.
std::optional<Value> ConvertValue(const Value& v, Cat from, Cat to) {
  Value out = v;
  if (from == Cat::kString && to == Cat::kDate) {
    auto d = ParseDateText(v.text);
    if (!d) return std::nullopt;
    out.text = *d;
  } else if (from == Cat::kString && to == Cat::kTimestamp) {
    auto t = ParseTimestampText(v.text);
    if (!t) return std::nullopt;
    out.text = *t;
  } else if (from == Cat::kDate && to == Cat::kTimestamp) {
    out.text = v.text + " 00:00:00.000000000";
  } else if (from != to) {
    return std::nullopt;
  }
  return out;
}


int CompareValues(const Value& a, const Value& b, Cat cat) {
  switch (cat) {
    case Cat::kNumber:
      return CompareExactNumbers(a.num, b.num);
    case Cat::kBool:
      return static_cast<int>(a.b) - static_cast<int>(b.b);
    default: {
      const int c = a.text.compare(b.text);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
  }
}

bool ApplyOp(BinaryOp op, int cmp) {
  switch (op) {
    case BinaryOp::kEq: return cmp == 0;
    case BinaryOp::kNe: return cmp != 0;
    case BinaryOp::kLt: return cmp < 0;
    case BinaryOp::kLe: return cmp <= 0;
    case BinaryOp::kGt: return cmp > 0;
    case BinaryOp::kGe: return cmp >= 0;
    default: return false;
  }
}

// SQL LIKE: '%' any run of bytes, '_' one byte, '\' escapes the next byte.
bool LikeMatch(std::string_view s, std::string_view pattern) {
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

Value Eval(const Node& n, const std::vector<Value>& keys) {
  switch (n.kind) {
    case NodeKind::kConst:
      return n.constant;
    case NodeKind::kKey:
      return keys[n.key];
    case NodeKind::kConvert: {
      Value v = Eval(*n.children[0], keys);
      if (v.null) return v;
      auto converted = ConvertValue(v, n.children[0]->type, n.type);
      return converted ? std::move(*converted) : NullValue();
    }
    case NodeKind::kNegate: {
      Value v = Eval(*n.children[0], keys);
      if (!v.null) v.num.negative = !v.num.negative && !v.num.is_zero();
      return v;
    }
    case NodeKind::kCompare: {
      const Value a = Eval(*n.children[0], keys);
      if (a.null) return NullValue();
      const Value b = Eval(*n.children[1], keys);
      if (b.null) return NullValue();
      return BoolValue(ApplyOp(n.op, CompareValues(a, b, n.operand_cat)));
    }
    case NodeKind::kIn: {
      const Value v = Eval(*n.children[0], keys);
      if (v.null) return NullValue();
      bool saw_null = false;
      for (size_t i = 1; i < n.children.size(); ++i) {
        const Value item = Eval(*n.children[i], keys);
        if (item.null) {
          saw_null = true;
        } else if (CompareValues(v, item, n.operand_cat) == 0) {
          return BoolValue(!n.negated);
        }
      }
      return saw_null ? NullValue() : BoolValue(n.negated);
    }
    case NodeKind::kBetween: {
      const Value v = Eval(*n.children[0], keys);
      if (v.null) return NullValue();
      const Value lo = Eval(*n.children[1], keys);
      const Value hi = Eval(*n.children[2], keys);
      // v >= lo AND v <= hi, three-valued.
      const bool ge_false = !lo.null && CompareValues(v, lo, n.operand_cat) < 0;
      const bool le_false = !hi.null && CompareValues(v, hi, n.operand_cat) > 0;
      Value r = (ge_false || le_false) ? BoolValue(false)
                : (lo.null || hi.null)  ? NullValue()
                                        : BoolValue(true);
      return n.negated ? Not3(r) : r;
    }
    case NodeKind::kIsNull: {
      const Value v = Eval(*n.children[0], keys);
      return BoolValue(v.null != n.negated);
    }
    case NodeKind::kLike: {
      const Value s = Eval(*n.children[0], keys);
      const Value p = Eval(*n.children[1], keys);
      if (s.null || p.null) return NullValue();
      return BoolValue(LikeMatch(s.text, p.text) != n.negated);
    }
    case NodeKind::kNot:
      return Not3(Eval(*n.children[0], keys));
    case NodeKind::kAnd:
    case NodeKind::kOr: {
      const bool is_and = n.kind == NodeKind::kAnd;
      bool saw_null = false;
      for (const auto& c : n.children) {
        const Value v = Eval(*c, keys);
        if (v.null) {
          saw_null = true;
        } else if (v.b != is_and) {
          return BoolValue(!is_and);  // FALSE decides AND, TRUE decides OR
        }
      }
      return saw_null ? NullValue() : BoolValue(is_and);
    }
  }
  return NullValue();
}

// A partition key's text as a value of its column's type.
std::optional<Value> ParseKeyValue(const std::string& text, const impala::TColumnType& type,
                                   Cat cat) {
  if (text == kDefaultPartitionName) return NullValue();
  Value v;
  v.null = false;
  switch (cat) {
    case Cat::kNumber: {
      const TPrimitiveType::type p = PrimitiveOf(type);
      const bool integral = p == TPrimitiveType::TINYINT || p == TPrimitiveType::SMALLINT ||
                            p == TPrimitiveType::INT || p == TPrimitiveType::BIGINT;
      if (integral && !CanonicalTextValue(text, type)) return std::nullopt;
      auto num = ParseExactNumber(text);
      if (!num) return std::nullopt;
      v.num = std::move(*num);
      return v;
    }
    case Cat::kString:
      v.text = text;
      return v;
    case Cat::kDate: {
      auto d = ParseDateText(text);
      if (!d) return std::nullopt;
      v.text = *d;
      return v;
    }
    case Cat::kTimestamp: {
      auto t = ParseTimestampText(text);
      if (!t) return std::nullopt;
      v.text = *t;
      return v;
    }
    case Cat::kBool: {
      const std::string lower = AsciiLower(text);
      if (lower != "true" && lower != "false") return std::nullopt;
      v.b = lower == "true";
      return v;
    }
    case Cat::kNull:
      break;
  }
  return std::nullopt;
}


}  // namespace ics::coord::prune_internal
