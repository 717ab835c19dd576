// xgpu::Range and xgpu::Launch: the shape of a kernel launch.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <vector>
#include <xgpu/event.hpp>

namespace xgpu {

/// A 1-, 2- or 3-dimensional size (global size, work-group size or offset).
struct Range {
  explicit Range(std::size_t x) : dims(1), size{x, 1, 1} {}
  Range(std::size_t x, std::size_t y) : dims(2), size{x, y, 1} {}
  Range(std::size_t x, std::size_t y, std::size_t z) : dims(3), size{x, y, z} {}
  std::size_t total() const { return size[0] * size[1] * size[2]; }

  unsigned dims;
  std::array<std::size_t, 3> size;
};

/// A launch with every option: global size, and optionally the work-group size, a global
/// offset, and events to wait for. Built fluently:
///   q.launch(k, xgpu::Launch(xgpu::Range{n}).local(xgpu::Range{64}).offset(xgpu::Range{16}), ...)
class Launch {
 public:
  explicit Launch(Range global) : global_(global) {}
  Launch& local(Range work_group) {
    local_ = work_group;
    return *this;
  }
  Launch& offset(Range global_offset) {
    offset_ = global_offset;
    return *this;
  }
  Launch& after(std::vector<Event> events) {
    wait_ = std::move(events);
    return *this;
  }

  const Range& global() const { return global_; }
  const std::optional<Range>& local() const { return local_; }
  const std::optional<Range>& offset() const { return offset_; }
  const std::vector<Event>& wait_list() const { return wait_; }

 private:
  Range global_;
  std::optional<Range> local_;
  std::optional<Range> offset_;
  std::vector<Event> wait_;
};

}  // namespace xgpu
