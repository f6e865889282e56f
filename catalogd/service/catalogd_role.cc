#include "catalogd/service/catalogd_role.h"

#include <algorithm>

#include <glog/logging.h>

#include "catalogd/events/event_processor.h"
#include "catalogd/metastore/fenced_metastore.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/topic/catalog_topic_publisher.h"

namespace ics::catalog {

namespace {
using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kRetryInitial{50};
constexpr std::chrono::milliseconds kRetryMax{2000};
}  // namespace

CatalogdRole::CatalogdRole(CatalogdRoleDeps deps) : deps_(std::move(deps)) {}

CatalogdRole::~CatalogdRole() { Stop(); }

void CatalogdRole::Start(std::string self_address, std::string owner) {
  MutexLock l(&mu_);
  if (started_) return;
  started_ = true;
  self_address_ = std::move(self_address);
  owner_ = std::move(owner);
  thread_ = std::thread([this] { Loop(); });
}

void CatalogdRole::Stop() {
  {
    MutexLock l(&mu_);
    if (stopping_ || !started_) {
      stopping_ = true;
      return;
    }
    stopping_ = true;
    cv_.Broadcast();
  }
  if (thread_.joinable()) thread_.join();
}

void CatalogdRole::SetTopicUpdateRequester(std::function<void()> request) {
  MutexLock l(&mu_);
  request_topic_update_ = std::move(request);
}

void CatalogdRole::OnDesignation(const statestore::CatalogdDesignation& d) {
  const bool ours = d.address() == self_address_;
  MutexLock l(&mu_);
  // Both statestores' subscribers hand designations over, in any order;
  // versions grow across the pair, so only a newer one counts.
  if (d.version <= version_) return;
  version_ = d.version;
  statestore_id_ = d.statestore_id;
  active_address_ = d.address();
  if (ours) {
    if (!designated_) designated_at_ = Clock::now();
    designated_ = true;
  } else {
    designated_ = false;
    if (active_ || deps_.fence->epoch() != 0) {
      LOG(WARNING) << "catalogd HA: " << active_address_ << " is now the active catalogd "
                   << "(designation " << d.version << "); " << self_address_
                   << " steps down to standby";
    }
    active_ = false;
    serving_version_ = 0;
    deps_.fence->SetEpoch(0);  // no commit of ours applies from here on
  }
  cv_.Broadcast();
}

void CatalogdRole::OnFenced(const Status& why) {
  // A newer designation took the epoch (we are stale, or will hear of it
  // shortly), or a takeover for an older one did, which our claim for the
  // newest designation we heard supersedes: the loop claims again if that
  // designation names us, and waits for a newer one if the claim is refused.
  MutexLock l(&mu_);
  active_ = false;
  serving_version_ = 0;
  LOG(WARNING) << "catalogd HA: " << self_address_ << " was fenced (" << why.message() << ")"
               << (designated_ ? "; claiming the writer epoch again for designation " +
                                     std::to_string(version_)
                               : std::string("; standby until designated again"));
  cv_.Broadcast();
}

std::string CatalogdRole::OwnerRecordLocked() const {
  return self_address_ + "|" + statestore_id_ + "|" + std::to_string(version_) + "|" + owner_;
}

bool CatalogdRole::NeedsClaimLocked() const {
  return designated_ && serving_version_ != version_ && refused_version_ != version_;
}

Status CatalogdRole::CheckActive() const {
  MutexLock l(&mu_);
  if (active_) return Status::OK();
  std::string msg = "catalogd " + self_address_ + " is in standby mode";
  if (taking_over_) {
    msg += " (taking over as the active catalogd)";
  } else if (!active_address_.empty() && active_address_ != self_address_) {
    msg += "; the active catalogd is " + active_address_;
  } else {
    msg += "; no active catalogd is designated yet";
  }
  return Status(ErrorCode::kCatalogInStandbyMode, msg);
}

bool CatalogdRole::is_active() const {
  MutexLock l(&mu_);
  return active_;
}

CatalogdRoleInfo CatalogdRole::Info() const {
  MutexLock l(&mu_);
  CatalogdRoleInfo i;
  i.active = active_;
  i.taking_over = taking_over_;
  i.designation_version = version_;
  i.active_address = active_address_;
  i.epoch = deps_.fence->epoch();
  i.takeovers = takeovers_;
  i.last_takeover_ms = last_takeover_ms_;
  return i;
}

Status CatalogdRole::TakeOver(int64_t version) {
  WriterEpochClaim claim;
  bool rekey = false;
  {
    MutexLock l(&mu_);
    if (stopping_ || !designated_ || version_ != version) {
      return Status(ErrorCode::kCancelled, "the designation changed before the takeover");
    }
    claim.designation = version;
    claim.holder = self_address_;
    claim.owner = OwnerRecordLocked();
    rekey = active_;
    claim.held_epoch = active_ ? deps_.fence->epoch() : 0;
  }
  Result<WriterEpoch> taken = deps_.metastore->AcquireWriterEpoch(claim);
  if (!taken.ok()) {
    if (taken.status().Is(ErrorCode::kCatalogInStandbyMode)) {
      // A newer designation holds the epoch: nothing to retry until we hear
      // of a designation newer than this one.
      MutexLock l(&mu_);
      refused_version_ = version;
      if (rekey) {
        active_ = false;
        serving_version_ = 0;
        deps_.fence->SetEpoch(0);
      }
    }
    return taken.status();
  }
  const WriterEpoch epoch = std::move(taken).value();
  if (rekey && epoch.epoch == claim.held_epoch) {
    MutexLock l(&mu_);
    serving_version_ = version;
    LOG(INFO) << "catalogd HA: " << self_address_ << " stays active for designation " << version
              << " (writer epoch " << epoch.epoch << " re-keyed)";
    return Status::OK();
  }
  // From here no other catalogd can commit. Apply what they committed
  // before: everything up to the log's head now.
  ICS_ASSIGN_OR_RETURN(int64_t head, deps_.metastore->CurrentNotificationEventId());
  ICS_RETURN_IF_ERROR(deps_.events->WaitForEventId(head, deps_.catchup_timeout).status());
  MutexLock l(&mu_);
  if (stopping_ || !designated_ || version_ != version) {
    // A newer designation arrived: it names another catalogd (whose claim
    // supersedes this epoch) or us again (the loop claims for it).
    return Status(ErrorCode::kCancelled, "the designation changed during the takeover");
  }
  deps_.fence->SetEpoch(epoch.epoch);
  active_ = true;
  serving_version_ = version;
  ++takeovers_;
  last_takeover_ms_ =
      std::chrono::duration<double, std::milli>(Clock::now() - designated_at_).count();
  LOG(INFO) << "catalogd HA: " << self_address_ << " is the active catalogd (designation "
            << version_ << ", writer epoch " << epoch.epoch << ", events applied up to " << head
            << ", " << last_takeover_ms_ << " ms after the designation)";
  return Status::OK();
}

void CatalogdRole::Loop() {
  std::chrono::milliseconds backoff = kRetryInitial;
  while (true) {
    int64_t version = 0;
    bool was_active = false;
    {
      MutexLock l(&mu_);
      while (!stopping_ && !NeedsClaimLocked()) cv_.Wait(&mu_);
      if (stopping_) return;
      version = version_;
      was_active = active_;
      taking_over_ = !active_;
    }
    Status s = TakeOver(version);
    std::function<void()> request_update;
    {
      MutexLock l(&mu_);
      taking_over_ = false;
      request_update = request_topic_update_;
    }
    if (s.ok()) {
      backoff = kRetryInitial;
      if (!was_active) {
        deps_.publisher->RequestFullResend();
        if (request_update) request_update();
      }
      continue;
    }
    if (s.Is(ErrorCode::kCancelled) || s.Is(ErrorCode::kCatalogInStandbyMode)) {
      LOG(WARNING) << "catalogd HA: claim by " << self_address_ << " for designation "
                   << version << " did not take: " << s.ToString();
      continue;  // the loop waits for a newer designation
    }
    LOG(WARNING) << "catalogd HA: takeover by " << self_address_ << " failed: " << s.ToString()
                 << "; retrying in " << backoff.count() << " ms";
    MutexLock l(&mu_);
    cv_.WaitFor(&mu_, backoff);
    backoff = std::min(kRetryMax, backoff * 2);
  }
}

}  // namespace ics::catalog
