#include "catalogd/hms/hms_filter.h"

#include <optional>
#include <utility>

#include "common/sql/filter_binder.h"
#include "common/util/ascii.h"

namespace ics::catalog::hms {

namespace {

bool IsIntegerType(const std::string& hive_type) {
  const std::string t = AsciiLower(hive_type);
  return t == "tinyint" || t == "smallint" || t == "int" || t == "integer" || t == "bigint";
}

}  // namespace

Result<HmsPartitionFilter> HmsPartitionFilter::Parse(std::string_view text,
                                                     const std::vector<hive::FieldSchema>& keys) {
  // The Hive Metastore compares integer-typed keys as numbers and every
  // other key as text.
  std::vector<sql::FilterKey> filter_keys;
  filter_keys.reserve(keys.size());
  for (const hive::FieldSchema& k : keys) {
    filter_keys.push_back({k.name, IsIntegerType(k.type) ? KeyKind::kInt : KeyKind::kString});
  }
  ICS_ASSIGN_OR_RETURN(sql::Predicate p,
                       sql::CompileFilter(text, sql::HmsFilterDialect(), filter_keys));
  return HmsPartitionFilter(std::move(p), keys.size());
}

bool HmsPartitionFilter::Matches(const std::vector<std::string>& values) const {
  if (values.size() != num_keys_) return false;
  if (predicate_.matches_all()) return true;
  std::vector<HiveValue> text(values.size());
  for (size_t k : predicate_.referenced_keys()) text[k] = HiveValue::String(values[k]);
  return predicate_.Matches(text);
}

Result<bool> HmsLikeMatches(std::string_view pattern, std::string_view value) {
  if (std::optional<sql::PatternProblem> p = sql::CheckRegexSubset(pattern)) {
    return sql::FilterErrorAt(sql::HmsFilterDialect(), p->offset, p->message);
  }
  return sql::RegexSubsetMatches(value, pattern);
}

}  // namespace ics::catalog::hms
