// CatalogdRole: catalogd's side of catalogd high availability.
//
// Two catalogd processes share one metastore and register with the
// statestore as HA candidates; the active statestore designates one active
// and announces it (statestore/catalogd_ha.h). This class follows those
// announcements, from both statestores of an HA pair: designation versions
// grow across the pair, so an announcement older than the newest heard is
// ignored. The protocol is written down in docs/ARCHITECTURE.md and model
// checked (tests/model/catalogd_ha.pml).
//  * Designated: in the background it claims the metastore's writer epoch
//    for its designation (metastore.h, "writer epochs": epochs are ordered
//    by designation), which from then on refuses the commits of whichever
//    catalogd held the role before; it then applies the notification log up
//    to its head (the last commits of the former active included; the
//    standby has been applying it all along, so this is a short catch-up,
//    not a reload), hands the epoch to the FencedMetastore and asks for a
//    full topic publication. Only then does it answer requests. Designated
//    again with a newer version while active (a statestore took over and
//    kept it), it re-keys its epoch in place and keeps serving.
//  * Not designated: it drops its epoch at once, so no commit of its own can
//    apply any more, and answers every CatalogService request with
//    CATALOG_IN_STANDBY_MODE naming the active catalogd.
//  * Fenced (a commit found a newer epoch): it stops serving and claims the
//    epoch again for the newest designation it heard, if that names it; the
//    claim is refused when a newer designation holds the epoch, and it then
//    waits for a newer announcement. A takeover overtaken by a newer
//    designation keeps no role: the newer designee's claim supersedes it.
// A claim or catch-up that fails for another reason (the metastore is
// unreachable) is retried with a capped backoff while the designation
// stands.
//
// Lifecycle: construct, Start(), Stop() (idempotent; also the destructor).
// Thread-safety: thread-safe. mu_ is terminal; no metastore call, wait or
// callback runs under it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <thread>

#include "common/util/mutex.h"
#include "common/util/status.h"
#include "statestore/catalogd_designation.h"

namespace ics::catalog {

class CatalogTopicPublisher;
class EventProcessor;
class FencedMetastore;
class Metastore;

struct CatalogdRoleDeps {
  Metastore* metastore;  // takes the writer epoch
  FencedMetastore* fence;
  EventProcessor* events;
  CatalogTopicPublisher* publisher;
  std::chrono::milliseconds catchup_timeout{30000};
};

struct CatalogdRoleInfo {
  bool active = false;
  bool taking_over = false;
  int64_t designation_version = 0;
  std::string active_address;   // "" before any announcement
  int64_t epoch = 0;            // the writer epoch held (0: none)
  int64_t takeovers = 0;        // times this catalogd became active
  double last_takeover_ms = 0;  // designation heard -> serving
};

class CatalogdRole {
 public:
  explicit CatalogdRole(CatalogdRoleDeps deps);
  ~CatalogdRole();
  CatalogdRole(const CatalogdRole&) = delete;
  CatalogdRole& operator=(const CatalogdRole&) = delete;

  // `self_address`: host:port of this catalogd's CatalogService (how the
  // statestore names it); `owner`: recorded with the epochs it takes.
  void Start(std::string self_address, std::string owner) EXCLUDES(mu_);
  void Stop() EXCLUDES(mu_);

  // Asks the statestore for an update right after a takeover (so the full
  // publication goes out at once).
  void SetTopicUpdateRequester(std::function<void()> request) EXCLUDES(mu_);

  // The subscriber's on_catalogd_change: returns at once.
  void OnDesignation(const statestore::CatalogdDesignation& d) EXCLUDES(mu_);
  // The FencedMetastore's on_fenced: another catalogd took the epoch.
  void OnFenced(const Status& why) EXCLUDES(mu_);

  // OK while active; CATALOG_IN_STANDBY_MODE naming the active otherwise.
  [[nodiscard]] Status CheckActive() const EXCLUDES(mu_);
  bool is_active() const EXCLUDES(mu_);
  CatalogdRoleInfo Info() const EXCLUDES(mu_);

 private:
  void Loop() EXCLUDES(mu_);
  // The epoch owner record, for operators.
  std::string OwnerRecordLocked() const REQUIRES(mu_);
  // Whether the loop has work: designated, and not serving this designation.
  bool NeedsClaimLocked() const REQUIRES(mu_);
  // One claim for designation `version` (a takeover, or a re-key while
  // active); OK when serving it.
  [[nodiscard]] Status TakeOver(int64_t version) EXCLUDES(mu_);

  const CatalogdRoleDeps deps_;
  // Set by Start(), read-only afterwards.
  std::string self_address_;
  std::string owner_;

  mutable Mutex mu_;
  CondVar cv_;
  bool started_ GUARDED_BY(mu_) = false;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool designated_ GUARDED_BY(mu_) = false;  // the newest designation names us
  bool active_ GUARDED_BY(mu_) = false;
  bool taking_over_ GUARDED_BY(mu_) = false;
  int64_t version_ GUARDED_BY(mu_) = 0;        // of the newest designation
  int64_t serving_version_ GUARDED_BY(mu_) = 0;  // the designation the held epoch is keyed to
  int64_t refused_version_ GUARDED_BY(mu_) = 0;  // a claim for it was refused: wait for newer
  std::string statestore_id_ GUARDED_BY(mu_);  // of the newest designation
  std::string active_address_ GUARDED_BY(mu_);
  std::chrono::steady_clock::time_point designated_at_ GUARDED_BY(mu_);
  std::function<void()> request_topic_update_ GUARDED_BY(mu_);
  int64_t takeovers_ GUARDED_BY(mu_) = 0;
  double last_takeover_ms_ GUARDED_BY(mu_) = 0;
  std::thread thread_;  // touched by Start/Stop only
};

}  // namespace ics::catalog
