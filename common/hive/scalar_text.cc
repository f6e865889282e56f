#include "common/hive/scalar_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/hive/partition_name.h"
#include "common/types/column_type.h"
#include "common/util/ascii.h"
#include "common/util/utf8.h"

namespace ics {

namespace {

using TPrimitiveType = impala::TPrimitiveType;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads 1..max_digits digits at *pos.
std::optional<int> ReadDigits(std::string_view s, size_t* pos, size_t min_digits,
                              size_t max_digits) {
  size_t start = *pos;
  int v = 0;
  while (*pos < s.size() && IsDigit(s[*pos]) && *pos - start < max_digits) {
    v = v * 10 + (s[*pos] - '0');
    ++*pos;
  }
  if (*pos - start < min_digits) return std::nullopt;
  return v;
}

bool IsLeapYear(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[m - 1];
}

// Parses the date at the start of s; sets *pos past it.
struct CivilDate {
  int y, m, d;
};

// Parses yyyy-m[m]-d[d] (a real day) at the start of s; sets *pos past it.
std::optional<CivilDate> ParseCivilDate(std::string_view s, size_t* pos) {
  auto y = ReadDigits(s, pos, 4, 4);
  if (!y || *pos >= s.size() || s[*pos] != '-') return std::nullopt;
  ++*pos;
  auto m = ReadDigits(s, pos, 1, 2);
  if (!m || *pos >= s.size() || s[*pos] != '-') return std::nullopt;
  ++*pos;
  auto d = ReadDigits(s, pos, 1, 2);
  if (!d) return std::nullopt;
  if (*y < 1 || *m < 1 || *m > 12 || *d < 1 || *d > DaysInMonth(*y, *m)) return std::nullopt;
  return CivilDate{*y, *m, *d};
}

// ParseCivilDate as canonical "yyyy-mm-dd".
std::optional<std::string> ParseDatePrefix(std::string_view s, size_t* pos) {
  const std::optional<CivilDate> c = ParseCivilDate(s, pos);
  if (!c) return std::nullopt;
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d", c->y, c->m, c->d);
  return std::string(buf);
}

// Adds one unit in the last place to a digit string; returns true on carry out.
bool IncrementDigits(std::string* digits) {
  for (size_t i = digits->size(); i-- > 0;) {
    if ((*digits)[i] == '9') {
      (*digits)[i] = '0';
    } else {
      ++(*digits)[i];
      return false;
    }
  }
  return true;
}

std::optional<std::string> CanonicalInteger(std::string_view text, int64_t min, int64_t max) {
  std::string_view s = Trim(text);
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  // Accumulate as a negative number so INT64_MIN fits.
  int64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    const int d = c - '0';
    if (v < (INT64_MIN + d) / 10) return std::nullopt;
    v = v * 10 - d;
  }
  if (!neg) {
    if (v == INT64_MIN) return std::nullopt;
    v = -v;
  }
  if (v < min || v > max) return std::nullopt;
  return std::to_string(v);
}

std::optional<std::string> CanonicalFloat(std::string_view text, bool is_float) {
  const std::string s(Trim(text));
  const std::string lower = AsciiLower(s);
  double v;
  if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity") {
    v = HUGE_VAL;
  } else if (lower == "-inf" || lower == "-infinity") {
    v = -HUGE_VAL;
  } else if (lower == "nan") {
    return std::string("nan");
  } else {
    if (!ParseExactNumber(s)) return std::nullopt;
    v = is_float ? static_cast<double>(std::strtof(s.c_str(), nullptr))
                 : std::strtod(s.c_str(), nullptr);
  }
  if (std::isinf(v)) return std::string(v > 0 ? "inf" : "-inf");
  if (v == 0) return std::string("0");  // also -0
  char buf[40];
  std::snprintf(buf, sizeof(buf), is_float ? "%.9g" : "%.17g", v);
  return std::string(buf);
}

std::optional<std::string> CanonicalDecimal(std::string_view text, int precision, int scale) {
  auto num = ParseExactNumber(text);
  if (!num || precision < 1 || scale < 0 || scale > precision) return std::nullopt;
  const ExactNumber rounded = RoundToScale(std::move(*num), scale);
  if (!FitsDecimal(rounded, precision, scale)) return std::nullopt;
  return FormatDecimal(rounded, scale);
}

// Days from the civil date (proleptic Gregorian), Howard Hinnant's method.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool HasSurroundingSpace(std::string_view s) {
  return !s.empty() && (std::isspace(static_cast<unsigned char>(s.front())) ||
                        std::isspace(static_cast<unsigned char>(s.back())));
}

bool StrictDecimal(const std::string& s, int precision, int scale) {
  if (HasSurroundingSpace(s) || s.find_first_of("eE") != std::string::npos) return false;
  const std::optional<ExactNumber> num = ParseExactNumber(s);
  if (!num) return false;
  const size_t dot = s.find('.');
  const size_t written_frac = dot == std::string::npos ? 0 : s.size() - dot - 1;
  return static_cast<int>(num->int_digits.size()) <= precision - scale &&
         static_cast<int>(written_frac) <= scale;
}

bool StrictFloat(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  char* end = nullptr;
  const double d = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(d);
}

}  // namespace

// ---- ExactNumber ----

std::string ExactNumber::ToString() const {
  std::string out;
  if (negative && !is_zero()) out.push_back('-');
  out += int_digits.empty() ? "0" : int_digits;
  if (!frac_digits.empty()) out += "." + frac_digits;
  return out;
}

std::optional<ExactNumber> ParseExactNumber(std::string_view text) {
  std::string_view s = Trim(text);
  ExactNumber out;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) out.negative = s[i++] == '-';
  std::string digits;  // mantissa digits without the point
  size_t int_count = 0;
  while (i < s.size() && IsDigit(s[i])) digits.push_back(s[i++]);
  int_count = digits.size();
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) digits.push_back(s[i++]);
  }
  if (digits.empty() || digits.size() > kMaxExactDigits) return std::nullopt;
  int64_t exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool exp_neg = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) exp_neg = s[i++] == '-';
    const size_t exp_start = i;
    while (i < s.size() && IsDigit(s[i])) {
      if (exponent < 1000000) exponent = exponent * 10 + (s[i] - '0');
      ++i;
    }
    if (i == exp_start) return std::nullopt;
    if (exp_neg) exponent = -exponent;
  }
  if (i != s.size()) return std::nullopt;
  const size_t nz = digits.find_first_not_of('0');
  if (nz == std::string::npos) return ExactNumber{};  // zero, whatever the exponent
  // Position of the decimal point within `digits`, after the exponent.
  const int64_t point = static_cast<int64_t>(int_count) + exponent;
  const int64_t len = static_cast<int64_t>(digits.size());
  if (point > static_cast<int64_t>(kMaxExactDigits) ||
      point < -static_cast<int64_t>(kMaxExactDigits)) {
    return std::nullopt;
  }
  if (point >= len) {
    out.int_digits = digits + std::string(static_cast<size_t>(point - len), '0');
  } else if (point <= 0) {
    out.frac_digits = std::string(static_cast<size_t>(-point), '0') + digits;
  } else {
    out.int_digits = digits.substr(0, static_cast<size_t>(point));
    out.frac_digits = digits.substr(static_cast<size_t>(point));
  }
  const size_t int_nz = out.int_digits.find_first_not_of('0');
  out.int_digits = int_nz == std::string::npos ? "" : out.int_digits.substr(int_nz);
  const size_t frac_end = out.frac_digits.find_last_not_of('0');
  out.frac_digits = frac_end == std::string::npos ? "" : out.frac_digits.substr(0, frac_end + 1);
  if (out.int_digits.size() + out.frac_digits.size() > kMaxExactDigits) return std::nullopt;
  return out;
}

int CompareExactNumbers(const ExactNumber& a, const ExactNumber& b) {
  const bool a_neg = a.negative && !a.is_zero();
  const bool b_neg = b.negative && !b.is_zero();
  if (a_neg != b_neg) return a_neg ? -1 : 1;
  int mag;
  if (a.int_digits.size() != b.int_digits.size()) {
    mag = a.int_digits.size() < b.int_digits.size() ? -1 : 1;
  } else {
    mag = a.int_digits.compare(b.int_digits);
    if (mag == 0) mag = a.frac_digits.compare(b.frac_digits);
    mag = mag < 0 ? -1 : (mag > 0 ? 1 : 0);
  }
  return a_neg ? -mag : mag;
}

bool FitsDecimal(const ExactNumber& n, int precision, int scale) {
  return scale >= 0 && scale <= precision &&
         n.int_digits.size() <= static_cast<size_t>(precision - scale) &&
         n.frac_digits.size() <= static_cast<size_t>(scale);
}

ExactNumber RoundToScale(ExactNumber n, int scale) {
  const size_t s = static_cast<size_t>(std::max(scale, 0));
  if (n.frac_digits.size() <= s) return n;
  const bool up = n.frac_digits[s] >= '5';
  n.frac_digits.resize(s);
  if (up) {
    std::string all = n.int_digits + n.frac_digits;
    if (IncrementDigits(&all)) all.insert(all.begin(), '1');
    n.int_digits = all.substr(0, all.size() - s);
    n.frac_digits = all.substr(all.size() - s);
  }
  const size_t lead = n.int_digits.find_first_not_of('0');
  n.int_digits = lead == std::string::npos ? "" : n.int_digits.substr(lead);
  const size_t last = n.frac_digits.find_last_not_of('0');
  n.frac_digits.resize(last == std::string::npos ? 0 : last + 1);
  if (n.is_zero()) n.negative = false;
  return n;
}

std::string FormatDecimal(const ExactNumber& n, int scale) {
  const size_t s = static_cast<size_t>(std::max(scale, 0));
  std::string frac = n.frac_digits.substr(0, s);
  frac.resize(s, '0');
  std::string out = n.negative && !n.is_zero() ? "-" : "";
  out += n.int_digits.empty() ? "0" : n.int_digits;
  if (s > 0) out += "." + frac;
  return out;
}

std::optional<std::string> ParseDateText(std::string_view text) {
  const std::string_view s = Trim(text);
  size_t pos = 0;
  auto date = ParseDatePrefix(s, &pos);
  if (!date || pos != s.size()) return std::nullopt;
  return date;
}

std::optional<std::string> ParseTimestampText(std::string_view text) {
  const std::string_view s = Trim(text);
  size_t pos = 0;
  auto date = ParseDatePrefix(s, &pos);
  if (!date) return std::nullopt;
  int h = 0, m = 0, sec = 0;
  std::string frac;
  if (pos < s.size()) {
    if (s[pos] != ' ' && s[pos] != 'T') return std::nullopt;
    ++pos;
    auto hh = ReadDigits(s, &pos, 1, 2);
    if (!hh || pos >= s.size() || s[pos] != ':') return std::nullopt;
    ++pos;
    auto mm = ReadDigits(s, &pos, 1, 2);
    if (!mm) return std::nullopt;
    h = *hh;
    m = *mm;
    if (pos < s.size() && s[pos] == ':') {
      ++pos;
      auto ss = ReadDigits(s, &pos, 1, 2);
      if (!ss) return std::nullopt;
      sec = *ss;
      if (pos < s.size() && s[pos] == '.') {
        ++pos;
        while (pos < s.size() && IsDigit(s[pos])) frac.push_back(s[pos++]);
        if (frac.empty() || frac.size() > 9) return std::nullopt;
      }
    }
    if (pos != s.size() || h > 23 || m > 59 || sec > 59) return std::nullopt;
  }
  frac.resize(9, '0');
  char buf[32];
  std::snprintf(buf, sizeof(buf), " %02d:%02d:%02d.", h, m, sec);
  return *date + buf + frac;
}

std::optional<std::string> CanonicalTextValue(std::string_view text,
                                              const impala::TColumnType& type) {
  if (!IsScalar(type)) return std::nullopt;
  const impala::TScalarType& st = type.types[0].scalar_type;
  switch (st.type) {
    case TPrimitiveType::BOOLEAN: {
      const std::string lower = AsciiLower(Trim(text));
      if (lower == "true" || lower == "false") return lower;
      return std::nullopt;
    }
    case TPrimitiveType::TINYINT:
      return CanonicalInteger(text, INT8_MIN, INT8_MAX);
    case TPrimitiveType::SMALLINT:
      return CanonicalInteger(text, INT16_MIN, INT16_MAX);
    case TPrimitiveType::INT:
      return CanonicalInteger(text, INT32_MIN, INT32_MAX);
    case TPrimitiveType::BIGINT:
      return CanonicalInteger(text, INT64_MIN, INT64_MAX);
    case TPrimitiveType::FLOAT:
      return CanonicalFloat(text, /*is_float=*/true);
    case TPrimitiveType::DOUBLE:
      return CanonicalFloat(text, /*is_float=*/false);
    case TPrimitiveType::DECIMAL:
      return CanonicalDecimal(text, st.__isset.precision ? st.precision : 10,
                              st.__isset.scale ? st.scale : 0);
    case TPrimitiveType::DATE:
      return ParseDateText(text);
    case TPrimitiveType::TIMESTAMP:
      return ParseTimestampText(text);
    case TPrimitiveType::STRING:
    case TPrimitiveType::BINARY:
      return std::string(text);
    case TPrimitiveType::VARCHAR: {
      std::string out(text);
      if (st.__isset.len && st.len > 0 && out.size() > static_cast<size_t>(st.len)) {
        out.resize(static_cast<size_t>(st.len));
      }
      return out;
    }
    case TPrimitiveType::CHAR: {
      std::string out(text);
      if (st.__isset.len && st.len > 0) out.resize(static_cast<size_t>(st.len), ' ');
      return out;
    }
    default:
      return std::nullopt;
  }
}

bool IsStrictDate(std::string_view s) {
  if (s.size() != 10) return false;
  const std::optional<std::string> d = ParseDateText(s);
  return d && *d == s;
}

// The strict forms are exactly the prefixes of the canonical text (with 'T'
// for the space), so a value is strict iff it is a prefix of its own
// canonical form at one of the allowed lengths.
bool IsStrictTimestamp(std::string_view s) {
  if (HasSurroundingSpace(s)) return false;
  const std::optional<std::string> canonical = ParseTimestampText(s);
  if (!canonical) return false;
  const size_t n = s.size();
  if (n != 10 && n != 16 && n != 19 && (n < 21 || n > 29)) return false;
  std::string written(s);
  if (n > 10 && written[10] == 'T') written[10] = ' ';
  return canonical->compare(0, n, written) == 0;
}

std::optional<int64_t> DateDays(std::string_view date) {
  size_t pos = 0;
  const std::optional<CivilDate> c = ParseCivilDate(date, &pos);
  // Canonical: the whole text, with two-digit month and day.
  if (!c || pos != date.size() || date.size() != 10) return std::nullopt;
  return DaysFromCivil(c->y, c->m, c->d);
}

std::optional<int64_t> ParseDateDays(std::string_view text) {
  size_t pos = 0;
  const std::optional<CivilDate> c = ParseCivilDate(text, &pos);
  if (!c || pos != text.size()) return std::nullopt;
  return DaysFromCivil(c->y, c->m, c->d);
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
  auto integer = [&](int64_t lo, int64_t hi) -> std::optional<std::string> {
    if (HasSurroundingSpace(value)) return std::nullopt;
    return CanonicalInteger(value, lo, hi);
  };
  std::optional<std::string> n;
  switch (st.type) {
    case TPrimitiveType::TINYINT:
      if (!(n = integer(INT8_MIN, INT8_MAX))) return bad("not an integer in -128..127");
      return *n;
    case TPrimitiveType::SMALLINT:
      if (!(n = integer(INT16_MIN, INT16_MAX))) return bad("not an integer in -32768..32767");
      return *n;
    case TPrimitiveType::INT:
      if (!(n = integer(INT32_MIN, INT32_MAX))) return bad("not a 32-bit integer");
      return *n;
    case TPrimitiveType::BIGINT:
      if (!(n = integer(INT64_MIN, INT64_MAX))) return bad("not a 64-bit integer");
      return *n;
    case TPrimitiveType::BOOLEAN: {
      const std::string lower = AsciiLower(value);
      if (lower != "true" && lower != "false") return bad("expected true or false");
      return lower;
    }
    case TPrimitiveType::FLOAT:
    case TPrimitiveType::DOUBLE:
      if (!StrictFloat(value)) return bad("not a finite number");
      return value;
    case TPrimitiveType::DECIMAL:
      if (!StrictDecimal(value, st.precision, st.scale)) {
        return bad("not a decimal number that fits");
      }
      return value;
    case TPrimitiveType::DATE:
      if (!IsStrictDate(value)) return bad("expected a date YYYY-MM-DD");
      return value;
    case TPrimitiveType::TIMESTAMP:
      if (!IsStrictTimestamp(value)) return bad("expected a timestamp YYYY-MM-DD[ HH:MM:SS[.f]]");
      return value;
    case TPrimitiveType::VARCHAR:
    case TPrimitiveType::CHAR:
      if (st.__isset.len && Utf8Length(value) > static_cast<size_t>(st.len)) {
        return bad("longer than " + std::to_string(st.len) + " characters");
      }
      return value;
    case TPrimitiveType::STRING:
    case TPrimitiveType::BINARY:
      return value;
    default:
      return bad("unsupported partition key type");
  }
}

bool IsNumericType(const impala::TColumnType& type) {
  if (!IsScalar(type)) return false;
  switch (type.types[0].scalar_type.type) {
    case TPrimitiveType::TINYINT:
    case TPrimitiveType::SMALLINT:
    case TPrimitiveType::INT:
    case TPrimitiveType::BIGINT:
    case TPrimitiveType::FLOAT:
    case TPrimitiveType::DOUBLE:
    case TPrimitiveType::DECIMAL:
      return true;
    default:
      return false;
  }
}

bool PartitionValuesEqual(const impala::TColumnType& type, const std::string& a,
                          const std::string& b) {
  if (a == b) return true;
  if (a == kDefaultPartitionName || b == kDefaultPartitionName || !IsScalar(type)) return false;
  if (IsNumericType(type)) {
    const std::optional<ExactNumber> x = ParseExactNumber(a);
    const std::optional<ExactNumber> y = ParseExactNumber(b);
    return x && y && CompareExactNumbers(*x, *y) == 0;
  }
  if (type.types[0].scalar_type.type == TPrimitiveType::BOOLEAN) {
    return AsciiLower(a) == AsciiLower(b);
  }
  return false;
}

bool IsCanonicalInteger(std::string_view text) {
  const size_t start = !text.empty() && text[0] == '-' ? 1 : 0;
  const size_t digits = text.size() - start;
  if (digits == 0 || digits > kMaxExactDigits) return false;
  // "0" alone; not "-0" nor a leading zero ("01").
  if (text[start] == '0') return text.size() == 1;
  for (size_t i = start; i < text.size(); ++i) {
    if (!IsDigit(text[i])) return false;
  }
  return true;
}

std::string PartitionValueKey(const impala::TColumnType& type, const std::string& value) {
  // One tag byte per class of PartitionValuesEqual: 'd' the NULL partition
  // (equal only to itself), 'n' a number by exact value, 'b' a boolean in
  // lower case, 's' anything else byte for byte.
  if (value == kDefaultPartitionName) return "d";
  if (IsScalar(type) && IsNumericType(type)) {
    // Most partition values (years, days, ids) are written canonically
    // already: no parse and print for them (a table's first fetch indexes
    // every partition this way).
    if (IsCanonicalInteger(value)) return "n" + value;
    if (std::optional<ExactNumber> n = ParseExactNumber(value)) return "n" + n->ToString();
  } else if (IsScalar(type) && type.types[0].scalar_type.type == TPrimitiveType::BOOLEAN) {
    return "b" + AsciiLower(value);
  }
  return "s" + value;
}

}  // namespace ics
