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
#include "common/util/ascii.h"

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

}  // namespace ics::coord
