// IntrusiveCount: a reference count kept inside the counted object, for
// boost::intrusive_ptr.
//
// For objects held by the million (a catalog's partitions), where
// std::make_shared's separate count and weak count, and the second pointer
// every shared_ptr carries, cost more than the object's own padding. Four
// bytes: an object cannot be held by more than 2^32 - 1 pointers at once.
//
// A copy of the owning object is a new object: the copy's count starts at
// zero, and assigning an object leaves its count alone.
//
// Thread-safety: Add and Release from any number of threads.
#pragma once

#include <atomic>
#include <cstdint>

namespace ics {

class IntrusiveCount {
 public:
  IntrusiveCount() = default;
  IntrusiveCount(const IntrusiveCount& /*other*/) noexcept {}
  IntrusiveCount& operator=(const IntrusiveCount& /*other*/) noexcept { return *this; }

  void Add() const noexcept { n_.fetch_add(1, std::memory_order_relaxed); }
  // Drops one reference; true when it was the last (the caller deletes).
  [[nodiscard]] bool Release() const noexcept {
    return n_.fetch_sub(1, std::memory_order_acq_rel) == 1;
  }

 private:
  mutable std::atomic<uint32_t> n_{0};
};

}  // namespace ics
