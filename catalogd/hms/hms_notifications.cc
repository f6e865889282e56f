// HmsNotifications: the notification log.
#include "catalogd/hms/hms_notifications.h"

#include <algorithm>

#include "catalogd/hms/hms_part_internal.h"
#include "catalogd/ops/catalog_queries.h"

namespace ics::catalog::hms {

Result<std::vector<hive::NotificationEvent>> HmsNotifications::GetNextNotifications(
    int64_t last_event, int max_events) {
  if (last_event < 0) {
    return Status::InvalidArgument("lastEvent must not be negative (got " +
                                   std::to_string(last_event) + ")");
  }
  const int cap = std::max(1, opts_.max_notification_events);
  const int n = max_events <= 0 ? cap : std::min(max_events, cap);
  return reads_->NextNotifications(HmsCaller(), last_event, n);
}

Result<int64_t> HmsNotifications::CurrentNotificationEventId() {
  return reads_->CurrentNotificationEventId(HmsCaller());
}

}  // namespace ics::catalog::hms
