// Reference counting of backend objects through the module table, and what happens to the
// objects still held when the process exits.
//
// Once exit() has begun, releases are skipped: the objects are left to the operating system.
// A driver is not fit to be called by then. exit() first destroys the exiting thread's
// thread-locals (Oclgrind keeps its API call stack in one and pushes onto the destroyed
// stack at the next call: "corrupted double-linked list"), then runs the static destructors
// of every library, last registered first, so a driver's statics (and LLVM's, under PoCL and
// Oclgrind) are gone before the program's own globals, which were registered before any
// driver was loaded, release what they hold. Two markers say that exit has begun, both made
// when the registry has loaded the modules (after the drivers' own): a thread-local of the
// thread that made the registry, destroyed first when that thread exits (the main thread:
// the process exits), and an atexit handler for an exit() from any other thread. A registry
// made on a worker thread leaves the main thread without a marker: every thread that asks the
// registry for anything (devices(), select(), ...) gets one too, and the main thread's marks
// the exit. Made at the main thread's first such call, it may precede the driver's own
// thread-locals there (made at its first driver call): those are then destroyed before it,
// with any thread-local made between the two; the exit handlers and static destructors, after.
#include "xgpu/handle.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include "log.hpp"
#include "module.hpp"

namespace xgpu::detail {
namespace {

std::atomic<bool> process_exiting{false};

void mark_exiting() { process_exiting.store(true, std::memory_order_relaxed); }

// Destroyed with the thread-locals of the thread that made it; only the main thread's end
// is the process's.
struct ExitMarker {
  ~ExitMarker() {
    if (static_cast<pid_t>(syscall(SYS_gettid)) == getpid()) mark_exiting();
  }
};

}  // namespace

void watch_for_exit() {
  static const bool registered = [] {
    std::atexit(mark_exiting);
    return true;
  }();
  (void)registered;
  thread_local ExitMarker marker;
  (void)marker;
}

bool exit_has_begun() noexcept { return process_exiting.load(std::memory_order_relaxed); }

void retain_object(const Module* module, ObjectKind kind, void* raw) {
  check(*module, module->table->retain(static_cast<std::uint32_t>(kind), raw), "retain", nullptr);
}

void release_object(const Module* module, ObjectKind kind, void* raw) noexcept {
  if (exit_has_begun()) return;  // left to the operating system: see the top of this file
  xgpu_status status = module->table->release(static_cast<std::uint32_t>(kind), raw);
  if (status != XGPU_STATUS_SUCCESS) {
    // A destructor must not throw: the failure is logged, never lost.
    logger().warn("releasing a backend object of kind {} failed: {} {}",
                  static_cast<std::uint32_t>(kind), module->status_name(status),
                  module->last_error());
  }
}

}  // namespace xgpu::detail
