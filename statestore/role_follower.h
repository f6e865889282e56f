// RoleFollower: what a subscriber's statestore announces about the HA roles,
// as the subscriber follows it.
//
//  * catalogd HA (with subscribe_catalogd_change): the designated active
//    catalogd, announced in the registration reply and by UpdateCatalogd
//    and UpdateStatestoredRole, kept by a CatalogdDesignationTracker (the
//    newest version wins). Each newer designation is handed to
//    on_catalogd_change, one call at a time, in version order.
//  * statestored HA: the activation of this subscriber's statestore
//    (statestore_activation(); 0 while it is a standby or said nothing), as
//    its registration reply, UpdateStatestoredRole and its updates announce
//    it, also reported to the daemon's shared StatestoreActivations.
//
// An announcement is taken only when its ids are those of the current
// registration (SubscriberSession::CheckRequestIds); one from another
// statestore drops the registration.
//
// Owns: the tracker, the activation and the lock that serialises
// announcements and on_catalogd_change calls.
//
// Thread-safety: thread-safe. Lock order: RoleFollower's lock ->
// SubscriberSession's lock. on_catalogd_change runs with RoleFollower's lock
// held (not the session's). The end of a registration runs under
// RoleFollower's lock too (OnRegistrationEnd), so that no announcement
// interleaves between the registration and its reply's designation and
// activation.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

#include "StatestoreService_types.h"
#include "common/util/mutex.h"
#include "common/util/status.h"
#include "statestore/catalogd_designation.h"
#include "statestore/subscriber_options.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {

class RoleFollower {
 public:
  // `options` and `session` must outlive the follower.
  RoleFollower(const StatestoreSubscriberOptions* options, SubscriberSession* session)
      : options_(*options), session_(session) {}

  // The RPC handlers.
  void UpdateCatalogd(const impala::TUpdateCatalogdRequest& req,
                      impala::TUpdateCatalogdResponse* resp) EXCLUDES(mu_);
  void UpdateStatestoredRole(const impala::TUpdateStatestoredRoleRequest& req,
                             impala::TUpdateStatestoredRoleResponse* resp) EXCLUDES(mu_);

  // A RegisterSubscriber call ended with `status`: runs `end_registration`
  // (which records it in the session) and, when OK, takes in the reply's
  // activation and designation, all under this follower's lock.
  void OnRegistrationEnd(const Status& status, const impala::TRegisterSubscriberResponse& resp,
                         const std::function<void()>& end_registration) EXCLUDES(mu_);

  // An update from our statestore carried its activation.
  void NoteUpdateActivation(int64_t version) { statestore_activation_ = version; }

  int64_t statestore_activation() const { return statestore_activation_.load(); }
  std::optional<CatalogdDesignation> active_catalogd() const EXCLUDES(mu_);

 private:
  // Takes in an announced designation and, if newer, tells the owner.
  [[nodiscard]] Status ObserveCatalogdLocked(int64_t version,
                                             const impala::TCatalogRegistration& reg) REQUIRES(mu_);
  // A statestore's announced role: `active` with `version`, or a standby.
  void SetActivation(bool active, int64_t version) REQUIRES(mu_);

  const StatestoreSubscriberOptions& options_;
  SubscriberSession* const session_;
  std::atomic<int64_t> statestore_activation_{0};

  // Serialises announcements and on_catalogd_change calls. Acquired before
  // the session's lock.
  mutable Mutex mu_ ACQUIRED_BEFORE(session_->mutex());
  CatalogdDesignationTracker catalogd_ GUARDED_BY(mu_);
};

}  // namespace ics::statestore
