#include "coordinator-sim/shell/table_printer.h"

#include <algorithm>

namespace ics::coord {

std::string FormatTable(const std::vector<std::string>& columns,
                        const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) width[c] = columns[c].size();
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  std::string rule = "+";
  for (size_t w : width) rule += std::string(w + 2, '-') + "+";
  rule += "\n";
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out = "|";
    for (size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      out += " " + cell + std::string(width[c] - cell.size(), ' ') + " |";
    }
    return out + "\n";
  };
  std::string out = rule + line(columns) + rule;
  for (const auto& row : rows) out += line(row);
  return out + rule;
}

}  // namespace ics::coord
