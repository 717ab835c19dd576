// The serialize_all_calls workaround (quirks.cpp): while an entry calls into a driver with
// that quirk, it holds one process-wide recursive lock. Entries run their body under
// guard_on(handle, ...) instead of guard(...), naming the handle the ICD loader dispatches the
// call through (the first object argument), i.e. the driver the call reaches.
//
// No deadlock can come of it: the ABI offers no user events, so no call under the lock waits
// for another thread's call.
#pragma once

#include "errors.hpp"
#include "quirk_platforms.hpp"

namespace xgpu::opencl {

/// Holds the driver lock for its lifetime when `handle` belongs to a platform with
/// serialize_all_calls; does nothing otherwise (and for NULL). Inline, so that an entry of an
/// unaffected driver pays one load and a branch.
class SerializedCall {
 public:
  explicit SerializedCall(const void* handle)
      : locked_(quirk_on(QuirkId::kSerializeAllCalls, handle)) {
    if (locked_) lock_driver();
  }
  ~SerializedCall() {
    if (locked_) unlock_driver();
  }
  SerializedCall(const SerializedCall&) = delete;
  SerializedCall& operator=(const SerializedCall&) = delete;

 private:
  static void lock_driver();
  static void unlock_driver();
  bool locked_;
};

/// Holds the compile lock for its lifetime when `handle` belongs to a platform with
/// serialize_compiles; does nothing otherwise.
class SerializedCompile {
 public:
  explicit SerializedCompile(const void* handle)
      : locked_(quirk_on(QuirkId::kSerializeCompiles, handle)) {
    if (locked_) lock_compiler();
  }
  ~SerializedCompile() {
    if (locked_) unlock_compiler();
  }
  SerializedCompile(const SerializedCompile&) = delete;
  SerializedCompile& operator=(const SerializedCompile&) = delete;

 private:
  static void lock_compiler();
  static void unlock_compiler();
  bool locked_;
};

/// guard(), with the driver lock held around the body when `handle` needs it.
template <class F>
xgpu_status guard_on(const void* handle, F&& body) noexcept {
  return guard([&] {
    SerializedCall serialized(handle);
    return body();
  });
}

/// guard_on() for entries that may make the driver compile (build, binaries, launches).
template <class F>
xgpu_status guard_compiling(const void* handle, F&& body) noexcept {
  return guard_on(handle, [&] {
    SerializedCompile serialized(handle);
    return body();
  });
}

}  // namespace xgpu::opencl
