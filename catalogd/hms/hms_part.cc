// What the parts of the HMS API share: request bounds and name patterns.
#include <algorithm>

#include "catalogd/hms/hms_part.h"
#include "catalogd/hms/hms_part_internal.h"

namespace ics::catalog::hms {

Status CheckCount(size_t n, int max, const std::string& what) {
  if (n <= static_cast<size_t>(std::max(max, 0))) return Status::OK();
  return Status::LimitExceeded(what + ": " + std::to_string(n) + " exceeds the limit of " +
                               std::to_string(max) + " per request");
}

Result<CatalogDbName> ParseCatalogDbName(const std::string& name,
                                         const std::string& default_catalog) {
  if (name.empty() || name[0] != '@') return CatalogDbName{default_catalog, name};
  const size_t sep = name.find('#');
  if (sep == std::string::npos || sep == 1) {
    return Status::InvalidArgument("'" + name +
                                   "' starts with the catalog marker '@' but names no catalog "
                                   "(expected @<catalog>#<database>)");
  }
  CatalogDbName out;
  out.catalog = AsciiLower(name.substr(1, sep - 1));
  const std::string db = name.substr(sep + 1);
  if (db == "!") {
    out.db = "";
  } else if (!db.empty()) {
    out.db = db;
  }
  return out;
}

Status HmsPart::CheckCatalog(const std::string& catalog) const {
  if (catalog.empty() || AsciiLower(catalog) == opts_.catalog_name) return Status::OK();
  return Status::NotFound("No such catalog " + catalog + " (this metastore serves catalog " +
                          opts_.catalog_name + ")");
}

Result<std::string> HmsPart::Db(const std::string& name) const {
  ICS_ASSIGN_OR_RETURN(CatalogDbName n, ParseCatalogDbName(name, opts_.catalog_name));
  ICS_RETURN_IF_ERROR(CheckCatalog(n.catalog));
  if (!n.db.has_value()) return Status::InvalidArgument("'" + name + "' names no database");
  return *n.db;
}

Result<std::string> HmsPart::DbPattern(const std::string& pattern) const {
  ICS_ASSIGN_OR_RETURN(CatalogDbName n, ParseCatalogDbName(pattern, opts_.catalog_name));
  ICS_RETURN_IF_ERROR(CheckCatalog(n.catalog));
  return n.db.value_or("");
}

bool MatchesHmsPattern(const std::string& pattern, const std::string& name) {
  if (pattern.empty()) return true;
  const std::string n = AsciiLower(name);
  size_t start = 0;
  while (start <= pattern.size()) {
    size_t bar = pattern.find('|', start);
    if (bar == std::string::npos) bar = pattern.size();
    const std::string alt = AsciiLower(pattern.substr(start, bar - start));
    // Glob match of alt against n: '*' only; linear-time two-pointer walk.
    size_t p = 0, s = 0, star = std::string::npos, mark = 0;
    bool ok = true;
    while (s < n.size()) {
      if (p < alt.size() && alt[p] == '*') {
        star = p++;
        mark = s;
      } else if (p < alt.size() && alt[p] == n[s]) {
        ++p;
        ++s;
      } else if (star != std::string::npos) {
        p = star + 1;
        s = ++mark;
      } else {
        ok = false;
        break;
      }
    }
    while (ok && p < alt.size() && alt[p] == '*') ++p;
    if (ok && p == alt.size()) return true;
    start = bar + 1;
  }
  return false;
}

}  // namespace ics::catalog::hms
