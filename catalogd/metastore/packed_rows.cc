#include "catalogd/metastore/packed_rows.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>

namespace ics::catalog {

PackedRows::~PackedRows() {
  for (auto& c : chunks_) Unmap(c.get());
}

PackedRows::PackedRows(PackedRows&& o) noexcept
    : sealed_(o.sealed_), chunks_(std::move(o.chunks_)), rows_(std::move(o.rows_)) {
  o.chunks_.clear();
  o.rows_.clear();
}

PackedRows& PackedRows::operator=(PackedRows&& o) noexcept {
  if (this != &o) {
    for (auto& c : chunks_) Unmap(c.get());
    sealed_ = o.sealed_;
    chunks_ = std::move(o.chunks_);
    rows_ = std::move(o.rows_);
    o.chunks_.clear();
    o.rows_.clear();
  }
  return *this;
}

void PackedRows::Append(std::string_view key, std::string_view blob) {
  constexpr size_t kMax = std::numeric_limits<uint32_t>::max();
  if (key.size() > kMax || blob.size() > kMax) {
    throw std::length_error("PackedRows: row too large");
  }
  const size_t need = key.size() + blob.size();
  Chunk* c = chunks_.empty() ? nullptr : chunks_.back().get();
  if (sealed_) throw std::logic_error("PackedRows: append after Seal");
  if (c == nullptr || c->capacity - c->used < need) {
    auto fresh = std::make_unique<Chunk>();
    // Whole pages, at least one chunk; a larger row gets a mapping of its own.
    const size_t page = 4096;
    fresh->capacity = std::max(kChunkBytes, (need + page - 1) / page * page);
    // Populated at once: the chunk is about to be filled, and one call that
    // maps every page costs far less than a page fault per 4 KiB.
    void* m = mmap(nullptr, fresh->capacity, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
    fresh->base = static_cast<char*>(m);
    fresh->mapped.store(true, std::memory_order_relaxed);
    fresh->live.store(1, std::memory_order_relaxed);  // held while being filled
    chunks_.push_back(std::move(fresh));
    if (c != nullptr) Drop(c);  // filled: its rows alone keep it now
    c = chunks_.back().get();
  }
  char* at = c->base + c->used;
  if (!key.empty()) std::memcpy(at, key.data(), key.size());
  if (!blob.empty()) std::memcpy(at + key.size(), blob.data(), blob.size());
  c->used += need;
  c->live.fetch_add(1, std::memory_order_relaxed);
  rows_.push_back(Row{at, static_cast<uint32_t>(key.size()), static_cast<uint32_t>(blob.size()), c});
}

void PackedRows::Release(size_t i) { Drop(rows_[i].chunk); }

void PackedRows::Seal() {
  if (sealed_) return;
  sealed_ = true;
  if (!chunks_.empty()) Drop(chunks_.back().get());
}

void PackedRows::Drop(Chunk* c) {
  if (c->live.fetch_sub(1, std::memory_order_acq_rel) == 1) Unmap(c);
}

void PackedRows::Unmap(Chunk* c) {
  if (c->mapped.exchange(false, std::memory_order_acq_rel)) munmap(c->base, c->capacity);
}

size_t PackedRows::MappedBytes() const {
  size_t n = 0;
  for (const auto& c : chunks_) {
    if (c->mapped.load(std::memory_order_acquire)) n += c->capacity;
  }
  return n;
}

}  // namespace ics::catalog
