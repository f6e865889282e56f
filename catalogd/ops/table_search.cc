// TableCommands: SearchTables (free text, property filters, sort, paging).
#include <algorithm>
#include <cctype>
#include <functional>

#include "catalogd/ops/table_commands.h"
#include "catalogd/ops/table_limits.h"
#include "common/util/ascii.h"

namespace ics::catalog::ops {

namespace {

using C = PropertyComparator;

char LowerChar(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Splits at ASCII punctuation and whitespace (bytes >= 0x80 stay in tokens).
bool HasToken(std::string_view field, const std::string& want_lower) {
  size_t i = 0;
  while (i <= field.size()) {
    size_t j = i;
    while (j < field.size() && (static_cast<unsigned char>(field[j]) >= 0x80 ||
                                std::isalnum(static_cast<unsigned char>(field[j])))) {
      ++j;
    }
    if (j > i && AsciiLower(field.substr(i, j - i)) == want_lower) return true;
    i = j + 1;
  }
  return false;
}

enum class FieldKind { kString, kTime, kParameter };

struct Filter {
  std::string key;
  FieldKind kind = FieldKind::kParameter;
  std::string value;  // lower-cased for string fields
  int64_t time_value = 0;
  PropertyComparator comparator = C::kEquals;
};

std::string StringField(const TableVersionRecord& t, const std::string& key) {
  if (key == "Name") return t.table.tableName;
  if (key == "DatabaseName") return t.table.dbName;
  if (key == "Owner") return t.table.owner;
  if (key == "TableType") return t.table.tableType;
  auto it = t.table.parameters.find(kDescriptionParam);  // Description
  return it == t.table.parameters.end() ? "" : it->second;
}

int64_t TimeField(const TableVersionRecord& t, const std::string& key) {
  if (key == "CreateTime") return t.table.createTime;
  if (key == "LastAccessTime") return t.table.lastAccessTime;
  return t.valid_from_ms / 1000;  // UpdateTime
}

Result<Filter> ParseFilter(const PropertyFilter& p) {
  Filter f;
  ICS_RETURN_IF_ERROR(CheckField("filter Key", p.key, 1, kMaxNameBytes, true));
  ICS_RETURN_IF_ERROR(CheckField("filter Value", p.value, 0, kMaxParamValueBytes, false));
  f.key = p.key;
  f.comparator = p.comparator.value_or(C::kEquals);
  if (f.comparator < C::kEquals || f.comparator > C::kLessThanEquals) {
    return Status::InvalidArgument("filter on " + p.key + ": unknown comparator " +
                                   std::to_string(static_cast<int>(f.comparator)));
  }
  if (p.key == "CreateTime" || p.key == "UpdateTime" || p.key == "LastAccessTime") {
    f.kind = FieldKind::kTime;
    char* end = nullptr;
    errno = 0;
    f.time_value = std::strtoll(p.value.c_str(), &end, 10);
    if (p.value.empty() || *end != '\0' || errno != 0) {
      return Status::InvalidArgument("filter on " + p.key +
                                     ": value must be seconds since the epoch, got '" +
                                     p.value.substr(0, 64) + "'");
    }
    return f;
  }
  if (f.comparator != C::kEquals) {
    return Status::InvalidArgument("filter on " + p.key +
                                   ": comparators other than EQUALS apply to time fields only");
  }
  if (p.key == "Name" || p.key == "DatabaseName" || p.key == "Description" || p.key == "Owner" ||
      p.key == "TableType") {
    f.kind = FieldKind::kString;
    f.value = AsciiLower(p.value);
  } else {
    f.value = p.value;
  }
  return f;
}

bool Passes(const Filter& f, const TableVersionRecord& t) {
  switch (f.kind) {
    case FieldKind::kString:
      return HasToken(StringField(t, f.key), f.value);
    case FieldKind::kParameter: {
      auto it = t.table.parameters.find(f.key);
      return it != t.table.parameters.end() && it->second == f.value;
    }
    case FieldKind::kTime: {
      const int64_t v = TimeField(t, f.key);
      switch (f.comparator) {
        case C::kEquals:
          return v == f.time_value;
        case C::kGreaterThan:
          return v > f.time_value;
        case C::kLessThan:
          return v < f.time_value;
        case C::kGreaterThanEquals:
          return v >= f.time_value;
        case C::kLessThanEquals:
          return v <= f.time_value;
      }
      return false;
    }
  }
  return false;
}

// Free text: substring (or, quoted, equality) over names, the description,
// parameter keys and values and column names; case-insensitive.
class TextQuery {
 public:
  explicit TextQuery(const std::string& text) {
    exact_ = text.size() >= 2 && text.front() == '"' && text.back() == '"';
    needle_ = AsciiLower(exact_ ? text.substr(1, text.size() - 2) : text);
  }
  bool Matches(const TableVersionRecord& t) const {
    if (needle_.empty()) return true;
    const hive::Table& h = t.table;
    if (Hit(h.tableName) || Hit(h.dbName)) return true;
    for (const auto& [k, v] : h.parameters) {
      if (Hit(k) || Hit(v)) return true;
    }
    for (const auto& c : h.sd.cols) {
      if (Hit(c.name)) return true;
    }
    for (const auto& c : h.partitionKeys) {
      if (Hit(c.name)) return true;
    }
    return false;
  }

 private:
  // Case-insensitive, without copying the field (search runs over every table).
  bool Hit(const std::string& field) const {
    auto same = [](char a, char b) { return LowerChar(a) == b; };
    if (exact_) {
      return field.size() == needle_.size() &&
             std::equal(field.begin(), field.end(), needle_.begin(), same);
    }
    return std::search(field.begin(), field.end(), needle_.begin(), needle_.end(), same) !=
           field.end();
  }
  bool exact_ = false;
  std::string needle_;
};

using Less = std::function<bool(const TableVersionRecord&, const TableVersionRecord&)>;

Result<Less> SortOrder(const SearchTablesRequest& req) {
  auto by_name = [](const TableVersionRecord& a, const TableVersionRecord& b) {
    return std::tie(a.table.dbName, a.table.tableName) <
           std::tie(b.table.dbName, b.table.tableName);
  };
  if (req.sort_criteria.empty()) return Less(by_name);
  const SortCriterion& c = req.sort_criteria[0];
  ICS_RETURN_IF_ERROR(CheckField("sort FieldName", c.field_name, 1, kMaxSortFieldBytes, true));
  const bool desc = c.direction == SortDirection::kDescending;
  if (c.direction && *c.direction != SortDirection::kDescending &&
      *c.direction != SortDirection::kAscending) {
    return Status::InvalidArgument("Sort must be ASCENDING or DESCENDING");
  }
  const std::string f = c.field_name;
  std::function<int(const TableVersionRecord&, const TableVersionRecord&)> cmp;
  if (f == "Name" || f == "DatabaseName" || f == "Owner" || f == "TableType") {
    cmp = [f](const TableVersionRecord& a, const TableVersionRecord& b) {
      return StringField(a, f).compare(StringField(b, f));
    };
  } else if (f == "CreateTime" || f == "UpdateTime") {
    cmp = [f](const TableVersionRecord& a, const TableVersionRecord& b) {
      const int64_t x = f == "CreateTime" ? a.table.createTime : a.valid_from_ms;
      const int64_t y = f == "CreateTime" ? b.table.createTime : b.valid_from_ms;
      return x < y ? -1 : (x > y ? 1 : 0);
    };
  } else {
    return Status::InvalidArgument("cannot sort by '" + f.substr(0, 64) +
                                   "' (Name, DatabaseName, Owner, TableType, CreateTime, "
                                   "UpdateTime)");
  }
  return Less([cmp, desc, by_name](const TableVersionRecord& a, const TableVersionRecord& b) {
    const int r = cmp(a, b);
    if (r != 0) return desc ? r > 0 : r < 0;
    return by_name(a, b);
  });
}

}  // namespace

Result<TablePage> TableCommands::SearchTables(const Caller& caller,
                                              const SearchTablesRequest& req) {
  ICS_ASSIGN_OR_RETURN(int max,
                       CheckMaxResults(req.max_results.has_value(), req.max_results.value_or(0),
                                       kMaxSearchResults, 100));
  if (req.search_text) {
    ICS_RETURN_IF_ERROR(CheckField("SearchText", *req.search_text, 0, kMaxSearchTextBytes, false));
  }
  std::vector<Filter> filters;
  for (const PropertyFilter& p : req.filters) {
    ICS_ASSIGN_OR_RETURN(Filter f, ParseFilter(p));
    filters.push_back(std::move(f));
  }
  ICS_RETURN_IF_ERROR(CheckListSize("SortCriteria", req.sort_criteria.size(), kMaxSortCriteria));
  ICS_ASSIGN_OR_RETURN(Less less, SortOrder(req));
  size_t offset = 0;
  if (req.next_token) {
    const std::string& tok = *req.next_token;
    bool ok = !tok.empty() && tok.size() <= 18;
    for (char c : tok) ok = ok && c >= '0' && c <= '9';
    if (!ok) return Status::InvalidArgument("invalid NextToken '" + tok.substr(0, 64) + "'");
    offset = std::stoull(tok);
  }
  if (req.resource_share_type && *req.resource_share_type != ResourceShareType::kAll &&
      *req.resource_share_type != ResourceShareType::kForeign) {
    return Status::InvalidArgument("ResourceShareType must be ALL or FOREIGN");
  }
  TablePage page;
  // This catalog has no tables shared from other catalogs.
  if (req.resource_share_type == ResourceShareType::kForeign) return page;

  const TextQuery text(req.search_text.value_or(""));
  std::vector<TableInfoPtr> hits;
  std::vector<std::pair<std::string, std::string>> live;
  for (const std::string& db : ctx_->catalog->DatabaseNames()) {
    for (const TablePtr& t : ctx_->catalog->TablesOf(db)) {
      live.emplace_back(t->db, t->name);
      Result<TableInfoPtr> info = directory_.Get(caller, *t);
      if (!info.ok()) {
        if (info.status().Is(ErrorCode::kNotFound)) continue;  // dropped meanwhile
        return info.status();
      }
      const TableVersionRecord& ti = **info;
      if (!text.Matches(ti)) continue;
      bool pass = true;
      for (const Filter& f : filters) pass = pass && Passes(f, ti);
      if (pass) hits.push_back(*info);
    }
  }
  std::sort(live.begin(), live.end());
  directory_.Prune(live);
  std::sort(hits.begin(), hits.end(),
            [&less](const TableInfoPtr& a, const TableInfoPtr& b) { return less(*a, *b); });
  for (size_t i = offset; i < hits.size() && page.tables.size() < static_cast<size_t>(max); ++i) {
    page.tables.push_back(*hits[i]);
  }
  if (offset + page.tables.size() < hits.size()) {
    page.next_token = std::to_string(offset + page.tables.size());
  }
  return page;
}

}  // namespace ics::catalog::ops
