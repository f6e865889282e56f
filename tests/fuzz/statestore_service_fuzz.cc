// StatestoreService (statestored's RPC endpoint) fed raw request bytes.
//
// Handler: the REAL broker (statestore/statestore.h) behind an adapter that
// makes the same three calls as the daemon's handler (StatestoreServiceHandler
// in statestore_server.cc, which is private to that file). The broker is
// constructed but never Start()ed: registration, validation and scheduling
// run, but no worker thread exists to push the queued updates and
// heartbeats, so a fuzzed subscriber address is never connected to. The
// subscriber limit is small so registrations stay bounded within an epoch.
// Registration ids are random, so an input could never name one: the
// adapter lets an all-zero registration id in RequestTopicUpdate stand for
// the last one registered, so pushed publications (field 5) reach the
// identity check, the ownership rules and the topic writes.
#include <memory>
#include <optional>

#include "StatestoreService.h"
#include "common/rpc/status_convert.h"
#include "statestore/statestore.h"
#include "tests/fuzz/fuzz_rpc.h"

namespace ics::fuzz {
namespace {

class BrokerAdapter : public impala::StatestoreServiceIf {
 public:
  explicit BrokerAdapter(statestore::Statestore* ss) : ss_(ss) {}

  void RegisterSubscriber(impala::TRegisterSubscriberResponse& resp,
                          const impala::TRegisterSubscriberRequest& req) override {
    auto reg = ss_->RegisterSubscriber(req);
    resp.status = ToTStatus(reg.status());
    resp.__set_protocol_version(impala::StatestoreServiceVersion::V2);
    resp.__set_statestore_id(ss_->statestore_id());
    if (reg.ok()) {
      resp.__set_registration_id(*reg);
      last_registration_ = *reg;
    }
  }
  void GetProtocolVersion(impala::TGetProtocolVersionResponse& resp,
                          const impala::TGetProtocolVersionRequest&) override {
    resp.status = ToTStatus(Status::OK());
    resp.protocol_version = impala::StatestoreServiceVersion::V2;
    resp.__set_statestore_id(ss_->statestore_id());
  }
  void RequestTopicUpdate(impala::TRequestTopicUpdateResponse& resp,
                          const impala::TRequestTopicUpdateRequest& req) override {
    impala::TRequestTopicUpdateRequest named = req;
    if (named.registration_id.hi == 0 && named.registration_id.lo == 0 && last_registration_) {
      named.registration_id = *last_registration_;
    }
    std::map<std::string, int64_t> versions;
    resp.status = ToTStatus(ss_->RequestTopicUpdate(named, "", &versions));
    if (req.__isset.topic_updates && resp.status.status_code == impala::TErrorCode::OK) {
      resp.__set_topic_versions(std::move(versions));
    }
  }

 private:
  statestore::Statestore* const ss_;
  std::optional<impala::TUniqueId> last_registration_;
};

statestore::StatestoreOptions BrokerOptions() {
  statestore::StatestoreOptions o;
  o.max_subscribers = 64;
  o.max_message_bytes = kFuzzRpcLimits.max_wire_bytes;
  return o;
}

struct StatestoreStack {
  statestore::Statestore broker{BrokerOptions()};
  std::shared_ptr<apache::thrift::TProcessor> processor =
      std::make_shared<impala::StatestoreServiceProcessor>(std::make_shared<BrokerAdapter>(&broker));
  // Members go in reverse: the processor first, then the broker (Shutdown
  // joins nothing, it was never started).
};

}  // namespace
}  // namespace ics::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ics::fuzz::StatestoreStack;
  static ics::fuzz::Recycled<StatestoreStack> stacks(
      [] { return std::make_unique<StatestoreStack>(); });
  ics::fuzz::FeedProcessor(*stacks.Next().processor, data, size);
  return 0;
}
