// CatalogdHa: the statestore's choice of the active catalogd (catalogd high
// availability, Impala's protocol).
//
// Candidates are CATALOGD registrations whose catalogd_registration has
// enable_catalogd_ha. Exactly one candidate is designated active at a time.
//
// Designation versions (catalogd_version on the wire) grow across restarts
// and across the statestored HA pair, so subscribers and catalogd take the
// newest one whichever statestore announced it (docs/ARCHITECTURE.md,
// "catalogd HA: the designation protocol"). A version is
// (activation << kSeqBits) | seq: the activation version of the statestore's
// current activation (BeginActivation: its active_statestored_version with
// HA, the wall clock at start without), and seq counting that activation's
// designations from 1. Only an active statestore designates; EndActivation
// forgets the designation when it becomes the standby. Rules, applied by
// Evaluate():
//  * A healthy active keeps the role; a healthy candidate registered with
//    force_catalogd_active takes it from an active that was not forced.
//  * Without an active (none yet, or it failed or went away): a forced
//    healthy candidate if there is one, else the healthy candidate that
//    started first (registration_time, then subscriber id). The very first
//    designation waits up to preemption_wait after the first candidate
//    registered, unless a second candidate or a forced one registers first,
//    so that a cluster starting up does not hand the role to whichever
//    catalogd happened to register first and take it away again.
//  * The first designation of an activation names the catalogd the peer
//    statestore had designated (FollowPeer: from its heartbeats) when it is
//    a healthy candidate here, without waiting.
//  * A candidate is unhealthy after MarkFailed() (the broker calls it when
//    the active missed its probes) until MarkHealthy(); an unhealthy one is
//    never designated, and a recovered former active does not take the role
//    back (no flip-flop).
// A re-registration of the same subscriber id replaces its candidate in
// place (an active that re-registers stays active).
//
// Thread-safety: not thread-safe; the broker calls it under its registry
// lock.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "StatestoreService_types.h"

namespace ics::statestore {

struct CatalogdHaOptions {
  // How long the first designation waits for a second candidate.
  std::chrono::milliseconds preemption_wait{10000};
};

struct ActiveCatalogd {
  int64_t version = 0;        // designation version (>= 1; see above)
  std::string subscriber_id;  // its registration's subscriber id
  impala::TCatalogRegistration registration;
};

class CatalogdHa {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit CatalogdHa(CatalogdHaOptions options) : opts_(options) {}

  // Whether `reg` makes a registration a candidate.
  static bool IsCandidate(impala::TStatestoreSubscriberType::type type,
                          const impala::TRegisterSubscriberRequest& req);

  // A candidate registered (or re-registered) as `subscriber_id`, with the
  // broker's registration key.
  void AddCandidate(const std::string& subscriber_id, const std::string& registration_key,
                    const impala::TCatalogRegistration& reg, TimePoint now);
  // The registration `registration_key` of `subscriber_id` ended (a later
  // registration of the same id is not touched).
  void RemoveCandidate(const std::string& subscriber_id, const std::string& registration_key);
  // Bits of a designation version that count the designations of one
  // activation.
  static constexpr int kSeqBits = 20;
  // Largest activation version (wall-clock milliseconds until the year
  // 2109): larger ones, which only a broken or hostile peer sends, would
  // overflow a designation version.
  static constexpr int64_t kMaxActivation = (int64_t{1} << (62 - kSeqBits)) - 1;

  // The statestore became active with activation version `activation`
  // (larger than every earlier activation of either statestore; clamped to
  // 0..kMaxActivation): designation versions continue above every earlier
  // one, and the first designation prefers the peer's choice (FollowPeer).
  void BeginActivation(int64_t activation);
  // The statestore became the standby: it forgets its designation (a
  // standby designates nobody and announces nothing).
  void EndActivation();
  // The peer (active) statestore designated the catalogd at host:port with
  // designation `version` (0: unknown). The newest is kept for the next
  // activation's first designation.
  void FollowPeer(int64_t version, const std::string& host, int port);
  int64_t followed_version() const { return followed_version_; }
  void MarkFailed(const std::string& subscriber_id);
  void MarkHealthy(const std::string& subscriber_id);

  // Applies the rules; returns true if the designation changed.
  bool Evaluate(TimePoint now);

  // True once any candidate registered: catalog topic writes are then
  // reserved to the active catalogd.
  bool enabled() const { return enabled_; }
  bool IsActive(const std::string& subscriber_id) const {
    return active_.has_value() && active_->subscriber_id == subscriber_id;
  }
  bool IsCandidateId(const std::string& subscriber_id) const {
    return candidates_.count(subscriber_id) != 0;
  }
  const std::optional<ActiveCatalogd>& active() const { return active_; }
  // Designations made so far (failovers included).
  int64_t changes() const { return changes_; }

 private:
  struct Candidate {
    std::string registration_key;
    impala::TCatalogRegistration registration;
    TimePoint registered_at;
    bool healthy = true;
    bool forced() const {
      return registration.__isset.force_catalogd_active && registration.force_catalogd_active;
    }
  };
  // Whether `a` should be preferred to `b` when neither is active.
  static bool Precedes(const std::string& a_id, const Candidate& a, const std::string& b_id,
                       const Candidate& b);

  const CatalogdHaOptions opts_;
  std::map<std::string, Candidate> candidates_;
  std::optional<ActiveCatalogd> active_;
  std::optional<TimePoint> first_candidate_at_;
  std::string preferred_host_;  // the peer's choice, until this activation designates
  int preferred_port_ = 0;
  int64_t followed_version_ = 0;
  bool enabled_ = false;
  int64_t activation_ = 0;
  int64_t seq_ = 0;  // designations of this activation
  int64_t changes_ = 0;
};

}  // namespace ics::statestore
