// StatestoreSubscriber, catalogd HA: the UpdateCatalogd and
// UpdateStatestoredRole handlers and the designation they hand to the owner
// (statestore/subscriber.h). The registration reply's designation is taken
// in by Register() (subscriber.cc) through the same ObserveCatalogdLocked.
#include <glog/logging.h>

#include "common/rpc/status_convert.h"
#include "common/util/unique_id.h"
#include "statestore/subscriber.h"

namespace ics::statestore {

using impala::TUniqueId;

Status StatestoreSubscriber::CheckAnnouncementIds(const char* rpc, const TUniqueId& registration_id,
                                                  const TUniqueId& statestore_id) {
  MutexLock l(&mu_);
  return CheckRequestIds(rpc, &registration_id, &statestore_id);
}

Status StatestoreSubscriber::ObserveCatalogdLocked(int64_t version,
                                                   const impala::TCatalogRegistration& reg) {
  ICS_ASSIGN_OR_RETURN(bool newer, catalogd_.Observe(version, reg));
  if (!newer) return Status::OK();
  CatalogdDesignation d = *catalogd_.current();
  {
    MutexLock l(&mu_);
    if (statestore_id_) d.statestore_id = PrintId(*statestore_id_);
  }
  LOG(INFO) << options_.subscriber_id << ": active catalogd is " << d.address() << " (designation "
            << d.version << ")";
  if (options_.on_catalogd_change) options_.on_catalogd_change(d);
  return Status::OK();
}

void StatestoreSubscriber::UpdateCatalogd(const impala::TUpdateCatalogdRequest& req,
                                          impala::TUpdateCatalogdResponse* resp) {
  MutexLock cl(&catalogd_mu_);
  Status s = CheckAnnouncementIds("UpdateCatalogd", req.registration_id, req.statestore_id);
  if (!s.ok()) {
    resp->__set_skipped(true);
  } else if (options_.subscribe_catalogd_change) {
    s = ObserveCatalogdLocked(req.catalogd_version, req.catalogd_registration);
  }
  resp->status = ToTStatus(s);
}

void StatestoreSubscriber::UpdateStatestoredRole(const impala::TUpdateStatestoredRoleRequest& req,
                                                 impala::TUpdateStatestoredRoleResponse* resp) {
  MutexLock cl(&catalogd_mu_);
  Status s = CheckAnnouncementIds("UpdateStatestoredRole", req.registration_id, req.statestore_id);
  if (s.ok()) {
    statestore_activation_ = req.is_active ? req.active_statestored_version : 0;
    if (req.is_active && options_.activations != nullptr) {
      options_.activations->Observe(req.active_statestored_version);
    }
  }
  if (!s.ok()) {
    resp->__set_skipped(true);
  } else if (options_.subscribe_catalogd_change && req.__isset.catalogd_version &&
             req.__isset.catalogd_registration) {
    // Only the designation is taken in: this subscriber talks to one
    // statestore, so the statestore's own role changes nothing here.
    s = ObserveCatalogdLocked(req.catalogd_version, req.catalogd_registration);
  }
  resp->status = ToTStatus(s);
}

std::optional<CatalogdDesignation> StatestoreSubscriber::active_catalogd() const {
  MutexLock cl(&catalogd_mu_);
  return catalogd_.current();
}

}  // namespace ics::statestore
