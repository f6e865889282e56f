#include "coordinator-sim/exec/text_data.h"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

#include "common/types/column_type.h"

namespace ics::coord {

namespace {

using impala::TPrimitiveType;

constexpr char kEscape = '\\';

Status CheckDelimiter(char delim) {
  switch (delim) {
    case '\\':
    case '\n':
    case '\r':
    case 'n':
    case 'r':
    case 'N':
      return Status::InvalidArgument("field delimiter " + std::to_string(static_cast<int>(delim)) +
                                     " clashes with the escape character, line end or NULL marker");
    default:
      return Status::OK();
  }
}

std::string ErrnoText() { return std::strerror(errno); }

std::string RandomHex32() {
  std::random_device rd;
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(32);
  for (int i = 0; i < 4; ++i) {
    uint32_t v = rd();
    for (int j = 0; j < 8; ++j) {
      out.push_back(kHex[v & 0xf]);
      v >>= 4;
    }
  }
  return out;
}

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IoError("write " + path + ": " + ErrnoText());
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

std::optional<std::string> DecodeField(std::string_view raw) {
  if (raw == "\\N") return std::nullopt;
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == kEscape && i + 1 < raw.size()) {
      c = raw[++i];
      if (c == 'n') c = '\n';
      else if (c == 'r') c = '\r';
    }
    out.push_back(c);
  }
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
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
std::optional<std::string> ParseDatePrefix(std::string_view s, size_t* pos) {
  auto y = ReadDigits(s, pos, 4, 4);
  if (!y || *pos >= s.size() || s[*pos] != '-') return std::nullopt;
  ++*pos;
  auto m = ReadDigits(s, pos, 1, 2);
  if (!m || *pos >= s.size() || s[*pos] != '-') return std::nullopt;
  ++*pos;
  auto d = ReadDigits(s, pos, 1, 2);
  if (!d) return std::nullopt;
  if (*y < 1 || *m < 1 || *m > 12 || *d < 1 || *d > DaysInMonth(*y, *m)) return std::nullopt;
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02d", *y, *m, *d);
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
  const std::string lower = Lower(s);
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
  const size_t s = static_cast<size_t>(scale);
  std::string digits = num->int_digits;
  std::string frac = num->frac_digits;
  bool round_up = frac.size() > s && frac[s] >= '5';
  frac.resize(s, '0');
  digits += frac;  // all digits, the last s of them are the fraction
  if (round_up && IncrementDigits(&digits)) digits.insert(digits.begin(), '1');
  size_t first = digits.find_first_not_of('0');
  std::string int_part = digits.substr(0, digits.size() - s);
  const size_t int_nonzero = int_part.find_first_not_of('0');
  int_part = int_nonzero == std::string::npos ? "" : int_part.substr(int_nonzero);
  if (int_part.size() > static_cast<size_t>(precision - scale)) return std::nullopt;
  std::string out;
  if (num->negative && first != std::string::npos) out.push_back('-');
  out += int_part.empty() ? "0" : int_part;
  if (s > 0) out += "." + digits.substr(digits.size() - s);
  return out;
}

}  // namespace

std::string EncodeTextRow(const TextRow& row, char field_delim) {
  std::string out;
  for (size_t i = 0; i < row.size(); ++i) {
    if (i > 0) out.push_back(field_delim);
    if (!row[i]) {
      out += "\\N";
      continue;
    }
    for (char c : *row[i]) {
      if (c == kEscape || c == field_delim) {
        out.push_back(kEscape);
        out.push_back(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else {
        out.push_back(c);
      }
    }
  }
  out.push_back('\n');
  return out;
}

Result<std::string> WriteTextDataFile(const std::string& dir, const std::string& file_prefix,
                                      const std::vector<TextRow>& rows, char field_delim) {
  ICS_RETURN_IF_ERROR(CheckDelimiter(field_delim));
  if (file_prefix.empty() || file_prefix[0] == '.' || file_prefix[0] == '_' ||
      file_prefix.find('/') != std::string::npos ||
      file_prefix.find('\0') != std::string::npos) {
    return Status::InvalidArgument("invalid data file prefix '" + file_prefix +
                                   "': must be non-empty, not start with '.' or '_', "
                                   "and not contain '/'");
  }
  if (dir.empty()) return Status::InvalidArgument("empty data directory");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError("create directory " + dir + ": " + ec.message());

  std::string content;
  for (const TextRow& row : rows) content += EncodeTextRow(row, field_delim);

  const std::string name = file_prefix + "_" + RandomHex32() + "_data.0.txt";
  const std::string prefix = dir.back() == '/' ? dir : dir + "/";
  const std::string tmp_path = prefix + "." + name + ".tmp";
  const std::string final_path = prefix + name;

  const int fd = ::open(tmp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IoError("create " + tmp_path + ": " + ErrnoText());
  Status s = WriteAll(fd, content, tmp_path);
  if (s.ok() && ::fsync(fd) != 0) s = Status::IoError("fsync " + tmp_path + ": " + ErrnoText());
  if (::close(fd) != 0 && s.ok()) s = Status::IoError("close " + tmp_path + ": " + ErrnoText());
  if (s.ok() && ::rename(tmp_path.c_str(), final_path.c_str()) != 0) {
    s = Status::IoError("rename " + tmp_path + " to " + final_path + ": " + ErrnoText());
  }
  if (!s.ok()) {
    ::unlink(tmp_path.c_str());
    return s;
  }
  return name;
}

Status ForEachTextRow(std::string_view data, char field_delim, size_t num_columns,
                      const std::function<Status(const TextRow&)>& fn) {
  ICS_RETURN_IF_ERROR(CheckDelimiter(field_delim));
  const size_t n = data.size();
  size_t pos = 0;
  TextRow row;
  while (pos < n) {
    row.clear();
    bool line_done = false;
    while (!line_done) {
      const size_t start = pos;
      bool last_escaped = false;
      while (pos < n && data[pos] != field_delim && data[pos] != '\n') {
        if (data[pos] == kEscape && pos + 1 < n) {
          pos += 2;
          last_escaped = true;
        } else {
          pos += 1;
          last_escaped = false;
        }
      }
      size_t end = pos;
      if (pos >= n || data[pos] == '\n') {
        line_done = true;
        if (end > start && data[end - 1] == '\r' && !last_escaped) --end;
      }
      if (row.size() < num_columns) row.push_back(DecodeField(data.substr(start, end - start)));
      if (pos < n) ++pos;  // the delimiter or the newline
    }
    row.resize(num_columns);
    ICS_RETURN_IF_ERROR(fn(row));
  }
  return Status::OK();
}

Result<std::vector<TextRow>> ParseTextData(std::string_view data, char field_delim,
                                           size_t num_columns) {
  std::vector<TextRow> rows;
  ICS_RETURN_IF_ERROR(ForEachTextRow(data, field_delim, num_columns, [&](const TextRow& row) {
    rows.push_back(row);
    return Status::OK();
  }));
  return rows;
}

Result<std::string> ReadWholeFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError("open " + path + ": " + ErrnoText());
  std::string data;
  char buf[1 << 16];
  while (true) {
    const ssize_t got = ::read(fd, buf, sizeof(buf));
    if (got < 0) {
      if (errno == EINTR) continue;
      Status s = Status::IoError("read " + path + ": " + ErrnoText());
      ::close(fd);
      return s;
    }
    if (got == 0) break;
    data.append(buf, static_cast<size_t>(got));
  }
  ::close(fd);
  return data;
}

Result<std::vector<TextRow>> ReadTextDataFile(const std::string& path, char field_delim,
                                              size_t num_columns) {
  ICS_RETURN_IF_ERROR(CheckDelimiter(field_delim));
  ICS_ASSIGN_OR_RETURN(std::string data, ReadWholeFile(path));
  return ParseTextData(data, field_delim, num_columns);
}

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
      const std::string lower = Lower(Trim(text));
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

}  // namespace ics::coord
