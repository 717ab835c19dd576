// xgpu::Event: a command's completion, status and profiling timestamps.
#pragma once

#include <chrono>
#include <cstdint>
#include <xgpu/export.hpp>
#include <xgpu/handle.hpp>

namespace xgpu {

/// Timestamps of a command in nanoseconds, from a queue made with profiling on.
/// The backend guarantees queued <= submit <= start <= end.
struct Profile {
  std::uint64_t queued = 0, submit = 0, start = 0, end = 0;
  std::chrono::nanoseconds duration() const { return std::chrono::nanoseconds(end - start); }
};

/// Where a command is; a failed command's Event::wait() throws.
enum class EventStatus { queued, submitted, running, complete };

class XGPU_API Event {
 public:
  Event() = default;
  explicit Event(detail::Handle<detail::ObjectKind::event> handle) : handle_(std::move(handle)) {}

  /// Blocks until the command completes; throws xgpu::Error if it failed.
  void wait() const;
  EventStatus status() const;
  /// Needs a queue made with profiling on; throws otherwise.
  Profile profile() const;

  explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
  void* raw() const noexcept { return handle_.get(); }
  const detail::Module* module() const noexcept { return handle_.module(); }

 private:
  detail::Handle<detail::ObjectKind::event> handle_;
};

}  // namespace xgpu
