// StatestoreHaService (the port two statestoreds of an HA pair talk on) fed
// raw request bytes.
//
// Handler: the REAL StatestoreHa handler (statestore/statestore_ha.h,
// MakeHandler: OnHandshake and OnHeartbeat) over a standby broker. Neither is Start()ed: the
// role decisions run (a handshake can make the broker active, a heartbeat
// can make it standby again and name a preferred catalogd) but no thread
// dials the peer or a subscriber.
#include <memory>

#include "StatestoreHaService.h"
#include "statestore/statestore.h"
#include "statestore/statestore_ha.h"
#include "tests/fuzz/fuzz_rpc.h"

namespace ics::fuzz {
namespace {

statestore::StatestoreOptions BrokerOptions() {
  statestore::StatestoreOptions o;
  o.max_subscribers = 64;
  o.start_as_standby = true;
  o.max_message_bytes = kFuzzRpcLimits.max_wire_bytes;
  return o;
}

struct HaStack {
  statestore::Statestore broker{BrokerOptions()};
  statestore::StatestoreHa ha{&broker, statestore::StatestoreHaOptions{}};
  std::shared_ptr<apache::thrift::TProcessor> processor =
      std::make_shared<impala::StatestoreHaServiceProcessor>(ha.MakeHandler());
};

}  // namespace
}  // namespace ics::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ics::fuzz::HaStack;
  static ics::fuzz::Recycled<HaStack> stacks([] { return std::make_unique<HaStack>(); });
  ics::fuzz::FeedProcessor(*stacks.Next().processor, data, size);
  return 0;
}
