#include "common/hive/table_params.h"

#include <charconv>

namespace ics {

int64_t NumRowsOf(const std::map<std::string, std::string>& params) {
  auto it = params.find(kNumRowsParam);
  if (it == params.end()) return -1;
  int64_t v = -1;
  const std::string& s = it->second;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < -1) return -1;
  return v;
}

}  // namespace ics
