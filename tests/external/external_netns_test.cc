// Daemons in separate network namespaces (ExternalNetns): statestored,
// catalogd and coordinator 0 in namespace A, coordinator 1 in namespace B,
// joined by a veth pair on a private test subnet (10.231.<n>.0/24) that the
// test creates and deletes. Cutting the link (at either end) must be
// detected (the statestore fails coordinator 1, so a SYNC_DDL on
// coordinator 0 completes), and healing it must bring coordinator 1 back (it
// re-registers, catches up through the topic and takes part in SYNC_DDL
// again).
//
// Needs root and `ip netns`; skipped otherwise.
#include "tests/external/external_test_util.h"
#include "tests/external/netns.h"

namespace ics::external {
namespace {

class ExternalNetns : public ExternalTest {
 protected:
  void TearDown() override {
    StopCluster();  // the processes first, then their namespaces
    netns_.Destroy();
  }
  NetnsPair netns_;
};

TEST_F(ExternalNetns, CutLinkDetectedAndHealed) {
  const std::string why = NetnsPair::Unavailable();
  if (!why.empty()) GTEST_SKIP() << "network namespaces unavailable: " << why;
  Status s = netns_.Create();
  ASSERT_TRUE(s.ok()) << s.ToString();

  ExternalClusterOptions o;
  o.use_local_catalog = false;  // coordinator 1 learns only through the topic
  // Namespace A: everything talks over its loopback (an address on a downed
  // interface is unreachable even locally); statestored and catalogd listen
  // on every address so that B can reach them over the veth.
  Placement a;
  a.netns = netns_.ns_a();
  o.statestored_placement = a;
  o.statestored_placement.hostname = "0.0.0.0";  // statestored's bind address
  o.catalogd_placement = a;
  o.catalogd_placement.listen_host = "0.0.0.0";
  Placement b;
  b.netns = netns_.ns_b();
  b.hostname = netns_.addr_b();  // what the statestore calls back
  b.listen_host = "0.0.0.0";
  b.statestore_host = netns_.addr_a();
  b.catalogd_host = netns_.addr_a();
  // Plaintext on non-loopback addresses, inside namespaces this test owns:
  // the daemons refuse that unless told explicitly.
  const std::string plaintext_ok = "--insecure_allow_plaintext_remote";
  o.statestored_flags.push_back(plaintext_ok);
  o.catalogd_flags.push_back(plaintext_ok);
  o.coordinator_processes = {{1, a, {plaintext_ok}}, {1, b, {plaintext_ok}}};
  ExternalCluster* cl = StartCluster(o);
  ASSERT_NE(cl, nullptr);

  ASSERT_TRUE(MustExec(0, "CREATE DATABASE nn", true).ok());
  ASSERT_TRUE(MustExec(0, "CREATE TABLE nn.t0 (id INT)", true).ok());
  EXPECT_EQ(Tables(1, "nn"), std::vector<std::string>{"t0"});
  // The shell works inside a namespace too.
  CommandResult sh = cl->Shell(1, "DESCRIBE nn.t0");
  EXPECT_TRUE(sh.ok()) << sh.output;

  // Cut the link twice: at A's end (the statestore's connects fail at once)
  // and at B's end (A's packets vanish; heartbeats time out).
  std::vector<std::string> expected = {"t0"};
  for (const NetnsPair::Side side : {NetnsPair::Side::kA, NetnsPair::Side::kB}) {
    const std::string tag = side == NetnsPair::Side::kA ? "a" : "b";
    SCOPED_TRACE("link cut at side " + tag);
    ASSERT_TRUE(netns_.Cut(side).ok());
    const auto cut_at = Clock::now();
    // Detected: the statestore fails coordinator 1, so this SYNC_DDL
    // returns. Bound: failure detection (5 x (200 + 300) ms) + 3 s slack.
    const std::string during = "during_cut_" + tag;
    ExecResult r = MustExec(0, "CREATE TABLE nn." + during + " (id INT)", true);
    const double secs = SecondsSince(cut_at);
    ASSERT_TRUE(r.ok());
    const Millis bound = o.FailureDetectionTime() + Millis(3000);
    EXPECT_LT(secs * 1000, bound.count()) << "cut link detected only after " << secs << " s";
    std::cout << "side " << tag << ": SYNC_DDL completed " << secs << " s after the cut\n";
    // Coordinator 1 is cut off: it cannot have heard of the new table.
    ExecOptions quick;
    quick.timeout_ms = 3000;
    ExecResult cut_off = cl->Exec(1, "SHOW TABLES IN nn", quick);
    EXPECT_FALSE(Contains(cut_off.Column(0), during)) << cut_off.ToString();

    ASSERT_TRUE(netns_.Heal(side).ok());
    const auto healed_at = Clock::now();
    // Re-registration: after its subscriber timeout (3 s) coordinator 1
    // registers again and receives the topic, including the table created
    // while it was cut off.
    expected.push_back(during);
    expected = Sorted(expected);
    ASSERT_EVENTUALLY(Millis(20000), { ASSERT_EQ(Tables(1, "nn"), expected); });
    std::cout << "side " << tag << ": coordinator 1 caught up " << SecondsSince(healed_at)
              << " s after healing\n";
    // Counted in SYNC_DDL again, in both directions over the link.
    const std::string after = "after_heal_" + tag;
    const std::string from_b = "from_b_" + tag;
    ASSERT_TRUE(MustExec(0, "CREATE TABLE nn." + after + " (id INT)", true).ok());
    EXPECT_TRUE(Contains(Tables(1, "nn"), after));
    ASSERT_TRUE(MustExec(1, "CREATE TABLE nn." + from_b + " (id INT)", true).ok());
    EXPECT_TRUE(Contains(Tables(0, "nn"), from_b));
    sh = cl->Shell(1, "DESCRIBE nn." + after);
    EXPECT_TRUE(sh.ok()) << sh.output;
    expected.push_back(after);
    expected.push_back(from_b);
    expected = Sorted(expected);
  }
}

}  // namespace
}  // namespace ics::external
