// SharedMutex: readers share, writers exclude, and a writer gets in while
// readers keep overlapping (writer preference).
#include "common/util/mutex.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace ics {
namespace {

using std::chrono::milliseconds;

TEST(SharedMutexTest, ReadersShareTheLock) {
  SharedMutex mu;
  ReaderLock first(&mu);
  std::atomic<bool> second_in{false};
  std::thread t([&] {
    ReaderLock second(&mu);
    second_in = true;
  });
  t.join();  // would never return if readers excluded each other
  EXPECT_TRUE(second_in);
}

TEST(SharedMutexTest, WriterExcludesReaders) {
  SharedMutex mu;
  int value = 0;
  std::atomic<bool> reader_done{false};
  std::thread reader;
  {
    WriterLock w(&mu);
    reader = std::thread([&] {
      ReaderLock r(&mu);
      EXPECT_EQ(value, 1);  // runs only after the writer is done
      reader_done = true;
    });
    std::this_thread::sleep_for(milliseconds(20));
    EXPECT_FALSE(reader_done);
    value = 1;
  }
  reader.join();
  EXPECT_TRUE(reader_done);
}

// Four readers hold the lock in turns that always overlap, so there is
// never a moment without a reader. A reader-preferring lock would keep the
// writer out for as long as they run; here every write gets in. The
// readers stop after a generous deadline either way, so a regression fails
// instead of hanging.
TEST(SharedMutexTest, OverlappingReadersDoNotStarveAWriter) {
  SharedMutex mu;
  constexpr int kWrites = 50;
  std::atomic<int> writes{0};
  std::atomic<bool> stop{false};
  std::vector<std::thread> readers;
  for (int i = 0; i < 4; ++i) {
    readers.emplace_back([&, i] {
      std::this_thread::sleep_for(milliseconds(i));
      while (!stop) {
        ReaderLock r(&mu);
        std::this_thread::sleep_for(milliseconds(2));
      }
    });
  }
  std::this_thread::sleep_for(milliseconds(10));  // readers are overlapping now
  std::thread writer([&] {
    for (int i = 0; i < kWrites && !stop; ++i) {
      WriterLock w(&mu);
      writes.fetch_add(1);
    }
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (writes.load() < kWrites && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  stop = true;
  writer.join();
  for (auto& r : readers) r.join();
  EXPECT_EQ(writes.load(), kWrites) << "the writer was starved by overlapping readers";
}

}  // namespace
}  // namespace ics
