// HmsNotifications: the notification log.
#include "catalogd/hms/hms_notifications.h"

#include <algorithm>

#include "catalogd/hms/hms_part_internal.h"
#include "catalogd/ops/catalog_queries.h"

namespace ics::catalog::hms {

Result<std::vector<hive::NotificationEvent>> HmsNotifications::GetNextNotifications(
    const hive::NotificationEventRequest& req) {
  if (req.lastEvent < 0) {
    return Status::InvalidArgument("lastEvent must not be negative (got " +
                                   std::to_string(req.lastEvent) + ")");
  }
  const int cap = std::max(1, opts_.max_notification_events);
  const int max_events = req.__isset.maxEvents ? req.maxEvents : 0;
  const int n = max_events <= 0 ? cap : std::min(max_events, cap);
  // Events of another catalog: this endpoint keeps none.
  if (req.__isset.catName && !CheckCatalog(req.catName).ok()) {
    return std::vector<hive::NotificationEvent>{};
  }
  NotificationFilter filter;
  auto bounded = [](const std::vector<std::string>& list, const char* what) -> Status {
    if (list.size() <= kMaxNotificationFilterNames) return Status::OK();
    return Status::InvalidArgument(std::string(what) + " has " + std::to_string(list.size()) +
                                   " entries; at most " +
                                   std::to_string(kMaxNotificationFilterNames));
  };
  if (req.__isset.eventTypeSkipList) {
    ICS_RETURN_IF_ERROR(bounded(req.eventTypeSkipList, "eventTypeSkipList"));
    // Event types are upper-case words (CREATE_TABLE, ...), compared as sent.
    filter.skip_types = req.eventTypeSkipList;
  }
  if (req.__isset.dbName && !req.dbName.empty()) {
    ICS_ASSIGN_OR_RETURN(std::string db, Db(req.dbName));
    filter.db = AsciiLower(db);
    if (req.__isset.tableNames) {
      ICS_RETURN_IF_ERROR(bounded(req.tableNames, "tableNames"));
      for (const std::string& t : req.tableNames) filter.tables.push_back(AsciiLower(t));
    }
  }
  return reads_->NextNotifications(HmsCaller(), req.lastEvent, n, filter);
}

Result<int64_t> HmsNotifications::CurrentNotificationEventId() {
  return reads_->CurrentNotificationEventId(HmsCaller());
}

}  // namespace ics::catalog::hms
