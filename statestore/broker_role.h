// BrokerRole: the broker's two high-availability roles and what follows
// from them for updates and publications.
//
//  * statestored HA: whether this statestore is the active one, and the
//    activation (active_statestored_version) it announces. A standby sends
//    no updates, designates no catalogd and takes no pushed publications.
//    A statestore that just became active holds back updates to
//    non-catalogd subscribers while the catalog topic is still empty, for
//    at most kTakeoverHoldMs, so coordinators do not take an empty topic for
//    the catalog.
//  * catalogd HA: the designation of the active catalogd, by the rules of
//    CatalogdHa (catalogd_ha.h), which this class owns and exposes for the
//    candidate bookkeeping (catalogd()). Only the designated catalogd writes
//    the catalog topic.
//  * Announcements: whether a subscriber still has to hear of this
//    statestore's activation (UpdateStatestoredRole) or of the designation
//    (UpdateCatalogd), from what it was last told (SubscriberRecord).
//  * The latest activation a subscriber said it heard of when it skipped
//    an update of ours as stale (TUpdateStateResponse field 100), for
//    StatestoreHa to act on.
//
// Owns: the CatalogdHa, the role flag, the activation, the hold deadline
// and the newer activation heard.
//
// Thread-safety: none of its own. Its owner (Statestore::Impl) keeps it as
// a member guarded by the broker lock, so every call holds that lock. It
// takes no lock, makes no RPC and schedules nothing: the owner acts on
// what it answers.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "statestore/catalogd_ha.h"
#include "statestore/subscriber_record.h"
#include "statestore/topic.h"

namespace ics::statestore {

// How long a statestore that just became active holds back updates to
// non-catalogd subscribers while the catalog topic is empty.
inline constexpr int kTakeoverHoldMs = 2000;

class BrokerRole {
 public:
  // `start_as_standby` (statestored HA): starts as the standby and sends
  // activations with its updates. Without it the statestore is active from
  // the start, its designations continuing above those it made before a
  // restart (`wall_clock_ms`, the activation).
  BrokerRole(CatalogdHaOptions catalogd_ha, bool start_as_standby, int64_t wall_clock_ms);

  bool active() const { return active_; }
  int64_t active_version() const { return active_version_; }
  // The activation an update carries (0 without statestored HA).
  int64_t activation_for_updates() const { return start_as_standby_ ? active_version_ : 0; }

  // The designated catalogd as the statestore reports it: none while it is
  // the standby.
  std::optional<ActiveCatalogd> reported_catalogd() const;
  CatalogdHa& catalogd() { return catalogd_; }
  const CatalogdHa& catalogd() const { return catalogd_; }

  enum class Change { kNone, kStandby, kActive };
  // The statestored HA role (Statestore::SetActive): what changed. On
  // kActive the owner announces it to every subscriber and re-applies the
  // designation rules.
  Change SetActive(bool active, int64_t version, SteadyTime now);

  // Re-applies the catalogd HA rules (nothing for a standby); true on a new
  // designation.
  bool EvaluateDesignation(SteadyTime now);
  // Whether the first designation still waits (catalogd HA on, none yet).
  bool AwaitsFirstDesignation() const { return catalogd_.enabled() && !catalogd_.active(); }

  // Whether `sub` may publish to `topic`: with catalogd HA on, only the
  // designated catalogd writes the catalog topic.
  bool MayPublish(const SubscriberRecord& sub, const std::string& topic) const;
  // Whether `sub` is in the takeover hold: this statestore took over less
  // than kTakeoverHoldMs ago and `sub` is not a catalogd. Its updates wait
  // while the catalog topic is empty (catalogd's first reply fills it).
  bool InTakeoverHold(const SubscriberRecord& sub, SteadyTime now) const;

  // Whether `sub` has yet to hear of this activation / of the designation.
  bool NeedsRoleUpdate(const SubscriberRecord& sub) const;
  bool NeedsCatalogdUpdate(const SubscriberRecord& sub) const;

  void NoteNewerActivation(int64_t version);
  int64_t newer_activation_heard() const { return newer_activation_heard_; }

 private:
  const bool start_as_standby_;
  CatalogdHa catalogd_;
  bool active_;
  int64_t active_version_ = 0;
  int64_t newer_activation_heard_ = 0;
  SteadyTime hold_until_;
};

}  // namespace ics::statestore
