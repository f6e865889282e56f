// HyperLogLog: accuracy, merge, serialization (raw and Impala's RLE form).
#include "coordinator-sim/exec/hll.h"

#include <cmath>
#include <set>
#include <string>

#include "tests/exec_scan/exec_scan_test_util.h"

namespace ics::coord {
namespace {

Hll Range(int64_t begin, int64_t end, const std::string& prefix = "value-") {
  Hll h;
  for (int64_t i = begin; i < end; ++i) h.Update(prefix + std::to_string(i));
  return h;
}

double RelError(int64_t estimate, int64_t truth) {
  return std::fabs(static_cast<double>(estimate - truth)) / static_cast<double>(truth);
}

TEST(ExecScanHll, EmptyAndTiny) {
  EXPECT_EQ(Hll().Estimate(), 0);
  EXPECT_EQ(Range(0, 1).Estimate(), 1);
  EXPECT_EQ(Range(0, 10).Estimate(), 10);
  EXPECT_LE(RelError(Range(0, 100).Estimate(), 100), 0.03);
}

TEST(ExecScanHll, Accuracy) {
  // Standard error is 1.04/sqrt(1024) ~ 3.3%; the inputs are fixed, so the
  // figures are deterministic.
  for (int64_t n : {1000, 3000, 10000, 100000, 1000000}) {
    const int64_t est = Range(0, n).Estimate();
    EXPECT_LE(RelError(est, n), 0.05) << "n=" << n << " estimate=" << est;
  }
  // Other value shapes: numbers as canonical text, long strings.
  Hll nums, longs;
  for (int i = 0; i < 100000; ++i) {
    nums.Update(std::to_string(i * 7919LL));
    longs.Update(std::string(40, 'x') + std::to_string(i));
  }
  EXPECT_LE(RelError(nums.Estimate(), 100000), 0.05) << nums.Estimate();
  EXPECT_LE(RelError(longs.Estimate(), 100000), 0.05) << longs.Estimate();
}

TEST(ExecScanHll, DuplicatesDoNotCount) {
  Hll once = Range(0, 5000);
  Hll many;
  for (int rep = 0; rep < 5; ++rep) {
    for (int i = 0; i < 5000; ++i) many.Update("value-" + std::to_string(i));
  }
  EXPECT_EQ(once, many);
}

TEST(ExecScanHll, MergeEqualsUnion) {
  Hll a = Range(0, 60000);
  Hll b = Range(40000, 100000);
  Hll merged = a;
  merged.Merge(b);
  EXPECT_EQ(merged, Range(0, 100000));
  EXPECT_LE(RelError(merged.Estimate(), 100000), 0.05) << merged.Estimate();
  // Merge is commutative, idempotent, and the empty sketch is its identity.
  Hll other = b;
  other.Merge(a);
  EXPECT_EQ(other, merged);
  other.Merge(a);
  EXPECT_EQ(other, merged);
  other.Merge(Hll());
  EXPECT_EQ(other, merged);
}

TEST(ExecScanHll, UpdateHashRule) {
  Hll h;
  h.UpdateHash((uint64_t{1} << 10) | 5);  // register 5, one trailing zero beyond: rank 1
  h.UpdateHash((uint64_t{8} << 10) | 6);  // register 6, three trailing zeros: rank 4
  h.UpdateHash(7);                         // register 7, all remaining bits zero: rank 55
  EXPECT_EQ(h.registers()[5], 1);
  EXPECT_EQ(h.registers()[6], 4);
  EXPECT_EQ(h.registers()[7], Hll::kMaxRegisterValue);
  h.UpdateHash((uint64_t{2} << 10) | 6);  // smaller rank does not lower it
  EXPECT_EQ(h.registers()[6], 4);
}

TEST(ExecScanHll, HashIsDeterministicAndSpreads) {
  EXPECT_EQ(MurmurHash64A("abc", Hll::kSeed), MurmurHash64A("abc", Hll::kSeed));
  EXPECT_NE(MurmurHash64A("abc", Hll::kSeed), MurmurHash64A("abc", 1));
  std::set<uint64_t> hashes;
  // Every tail length 0..16.
  for (int len = 0; len <= 16; ++len) hashes.insert(MurmurHash64A(std::string(len, 'a'), 7));
  EXPECT_EQ(hashes.size(), 17u);
}

TEST(ExecScanHll, SerializeRoundTrip) {
  const Hll h = Range(0, 20000);
  const std::string bytes = h.Serialize();
  ASSERT_EQ(bytes.size(), Hll::kNumRegisters);
  auto back = Hll::Deserialize(bytes);
  ASSERT_RESULT_OK(back);
  EXPECT_EQ(*back, h);
  EXPECT_EQ(back->Estimate(), h.Estimate());
  EXPECT_EQ(Hll::Deserialize(Hll().Serialize())->Estimate(), 0);
}

// Impala's EncodeNdv: (run length <= 255, value) pairs.
std::string ImpalaRle(const std::string& regs) {
  std::string out;
  size_t i = 0;
  while (i < regs.size()) {
    size_t run = 1;
    while (i + run < regs.size() && regs[i + run] == regs[i] && run < 255) ++run;
    out.push_back(static_cast<char>(run));
    out.push_back(regs[i]);
    i += run;
  }
  return out;
}

TEST(ExecScanHll, DeserializeImpalaRunLengthEncoding) {
  for (const Hll& h : {Hll(), Range(0, 3), Range(0, 50000)}) {
    auto back = Hll::Deserialize(ImpalaRle(h.Serialize()), /*is_encoded=*/true);
    ASSERT_RESULT_OK(back);
    EXPECT_EQ(*back, h);
  }
  EXPECT_TRUE(Hll::Deserialize(std::string(3, '\1'), true).status().Is(ErrorCode::kCorruption));
  EXPECT_TRUE(Hll::Deserialize(std::string("\xff\x01\xff\x01", 4), true)
                  .status()
                  .Is(ErrorCode::kCorruption));  // 510 registers only
}

TEST(ExecScanHll, DeserializeRejectsCorruptInput) {
  EXPECT_TRUE(Hll::Deserialize(std::string(1023, '\0')).status().Is(ErrorCode::kCorruption));
  EXPECT_TRUE(Hll::Deserialize(std::string(2048, '\0')).status().Is(ErrorCode::kCorruption));
  std::string bytes(Hll::kNumRegisters, '\0');
  bytes[100] = static_cast<char>(Hll::kMaxRegisterValue + 1);
  EXPECT_TRUE(Hll::Deserialize(bytes).status().Is(ErrorCode::kCorruption));
}

}  // namespace
}  // namespace ics::coord
