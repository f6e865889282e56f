// JoinPath: a directory and a name below it, one '/' between them.
//
// JoinPath("/w/t", "k=1") and JoinPath("/w/t/", "k=1") are both "/w/t/k=1";
// an empty name gives the directory unchanged (an unpartitioned table's
// partition is its table's directory).
#pragma once

#include <string>
#include <string_view>

namespace ics {

inline std::string JoinPath(std::string_view dir, std::string_view name) {
  std::string out(dir);
  if (name.empty()) return out;
  if (out.empty() || out.back() != '/') out += '/';
  out += name;
  return out;
}

}  // namespace ics
