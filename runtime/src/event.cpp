// Events: waiting, status and profiling. An empty Event stands for a command that had
// nothing to do (0 elements): it is complete. A command that fails on the device after it
// was enqueued (a kernel that faults, a copy the driver aborts) is reported by wait() and
// status() with what the command was and the status the device gave it.
#include "xgpu/event.hpp"

#include "module.hpp"
#include "objects.hpp"
#include "trace/hooks.hpp"

namespace xgpu {

std::string Event::command() const {
  if (kernel_) return "kernel '" + kernel_->name + "'";
  return command_ != nullptr ? command_ : "a command";
}

void Event::command_failed(std::int32_t status, const char* call) const {
  const detail::Module& module = *handle_.module();
  Error::Details details = detail::backend_error_details(module, status, call, device_);
  details.message = std::string(call) + ": " + command() + " failed on the device" +
                    (device_ ? " " + device_->info.name : std::string()) + ": " +
                    details.native_name + " (" + std::to_string(status) + ")";
  throw Error(std::move(details));
}

std::int32_t Event::failure() const noexcept {
  if (!handle_) return 0;
  const detail::Module& module = *handle_.module();
  std::int32_t state = 0;
  if (module.table->event_status(static_cast<xgpu_event>(handle_.get()), &state) !=
      XGPU_STATUS_SUCCESS)
    return 0;
  return state < 0 ? state : 0;
}

void Event::wait() const {
  if (!handle_) return;
  const detail::Module& module = *handle_.module();
  auto raw = static_cast<xgpu_event>(handle_.get());
  xgpu_status status = module.table->event_wait(&raw, 1);
  if (status == XGPU_STATUS_SUCCESS) {
    if (detail::trace::active()) detail::trace::event_waited();
    return;
  }
  // OpenCL's clWaitForEvents says only that some command failed: the event's own status
  // is the command's failure.
  std::int32_t state = 0;
  if (module.table->event_status(raw, &state) == XGPU_STATUS_SUCCESS && state < 0)
    command_failed(state, "Event::wait");
  detail::throw_backend_error(module, status, "Event::wait (" + command() + ")", device_);
}

EventStatus Event::status() const {
  if (!handle_) return EventStatus::complete;
  const detail::Module& module = *handle_.module();
  std::int32_t state = 0;
  detail::check(module, module.table->event_status(static_cast<xgpu_event>(handle_.get()), &state),
                "Event::status", device_);
  if (state < 0) command_failed(state, "Event::status");
  switch (state) {
    case XGPU_EVENT_QUEUED:
      return EventStatus::queued;
    case XGPU_EVENT_SUBMITTED:
      return EventStatus::submitted;
    case XGPU_EVENT_RUNNING:
      return EventStatus::running;
    default:
      return EventStatus::complete;
  }
}

EventTimes Event::profile() const {
  if (!handle_) {
    throw Error(Errc::invalid_handle,
                "this Event is empty (its command had nothing to do): it has no timestamps",
                "Event::profile");
  }
  const detail::Module& module = *handle_.module();
  auto raw = static_cast<xgpu_event>(handle_.get());
  EventTimes profile;
  std::pair<std::uint32_t, std::uint64_t*> points[] = {{XGPU_PROFILE_QUEUED, &profile.queued},
                                                       {XGPU_PROFILE_SUBMIT, &profile.submit},
                                                       {XGPU_PROFILE_START, &profile.start},
                                                       {XGPU_PROFILE_END, &profile.end}};
  for (auto& [point, out] : points) {
    xgpu_status status = module.table->event_profile(raw, point, out);
    if (status != XGPU_STATUS_SUCCESS) {
      detail::throw_backend_error(
          module, status, "Event::profile (was the queue made with QueueOptions{true}?)", device_);
    }
  }
  return profile;
}

}  // namespace xgpu
