// PackedRows: (key, blob) rows of one large read, packed into page-mapped
// chunks outside the malloc heap, and released chunk by chunk as they are
// consumed.
//
// Why: a table load reads every partition row (hundreds of bytes each) at
// once and decodes them in parallel. Held as a std::string pair per row, the
// rows filled the reading thread's malloc arena with ~100 MB for 100,000
// partitions; once they were freed, the long-lived structures built next
// (the table's indexes) landed in the holes and pinned the pages, so the
// process kept the whole peak. Here the rows live in anonymous mappings of
// at least kChunkBytes each, which go back to the kernel (munmap) as soon as
// every row of a chunk has been released, whatever the heap does.
//
// Use: Append every row (one thread), then Key/Blob/Release from any number
// of threads, each row released at most once. A row's views are valid until
// it is released. While rows are still appended: after Reserve(n), and as
// long as no more than n rows are appended, rows the appending thread has
// handed over (through a mutex, or another release/acquire pair) may be
// read and released by other threads meanwhile.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace ics::catalog {

class PackedRows {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 20;

  PackedRows() = default;
  ~PackedRows();
  PackedRows(PackedRows&& o) noexcept;
  PackedRows& operator=(PackedRows&& o) noexcept;
  PackedRows(const PackedRows&) = delete;
  PackedRows& operator=(const PackedRows&) = delete;

  // Room for n rows: appending up to n rows moves none (see above).
  void Reserve(size_t n) { rows_.reserve(n); }
  // Copies one row in. Throws std::bad_alloc when no mapping can be made.
  void Append(std::string_view key, std::string_view blob);
  // No more rows: the chunk being filled may now go back once its rows are
  // released. Until then the appending thread holds it, so that readers
  // releasing every row so far cannot unmap the chunk it still writes.
  void Seal();

  size_t size() const { return rows_.size(); }
  std::string_view Key(size_t i) const { return {rows_[i].data, rows_[i].key_size}; }
  std::string_view Blob(size_t i) const {
    return {rows_[i].data + rows_[i].key_size, rows_[i].blob_size};
  }
  // Done with row i: its chunk is unmapped once all of the chunk's rows are.
  void Release(size_t i);

  // Bytes mapped right now (for tests and figures).
  size_t MappedBytes() const;

 private:
  struct Chunk {
    char* base = nullptr;
    size_t capacity = 0;
    size_t used = 0;
    std::atomic<size_t> live{0};  // rows not yet released, +1 while being filled
    std::atomic<bool> mapped{false};
  };
  struct Row {
    const char* data;
    uint32_t key_size;
    uint32_t blob_size;
    Chunk* chunk;  // chunks do not move: readers need not see chunks_
  };
  void Unmap(Chunk* c);
  void Drop(Chunk* c);  // one row (or the filling hold) less

  bool sealed_ = false;
  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::vector<Row> rows_;
};

}  // namespace ics::catalog
