// PackedRows: rows packed into mappings outside the heap, views that stay
// valid until released, and chunks unmapped once all their rows are.
#include "catalogd/metastore/packed_rows.h"

#include <gtest/gtest.h>

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
