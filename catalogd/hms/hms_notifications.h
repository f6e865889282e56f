// HmsNotifications: the notification log as Hive clients read it
// (get_next_notification, get_current_notificationEventId), bounded by
// max_notification_events per call.
//
// Thread-safety: thread-safe (the core it uses is).
#pragma once

#include <cstdint>
#include <vector>

#include "catalogd/hms/hms_part.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

class HmsNotifications : public HmsPart {
 public:
  using HmsPart::HmsPart;

  // get_next_notification: at most maxEvents (capped) events after
  // lastEvent, with the request's filters (Hive 4): eventTypeSkipList,
  // catName (events of another catalog: none), dbName and tableNames
  // (case-insensitive). maxEvents counts matching events. INVALID_ARGUMENT
  // for a negative lastEvent or a list longer than
  // kMaxNotificationFilterNames.
  Result<std::vector<hive::NotificationEvent>> GetNextNotifications(
      const hive::NotificationEventRequest& req);
  Result<int64_t> CurrentNotificationEventId();
};

}  // namespace ics::catalog::hms
