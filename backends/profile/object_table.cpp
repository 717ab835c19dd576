// The table of forwarded objects.
#include "object_table.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "xgpu/common/errors.hpp"

namespace xgpu::profile {
namespace {

struct Tracked {
  ProfileDevice* device = nullptr;
  std::uint32_t references = 1;
  std::uint64_t bytes = 0;
  void* parent = nullptr;
  std::map<std::uint32_t, ArgNote> args;
  std::optional<std::uint64_t> static_local;  ///< a kernel's own local memory, from its creation
  std::uint64_t size = 0;                     ///< a buffer's bytes, sub-buffers too
  std::vector<std::uint64_t> arg_spaces;      ///< a kernel's arguments' address spaces
};

std::mutex g_mutex;
std::unordered_map<void*, Tracked> g_objects;

// With g_mutex held.
void release_locked(void* object) {
  auto found = g_objects.find(object);
  if (found == g_objects.end()) return;
  if (--found->second.references != 0) return;
  Tracked gone = std::move(found->second);
  g_objects.erase(found);
  if (gone.bytes != 0) {
    std::lock_guard<std::mutex> lock(gone.device->memory_mutex);
    gone.device->live_bytes -= std::min(gone.device->live_bytes, gone.bytes);
  }
  if (gone.parent) release_locked(gone.parent);
}

}  // namespace

void track(void* object, ProfileDevice& device, std::uint64_t bytes, void* parent) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (parent) {
    auto found = g_objects.find(parent);
    if (found != g_objects.end()) ++found->second.references;
  }
  // A handle the driver reuses after freeing it starts afresh.
  Tracked& tracked = g_objects[object];
  tracked = Tracked{};
  tracked.device = &device;
  tracked.bytes = bytes;
  tracked.parent = parent;
}

ProfileDevice& device_of(void* object, const char* what) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(object);
  if (found == g_objects.end())
    common::fail(XGPU_STATUS_INVALID_VALUE,
                 std::string("this ") + what + " was not made by the profile module");
  return *found->second.device;
}

void note_retain(void* object) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(object);
  if (found != g_objects.end()) ++found->second.references;
}

void note_release(void* object) {
  std::lock_guard<std::mutex> lock(g_mutex);
  release_locked(object);
}

void note_arg(void* kernel, std::uint32_t index, ArgNote arg) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(kernel);
  if (found != g_objects.end()) found->second.args[index] = arg;
}

std::map<std::uint32_t, ArgNote> args_of(void* kernel) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(kernel);
  return found == g_objects.end() ? std::map<std::uint32_t, ArgNote>{} : found->second.args;
}

void note_buffer_size(void* buffer, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(buffer);
  if (found != g_objects.end()) found->second.size = bytes;
}

std::uint64_t buffer_size_of(void* buffer) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(buffer);
  return found == g_objects.end() ? 0 : found->second.size;
}

void note_arg_spaces(void* kernel, std::vector<std::uint64_t> spaces) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(kernel);
  if (found != g_objects.end()) found->second.arg_spaces = std::move(spaces);
}

std::vector<std::uint64_t> arg_spaces_of(void* kernel) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(kernel);
  return found == g_objects.end() ? std::vector<std::uint64_t>{} : found->second.arg_spaces;
}

void note_static_local(void* kernel, std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(kernel);
  if (found != g_objects.end()) found->second.static_local = bytes;
}

std::optional<std::uint64_t> static_local_of(void* kernel) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto found = g_objects.find(kernel);
  return found == g_objects.end() ? std::nullopt : found->second.static_local;
}

}  // namespace xgpu::profile
