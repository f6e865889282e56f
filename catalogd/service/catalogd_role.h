// CatalogdRole: catalogd's side of catalogd high availability.
//
// Two catalogd processes share one metastore and register with the
// statestore as HA candidates; the statestore designates one active and
// announces it (statestore/catalogd_ha.h). This class follows those
// announcements:
//  * Designated: in the background it takes the metastore's next writer
//    epoch (metastore.h, "writer epochs"), which from then on refuses the
//    commits of whichever catalogd held the role before; it then applies
//    the notification log up to its head (the last commits of the former
//    active included; the standby has been applying it all along, so this is
//    a short catch-up, not a reload), hands the epoch to the FencedMetastore
//    and asks for a full topic publication. Only then does it answer
//    requests.
//  * Not designated (or fenced: a commit found a newer epoch): it drops its
//    epoch at once, so no commit of its own can apply any more, and answers
//    every CatalogService request with CATALOG_IN_STANDBY_MODE naming the
//    active catalogd.
// A fenced catalogd that is still designated takes the role back only when
// the epoch's owner record names an older designation of the same statestore
// (a takeover overtaken by a designation change); otherwise it waits for a
// newer designation. A takeover whose steps fail is retried (with a capped
// backoff) while the designation stands.
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
  // The epoch owner record: "<address>|<statestore id>|<designation>".
  std::string OwnerRecordLocked() const REQUIRES(mu_);
  // One takeover attempt for designation `generation`; OK when serving.
  [[nodiscard]] Status TakeOver(int64_t generation) EXCLUDES(mu_);

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
  int64_t generation_ GUARDED_BY(mu_) = 0;     // designations heard
  std::string statestore_id_ GUARDED_BY(mu_);  // of the newest designation
  std::string active_address_ GUARDED_BY(mu_);
  std::chrono::steady_clock::time_point designated_at_ GUARDED_BY(mu_);
  std::function<void()> request_topic_update_ GUARDED_BY(mu_);
  int64_t takeovers_ GUARDED_BY(mu_) = 0;
  double last_takeover_ms_ GUARDED_BY(mu_) = 0;
  std::thread thread_;  // touched by Start/Stop only
};

}  // namespace ics::catalog
