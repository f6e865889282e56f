// Formats a result table the way impala-shell does:
//   +------+-----+
//   | name | n   |
//   +------+-----+
//   | a    | 1   |
//   +------+-----+
// Thread-safety: stateless.
#pragma once

#include <string>
#include <vector>

namespace ics::coord {

std::string FormatTable(const std::vector<std::string>& columns,
                        const std::vector<std::vector<std::string>>& rows);

}  // namespace ics::coord
