#include "catalogd/mds/partition_value.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "catalogd/metastore/partition_name.h"

namespace ics::catalog::mds {

namespace {

using P = impala::TPrimitiveType;

// Days from the civil date (proleptic Gregorian), Howard Hinnant's method.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool ParseInt64(std::string_view s, int64_t* out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

bool ParseDouble(const std::string& s, double* out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(*out);
}

int KindClass(Value::Kind k) {
  switch (k) {
    case Value::Kind::kNull: return 0;
    case Value::Kind::kBool: return 1;
    case Value::Kind::kInt:
    case Value::Kind::kFloat: return 2;
    case Value::Kind::kString: return 3;
    case Value::Kind::kDate: return 4;
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
    case P::BOOLEAN: return KeyKind::kBool;
    case P::TINYINT:
    case P::SMALLINT:
    case P::INT:
    case P::BIGINT: return KeyKind::kInt;
    case P::FLOAT:
    case P::DOUBLE:
    case P::DECIMAL: return KeyKind::kFloat;
    case P::DATE: return KeyKind::kDate;
    case P::TIMESTAMP: return KeyKind::kTimestamp;
    case P::STRING:
    case P::VARCHAR:
    case P::CHAR:
    case P::BINARY: return KeyKind::kString;
    default: return Status::InvalidArgument("unsupported partition key type");
  }
}

std::string_view KeyKindName(KeyKind kind) {
  switch (kind) {
    case KeyKind::kBool: return "boolean";
    case KeyKind::kInt: return "integer";
    case KeyKind::kFloat: return "floating-point";
    case KeyKind::kString: return "string";
    case KeyKind::kDate: return "date";
    case KeyKind::kTimestamp: return "timestamp";
  }
  return "?";
}

Value Value::Bool(bool b) {
  Value v;
  v.kind = Kind::kBool;
  v.i = b ? 1 : 0;
  return v;
}

Value Value::Int(int64_t x) {
  Value v;
  v.kind = Kind::kInt;
  v.i = x;
  return v;
}

Value Value::Float(double x) {
  Value v;
  v.kind = Kind::kFloat;
  v.f = x;
  return v;
}

Value Value::String(std::string x) {
  Value v;
  v.kind = Kind::kString;
  v.s = std::move(x);
  return v;
}

Value Value::Date(int64_t days) {
  Value v;
  v.kind = Kind::kDate;
  v.i = days;
  return v;
}

std::string Value::ToString() const {
  switch (kind) {
    case Kind::kNull: return "NULL";
    case Kind::kBool: return i ? "TRUE" : "FALSE";
    case Kind::kInt: return std::to_string(i);
    case Kind::kFloat: {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%.17g", f);
      return buf;
    }
    case Kind::kString: return "'" + s + "'";
    case Kind::kDate: return "DATE '" + FormatDate(i) + "'";
  }
  return "?";
}

std::optional<int> CompareValues(const Value& a, const Value& b) {
  using K = Value::Kind;
  if (a.is_null() || b.is_null()) return std::nullopt;
  if (a.is_numeric() && b.is_numeric()) {
    if (a.kind == K::kInt && b.kind == K::kInt) return Cmp(a.i, b.i);
    const double x = a.kind == K::kInt ? static_cast<double>(a.i) : a.f;
    const double y = b.kind == K::kInt ? static_cast<double>(b.i) : b.f;
    return Cmp(x, y);
  }
  if (a.kind != b.kind) return std::nullopt;
  switch (a.kind) {
    case K::kBool:
    case K::kDate: return Cmp(a.i, b.i);
    case K::kString: return a.s.compare(b.s) < 0 ? -1 : (a.s == b.s ? 0 : 1);
    default: return std::nullopt;
  }
}

bool ValueLess(const Value& a, const Value& b) {
  const int ca = KindClass(a.kind);
  const int cb = KindClass(b.kind);
  if (ca != cb) return ca < cb;
  if (ca == 0) return false;
  std::optional<int> c = CompareValues(a, b);
  return c.has_value() && *c < 0;
}

std::optional<int64_t> ParseDateDays(std::string_view s) {
  const size_t d1 = s.find('-', 1);  // a year may not start with '-' here
  if (d1 == std::string_view::npos) return std::nullopt;
  const size_t d2 = s.find('-', d1 + 1);
  if (d2 == std::string_view::npos) return std::nullopt;
  std::string_view ys = s.substr(0, d1), ms = s.substr(d1 + 1, d2 - d1 - 1), ds = s.substr(d2 + 1);
  auto digits = [](std::string_view x, size_t lo, size_t hi) {
    if (x.size() < lo || x.size() > hi) return false;
    for (char c : x) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  };
  if (!digits(ys, 4, 4) || !digits(ms, 1, 2) || !digits(ds, 1, 2)) return std::nullopt;
  const int64_t y = std::stoi(std::string(ys));
  const int64_t m = std::stoi(std::string(ms));
  const int64_t d = std::stoi(std::string(ds));
  if (y < 1 || m < 1 || m > 12 || d < 1) return std::nullopt;
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[m - 1] + (m == 2 && leap ? 1 : 0)) return std::nullopt;
  return DaysFromCivil(y, m, d);
}

std::string FormatDate(int64_t days) {
  // Inverse of DaysFromCivil.
  const int64_t z = days + 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp + (mp < 10 ? 3 : -9);
  const int64_t y = yoe + era * 400 + (m <= 2);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%04lld-%02lld-%02lld", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d));
  return buf;
}

Result<Value> ParseStoredValue(KeyKind kind, const std::string& text) {
  if (text.empty() || text == kDefaultPartitionName) return Value::Null();
  auto bad = [&] {
    return Status::InvalidArgument("stored value '" + text + "' is not a valid " +
                                   std::string(KeyKindName(kind)));
  };
  switch (kind) {
    case KeyKind::kBool:
      if (text == "true") return Value::Bool(true);
      if (text == "false") return Value::Bool(false);
      return bad();
    case KeyKind::kInt: {
      int64_t v = 0;
      if (!ParseInt64(text, &v)) return bad();
      return Value::Int(v);
    }
    case KeyKind::kFloat: {
      double v = 0;
      if (!ParseDouble(text, &v)) return bad();
      return Value::Float(v);
    }
    case KeyKind::kDate: {
      std::optional<int64_t> d = ParseDateDays(text);
      if (!d) return bad();
      return Value::Date(*d);
    }
    case KeyKind::kString:
    case KeyKind::kTimestamp: return Value::String(text);
  }
  return bad();
}

Result<Value> CoerceLiteral(const Value& lit, KeyKind key) {
  using K = Value::Kind;
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
        return Value::Date(*d);
      }
      return mismatch();
    case KeyKind::kTimestamp:
      if (lit.kind == K::kString) return lit;
      if (lit.kind == K::kDate) return Value::String(FormatDate(lit.i) + " 00:00:00");
      return mismatch();
  }
  return mismatch();
}

}  // namespace ics::catalog::mds
