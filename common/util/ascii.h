// ASCII case folding: Hive and SQL names, keywords and flag values fold
// only the letters A-Z, whatever the locale.
//
// Thread-safety: stateless.
#pragma once

#include <string>
#include <string_view>

namespace ics {

// `s` with A-Z mapped to a-z; every other byte (UTF-8 included) is kept.
inline std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace ics
