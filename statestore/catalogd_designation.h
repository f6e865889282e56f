// The active catalogd as a subscriber learns it (catalogd high availability).
//
// The statestore designates one of the HA catalogds as active and announces
// it, with a designation version that grows with every change, in the
// RegisterSubscriber reply and in UpdateCatalogd / UpdateStatestoredRole
// requests. CatalogdDesignationTracker keeps the newest valid announcement:
// an older or repeated version is ignored (requests can arrive out of
// order). Versions grow across statestore restarts and across the
// statestored HA pair (catalogd_ha.h), so they are compared whichever
// statestore made them.
//
// Thread-safety: not thread-safe; the owner serialises calls.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "StatestoreService_types.h"
#include "common/util/result.h"

namespace ics::statestore {

struct CatalogdDesignation {
  int64_t version = 0;
  impala::TCatalogRegistration registration;
  // The statestore that announced it; "" when unknown.
  std::string statestore_id;
  // host:port of the active catalogd's CatalogService.
  std::string address() const;
};

// OK if `reg` names a usable CatalogService address: a host name of 1..255
// bytes and a port in 1..65535; INVALID_ARGUMENT otherwise.
[[nodiscard]] Status ValidateCatalogdRegistration(const impala::TCatalogRegistration& reg);

class CatalogdDesignationTracker {
 public:
  // Takes in an announcement. Returns true if it is newer than the one
  // followed (it is now current), false if it is not (ignored), and
  // INVALID_ARGUMENT for a version < 1 or an unusable address.
  Result<bool> Observe(int64_t version, const impala::TCatalogRegistration& reg);
  const std::optional<CatalogdDesignation>& current() const { return current_; }

 private:
  std::optional<CatalogdDesignation> current_;
  int64_t version_floor_ = 0;  // versions <= this are not newer
};

}  // namespace ics::statestore
