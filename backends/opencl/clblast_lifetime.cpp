// Emptying CLBlast's caches while the drivers are whole (see clblast_lifetime.hpp).
#include "clblast_lifetime.hpp"

#include <cstdlib>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "serialized_call.hpp"
#include "xgpu/common/log.hpp"

namespace xgpu::backend_opencl {
namespace {

struct ContextRecord {
  long references = 0;  ///< the caller's references, counted by the module's entries
  bool clblast_used = false;
};

struct State {
  std::mutex mutex;
  std::unordered_map<cl_context, ContextRecord> contexts;
  std::unordered_set<cl_device_id> devices_used;  ///< each has its exit handler
  ClblastClearCache clear = nullptr;              ///< set at CLBlast's first use
  bool exiting = false;  ///< the exit handler ran: never call CLBlast again
  bool warned = false;
};

// Never destroyed: the core releases objects after main() returns, and the exit handler
// must find the state whole whenever it runs.
State& state() {
  static State* instance = new State;
  return *instance;
}

// Lock order: the driver lock (serialize_all_calls; emptying the caches releases programs of
// any platform), then the state's mutex, as in release() of a context of such a platform.
// Never called with the state's mutex held.
void clear_caches(bool at_exit) {
  State& s = state();
  lock_driver();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.clear != nullptr && !s.exiting) {
      s.clear();
      XGPU_LOG_DEBUGF("CLBlast's program caches emptied%s", at_exit ? " at exit" : "");
    }
    if (at_exit) s.exiting = true;
  }
  unlock_driver();
}

// On a thread of its own: the exiting thread's thread-locals are destroyed by now, and a
// driver may keep state in them (Oclgrind's API call stack, which every call pushes onto).
void clear_at_exit() {
  try {
    std::thread([] { clear_caches(true); }).join();
  } catch (const std::exception&) {
    clear_caches(true);  // no thread to be had: the exiting thread it is
  }
}

}  // namespace

void clblast_used(cl_context context, cl_device_id device, ClblastClearCache clear) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (clear == nullptr) {
    if (!s.warned) {
      XGPU_LOG_WARNF(
          "this CLBlast has no CLBlastClearCache: its programs are released only at exit, "
          "which may crash a driver that is torn down by then");
    }
    s.warned = true;
    return;
  }
  s.clear = clear;
  s.contexts[context].clblast_used = true;
  // Once per device, after CLBlast's first call on it: see point 2 of the header. (Per
  // device, not per context, so that a process making many contexts registers few handlers.)
  if (s.devices_used.insert(device).second) std::atexit(clear_at_exit);
}

void context_referenced(cl_context context) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ++s.contexts[context].references;
}

void context_unreferencing(cl_context context) {
  State& s = state();
  bool clear = false;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    auto found = s.contexts.find(context);
    if (found == s.contexts.end()) return;  // a context the module never counted
    if (--found->second.references > 0) return;
    clear = found->second.clblast_used;
    s.contexts.erase(found);
  }
  if (clear) clear_caches(false);
}

}  // namespace xgpu::backend_opencl
