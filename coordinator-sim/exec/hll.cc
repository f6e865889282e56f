#include "coordinator-sim/exec/hll.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ics::coord {

uint64_t MurmurHash64A(std::string_view data, uint64_t seed) {
  constexpr uint64_t kM = 0xc6a4a7935bd1e995ULL;
  constexpr int kR = 47;
  const size_t len = data.size();
  uint64_t h = seed ^ (static_cast<uint64_t>(len) * kM);
  const char* p = data.data();
  const char* end = p + (len & ~size_t{7});
  for (; p != end; p += 8) {
    uint64_t k;
    std::memcpy(&k, p, 8);
    k *= kM;
    k ^= k >> kR;
    k *= kM;
    h ^= k;
    h *= kM;
  }
  const auto* tail = reinterpret_cast<const unsigned char*>(p);
  switch (len & 7) {
    case 7: h ^= uint64_t{tail[6]} << 48; [[fallthrough]];
    case 6: h ^= uint64_t{tail[5]} << 40; [[fallthrough]];
    case 5: h ^= uint64_t{tail[4]} << 32; [[fallthrough]];
    case 4: h ^= uint64_t{tail[3]} << 24; [[fallthrough]];
    case 3: h ^= uint64_t{tail[2]} << 16; [[fallthrough]];
    case 2: h ^= uint64_t{tail[1]} << 8; [[fallthrough]];
    case 1:
      h ^= uint64_t{tail[0]};
      h *= kM;
      break;
    default:
      break;
  }
  h ^= h >> kR;
  h *= kM;
  h ^= h >> kR;
  return h;
}

void Hll::UpdateHash(uint64_t hash) {
  const size_t index = hash & (kNumRegisters - 1);
  hash >>= kPrecision;
  // 1 + trailing zeros among the remaining 54 bits (55 when all are zero).
  uint8_t rank = 1;
  while (rank < kMaxRegisterValue && (hash & 1) == 0) {
    ++rank;
    hash >>= 1;
  }
  registers_[index] = std::max(registers_[index], rank);
}

void Hll::Merge(const Hll& other) {
  for (size_t i = 0; i < kNumRegisters; ++i) {
    registers_[i] = std::max(registers_[i], other.registers_[i]);
  }
}

int64_t Hll::Estimate() const {
  const double m = static_cast<double>(kNumRegisters);
  double sum = 0;
  size_t zeros = 0;
  for (uint8_t r : registers_) {
    sum += std::ldexp(1.0, -static_cast<int>(r));
    if (r == 0) ++zeros;
  }
  if (zeros == kNumRegisters) return 0;
  const double alpha = 0.7213 / (1.0 + 1.079 / m);
  double estimate = alpha * m * m / sum;
  if (estimate <= 2.5 * m && zeros > 0) {
    estimate = m * std::log(m / static_cast<double>(zeros));  // linear counting
  }
  return std::llround(estimate);
}

std::string Hll::Serialize() const {
  return std::string(reinterpret_cast<const char*>(registers_.data()), kNumRegisters);
}

Result<Hll> Hll::Deserialize(std::string_view bytes, bool is_encoded) {
  Hll out;
  if (!is_encoded) {
    if (bytes.size() != kNumRegisters) {
      return Status::Corruption("HLL registers: expected " + std::to_string(kNumRegisters) +
                                " bytes, got " + std::to_string(bytes.size()));
    }
    std::memcpy(out.registers_.data(), bytes.data(), kNumRegisters);
  } else {
    if (bytes.size() % 2 != 0) {
      return Status::Corruption("run-length encoded HLL has an odd size " +
                                std::to_string(bytes.size()));
    }
    size_t idx = 0;
    for (size_t i = 0; i < bytes.size(); i += 2) {
      const size_t run = static_cast<unsigned char>(bytes[i]);
      if (idx + run > kNumRegisters) {
        return Status::Corruption("run-length encoded HLL decodes to more than " +
                                  std::to_string(kNumRegisters) + " registers");
      }
      std::memset(out.registers_.data() + idx, static_cast<unsigned char>(bytes[i + 1]), run);
      idx += run;
    }
    if (idx != kNumRegisters) {
      return Status::Corruption("run-length encoded HLL decodes to " + std::to_string(idx) +
                                " registers, expected " + std::to_string(kNumRegisters));
    }
  }
  for (uint8_t r : out.registers_) {
    if (r > kMaxRegisterValue) {
      return Status::Corruption("HLL register value " + std::to_string(r) + " above " +
                                std::to_string(kMaxRegisterValue));
    }
  }
  return out;
}

}  // namespace ics::coord
