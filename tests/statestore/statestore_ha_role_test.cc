// statestored HA, the role rules of StatestoreHa driven through its handler
// calls (no peer process): the start-up handshake decides between two
// starting statestores by id, but between two active ones the later
// activation keeps the role, so the statestore that took over stays active
// when the other resumes (no flip-flop), and a standby follows the peer's
// designation and takes over above it.
#include <gtest/gtest.h>

#include "common/util/unique_id.h"
#include "statestore/statestore.h"
#include "statestore/statestore_ha.h"
#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

// Peer ids that every statestore id precedes or follows (ids are compared
// as printed).
impala::TUniqueId LastId() {
  impala::TUniqueId id;
  id.hi = -1;
  id.lo = -1;
  return id;
}
impala::TUniqueId FirstId() {
  impala::TUniqueId id;
  id.hi = 0;
  id.lo = 0;
  return id;
}

impala::TStatestoreHaHeartbeatRequest Heartbeat(const statestore::Statestore& self,
                                                int64_t activation,
                                                const impala::TUniqueId& from) {
  impala::TStatestoreHaHeartbeatRequest r;
  r.src_statestore_id = from;
  r.dst_statestore_id = self.statestore_id();
  if (activation != 0) r.__set_active_statestored_version(activation);
  return r;
}

TEST(StatestoreHaRole, TheLaterActivationKeepsTheRole) {
  statestore::StatestoreOptions o = FastOptions();
  o.start_as_standby = true;
  statestore::Statestore broker(o);
  ASSERT_TRUE(broker.Start().ok());
  statestore::StatestoreHaOptions ho;
  ho.peer_host = "127.0.0.1";
  ho.peer_ha_port = 1;  // never contacted: the loop is not started
  statestore::StatestoreHa ha(&broker, ho);

  // Both starting: the smaller id wins the handshake.
  impala::TStatestoreHaHandshakeRequest hs;
  hs.src_statestore_id = LastId();
  hs.src_force_active = false;
  ASSERT_TRUE(ha.OnHandshake(hs).dst_statestore_active);
  ASSERT_TRUE(broker.is_active());
  const int64_t ours = broker.active_version();
  ASSERT_GT(ours, 0);

  // The peer was paused while we took over and resumes believing itself
  // active, with an older activation: we keep the role although its id is
  // the preferred one (it steps down on our heartbeat).
  ASSERT_LT(PrintId(FirstId()), PrintId(broker.statestore_id()));
  (void)ha.OnHeartbeat(Heartbeat(broker, ours - 1, FirstId()));
  EXPECT_TRUE(broker.is_active());
  // A peer with a later activation took over from us: we step down, and
  // follow its designation.
  impala::TStatestoreHaHeartbeatRequest later = Heartbeat(broker, ours + 1000, LastId());
  later.__set_active_catalogd_address(impala::TNetworkAddress());
  later.active_catalogd_address.hostname = "127.0.0.1";
  later.active_catalogd_address.port = 26001;
  later.__set_catalogd_version(((ours + 1000) << statestore::CatalogdHa::kSeqBits) | 3);
  (void)ha.OnHeartbeat(later);
  EXPECT_FALSE(broker.is_active());
  EXPECT_FALSE(broker.active_catalogd().has_value());  // a standby designates nobody

  broker.Shutdown();
}

}  // namespace
}  // namespace ics::sstest
