// StatestoreSubscriber (the callback service every subscriber serves to the
// statestore: UpdateState, UpdateStateOneway, Heartbeat, UpdateCatalogd,
// UpdateStatestoredRole)
// fed raw request bytes.
//
// Handler: the generated processor over an adapter, because the library's
// own handler (StatestoreSubscriber::Handler, statestore/subscriber.cc) is
// private and exists only inside a started subscriber, which binds a port
// and registers over the network; and an unregistered subscriber would
// reject every update at its id check anyway. The adapter hands each topic
// delta to the REAL topic callbacks the updates are for: a coordinator's
// full-replica and on-demand local catalogs (coordinator-sim/catalog), which
// decode every topic entry (LZ4 topic values, TCatalogObjects) and apply it.
// Heartbeats are answered as the subscriber answers a registered one.
// Both catalogs are made fresh for each input, so an input reproduces alone;
// the on-demand one never fetches (topic callbacks only invalidate).
// Statestore activations (UpdateStatestoredRole, an update's field 100) go to
// the library's real StatestoreActivations, fresh per input: an update from
// an older activation is skipped as a subscriber skips it.
#include <memory>

#include "StatestoreSubscriber.h"
#include "common/rpc/status_convert.h"
#include "coordinator-sim/catalog/local_catalog.h"
#include "statestore/catalogd_designation.h"
#include "statestore/statestore_activations.h"
#include "tests/fuzz/fuzz_rpc.h"

namespace ics::fuzz {
namespace {

class TopicCallbackAdapter : public impala::StatestoreSubscriberIf {
 public:
  // Forgets the activations of the previous input.
  void Reset() { activations_ = std::make_unique<statestore::StatestoreActivations>(); }

  void UpdateState(impala::TUpdateStateResponse& resp,
                   const impala::TUpdateStateRequest& req) override {
    if (req.__isset.active_statestored_version &&
        !activations_->Observe(req.active_statestored_version)) {
      resp.status = ToTStatus(Status::OK());
      resp.__set_skipped(true);
      resp.__set_newer_statestored_version(activations_->newest());
      return;
    }
    std::unique_ptr<coord::LocalCatalog> full = coord::MakeFullReplicaCatalog();
    coord::OnDemandOptions od;
    od.catalogd_port = 1;  // never dialled: topic updates do not fetch
    od.cache_bytes = 16ll << 20;
    std::unique_ptr<coord::LocalCatalog> on_demand = coord::MakeOnDemandCatalog(od);
    std::vector<impala::TTopicDelta> publications;
    for (const auto& [name, delta] : req.topic_deltas) {
      full->OnTopicUpdate(delta, &publications);
      on_demand->OnTopicUpdate(delta, &publications);
    }
    resp.status = ToTStatus(Status::OK());
    resp.__set_topic_updates(std::move(publications));
    resp.__set_skipped(false);
  }
  // The same request without a reply: the same callbacks.
  void UpdateStateOneway(const impala::TUpdateStateRequest& req) override {
    impala::TUpdateStateResponse ignored;
    UpdateState(ignored, req);
  }
  void Heartbeat(impala::THeartbeatResponse& resp, const impala::THeartbeatRequest&) override {
    resp.__set_status(ToTStatus(Status::OK()));
  }
  // Catalogd announcements go to the subscriber library's real tracker
  // (statestore/catalogd_designation.h), fresh per input.
  void UpdateCatalogd(impala::TUpdateCatalogdResponse& resp,
                      const impala::TUpdateCatalogdRequest& req) override {
    statestore::CatalogdDesignationTracker tracker;
    resp.status =
        ToTStatus(tracker.Observe(req.catalogd_version, req.catalogd_registration).status());
  }
  void UpdateStatestoredRole(impala::TUpdateStatestoredRoleResponse& resp,
                             const impala::TUpdateStatestoredRoleRequest& req) override {
    statestore::CatalogdDesignationTracker tracker;
    Status s;
    if (req.is_active) activations_->Observe(req.active_statestored_version);
    if (req.__isset.catalogd_version && req.__isset.catalogd_registration) {
      s = tracker.Observe(req.catalogd_version, req.catalogd_registration).status();
    }
    resp.status = ToTStatus(s);
  }

 private:
  std::unique_ptr<statestore::StatestoreActivations> activations_ =
      std::make_unique<statestore::StatestoreActivations>();
};

}  // namespace
}  // namespace ics::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static auto adapter = std::make_shared<ics::fuzz::TopicCallbackAdapter>();
  static auto* processor = new impala::StatestoreSubscriberProcessor(adapter);
  adapter->Reset();
  ics::fuzz::FeedProcessor(*processor, data, size);
  return 0;
}
