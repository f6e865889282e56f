// Hll: a HyperLogLog distinct-value (NDV) estimator shaped like Impala's
// NDV() aggregate, so its registers can travel as
// TIntermediateColumnStats.intermediate_ndv.
//
//   * precision 10: 1024 one-byte registers (Impala's HLL_PRECISION/HLL_LEN);
//   * the hash is MurmurHash64A (Impala's HashUtil::MurmurHash2_64) of the
//     value's bytes with Impala's seed 0xadc83b19; the low 10 bits pick the
//     register, the register keeps the maximum of 1 + the number of trailing
//     zero bits of the remaining 54 bits (1..55), exactly as Impala's
//     HllUpdate does. (Impala hashes the binary slot of fixed-width values;
//     we hash a canonical text, so registers are compatible in layout and
//     merge rule, not bit-for-bit with Impala's for the same data.)
//   * Estimate(): the HLL raw estimate alpha_m * m^2 / sum(2^-M[j]), with the
//     small-range correction: while the raw estimate is <= 2.5 m and some
//     register is still zero, linear counting m * ln(m / zeros) is used.
//     The standard error is about 1.04 / sqrt(1024) = 3.3%.
//   * Serialized form: the 1024 register bytes in register order (what
//     Impala calls the unencoded intermediate NDV, is_ndv_encoded=false).
//     Deserialize also accepts Impala's run-length encoding (is_ndv_encoded
//     =true: pairs of (run length 1..255, register value)).
//
// Thread-safety: a value type; not safe for concurrent mutation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/util/result.h"

namespace ics::coord {

// MurmurHash64A of `data` (little-endian reads, as on x86).
uint64_t MurmurHash64A(std::string_view data, uint64_t seed);

class Hll {
 public:
  static constexpr int kPrecision = 10;
  static constexpr size_t kNumRegisters = size_t{1} << kPrecision;  // 1024
  static constexpr uint8_t kMaxRegisterValue = 64 - kPrecision + 1;  // 55
  static constexpr uint64_t kSeed = 0xadc83b19ULL;

  Hll() { registers_.fill(0); }

  // Adds a value (its bytes are hashed).
  void Update(std::string_view value) { UpdateHash(MurmurHash64A(value, kSeed)); }
  // Adds a value by its 64-bit hash.
  void UpdateHash(uint64_t hash);
  // Register-wise maximum: afterwards this estimates the union.
  void Merge(const Hll& other);
  // The estimated number of distinct values added (0 for an empty sketch).
  int64_t Estimate() const;

  // The 1024 register bytes.
  std::string Serialize() const;
  // From Serialize() output (is_encoded=false) or Impala's run-length
  // encoding (is_encoded=true). CORRUPTION on a wrong size or a register
  // value above kMaxRegisterValue.
  static Result<Hll> Deserialize(std::string_view bytes, bool is_encoded = false);

  const std::array<uint8_t, kNumRegisters>& registers() const { return registers_; }
  bool operator==(const Hll& o) const { return registers_ == o.registers_; }

 private:
  std::array<uint8_t, kNumRegisters> registers_;
};

}  // namespace ics::coord
