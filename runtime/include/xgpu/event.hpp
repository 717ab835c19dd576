// xgpu::Event: a command's completion, status and profiling timestamps.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <xgpu/export.hpp>
#include <xgpu/handle.hpp>

namespace xgpu {
class Queue;
namespace detail {
struct KernelState;
struct DeviceRecord;
struct Internals;
}  // namespace detail

/// Timestamps of a command in nanoseconds, from a queue made with profiling on (Event::profile).
/// The backend guarantees queued <= submit <= start <= end.
struct EventTimes {
  std::uint64_t queued = 0, submit = 0, start = 0, end = 0;
  std::chrono::nanoseconds duration() const { return std::chrono::nanoseconds(end - start); }
};
/// The old name of EventTimes: a profile is a simulated device (xgpu/profile.hpp).
using Profile [[deprecated("xgpu::Profile is now xgpu::EventTimes")]] = EventTimes;

/// Where a command is; a failed command's Event::wait() throws.
enum class EventStatus { queued, submitted, running, complete };

class XGPU_API Event {
 public:
  Event() = default;

  /// Blocks until the command completes; throws xgpu::Error naming the command, its device
  /// and its status if it failed on the device.
  void wait() const;
  EventStatus status() const;
  /// Needs a queue made with profiling on; throws otherwise.
  EventTimes profile() const;

  explicit operator bool() const noexcept { return static_cast<bool>(handle_); }
  void* raw() const noexcept { return handle_.get(); }
  const detail::Module* module() const noexcept { return handle_.module(); }
  /// What the command was: "kernel 'saxpy'", "Queue::copy", ...; "a command" when unknown.
  std::string command() const;

 private:
  friend struct detail::Internals;
  friend class Queue;  // Queue::finish names a failed command of its own
  [[noreturn]] void command_failed(std::int32_t status, const char* call) const;
  /// The command's status when it failed on the device (negative), else 0; never throws.
  std::int32_t failure() const noexcept;
  /// `command` (static text: "Queue::fill", "kernel"), the device it runs on and, for a
  /// kernel, its state (for its name) say what the command was, for the error of a command
  /// that fails on the device.
  Event(detail::Handle<detail::ObjectKind::event> handle, const char* command,
        const detail::DeviceRecord* device,
        std::shared_ptr<const detail::KernelState> kernel = nullptr)
      : handle_(std::move(handle)),
        command_(command),
        device_(device),
        kernel_(std::move(kernel)) {}

  detail::Handle<detail::ObjectKind::event> handle_;
  const char* command_ = nullptr;
  const detail::DeviceRecord* device_ = nullptr;
  std::shared_ptr<const detail::KernelState> kernel_;
};

}  // namespace xgpu
