#include "common/hive/table_params.h"

#include <charconv>

namespace ics {

int64_t NumRowsOf(const std::map<std::string, std::string>& params) {
  auto it = params.find(kNumRowsParam);
  return it == params.end() ? -1 : NumRowsValue(it->second);
}

int64_t NumRowsValue(std::string_view s) {
  int64_t v = -1;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < -1) return -1;
  return v;
}

}  // namespace ics
