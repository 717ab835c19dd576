// The process-wide driver lock of serialize_all_calls.
#include "serialized_call.hpp"

#include <mutex>

namespace xgpu::backend_opencl {
namespace {

// Recursive: a serialized entry may reach another serialized call on the same thread (an
// entry's helper, or a driver calling back into code that calls the module). Never destroyed:
// the core still releases objects after main() returns.
std::recursive_mutex& driver_lock() {
  static std::recursive_mutex* lock = new std::recursive_mutex;
  return *lock;
}

}  // namespace

void lock_driver() { driver_lock().lock(); }

void unlock_driver() { driver_lock().unlock(); }

}  // namespace xgpu::backend_opencl
