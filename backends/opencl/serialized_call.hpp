// The locking workarounds of the table of known drivers (known_drivers.def). serialize_all_calls:
// while an entry calls into a driver with that quirk, it holds one process-wide recursive lock.
// serialize_compiles: entries that may make the driver compile (build, binaries, launches) hold one
// process-wide compile lock. Entries run their body under guard_on(handle, ...) or
// guard_compiling(handle, ...) instead of guard(...), naming the handle the ICD loader
// dispatches the call through (the first object argument), i.e. the driver it reaches.
//
// No deadlock can come of it: the compile lock is always taken inside the driver lock, and
// no call holds either while it waits without bound for commands to end (a command may wait
// for a user event, placed through interop, that another thread sets only after its next
// launch): the one wait under the compile lock, a binary fetch's for the queues to drain
// (tracked_queues.hpp), ends within 100 ms.
#pragma once

#include "compile_lock.hpp"
#include "errors.hpp"
#include "quirk_platforms.hpp"

namespace xgpu::backend_opencl {

void lock_driver();
void unlock_driver();

inline void lock_compiler() { g_compile_lock.lock(); }
inline void unlock_compiler() { g_compile_lock.unlock(); }

/// Holds a lock for its lifetime when `handle` belongs to a platform with workaround `Id`; does
/// nothing otherwise (and for NULL). Inline, so that an entry of an unaffected driver pays
/// one load and a branch.
template <Workaround Id, void (*Lock)(), void (*Unlock)()>
class QuirkLock {
 public:
  explicit QuirkLock(const void* handle) : locked_(quirk_on(Id, handle)) {
    if (locked_) Lock();
  }
  ~QuirkLock() {
    if (locked_) Unlock();
  }
  QuirkLock(const QuirkLock&) = delete;
  QuirkLock& operator=(const QuirkLock&) = delete;

 private:
  bool locked_;
};

using SerializedCall = QuirkLock<Workaround::serialize_all_calls, lock_driver, unlock_driver>;
using SerializedCompile = QuirkLock<Workaround::serialize_compiles, lock_compiler, unlock_compiler>;

/// guard(), with the driver lock held around the body when `handle` needs it.
template <class F>
xgpu_status guard_on(const void* handle, F&& body) noexcept {
  return guard([&] {
    SerializedCall serialized(handle);
    return body();
  });
}

/// guard_on() for entries that may make the driver compile.
template <class F>
xgpu_status guard_compiling(const void* handle, F&& body) noexcept {
  return guard_on(handle, [&] {
    SerializedCompile serialized(handle);
    return body();
  });
}

}  // namespace xgpu::backend_opencl
