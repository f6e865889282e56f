#include "common/rpc/decode_budget.h"

#include <atomic>
#include <string>

#include <thrift/Thrift.h>
#include <thrift/protocol/TProtocolException.h>

namespace ics {

using apache::thrift::protocol::TProtocolException;

namespace {

std::atomic<int64_t> g_process_limit{4ll << 30};
std::atomic<int64_t> g_process_in_use{0};

// Without a bounded protocol (a peer-less decode, e.g. a test client) a
// single list may still not ask for more than this.
constexpr int64_t kUnboundedListBytes = 1ll << 30;

struct PendingList {
  DecodeBudget* budget = nullptr;
  uint32_t size = 0;
};
thread_local PendingList t_pending_list;

[[noreturn]] void ThrowSizeLimit(const std::string& msg) {
  throw TProtocolException(TProtocolException::SIZE_LIMIT, msg);
}

}  // namespace

void DecodeBudget::Reset() {
  if (charged_memory_ != 0 && limits_.process_wide) g_process_in_use.fetch_sub(charged_memory_, std::memory_order_relaxed);
  charged_memory_ = 0;
  consumed_wire_ = 0;
  if (t_pending_list.budget == this) t_pending_list = {};
}

void DecodeBudget::CheckWire(int64_t count, int64_t min_item_bytes, const char* what) const {
  if (count < 0) ThrowSizeLimit(std::string("negative ") + what + " size " + std::to_string(count));
  const int64_t left = limits_.max_wire_bytes - consumed_wire_;
  // count <= 2^32 and min_item_bytes <= 16, so the product cannot overflow.
  if (count * min_item_bytes > left) {
    ThrowSizeLimit(std::string(what) + " of " + std::to_string(count) + " items needs at least " +
                   std::to_string(count * min_item_bytes) + " bytes but only " +
                   std::to_string(left < 0 ? 0 : left) + " bytes of the " +
                   std::to_string(limits_.max_wire_bytes) + "-byte message limit remain");
  }
}

void DecodeBudget::ChargeMemory(int64_t bytes, const char* what) {
  if (bytes <= 0) return;
  if (bytes > limits_.max_memory_bytes - charged_memory_) {
    ThrowSizeLimit(std::string(what) + " needs " + std::to_string(bytes) +
                   " bytes; the message's decode memory budget of " +
                   std::to_string(limits_.max_memory_bytes) + " bytes has " +
                   std::to_string(limits_.max_memory_bytes - charged_memory_) + " left");
  }
  if (!limits_.process_wide) {
    charged_memory_ += bytes;
    return;
  }
  const int64_t limit = g_process_limit.load(std::memory_order_relaxed);
  const int64_t now = g_process_in_use.fetch_add(bytes, std::memory_order_relaxed) + bytes;
  if (now > limit) {
    g_process_in_use.fetch_sub(bytes, std::memory_order_relaxed);
    ThrowSizeLimit(std::string(what) + " needs " + std::to_string(bytes) +
                   " bytes; decodes in progress already hold " + std::to_string(now - bytes) +
                   " of the process-wide " + std::to_string(limit) + "-byte limit");
  }
  charged_memory_ += bytes;
}

void SetProcessDecodeMemoryLimit(int64_t bytes) {
  g_process_limit.store(bytes, std::memory_order_relaxed);
}
int64_t ProcessDecodeMemoryLimit() { return g_process_limit.load(std::memory_order_relaxed); }
int64_t ProcessDecodeMemoryInUse() { return g_process_in_use.load(std::memory_order_relaxed); }

void NoteThriftListHeader(DecodeBudget* budget, uint32_t size) { t_pending_list = {budget, size}; }

void ChargeThriftList(uint32_t size, size_t element_bytes) {
  const PendingList pending = t_pending_list;
  t_pending_list = {};
  const int64_t bytes = static_cast<int64_t>(size) * static_cast<int64_t>(element_bytes);
  if (pending.budget != nullptr && pending.size == size) {
    pending.budget->ChargeMemory(bytes, "list");
    return;
  }
  if (bytes > kUnboundedListBytes) {
    ThrowSizeLimit("list of " + std::to_string(size) + " elements of " +
                   std::to_string(element_bytes) + " bytes exceeds " +
                   std::to_string(kUnboundedListBytes) + " bytes");
  }
}

}  // namespace ics
