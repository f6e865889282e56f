// What every RPC fuzz target does with its input: the bytes a peer sends on
// one connection (any number of messages) go through ProcessRequestBytes —
// the RPC server's bounded protocol and exception barrier — into a Thrift
// processor, without a socket.
//
// Recycled bounds the state a stateful target accumulates.
//
// Thread-safety: one fuzzing thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

#include "common/rpc/decode_budget.h"

namespace apache::thrift {
class TProcessor;
}

namespace ics::fuzz {

// Decode limits of the fuzzed RPC stacks: smaller than the daemons' (256 MiB
// on the wire) so that a "big but legal" message cannot eat the fuzzer's
// memory budget, large enough for every real request.
inline constexpr DecodeBudget::Limits kFuzzRpcLimits{1ll << 20, 64ll << 20};

// Runs one fuzz input through `processor`; the outcome is ignored (most
// inputs are rightly rejected; only crashes, hangs and leaks matter).
void FeedProcessor(apache::thrift::TProcessor& processor, const uint8_t* data, size_t size);

// How many inputs one stack serves before it is rebuilt.
inline constexpr int kInputsPerEpoch = 2000;

// Holds one T made by `make` and replaces it with a fresh one every
// kInputsPerEpoch calls of Next(). The previous T is destroyed first.
template <typename T>
class Recycled {
 public:
  explicit Recycled(std::function<std::unique_ptr<T>()> make) : make_(std::move(make)) {}
  T& Next() {
    if (current_ == nullptr || ++uses_ > kInputsPerEpoch) {
      current_.reset();
      current_ = make_();
      uses_ = 1;
    }
    return *current_;
  }

 private:
  std::function<std::unique_ptr<T>()> make_;
  std::unique_ptr<T> current_;
  int uses_ = 0;
};

}  // namespace ics::fuzz
