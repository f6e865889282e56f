// HmsCore: the Hive Metastore API over the catalog, one part per concept
// (hms_part.h): what the HMS handler (hms_handler.h) serves.
//
// Thread-safety: thread-safe (its parts are).
#pragma once

#include <utility>

#include "catalogd/hms/hms_config.h"
#include "catalogd/hms/hms_functions.h"
#include "catalogd/hms/hms_notifications.h"
#include "catalogd/hms/hms_objects.h"
#include "catalogd/hms/hms_part.h"
#include "catalogd/hms/hms_partitions.h"
#include "catalogd/hms/hms_statistics.h"

namespace ics::catalog::hms {

class HmsCore {
 public:
  // Reads through `reads`; `commands` carries out every change (both
  // required, both outlive the HmsCore).
  HmsCore(ops::CatalogQueries* reads, ops::CommandCore* commands, HmsCoreOptions options)
      : opts_(std::move(options)),
        commands_(commands),
        config_(reads, commands, &opts_),
        objects_(reads, commands, &opts_),
        partitions_(reads, commands, &opts_),
        statistics_(reads, commands, &opts_),
        functions_(reads, commands, &opts_),
        notifications_(reads, commands, &opts_) {}

  const HmsCoreOptions& options() const { return opts_; }
  // The command core this door's changes go through.
  ops::CommandCore* commands() const { return commands_; }

  HmsConfig& config() { return config_; }
  HmsObjects& objects() { return objects_; }
  HmsPartitions& partitions() { return partitions_; }
  HmsStatistics& statistics() { return statistics_; }
  HmsFunctions& functions() { return functions_; }
  HmsNotifications& notifications() { return notifications_; }

 private:
  const HmsCoreOptions opts_;  // before the parts, which refer to it
  ops::CommandCore* const commands_;
  HmsConfig config_;
  HmsObjects objects_;
  HmsPartitions partitions_;
  HmsStatistics statistics_;
  HmsFunctions functions_;
  HmsNotifications notifications_;
};

}  // namespace ics::catalog::hms
