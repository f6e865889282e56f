// Waiting for state that has no event to wait on, in tests.
//
// Eventually(cond[, timeout]): polls `cond` every 10 ms until it holds or
// `timeout` (default kEventuallyTimeout) passes, then checks it once more;
// returns whether it held. ASSERT_EVENTUALLY_TRUE(cond) asserts that, with
// the condition's text in the failure.
//
// ASSERT_EVENTUALLY(timeout, body): runs `body` (a block of gtest
// assertions) until it passes without a failure or `timeout` passes. The
// failures of attempts before the deadline are swallowed; the final attempt
// reports normally, so a test that never converges shows what was last
// seen. A fatal failure in the final attempt returns from the test.
//
//   ASSERT_EVENTUALLY(Millis(5000), {
//     auto r = cluster.Exec(1, "SHOW TABLES");
//     ASSERT_TRUE(r.ok()) << r.ToString();
//     EXPECT_EQ(r.Column(), expected);
//   });
//
// Polling, not sleeping for synchronisation: the body is retried every
// 50 ms. Use only on the test's main thread.
#pragma once

#include <chrono>
#include <functional>
#include <thread>

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

namespace ics::testing {

// Generous, so that sanitizer and loaded CI runs pass; a passing condition
// returns as soon as it holds.
inline constexpr std::chrono::milliseconds kEventuallyTimeout{30000};

inline bool Eventually(const std::function<bool()>& cond,
                       std::chrono::milliseconds timeout = kEventuallyTimeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (cond()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return cond();
}

// Returns true when `body` passed before the deadline; otherwise runs it a
// last time with failures reported and returns false.
inline bool AssertEventually(const std::function<void()>& body, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    ::testing::TestPartResultArray results;
    {
      ::testing::ScopedFakeTestPartResultReporter reporter(
          ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results);
      body();
    }
    bool failed = false;
    for (int i = 0; i < results.size(); ++i) {
      if (results.GetTestPartResult(i).failed()) failed = true;
    }
    if (!failed) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  body();  // the final attempt reports its failures
  return false;
}

}  // namespace ics::testing

#define ASSERT_EVENTUALLY(timeout, ...)                                     \
  do {                                                                      \
    if (!::ics::testing::AssertEventually([&]() __VA_ARGS__, (timeout))) {  \
      GTEST_FAIL() << "did not hold within " << (timeout).count() << " ms"; \
    }                                                                       \
  } while (false)

#define ASSERT_EVENTUALLY_TRUE(cond) \
  ASSERT_TRUE(::ics::testing::Eventually([&] { return static_cast<bool>(cond); })) << #cond
