#include "catalogd/ops/staging_budget.h"

#include <string>

#include "common/util/checked_math.h"

namespace ics::catalog::ops {

StagingReservation& StagingReservation::operator=(StagingReservation&& o) noexcept {
  if (this != &o) {
    Release();
    budget_ = o.budget_;
    bytes_ = o.bytes_;
    o.budget_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

Status StagingReservation::Grow(StagingBudget* budget, int64_t bytes, std::string_view what) {
  if (bytes <= 0 || budget == nullptr) return Status::OK();
  if (budget_ != nullptr && budget != budget_) {
    return Status::Internal("a staging reservation grown from another budget");
  }
  if (!budget->TryAdd(bytes)) return budget->Refusal(bytes, what);
  budget_ = budget;
  bytes_ = SaturatingAdd(bytes_, bytes);
  return Status::OK();
}

void StagingReservation::Release() {
  if (budget_ != nullptr && bytes_ > 0) budget_->Subtract(bytes_);
  budget_ = nullptr;
  bytes_ = 0;
}

Result<StagingReservation> StagingBudget::Reserve(int64_t bytes, std::string_view what) {
  StagingReservation r;
  ICS_RETURN_IF_ERROR(r.Grow(this, bytes, what));
  return r;
}

bool StagingBudget::TryAdd(int64_t bytes) {
  int64_t cur = used_.load();
  while (true) {
    const int64_t next = SaturatingAdd(cur, bytes);
    if (max_bytes_ > 0 && next > max_bytes_) {
      rejected_.fetch_add(1);
      return false;
    }
    if (used_.compare_exchange_weak(cur, next)) {
      int64_t peak = peak_.load();
      while (next > peak && !peak_.compare_exchange_weak(peak, next)) {
      }
      return true;
    }
  }
}

Status StagingBudget::Refusal(int64_t bytes, std::string_view what) const {
  return Status::LimitExceeded(
      std::string(what) + " would take about " + std::to_string(bytes) +
      " more bytes of staged partitions, but staged writes of this server together may hold at "
      "most " +
      std::to_string(max_bytes_) + " bytes (--metastore_write_streams_max_staged_bytes; " +
      std::to_string(used_.load()) +
      " in use): commit or abort open write streams, or retry "
      "later");
}

}  // namespace ics::catalog::ops
