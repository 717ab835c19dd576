// The package's per-device contexts, the calling thread's current device and streams, and the
// element types.
#include "common.hpp"

#include <nanobind/stl/string.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>
#include <vector>

namespace xgpu_python {
namespace {

struct DTypeInfo {
  const char* name;
  std::size_t size;
};
constexpr DTypeInfo kDTypes[kDTypeCount] = {
    {"bool", 1},    {"int8", 1},    {"uint8", 1},   {"int16", 2},  {"uint16", 2},
    {"int32", 4},   {"uint32", 4},  {"int64", 8},   {"uint64", 8}, {"float16", 2},
    {"float32", 4}, {"float64", 8}, {"bfloat16", 2}};

// Made once and never destroyed: Python may drop arrays during its finalization, after C++
// statics would be gone, and the core copes with a process that exits holding contexts.
struct Registry {
  std::mutex mutex;
  std::vector<xgpu::Device> devices;
  std::vector<std::unique_ptr<DeviceState>> states;
  std::optional<std::size_t> default_device;
};

Registry& registry() {
  static Registry* registry = new Registry;
  return *registry;
}

// Per thread: the device set_device chose (none: the default) and the streams made current.
thread_local std::optional<std::size_t> t_device;
thread_local std::vector<StreamPtr> t_streams;

std::vector<xgpu::Device>& known_devices(Registry& r) {
  if (r.devices.empty()) {
    r.devices = xgpu::devices();
    r.states.resize(r.devices.size());
  }
  return r.devices;
}

}  // namespace

DType dtype_from_int(int code) {
  if (code < 0 || code >= kDTypeCount) throw nb::value_error("xgpu: unknown element type code");
  return static_cast<DType>(code);
}
namespace {
// To float rounded to odd (the nearest float toward zero, its lowest bit set when anything was
// dropped): float keeps 13 bits beyond half's and 16 beyond bfloat16's, so the nearest-even
// rounding that follows sees the double's ties and halves exactly as they were (one rounding,
// as NumPy's float64 -> float16), where a plain float cast would round twice.
float float_rounded_to_odd(double value) noexcept {
  float narrow = static_cast<float>(value);
  if (!std::isnan(value) && static_cast<double>(narrow) != value) {
    std::uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof(bits));
    if (std::fabs(static_cast<double>(narrow)) > std::fabs(value)) --bits;  // toward zero
    bits |= 1u;
    std::memcpy(&narrow, &bits, sizeof(bits));
  }
  return narrow;
}
}  // namespace

xgpu::half half_of(double value) noexcept { return xgpu::to_half(float_rounded_to_odd(value)); }

xgpu::bfloat16 bfloat16_of(double value) noexcept {
  return xgpu::to_bfloat16(float_rounded_to_odd(value));
}

const char* dtype_name(DType dtype) { return kDTypes[static_cast<int>(dtype)].name; }
std::size_t element_size(DType dtype) { return kDTypes[static_cast<int>(dtype)].size; }

std::uint64_t new_context_id() {
  // Above any device index: package contexts use theirs.
  static std::atomic<std::uint64_t> next{std::uint64_t{1} << 32};
  return next++;
}

namespace {
void check_index(const std::vector<xgpu::Device>& devices, std::size_t index) {
  if (index >= devices.size()) {
    throw nb::index_error(("xgpu: no device " + std::to_string(index) + " (there are " +
                           std::to_string(devices.size()) + ")")
                              .c_str());
  }
}
}  // namespace

xgpu::Device device_at(std::size_t index) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto& devices = known_devices(r);
  check_index(devices, index);
  return devices[index];
}

DeviceState& device_state(std::size_t index) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto& devices = known_devices(r);
  check_index(devices, index);
  if (!r.states[index]) {
    auto state = std::make_unique<DeviceState>();
    state->device = devices[index];
    state->context = xgpu::Context(state->device);
    // Profiling on: Event.elapsed_time needs the timestamps, which cost a CPU device little.
    state->default_stream = std::make_shared<Stream>(state->context.queue(xgpu::QueueOptions{true}),
                                                     index, static_cast<std::uint64_t>(index));
    r.states[index] = std::move(state);
  }
  return *r.states[index];
}

std::vector<DeviceState*> made_device_states() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<DeviceState*> made;
  for (auto& state : r.states) {
    if (state) made.push_back(state.get());
  }
  return made;
}

std::size_t current_device() {
  if (t_device) return *t_device;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!r.default_device) r.default_device = xgpu::select().index();
  return *r.default_device;
}

std::size_t device_index_of(nb::handle device) {
  if (!device.is_valid() || device.is_none()) return current_device();
  if (PyUnicode_Check(device.ptr())) return xgpu::select(nb::cast<std::string>(device)).index();
  nb::handle index =
      nb::hasattr(device, "index") && !PyIndex_Check(device.ptr()) ? device.attr("index") : device;
  const std::size_t value = nb::cast<std::size_t>(index);
  device_at(value);  // checks the index
  return value;
}

void set_current_device(std::size_t index) {
  device_state(index);  // checks the index
  t_device = index;
}

StreamPtr current_stream(std::size_t device) {
  if (device < t_streams.size() && t_streams[device]) return t_streams[device];
  // Remembered: the next ask of this thread takes no lock (every launch asks).
  StreamPtr stream = device_state(device).default_stream;
  set_current_stream(device, stream);
  return stream;
}

void set_current_stream(std::size_t device, StreamPtr stream) {
  if (t_streams.size() <= device) t_streams.resize(device + 1);
  t_streams[device] = std::move(stream);
}

BufferPtr allocate(const StreamPtr& stream, DType dtype, std::size_t count) {
  auto buffer = std::make_shared<DeviceBuffer>();
  buffer->dtype = dtype;
  buffer->home = stream;
  with_storage(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    buffer->buffer = stream->context().alloc<T>(count);
  });
  return buffer;
}

StreamPtr stream_for(const DeviceBuffer& buffer, const StreamPtr& given) {
  if (given) return given;
  StreamPtr current = current_stream(buffer.device_index());
  return current->context_id() == buffer.home->context_id() ? current : buffer.home;
}

void not_implemented(const std::string& message) {
  PyErr_SetString(PyExc_NotImplementedError, message.c_str());
  throw nb::python_error();
}

}  // namespace xgpu_python
