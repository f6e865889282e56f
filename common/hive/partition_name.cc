#include "common/hive/partition_name.h"

#include <set>

namespace ics {
namespace {

bool NeedsEscaping(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return true;
  switch (c) {
    case '"':
    case '#':
    case '%':
    case '\'':
    case '*':
    case '/':
    case ':':
    case '=':
    case '?':
    case '\\':
    case '{':
    case '[':
    case ']':
    case '^':
      return true;
    default:
      return false;
  }
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Quotes `s` for an error message, escaping nothing: names are short and
// the caller wants to see them as given.
std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

std::string EscapePathName(std::string_view s) {
  if (s.empty()) return std::string(kDefaultPartitionName);
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (NeedsEscaping(c)) {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

Result<std::string> UnescapePathName(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    const int hi = i + 1 < s.size() ? HexValue(s[i + 1]) : -1;
    const int lo = i + 2 < s.size() ? HexValue(s[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      return Status::InvalidArgument("malformed escape at offset " + std::to_string(i) + " of " +
                                     Quoted(s) + ": '%' must be followed by two hex digits");
    }
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

Result<std::string> MakePartitionName(const std::vector<std::string>& keys,
                                      const std::vector<std::string>& values) {
  if (keys.empty()) {
    return Status::InvalidArgument("cannot name a partition of a table without partition keys");
  }
  if (keys.size() != values.size()) {
    return Status::InvalidArgument("partition has " + std::to_string(values.size()) +
                                   " values but the table has " + std::to_string(keys.size()) +
                                   " partition keys");
  }
  std::string name;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].empty()) {
      return Status::InvalidArgument("partition key #" + std::to_string(i + 1) + " is empty");
    }
    std::string key = keys[i];
    for (char& c : key) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    if (i > 0) name.push_back('/');
    name += EscapePathName(key);
    name.push_back('=');
    name += EscapePathName(values[i]);
  }
  return name;
}

Result<PartitionSpec> ParsePartitionName(std::string_view name) {
  if (name.empty()) return Status::InvalidArgument("partition name is empty");
  PartitionSpec spec;
  std::set<std::string, std::less<>> seen;
  size_t start = 0;
  while (true) {
    const size_t slash = name.find('/', start);
    const std::string_view comp = name.substr(
        start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    const std::string where = " in partition name " + Quoted(name);
    if (comp.empty()) return Status::InvalidArgument("empty component" + where);
    const size_t eq = comp.find('=');
    if (eq == std::string_view::npos) {
      return Status::InvalidArgument("component " + Quoted(comp) + " has no '='" + where);
    }
    if (comp.find('=', eq + 1) != std::string_view::npos) {
      return Status::InvalidArgument("component " + Quoted(comp) +
                                     " has more than one unescaped '='" + where);
    }
    if (eq == 0 || eq + 1 == comp.size()) {
      return Status::InvalidArgument("component " + Quoted(comp) + " has an empty " +
                                     (eq == 0 ? "key" : "value") + where);
    }
    auto key = UnescapePathName(comp.substr(0, eq));
    if (!key.ok()) return key.status().WithContext("partition name " + Quoted(name));
    auto value = UnescapePathName(comp.substr(eq + 1));
    if (!value.ok()) return value.status().WithContext("partition name " + Quoted(name));
    if (!seen.insert(*key).second) {
      return Status::InvalidArgument("partition key " + Quoted(*key) + " repeats" + where);
    }
    spec.emplace_back(std::move(*key), std::move(*value));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return spec;
}

std::vector<std::string> PartitionValuesFromName(std::string_view name) {
  std::vector<std::string> values;
  while (!name.empty()) {
    const size_t slash = name.find('/');
    const std::string_view comp = name.substr(0, slash);
    const size_t eq = comp.find('=');
    const std::string_view raw = eq == std::string_view::npos ? comp : comp.substr(eq + 1);
    Result<std::string> value = UnescapePathName(raw);
    values.push_back(value.ok() ? std::move(value).value() : std::string(raw));
    if (slash == std::string_view::npos) break;
    name.remove_prefix(slash + 1);
  }
  return values;
}

std::vector<std::string> PartitionKeyNames(const hive::Table& table) {
  std::vector<std::string> keys;
  keys.reserve(table.partitionKeys.size());
  for (const hive::FieldSchema& k : table.partitionKeys) keys.push_back(k.name);
  return keys;
}

std::vector<std::string> PartitionKeyNames(const std::vector<impala::TColumn>& clustering_columns) {
  std::vector<std::string> keys;
  keys.reserve(clustering_columns.size());
  for (const impala::TColumn& c : clustering_columns) keys.push_back(c.columnName);
  return keys;
}

}  // namespace ics
