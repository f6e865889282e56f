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

  Result<std::vector<hive::NotificationEvent>> GetNextNotifications(int64_t last_event,
                                                                    int max_events);
  Result<int64_t> CurrentNotificationEventId();
};

}  // namespace ics::catalog::hms
