// PartitionStrings: the variable-length parts of a partition (its name,
// HMS parameters, custom location, stored values, compressed stats and the
// digest of its metastore form) and two flags, in one heap block behind one
// pointer.
//
// A catalog holds millions of partitions, and most of them have a name and
// a few parameters and nothing else. Kept as separate blocks, each part
// costs a pointer in the partition and a malloc chunk with its header and
// rounding; here the partition holds 8 bytes, and a typical partition's
// name and parameters share one chunk with 3 bytes of bookkeeping.
//
// Layout of the block: a varint T, the number of bytes that follow it; a
// byte whose bit i says whether part i is present (non-empty), and whose
// bits 6 and 7 are the flags; the varint length of every present part but
// the last; then the present parts' bytes, in part order (the last one runs
// to the end). All parts empty and both flags clear hold no block.
//
// Building: Set replaces parts and flags and rebuilds the block (a
// partition is built once and then never changes, so this is not a hot
// path). Reading: Get returns a view valid until the next Set, or the
// object's end.
//
// Copies are deep. Thread-safety: immutable once built; share freely.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <utility>

namespace ics::catalog {

class PartitionStrings {
 public:
  enum Part : uint8_t {
    kName = 0,        // "k1=v1/k2=v2"
    kParameters = 1,  // CompactStringMap bytes
    kLocation = 2,    // the directory, when it is not derived
    kValues = 3,      // the values, when the name does not give them back
    kStats = 4,       // deflate(compact(TPartitionStats))
    kSourceDigest = 5,  // 8 bytes: PartitionReader::Stored::digest of its load
  };
  static constexpr size_t kNumParts = 6;
  enum Flag : uint8_t {
    kHmsHasLocation = 6,       // sd.location was set in the metastore
    kHasIncrementalStats = 7,  // the stats hold intermediate column stats
  };

  PartitionStrings() = default;
  PartitionStrings(const PartitionStrings& o);
  PartitionStrings& operator=(const PartitionStrings& o);
  PartitionStrings(PartitionStrings&&) noexcept = default;
  PartitionStrings& operator=(PartitionStrings&&) noexcept = default;

  // The part's bytes; empty when it is absent.
  std::string_view Get(Part part) const;
  // Replaces one part (empty removes it), or several parts and flags in
  // one rebuild. Throws std::length_error when the block would pass 4 GiB.
  void Set(Part part, std::string_view bytes) { Set({{part, bytes}}); }
  void Set(std::initializer_list<std::pair<Part, std::string_view>> parts,
           std::initializer_list<std::pair<Flag, bool>> flags = {});

  bool flag(Flag f) const;
  void set_flag(Flag f, bool on) { Set({}, {{f, on}}); }

  // Bytes of the heap block (0 when there is none).
  size_t HeapBytes() const;

  bool operator==(const PartitionStrings& o) const { return Bytes() == o.Bytes(); }
  bool operator!=(const PartitionStrings& o) const { return !(*this == o); }

 private:
  // The whole block (T's varint, then the T bytes); empty without a block.
  std::string_view Bytes() const;
  // The mask byte (0 without a block).
  unsigned Mask() const;
  // All parts, read from the block.
  std::array<std::string_view, kNumParts> All() const;
  // Builds the block from `parts` (views that may point into the old block)
  // and the flag bits of `flags`.
  void Build(const std::array<std::string_view, kNumParts>& parts, unsigned flags);

  std::unique_ptr<char[]> block_;
};

}  // namespace ics::catalog
