// A plain text table: columns sized to their widest cell, header in bold when colour is on.
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "color.hpp"

namespace xgpu::cli {

/// One cell: its text and an optional SGR colour code applied after padding, so that
/// escapes never upset the alignment.
struct Cell {
  Cell(std::string text_in, std::string sgr_in = {})
      : text(std::move(text_in)), sgr(std::move(sgr_in)) {}
  Cell(const char* text_in) : text(text_in) {}
  std::string text;
  std::string sgr;
};

class Table {
 public:
  enum class Align { left, right };

  void add_column(std::string header, Align align = Align::left);
  /// A row with fewer cells than columns is padded with empty ones.
  void add_row(std::vector<Cell> cells);
  bool empty() const { return rows_.empty(); }
  /// Columns are separated by two spaces; trailing spaces are not written.
  void print(std::ostream& out, const Style& style) const;

 private:
  struct Column {
    std::string header;
    Align align;
  };
  std::vector<Column> columns_;
  std::vector<std::vector<Cell>> rows_;
};

/// Width of UTF-8 text in terminal columns, counting one per code point.
std::size_t display_width(const std::string& text);

}  // namespace xgpu::cli
