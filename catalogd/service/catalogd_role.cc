#include "catalogd/service/catalogd_role.h"

#include <algorithm>
#include <cstdlib>

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
  // The subscriber hands over designations newest first, one at a time
  // (versions start over with a new statestore, so they are not compared).
  ++generation_;
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
    deps_.fence->SetEpoch(0);  // no commit of ours applies from here on
  }
  cv_.Broadcast();
}

void CatalogdRole::OnFenced(const Status& why) {
  // Who holds the epoch now. Normally the catalogd with a newer designation
  // (we are stale, or will hear of it shortly): step down. But a takeover of
  // ours (or of a peer) that a designation change overtook can also take an
  // epoch after the designated catalogd's; the owner record then names an
  // older designation of the same statestore, and the designated catalogd
  // takes the role back.
  Result<WriterEpoch> holder = deps_.metastore->ReadWriterEpoch();
  MutexLock l(&mu_);
  active_ = false;
  bool retake = false;
  if (designated_ && holder.ok()) {
    const std::string& o = holder->owner;
    const size_t a = o.find('|');
    const size_t b = a == std::string::npos ? std::string::npos : o.find('|', a + 1);
    if (b != std::string::npos && !statestore_id_.empty() &&
        o.compare(a + 1, b - a - 1, statestore_id_) == 0) {
      const int64_t their = std::strtoll(o.c_str() + b + 1, nullptr, 10);
      retake = their < version_;
    }
  }
  if (retake) {
    LOG(WARNING) << "catalogd HA: " << self_address_ << " was fenced by a stale takeover ("
                 << why.message() << "); designated, so taking the role back";
  } else {
    designated_ = false;
    LOG(WARNING) << "catalogd HA: " << self_address_ << " was fenced (" << why.message()
                 << "); standby until designated again";
  }
  cv_.Broadcast();
}

std::string CatalogdRole::OwnerRecordLocked() const {
  return self_address_ + "|" + statestore_id_ + "|" + std::to_string(version_) + "|" + owner_;
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

Status CatalogdRole::TakeOver(int64_t generation) {
  std::string owner;
  {
    MutexLock l(&mu_);
    if (stopping_ || !designated_ || generation_ != generation) {
      return Status(ErrorCode::kCancelled, "the designation changed before the takeover");
    }
    owner = OwnerRecordLocked();
  }
  ICS_ASSIGN_OR_RETURN(WriterEpoch epoch, deps_.metastore->AcquireWriterEpoch(owner));
  // From here no other catalogd can commit. Apply what they committed
  // before: everything up to the log's head now.
  ICS_ASSIGN_OR_RETURN(int64_t head, deps_.metastore->CurrentNotificationEventId());
  ICS_RETURN_IF_ERROR(deps_.events->WaitForEventId(head, deps_.catchup_timeout).status());
  MutexLock l(&mu_);
  if (stopping_ || !designated_ || generation_ != generation) {
    return Status(ErrorCode::kCancelled, "the designation changed during the takeover");
  }
  deps_.fence->SetEpoch(epoch.epoch);
  active_ = true;
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
    int64_t generation = 0;
    {
      MutexLock l(&mu_);
      while (!stopping_ && (active_ || !designated_)) cv_.Wait(&mu_);
      if (stopping_) return;
      generation = generation_;
      taking_over_ = true;
    }
    Status s = TakeOver(generation);
    std::function<void()> request_update;
    {
      MutexLock l(&mu_);
      taking_over_ = false;
      request_update = request_topic_update_;
    }
    if (s.ok()) {
      backoff = kRetryInitial;
      deps_.publisher->RequestFullResend();
      if (request_update) request_update();
      continue;
    }
    LOG(WARNING) << "catalogd HA: takeover by " << self_address_ << " failed: " << s.ToString()
                 << "; retrying in " << backoff.count() << " ms";
    MutexLock l(&mu_);
    cv_.WaitFor(&mu_, backoff);
    backoff = std::min(kRetryMax, backoff * 2);
  }
}

}  // namespace ics::catalog
