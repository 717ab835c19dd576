// Lays out a Table: measures every column, then pads and paints each cell.
#include "table.hpp"

#include <algorithm>

namespace xgpu::cli {

std::size_t display_width(const std::string& text) {
  // Continuation bytes of UTF-8 (10xxxxxx) add no width.
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

void Table::add_column(std::string header, Align align) {
  columns_.push_back({std::move(header), align});
}

void Table::add_row(std::vector<Cell> cells) {
  cells.resize(std::max(cells.size(), columns_.size()), Cell(std::string()));
  rows_.push_back(std::move(cells));
}

void Table::print(std::ostream& out, const Style& style) const {
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = display_width(columns_[c].header);
    for (const auto& row : rows_) widths[c] = std::max(widths[c], display_width(row[c].text));
  }
  auto emit = [&](const std::vector<Cell>& cells, bool header) {
    std::string line;
    std::size_t pending_spaces = 0;  // padding is written only if something follows it
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const Cell& cell = cells[c];
      const std::size_t pad = widths[c] - display_width(cell.text);
      const bool right = columns_[c].align == Align::right;
      if (c > 0) pending_spaces += 2;
      if (right) pending_spaces += pad;
      if (!cell.text.empty()) {
        line.append(pending_spaces, ' ');
        pending_spaces = 0;
        line += header ? style.bold(cell.text) : style.paint(cell.text, cell.sgr);
      }
      if (!right) pending_spaces += pad;
    }
    out << line << '\n';
  };
  std::vector<Cell> header;
  for (const auto& column : columns_) header.emplace_back(column.header);
  emit(header, true);
  for (const auto& row : rows_) emit(row, false);
}

}  // namespace xgpu::cli
