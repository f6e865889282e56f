// What one Thrift decode may allocate, checked before it allocates.
//
// A peer controls every size prefix in a Thrift message: a 35-byte message
// can declare a list of 2^30 structs, and the generated code would call
// vector::resize(2^30) before the first element arrives. Thrift's own check
// counts a struct element as 0 bytes, so it does not stop this. Every decode
// in this project therefore runs against a DecodeBudget:
//
//   - wire: a declared container of N elements needs at least N times the
//     smallest encoding of its element type (1 byte for a struct: its STOP),
//     and a declared string its length, in what is left of the message
//     (max_wire_bytes minus what was already consumed);
//   - memory: the bytes the decode is about to allocate — a list resize
//     (N * sizeof(element), charged by ResizeThriftList below, which the build
//     substitutes for every vector::resize in the generated code), string
//     bytes, and a fixed cost per map/set node — add up to at most
//     max_memory_bytes per message, and the requests all RPC servers of the
//     process are receiving or serving share one process-wide cap
//     (Limits::process_wide).
//
// Exceeding either raises TProtocolException(SIZE_LIMIT) with a message that
// names the size, which the RPC server turns into an error for that
// connection (see thrift_server.h) and DeserializeThrift into a Status.
//
// Thread-safety: a DecodeBudget belongs to one decode on one thread. The
// process-wide cap functions are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ics {

class DecodeBudget {
 public:
  struct Limits {
    int64_t max_wire_bytes = 256ll << 20;
    int64_t max_memory_bytes = 1ll << 30;
    // Whether charges also count against the process-wide cap: true for
    // requests a server receives (many peers at once); false for a reply the
    // process asked for or bytes already in memory, which only the
    // per-message budget bounds.
    bool process_wide = true;
  };

  explicit DecodeBudget(Limits limits) : limits_(limits) {}
  ~DecodeBudget() { Reset(); }
  DecodeBudget(const DecodeBudget&) = delete;
  DecodeBudget& operator=(const DecodeBudget&) = delete;

  // Starts a new message: forgets consumed bytes and returns the memory
  // charged so far to the process-wide pool.
  void Reset();

  // Records `n` bytes read from the wire for the current message.
  void ConsumeWire(uint32_t n) { consumed_wire_ += n; }

  // Throws unless `count` items of at least `min_item_bytes` each fit in
  // what is left of the message. `what` names the item ("list", "string").
  void CheckWire(int64_t count, int64_t min_item_bytes, const char* what) const;

  // Charges `bytes` about to be allocated; throws (charging nothing) when the
  // message or the process-wide cap would be exceeded.
  void ChargeMemory(int64_t bytes, const char* what);

  int64_t consumed_wire() const { return consumed_wire_; }
  int64_t charged_memory() const { return charged_memory_; }
  const Limits& limits() const { return limits_; }

 private:
  const Limits limits_;
  int64_t consumed_wire_ = 0;
  int64_t charged_memory_ = 0;
};

// The process-wide cap on memory charged by all decodes in progress
// (default 4 GiB). Set once at daemon start (--rpc_max_decode_memory_bytes).
void SetProcessDecodeMemoryLimit(int64_t bytes);
int64_t ProcessDecodeMemoryLimit();
// Memory charged by the decodes in progress now.
int64_t ProcessDecodeMemoryInUse();

// Called by a bounded protocol right after it reads a list header of `size`
// elements for `budget`; the next ResizeThriftList on this thread charges it.
void NoteThriftListHeader(DecodeBudget* budget, uint32_t size);

// Charges the list whose header was noted last on this thread. Without a
// noted header (a decode through a plain Thrift protocol) the allocation is
// capped at 1 GiB. Throws TProtocolException(SIZE_LIMIT) when over budget.
void ChargeThriftList(uint32_t size, size_t element_bytes);

// What the generated code calls instead of `list.resize(size)`.
template <typename Vector>
inline void ResizeThriftList(Vector& list, uint32_t size) {
  ChargeThriftList(size, sizeof(typename Vector::value_type));
  list.resize(size);
}

}  // namespace ics
