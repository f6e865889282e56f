#include "common/util/unique_id.h"

#include <cinttypes>
#include <cstdio>
#include <random>

namespace ics {

impala::TUniqueId GenerateUniqueId() {
  thread_local std::mt19937_64 gen([] {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd()};
    return std::mt19937_64(seq);
  }());
  impala::TUniqueId id;
  id.hi = static_cast<int64_t>(gen());
  id.lo = static_cast<int64_t>(gen());
  return id;
}

std::string PrintId(const impala::TUniqueId& id) {
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%016" PRIx64 ":%016" PRIx64, static_cast<uint64_t>(id.hi),
                static_cast<uint64_t>(id.lo));
  return buf;
}

}  // namespace ics
