// PackedRows: rows packed into mappings outside the heap, views that stay
// valid until released, and chunks unmapped once all their rows are.
#include "catalogd/metastore/packed_rows.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ics::catalog {
namespace {

std::string Blob(size_t i, size_t size) { return std::string(size, static_cast<char>('a' + i % 26)); }

TEST(PackedRowsTest, RowsSpanChunksAndReadBackExactly) {
  PackedRows rows;
  const size_t n = 5000;  // ~2.5 MB: several chunks
  for (size_t i = 0; i < n; ++i) rows.Append("k=" + std::to_string(i), Blob(i, 500));
  rows.Append("", "");                                       // an empty row
  rows.Append("big", Blob(7, 3 * PackedRows::kChunkBytes));  // larger than a chunk
  ASSERT_EQ(rows.size(), n + 2);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(rows.Key(i), "k=" + std::to_string(i));
    EXPECT_EQ(rows.Blob(i), Blob(i, 500));
  }
  EXPECT_EQ(rows.Key(n), "");
  EXPECT_EQ(rows.Blob(n), "");
  EXPECT_EQ(rows.Blob(n + 1).size(), 3 * PackedRows::kChunkBytes);
  EXPECT_GE(rows.MappedBytes(), n * 500 + 3 * PackedRows::kChunkBytes);
}

TEST(PackedRowsTest, ChunksGoBackAsTheirRowsAreReleased) {
  PackedRows rows;
  const size_t n = 8000;
  for (size_t i = 0; i < n; ++i) rows.Append(std::to_string(i), Blob(i, 400));
  rows.Seal();
  const size_t mapped = rows.MappedBytes();
  ASSERT_GT(mapped, 2 * PackedRows::kChunkBytes);
  // Release the first half from two threads at once.
  std::thread a([&] {
    for (size_t i = 0; i < n / 2; i += 2) rows.Release(i);
  });
  std::thread b([&] {
    for (size_t i = 1; i < n / 2; i += 2) rows.Release(i);
  });
  a.join();
  b.join();
  const size_t half = rows.MappedBytes();
  EXPECT_LT(half, mapped);
  // The unreleased rows are intact.
  for (size_t i = n / 2 + 1; i < n; ++i) EXPECT_EQ(rows.Blob(i), Blob(i, 400)) << i;
  for (size_t i = n / 2; i < n; ++i) rows.Release(i);
  EXPECT_EQ(rows.MappedBytes(), 0u);
}

// Rows read while more are appended (a streamed read): releasing every row
// appended so far must not unmap the chunk still being filled.
TEST(PackedRowsTest, TheChunkBeingFilledStaysUntilSealed) {
  PackedRows rows;
  rows.Reserve(4);
  rows.Append("a", Blob(0, 100));
  rows.Release(0);  // every row so far released
  EXPECT_EQ(rows.MappedBytes(), PackedRows::kChunkBytes);
  rows.Append("b", Blob(1, 100));  // written into the same chunk
  EXPECT_EQ(rows.Blob(1), Blob(1, 100));
  rows.Append("c", Blob(2, PackedRows::kChunkBytes));  // a chunk of its own
  const size_t second = rows.MappedBytes() - PackedRows::kChunkBytes;
  rows.Release(1);  // the first chunk is done and released: it goes
  EXPECT_EQ(rows.MappedBytes(), second);
  rows.Release(2);  // the last chunk is still held for appending
  EXPECT_GT(rows.MappedBytes(), 0u);
  rows.Append("d", "");
  rows.Release(3);
  rows.Seal();
  EXPECT_EQ(rows.MappedBytes(), 0u);
  EXPECT_THROW(rows.Append("e", ""), std::logic_error);
}

TEST(PackedRowsTest, MovesTakeTheMappings) {
  PackedRows rows;
  rows.Append("k", "v");
  PackedRows moved = std::move(rows);
  EXPECT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved.Blob(0), "v");
  PackedRows assigned;
  assigned.Append("x", "y");
  assigned = std::move(moved);
  EXPECT_EQ(assigned.Key(0), "k");
  EXPECT_EQ(assigned.MappedBytes(), PackedRows::kChunkBytes);
}

}  // namespace
}  // namespace ics::catalog
