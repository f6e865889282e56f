// HmsCore: shared helpers, name patterns, configuration and the notification log.
#include <algorithm>

#include "catalogd/hms/hms_core.h"
#include "catalogd/hms/hms_core_internal.h"

namespace ics::catalog::hms {

Status CheckCount(size_t n, int max, const std::string& what) {
  if (n <= static_cast<size_t>(std::max(max, 0))) return Status::OK();
  return Status::LimitExceeded(what + ": " + std::to_string(n) + " exceeds the limit of " +
                               std::to_string(max) + " per request");
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

HmsCore::HmsCore(ops::CatalogQueries* reads, ops::CommandCore* commands, HmsCoreOptions options)
    : reads_(reads), commands_(commands), opts_(std::move(options)) {}

// ---- configuration ----

namespace {

// The keys getMetaConf / get_config_value answer.
constexpr const char* kSupportedConfKeys[] = {
    "hive.metastore.warehouse.dir",
    "hive.exec.default.partition.name",
    "hive.metastore.limit.partition.request",
    "hive.metastore.batch.retrieve.max",
};

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

Result<std::string> HmsCore::GetMetaConf(const std::string& key) const {
  if (key == "hive.metastore.warehouse.dir") return opts_.warehouse_dir;
  if (key == "hive.exec.default.partition.name") return std::string(kDefaultPartitionName);
  if (key == "hive.metastore.limit.partition.request") {
    return std::to_string(opts_.max_partitions_per_request);
  }
  if (key == "hive.metastore.batch.retrieve.max") {
    return std::to_string(opts_.max_objects_per_request);
  }
  std::string all;
  for (const char* k : kSupportedConfKeys) all += (all.empty() ? "" : ", ") + std::string(k);
  return Status::InvalidArgument("Invalid configuration key '" + key + "' (supported: " + all +
                                 ")");
}

Result<std::string> HmsCore::GetConfigValue(const std::string& name,
                                            const std::string& default_value) const {
  if (!StartsWith(name, "hive.") && !StartsWith(name, "mapred.") && !StartsWith(name, "hdfs.")) {
    return Status::InvalidArgument("For security reasons, the configuration key '" + name +
                                   "' cannot be read (only hive.*, mapred.* and hdfs.* keys)");
  }
  Result<std::string> v = GetMetaConf(name);
  if (v.ok()) return v;
  return default_value;
}

// ---- notification log ----

Result<std::vector<hive::NotificationEvent>> HmsCore::GetNextNotifications(int64_t last_event,
                                                                           int max_events) {
  if (last_event < 0) {
    return Status::InvalidArgument("lastEvent must not be negative (got " +
                                   std::to_string(last_event) + ")");
  }
  const int cap = std::max(1, opts_.max_notification_events);
  const int n = max_events <= 0 ? cap : std::min(max_events, cap);
  return reads_->NextNotifications(HmsCaller(), last_event, n);
}

Result<int64_t> HmsCore::CurrentNotificationEventId() {
  return reads_->CurrentNotificationEventId(HmsCaller());
}

}  // namespace ics::catalog::hms
