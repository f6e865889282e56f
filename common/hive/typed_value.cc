#include "common/hive/typed_value.h"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "common/hive/partition_name.h"

namespace ics {

namespace {

using P = impala::TPrimitiveType;

bool ParseInt64(std::string_view s, int64_t* out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

int KindClass(HiveValue::Kind k) {
  switch (k) {
    case HiveValue::Kind::kNull:
      return 0;
    case HiveValue::Kind::kBool:
      return 1;
    case HiveValue::Kind::kInt:
    case HiveValue::Kind::kNumber:
      return 2;
    case HiveValue::Kind::kString:
      return 3;
    case HiveValue::Kind::kDate:
      return 4;
  }
  return 5;
}

template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

}  // namespace

Result<KeyKind> KeyKindOf(const impala::TColumnType& type) {
  if (type.types.size() != 1 || type.types[0].type != impala::TTypeNodeType::SCALAR) {
    return Status::InvalidArgument("partition keys must have scalar types");
  }
  switch (type.types[0].scalar_type.type) {
    case P::BOOLEAN:
      return KeyKind::kBool;
    case P::TINYINT:
    case P::SMALLINT:
    case P::INT:
    case P::BIGINT:
      return KeyKind::kInt;
    case P::FLOAT:
    case P::DOUBLE:
      return KeyKind::kFloat;
    case P::DECIMAL:
      return KeyKind::kDecimal;
    case P::DATE:
      return KeyKind::kDate;
    case P::TIMESTAMP:
      return KeyKind::kTimestamp;
    case P::STRING:
    case P::VARCHAR:
    case P::CHAR:
    case P::BINARY:
      return KeyKind::kString;
    default:
      return Status::InvalidArgument("unsupported partition key type");
  }
}

std::string_view KeyKindName(KeyKind kind) {
  switch (kind) {
    case KeyKind::kBool:
      return "boolean";
    case KeyKind::kInt:
      return "integer";
    case KeyKind::kFloat:
      return "floating-point";
    case KeyKind::kDecimal:
      return "decimal";
    case KeyKind::kString:
      return "string";
    case KeyKind::kDate:
      return "date";
    case KeyKind::kTimestamp:
      return "timestamp";
  }
  return "?";
}

HiveValue HiveValue::Bool(bool b) {
  HiveValue v;
  v.kind = Kind::kBool;
  v.i = b ? 1 : 0;
  return v;
}

HiveValue HiveValue::Int(int64_t x) {
  HiveValue v;
  v.kind = Kind::kInt;
  v.i = x;
  return v;
}

HiveValue HiveValue::Number(ExactNumber x) {
  HiveValue v;
  v.kind = Kind::kNumber;
  v.num = std::move(x);
  return v;
}

ExactNumber HiveValue::AsNumber() const {
  if (kind == Kind::kNumber) return num;
  ExactNumber n;
  n.negative = i < 0;
  // The magnitude as unsigned, so INT64_MIN fits.
  const uint64_t mag = i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
  if (mag != 0) n.int_digits = std::to_string(mag);
  return n;
}

HiveValue HiveValue::String(std::string x) {
  HiveValue v;
  v.kind = Kind::kString;
  v.s = std::move(x);
  return v;
}

HiveValue HiveValue::Date(int64_t days) {
  HiveValue v;
  v.kind = Kind::kDate;
  v.i = days;
  return v;
}

std::string HiveValue::ToString() const {
  switch (kind) {
    case Kind::kNull:
      return "NULL";
    case Kind::kBool:
      return i ? "TRUE" : "FALSE";
    case Kind::kInt:
      return std::to_string(i);
    case Kind::kNumber:
      return num.ToString();
    case Kind::kString:
      return "'" + s + "'";
    case Kind::kDate:
      return "DATE '" + FormatDate(i) + "'";
  }
  return "?";
}

std::optional<int> CompareValues(const HiveValue& a, const HiveValue& b) {
  using K = HiveValue::Kind;
  if (a.is_null() || b.is_null()) return std::nullopt;
  if (a.is_numeric() && b.is_numeric()) {
    if (a.kind == K::kInt && b.kind == K::kInt) return Cmp(a.i, b.i);
    return CompareExactNumbers(a.AsNumber(), b.AsNumber());
  }
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
    case K::kBool:
    case K::kDate:
      return Cmp(a.i, b.i);
    case K::kString:
      return a.s.compare(b.s) < 0 ? -1 : (a.s == b.s ? 0 : 1);
    default:
      return std::nullopt;
  }
}

bool ValueLess(const HiveValue& a, const HiveValue& b) {
  const int ca = KindClass(a.kind);
  const int cb = KindClass(b.kind);
  if (ca != cb) return ca < cb;
  if (ca == 0) return false;
  std::optional<int> c = CompareValues(a, b);
  return c.has_value() && *c < 0;
}

std::optional<HiveValue> ParseNumericLiteral(std::string_view text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())) ||
      std::isspace(static_cast<unsigned char>(text.back()))) {
    return std::nullopt;
  }
  std::string_view digits = text;
  if (digits[0] == '+') digits.remove_prefix(1);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (!digits.empty() && ec == std::errc() && end == digits.data() + digits.size()) {
    return HiveValue::Int(v);
  }
  std::optional<ExactNumber> num = ParseExactNumber(text);
  if (!num) return std::nullopt;
  return HiveValue::Number(std::move(*num));
}

Result<HiveValue> ParseStoredValue(KeyKind kind, const std::string& text) {
  if (text.empty() || text == kDefaultPartitionName) return HiveValue::Null();
  auto bad = [&] {
    return Status::InvalidArgument("stored value '" + text + "' is not a valid " +
                                   std::string(KeyKindName(kind)));
  };
  switch (kind) {
    case KeyKind::kBool:
      if (text == "true") return HiveValue::Bool(true);
      if (text == "false") return HiveValue::Bool(false);
      return bad();
    case KeyKind::kInt: {
      int64_t v = 0;
      if (!ParseInt64(text, &v)) return bad();
      return HiveValue::Int(v);
    }
    case KeyKind::kFloat:
    case KeyKind::kDecimal: {
      std::optional<HiveValue> v = ParseNumericLiteral(text);
      if (!v) return bad();
      return *v;
    }
    case KeyKind::kDate: {
      std::optional<int64_t> d = ParseDateDays(text);
      if (!d) return bad();
      return HiveValue::Date(*d);
    }
    case KeyKind::kString:
    case KeyKind::kTimestamp:
      return HiveValue::String(text);
  }
  return bad();
}

Result<HiveValue> CoerceLiteral(const HiveValue& lit, KeyKind key) {
  using K = HiveValue::Kind;
  if (lit.is_null()) return lit;
  auto mismatch = [&] {
    return Status::InvalidArgument("cannot compare a " + std::string(KeyKindName(key)) +
                                   " partition key with " + lit.ToString());
  };
  switch (key) {
    case KeyKind::kBool:
      if (lit.kind == K::kBool) return lit;
      return mismatch();
    case KeyKind::kInt:
    case KeyKind::kFloat:
    case KeyKind::kDecimal:
      if (lit.is_numeric()) return lit;
      return mismatch();
    case KeyKind::kString:
      if (lit.kind == K::kString) return lit;
      return mismatch();
    case KeyKind::kDate:
      if (lit.kind == K::kDate) return lit;
      if (lit.kind == K::kString) {
        std::optional<int64_t> d = ParseDateDays(lit.s);
        if (!d) return Status::InvalidArgument(lit.ToString() + " is not a date (yyyy-mm-dd)");
        return HiveValue::Date(*d);
      }
      return mismatch();
    case KeyKind::kTimestamp:
      if (lit.kind == K::kString) return lit;
      if (lit.kind == K::kDate) return HiveValue::String(FormatDate(lit.i) + " 00:00:00");
      return mismatch();
  }
  return mismatch();
}

}  // namespace ics
