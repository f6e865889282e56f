// Splitting flag values such as "a,b,,c" into their non-empty items.
//
// Thread-safety: a pure function.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ics {

// The items of `text` between `sep` characters, empty ones dropped, in order.
inline std::vector<std::string> SplitNonEmpty(std::string_view text, char sep = ',') {
  std::vector<std::string> out;
  while (!text.empty()) {
    const size_t at = text.find(sep);
    const std::string_view item = text.substr(0, at);
    if (!item.empty()) out.emplace_back(item);
    if (at == std::string_view::npos) break;
    text.remove_prefix(at + 1);
  }
  return out;
}

}  // namespace ics
