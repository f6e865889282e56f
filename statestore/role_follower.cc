#include "statestore/role_follower.h"

#include <glog/logging.h>

#include "common/rpc/status_convert.h"
#include "common/util/unique_id.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {

void RoleFollower::SetActivation(bool active, int64_t version) {
  statestore_activation_ = active ? version : 0;
  if (active && options_.activations != nullptr) options_.activations->Observe(version);
}

void RoleFollower::OnRegistrationEnd(const Status& status,
                                     const impala::TRegisterSubscriberResponse& resp,
                                     const std::function<void()>& end_registration) {
  MutexLock l(&mu_);
  end_registration();
  if (!status.ok()) return;
  SetActivation(resp.__isset.statestore_is_active && resp.statestore_is_active &&
                    resp.__isset.active_statestored_version,
                resp.active_statestored_version);
  if (options_.subscribe_catalogd_change && resp.__isset.catalogd_registration &&
      resp.__isset.catalogd_version) {
    Status observed = ObserveCatalogdLocked(resp.catalogd_version, resp.catalogd_registration);
    if (!observed.ok()) {
      LOG(WARNING) << options_.subscriber_id
                   << ": ignoring the registration reply's catalogd: " << observed.ToString();
    }
  }
}

Status RoleFollower::ObserveCatalogdLocked(int64_t version,
                                           const impala::TCatalogRegistration& reg) {
  ICS_ASSIGN_OR_RETURN(bool newer, catalogd_.Observe(version, reg));
  if (!newer) return Status::OK();
  CatalogdDesignation d = *catalogd_.current();
  if (auto statestore_id = session_->statestore_id()) d.statestore_id = PrintId(*statestore_id);
  LOG(INFO) << options_.subscriber_id << ": active catalogd is " << d.address() << " (designation "
            << d.version << ")";
  if (options_.on_catalogd_change) options_.on_catalogd_change(d);
  return Status::OK();
}

void RoleFollower::UpdateCatalogd(const impala::TUpdateCatalogdRequest& req,
                                  impala::TUpdateCatalogdResponse* resp) {
  MutexLock l(&mu_);
  Status s = session_->CheckRequestIds("UpdateCatalogd", &req.registration_id, &req.statestore_id);
  if (!s.ok()) {
    resp->__set_skipped(true);
  } else if (options_.subscribe_catalogd_change) {
    s = ObserveCatalogdLocked(req.catalogd_version, req.catalogd_registration);
  }
  resp->status = ToTStatus(s);
}

void RoleFollower::UpdateStatestoredRole(const impala::TUpdateStatestoredRoleRequest& req,
                                         impala::TUpdateStatestoredRoleResponse* resp) {
  MutexLock l(&mu_);
  Status s =
      session_->CheckRequestIds("UpdateStatestoredRole", &req.registration_id, &req.statestore_id);
  if (!s.ok()) {
    resp->__set_skipped(true);
  } else {
    SetActivation(req.is_active, req.active_statestored_version);
    if (options_.subscribe_catalogd_change && req.__isset.catalogd_version &&
        req.__isset.catalogd_registration) {
      // Only the designation is taken in: this subscriber talks to one
      // statestore, so the statestore's own role changes nothing here.
      s = ObserveCatalogdLocked(req.catalogd_version, req.catalogd_registration);
    }
  }
  resp->status = ToTStatus(s);
}

std::optional<CatalogdDesignation> RoleFollower::active_catalogd() const {
  MutexLock l(&mu_);
  return catalogd_.current();
}

}  // namespace ics::statestore
