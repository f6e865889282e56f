#include "catalogd/ops/table_limits.h"

#include "common/hive/names.h"
#include "common/types/column_type.h"
#include "common/util/utf8.h"

namespace ics::catalog::ops {

namespace {

Status Invalid(std::string_view field, const std::string& why) {
  return Status::InvalidArgument(std::string(field) + " " + why);
}

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

Result<std::string> NormalizeDb(std::string_view name) { return NormalizeName("database", name); }
Result<std::string> NormalizeTable(std::string_view name) { return NormalizeName("table", name); }
Result<std::string> NormalizeColumn(std::string_view name) { return NormalizeName("column", name); }

Result<NormalizedTable> NormalizeTableName(std::string_view db, std::string_view table) {
  NormalizedTable n;
  ICS_ASSIGN_OR_RETURN(n.db, NormalizeDb(db));
  ICS_ASSIGN_OR_RETURN(n.table, NormalizeTable(table));
  return n;
}

Status CheckField(std::string_view field, std::string_view value, size_t min, size_t max,
                  bool single_line) {
  if (value.size() < min) {
    return Invalid(field, min == 1 ? "must not be empty"
                                   : "must be at least " + std::to_string(min) + " bytes");
  }
  if (value.size() > max) {
    return Invalid(field, "is " + std::to_string(value.size()) + " bytes; the limit is " +
                              std::to_string(max));
  }
  for (size_t i = 0; i < value.size();) {
    uint32_t cp = 0;
    const size_t len = DecodeUtf8(value, i, &cp);
    if (len == 0) return Invalid(field, "is not valid UTF-8 (byte " + std::to_string(i) + ")");
    const bool control = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
    if (control) {
      const bool allowed = !single_line && (cp == '\t' || cp == '\n' || cp == '\r');
      if (!allowed) {
        return Invalid(field, single_line ? "must be a single line without control characters"
                                          : "contains a control character");
      }
    }
    i += len;
  }
  return Status::OK();
}

Status CheckParameters(std::string_view field, const std::map<std::string, std::string>& params) {
  for (const auto& [k, v] : params) {
    ICS_RETURN_IF_ERROR(CheckField(std::string(field) + " key", k, 1, kMaxNameBytes, true));
    ICS_RETURN_IF_ERROR(
        CheckField(std::string(field) + " value of '" + k + "'", v, 0, kMaxParamValueBytes, false));
  }
  return Status::OK();
}

Status CheckColumns(std::string_view field, std::vector<hive::FieldSchema>* cols) {
  for (hive::FieldSchema& c : *cols) {
    ICS_ASSIGN_OR_RETURN(c.name, NormalizeColumn(c.name));
    const std::string what = std::string(field) + " '" + c.name + "'";
    ICS_RETURN_IF_ERROR(CheckField(what + " type", c.type, 1, kMaxColumnTypeBytes, true));
    Result<impala::TColumnType> type = ParseHiveType(c.type);
    if (!type.ok()) return type.status().WithContext(what);
    ICS_RETURN_IF_ERROR(CheckField(what + " comment", c.comment, 0, kMaxColumnCommentBytes, true));
  }
  return Status::OK();
}

Status CheckStorageDescriptor(hive::StorageDescriptor* sd) {
  ICS_RETURN_IF_ERROR(CheckColumns("column", &sd->cols));
  ICS_RETURN_IF_ERROR(CheckField("Location", sd->location, 0, kMaxLocationBytes, false));
  ICS_RETURN_IF_ERROR(CheckField("InputFormat", sd->inputFormat, 0, kMaxFormatBytes, true));
  ICS_RETURN_IF_ERROR(CheckField("OutputFormat", sd->outputFormat, 0, kMaxFormatBytes, true));
  ICS_RETURN_IF_ERROR(CheckField("SerDe name", sd->serdeInfo.name, 0, kMaxNameBytes, true));
  ICS_RETURN_IF_ERROR(
      CheckField("SerializationLibrary", sd->serdeInfo.serializationLib, 0, kMaxNameBytes, true));
  ICS_RETURN_IF_ERROR(CheckParameters("SerDe parameter", sd->serdeInfo.parameters));
  ICS_RETURN_IF_ERROR(CheckParameters("storage parameter", sd->parameters));
  if (sd->numBuckets < -1) {
    return Status::InvalidArgument("NumberOfBuckets must be >= -1, got " +
                                   std::to_string(sd->numBuckets));
  }
  for (std::string& b : sd->bucketCols) {
    ICS_ASSIGN_OR_RETURN(b, NormalizeColumn(b));
  }
  for (hive::Order& o : sd->sortCols) {
    ICS_ASSIGN_OR_RETURN(o.col, NormalizeColumn(o.col));
    if (o.order != 0 && o.order != 1) {
      return Status::InvalidArgument("SortOrder of column '" + o.col + "' must be 0 or 1, got " +
                                     std::to_string(o.order));
    }
  }
  return Status::OK();
}

Result<int64_t> ParseVersionId(std::string_view id) {
  ICS_RETURN_IF_ERROR(CheckField("VersionId", id, 1, kMaxNameBytes, true));
  int64_t v = 0;
  for (char c : id) {
    if (c < '0' || c > '9' || v > (INT64_MAX - 9) / 10) {
      return Status::InvalidArgument("VersionId '" + std::string(id.substr(0, 64)) +
                                     "' is not a positive integer");
    }
    v = v * 10 + (c - '0');
  }
  if (v <= 0)
    return Status::InvalidArgument("VersionId must be positive, got '" + std::string(id) + "'");
  return v;
}

Result<int> CheckMaxResults(bool is_set, int32_t value, int max, int default_value) {
  if (!is_set) return default_value;
  if (value < 1 || value > max) {
    return Status::InvalidArgument("MaxResults must be between 1 and " + std::to_string(max) +
                                   ", got " + std::to_string(value));
  }
  return static_cast<int>(value);
}

Status CheckListSize(std::string_view field, size_t size, size_t max) {
  if (size > max) {
    return Status::LimitExceeded(std::string(field) + " holds " + std::to_string(size) +
                                 " items; at most " + std::to_string(max) + " per call");
  }
  return Status::OK();
}

// ---- NamePattern ----

Result<NamePattern> NamePattern::Parse(std::string_view expression) {
  ICS_RETURN_IF_ERROR(CheckField("Expression", expression, 0, kMaxExpressionBytes, true));
  NamePattern p;
  std::string cur;
  for (size_t i = 0; i <= expression.size(); ++i) {
    if (i == expression.size() || expression[i] == '|') {
      p.alternatives_.push_back(std::move(cur));
      cur.clear();
      continue;
    }
    const char c = expression[i];
    if (c == '.' && i + 1 < expression.size() && expression[i + 1] == '*') {
      cur.push_back('\0');
      ++i;
    } else if (c == '*') {
      cur.push_back('\0');
    } else if (c == '.') {
      cur.push_back('\1');
    } else {
      cur.push_back(Lower(c));
    }
  }
  return p;
}

bool NamePattern::Matches(std::string_view name) const {
  for (const std::string& pat : alternatives_) {
    // Wildcard matching that remembers only the last '*': O(|name|*|pat|).
    size_t n = 0, p = 0, star = std::string::npos, mark = 0;
    bool ok = true;
    while (n < name.size()) {
      if (p < pat.size() && pat[p] != '\0' && (pat[p] == '\1' || pat[p] == Lower(name[n]))) {
        ++n, ++p;
      } else if (p < pat.size() && pat[p] == '\0') {
        star = p++;
        mark = n;
      } else if (star != std::string::npos) {
        p = star + 1;
        n = ++mark;
      } else {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    while (p < pat.size() && pat[p] == '\0') ++p;
    if (p == pat.size()) return true;
  }
  return false;
}

}  // namespace ics::catalog::ops
