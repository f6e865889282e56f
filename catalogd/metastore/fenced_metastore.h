// FencedMetastore: catalogd's own writes under catalogd HA. Commits go to
// the inner metastore's CommitFenced with the writer epoch this catalogd
// holds (metastore.h, "writer epochs"), so they apply only while no other
// catalogd has taken the role since. Without an epoch (standby, or the role
// was lost) every commit is refused with CATALOG_IN_STANDBY_MODE before it
// reaches the database. A commit refused by the metastore's own check drops
// the epoch and calls on_fenced (the role controller then steps down), so
// one refusal is enough to stop all later ones. Reads pass through.
//
// Thread-safety: thread-safe (the epoch is atomic).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "catalogd/metastore/forwarding_metastore.h"

namespace ics::catalog {

class FencedMetastore final : public ForwardingMetastore {
 public:
  explicit FencedMetastore(Metastore* inner) : ForwardingMetastore(inner) {}

  // Called (on the committing thread) after the metastore refused a commit
  // because another catalogd holds a newer epoch.
  void SetOnFenced(std::function<void(const Status&)> on_fenced) {
    on_fenced_ = std::move(on_fenced);
  }
  // The epoch commits carry; 0 refuses every commit.
  void SetEpoch(int64_t epoch) { epoch_.store(epoch); }
  int64_t epoch() const { return epoch_.load(); }

  Result<int64_t> Commit(const MetastoreTxn& txn) override {
    const int64_t epoch = epoch_.load();
    if (epoch == 0) {
      return Status(ErrorCode::kCatalogInStandbyMode,
                    "this catalogd is not the active catalogd (it holds no writer epoch); "
                    "nothing was committed");
    }
    Result<int64_t> r = CommitFenced(txn, epoch);
    if (!r.ok() && r.status().Is(ErrorCode::kCatalogInStandbyMode)) {
      int64_t expected = epoch;
      if (epoch_.compare_exchange_strong(expected, 0) && on_fenced_) on_fenced_(r.status());
    }
    return r;
  }

 private:
  std::atomic<int64_t> epoch_{0};
  std::function<void(const Status&)> on_fenced_;  // set before use, then read-only
};

}  // namespace ics::catalog
