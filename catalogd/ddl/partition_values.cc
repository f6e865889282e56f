// Validation and canonical forms of partition key values (see
// CanonicalPartitionValue in ddl_internal.h).
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "catalogd/catalog/names.h"
#include "catalogd/ddl/ddl_internal.h"
#include "catalogd/metastore/partition_name.h"
#include "common/types/column_type.h"

namespace ics::catalog::ddl {

namespace {

using P = impala::TPrimitiveType;

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Parses "[+-]digits" into [lo, hi]; nullopt-like false on failure.
bool ParseInteger(const std::string& s, int64_t lo, int64_t hi, int64_t* out) {
  std::string_view v = s;
  bool neg = false;
  if (!v.empty() && (v[0] == '+' || v[0] == '-')) {
    neg = v[0] == '-';
    v.remove_prefix(1);
  }
  if (!AllDigits(v)) return false;
  // Parse the magnitude as unsigned so INT64_MIN fits.
  uint64_t mag = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), mag);
  if (ec != std::errc() || end != v.data() + v.size()) return false;
  if (neg) {
    if (mag > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1) return false;
    *out = mag == 0 ? 0 : static_cast<int64_t>(0 - mag);
  } else {
    if (mag > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
    *out = static_cast<int64_t>(mag);
  }
  return *out >= lo && *out <= hi;
}

bool ValidDate(const std::string& s) {
  // YYYY-MM-DD
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  if (!AllDigits(s.substr(0, 4)) || !AllDigits(s.substr(5, 2)) || !AllDigits(s.substr(8, 2))) {
    return false;
  }
  const int y = std::stoi(s.substr(0, 4));
  const int m = std::stoi(s.substr(5, 2));
  const int d = std::stoi(s.substr(8, 2));
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  const int max = kDays[m - 1] + (m == 2 && leap ? 1 : 0);
  return d <= max;
}

bool ValidTime(const std::string& s) {
  // HH:MM[:SS[.fraction]]
  if (s.size() < 5 || s[2] != ':') return false;
  if (!AllDigits(s.substr(0, 2)) || !AllDigits(s.substr(3, 2))) return false;
  if (std::stoi(s.substr(0, 2)) > 23 || std::stoi(s.substr(3, 2)) > 59) return false;
  if (s.size() == 5) return true;
  if (s.size() < 8 || s[5] != ':' || !AllDigits(s.substr(6, 2)) || std::stoi(s.substr(6, 2)) > 59) {
    return false;
  }
  if (s.size() == 8) return true;
  return s[8] == '.' && s.size() <= 18 && AllDigits(s.substr(9));
}

bool ValidTimestamp(const std::string& s) {
  if (s.size() < 10 || !ValidDate(s.substr(0, 10))) return false;
  if (s.size() == 10) return true;
  if (s[10] != ' ' && s[10] != 'T') return false;
  return ValidTime(s.substr(11));
}

bool ValidDecimal(const std::string& s, int precision, int scale) {
  std::string_view v = s;
  if (!v.empty() && (v[0] == '+' || v[0] == '-')) v.remove_prefix(1);
  const size_t dot = v.find('.');
  std::string_view int_part = v.substr(0, dot);
  std::string_view frac = dot == std::string_view::npos ? std::string_view() : v.substr(dot + 1);
  if (int_part.empty() && frac.empty()) return false;
  if (!int_part.empty() && !AllDigits(int_part)) return false;
  if (dot != std::string_view::npos && !frac.empty() && !AllDigits(frac)) return false;
  while (int_part.size() > 1 && int_part[0] == '0') int_part.remove_prefix(1);
  const size_t int_digits = (int_part == "0" || int_part.empty()) ? 0 : int_part.size();
  return static_cast<int>(int_digits) <= precision - scale &&
         static_cast<int>(frac.size()) <= scale;
}

bool ValidFloat(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(d);
}

size_t Utf8Length(const std::string& s) {
  size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xc0) != 0x80) ++n;
  }
  return n;
}

}  // namespace

Result<std::string> CanonicalPartitionValue(const impala::TColumnType& type, const std::string& key,
                                            const std::string& value) {
  if (value.empty() || value == kDefaultPartitionName) return std::string(kDefaultPartitionName);
  const std::string type_name = TypeToString(type);
  auto bad = [&](const std::string& why) {
    return Status::InvalidArgument("Invalid value '" + value + "' for partition key '" + key +
                                   "' of type " + type_name + (why.empty() ? "" : ": " + why));
  };
  if (!IsScalar(type)) return bad("partition keys must have scalar types");
  const impala::TScalarType& st = type.types[0].scalar_type;
  int64_t n = 0;
  switch (st.type) {
    case P::TINYINT:
      if (!ParseInteger(value, -128, 127, &n)) return bad("not an integer in -128..127");
      return std::to_string(n);
    case P::SMALLINT:
      if (!ParseInteger(value, -32768, 32767, &n)) return bad("not an integer in -32768..32767");
      return std::to_string(n);
    case P::INT:
      if (!ParseInteger(value, std::numeric_limits<int32_t>::min(),
                        std::numeric_limits<int32_t>::max(), &n)) {
        return bad("not a 32-bit integer");
      }
      return std::to_string(n);
    case P::BIGINT:
      if (!ParseInteger(value, std::numeric_limits<int64_t>::min(),
                        std::numeric_limits<int64_t>::max(), &n)) {
        return bad("not a 64-bit integer");
      }
      return std::to_string(n);
    case P::BOOLEAN: {
      const std::string lower = AsciiLower(value);
      if (lower != "true" && lower != "false") return bad("expected true or false");
      return lower;
    }
    case P::FLOAT:
    case P::DOUBLE:
      if (!ValidFloat(value)) return bad("not a finite number");
      return value;
    case P::DECIMAL:
      if (!ValidDecimal(value, st.precision, st.scale)) {
        return bad("not a decimal number that fits");
      }
      return value;
    case P::DATE:
      if (!ValidDate(value)) return bad("expected a date YYYY-MM-DD");
      return value;
    case P::TIMESTAMP:
      if (!ValidTimestamp(value)) return bad("expected a timestamp YYYY-MM-DD[ HH:MM:SS[.f]]");
      return value;
    case P::VARCHAR:
    case P::CHAR:
      if (st.__isset.len && Utf8Length(value) > static_cast<size_t>(st.len)) {
        return bad("longer than " + std::to_string(st.len) + " characters");
      }
      return value;
    case P::STRING:
    case P::BINARY:
      return value;
    default:
      return bad("unsupported partition key type");
  }
}

}  // namespace ics::catalog::ddl
