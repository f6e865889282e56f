// The statestore's scheduler and failure detector on an injected clock
// (StatestoreOptions::clock): heartbeats are due when the clock says so, and
// a subscriber is failed after max_missed_heartbeats missed heartbeats,
// however much or little real time passes.
#include <atomic>
#include <chrono>
#include <thread>

#include "tests/statestore/statestore_test_util.h"

namespace ics::sstest {
namespace {

// A steady clock that moves only when told to.
class ManualClock {
 public:
  std::chrono::steady_clock::time_point Now() const {
    return base_ + std::chrono::milliseconds(offset_ms_.load());
  }
  void Advance(Millis d) { offset_ms_ += d.count(); }

 private:
  const std::chrono::steady_clock::time_point base_ = std::chrono::steady_clock::now();
  std::atomic<int64_t> offset_ms_{0};
};

class StatestoreClockTest : public BrokerTest {
 protected:
  statestore::StatestoreOptions Options() override {
    auto o = FastOptions();
    o.update_frequency_ms = 3600 * 1000;  // only heartbeats are of interest here
    o.clock = [this] { return clock_.Now(); };
    return o;
  }

  bool Registered(const std::string& id) {
    for (const auto& s : broker()->Subscribers()) {
      if (s.id == id) return true;
    }
    return false;
  }

  int ConsecutiveFailures(const std::string& id) {
    for (const auto& s : broker()->Subscribers()) {
      if (s.id == id) return s.consecutive_heartbeat_failures;
    }
    return -1;
  }

  ManualClock clock_;
};

// Heartbeats are due their interval (100 ms in FastOptions) +-10% after the
// last one (a first one within one interval): advancing the clock by this
// much makes exactly the next one due.
constexpr Millis kNextHeartbeatDue(110);

TEST_F(StatestoreClockTest, HeartbeatsAreDueByTheInjectedClock) {
  FakeSubscriber* s = NewSubscriber("a", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  // The clock stands still: no heartbeat becomes due in several real
  // heartbeat intervals (100 ms each).
  std::this_thread::sleep_for(Millis(400));
  EXPECT_EQ(s->HeartbeatCount(), 0u);

  clock_.Advance(kNextHeartbeatDue);
  ASSERT_TRUE(s->WaitForHeartbeats(1, Millis(10000))) << s->Describe();
  std::this_thread::sleep_for(Millis(400));
  EXPECT_EQ(s->HeartbeatCount(), 1u);  // the next one is due 90-110 ms later, by the clock

  clock_.Advance(kNextHeartbeatDue);
  ASSERT_TRUE(s->WaitForHeartbeats(2, Millis(10000))) << s->Describe();
}

TEST_F(StatestoreClockTest, FailureDetectionCountsMissedHeartbeats) {
  FakeSubscriber* s = NewSubscriber("b", {TopicReg("t")});
  ASSERT_NE(s, nullptr);
  s->SetHangHeartbeats(true);  // each heartbeat is cut at its (real) 500 ms deadline
  const int max_missed = FastOptions().max_missed_heartbeats;
  for (int missed = 1; missed < max_missed; ++missed) {
    clock_.Advance(kNextHeartbeatDue);
    ASSERT_TRUE(::ics::testing::Eventually([&] { return ConsecutiveFailures("b") == missed; },
                                           Millis(10000)))
        << "after " << missed << " missed: " << ConsecutiveFailures("b");
    // Still registered, and it stays so while the clock stands still.
    std::this_thread::sleep_for(Millis(700));
    EXPECT_TRUE(Registered("b"));
    EXPECT_EQ(ConsecutiveFailures("b"), missed);
  }
  clock_.Advance(kNextHeartbeatDue);
  EXPECT_TRUE(::ics::testing::Eventually([&] { return !Registered("b"); }, Millis(10000)));
  s->SetHangHeartbeats(false);
}

}  // namespace
}  // namespace ics::sstest
