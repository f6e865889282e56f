#include "statestore/catalogd_designation.h"

namespace ics::statestore {

namespace {
constexpr size_t kMaxHostBytes = 255;
}  // namespace

std::string CatalogdDesignation::address() const {
  return registration.address.hostname + ":" + std::to_string(registration.address.port);
}

Status ValidateCatalogdRegistration(const impala::TCatalogRegistration& reg) {
  const auto& a = reg.address;
  if (a.hostname.empty() || a.hostname.size() > kMaxHostBytes) {
    return Status::InvalidArgument("catalogd registration has a host name of " +
                                   std::to_string(a.hostname.size()) + " bytes (1.." +
                                   std::to_string(kMaxHostBytes) + " allowed)");
  }
  if (a.port <= 0 || a.port > 65535) {
    return Status::InvalidArgument("catalogd registration has invalid port " +
                                   std::to_string(a.port));
  }
  return Status::OK();
}

Result<bool> CatalogdDesignationTracker::Observe(int64_t version,
                                                 const impala::TCatalogRegistration& reg) {
  if (version < 1) {
    return Status::InvalidArgument("catalogd designation version " + std::to_string(version) +
                                   " (must be >= 1)");
  }
  ICS_RETURN_IF_ERROR(ValidateCatalogdRegistration(reg));
  if (version <= version_floor_) return false;
  version_floor_ = version;
  current_ = CatalogdDesignation{version, reg, ""};
  return true;
}

}  // namespace ics::statestore
