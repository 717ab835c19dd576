// DeviceGroup: its members (a context and a profiling queue per device), builds, weights
// and for_each. The split rule itself is in weights.cpp.
#include <chrono>
#include <string>

#include "group_state.hpp"
#include "weights.hpp"

namespace xgpu {

namespace {

std::shared_ptr<detail::GroupState> make_state(const std::vector<Device>& devices) {
  auto state = std::make_shared<detail::GroupState>();
  state->members.reserve(devices.size());
  for (const Device& device : devices) {
    Context context(device);
    Queue queue = context.queue(QueueOptions{true});
    state->members.push_back(DeviceGroup::Member{device, context, queue});
  }
  state->rates.assign(devices.size(), 0.0);
  state->measurements.assign(devices.size(), 0);
  return state;
}

std::vector<Device> checked(std::vector<Device> devices) {
  const char* call = "DeviceGroup::DeviceGroup";
  if (devices.empty()) {
    throw Error(Errc::invalid_argument, "DeviceGroup: the list of devices is empty", call);
  }
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i]) {
      throw Error(Errc::invalid_argument,
                  "DeviceGroup: device " + std::to_string(i) + " is an empty Device", call);
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (devices[j] == devices[i]) {
        throw Error(Errc::invalid_argument,
                    "DeviceGroup: device " + devices[i].describe() + " is listed twice (at " +
                        std::to_string(j) + " and " + std::to_string(i) +
                        "); each device may appear once",
                    call);
      }
      // One GPU through two modules: two contexts and two pools each thinking it owns the
      // card, and a split that counts it twice.
      if (devices[j].is_alias_of(devices[i])) {
        throw Error(Errc::invalid_argument,
                    "DeviceGroup: " + devices[j].describe() + " (at " + std::to_string(j) +
                        ") and " + devices[i].describe() + " (at " + std::to_string(i) +
                        ") are one physical device (" + devices[i].physical_id() +
                        ") through two backends; list it once",
                    call);
      }
    }
  }
  return devices;
}

std::vector<Device> selected(std::string_view selector) {
  std::vector<Device> devices = select_all(selector);
  if (devices.empty()) {
    throw Error(Errc::no_device,
                "DeviceGroup: no device matches selector '" + std::string(selector) + "'",
                "DeviceGroup::DeviceGroup");
  }
  // A selector naming no backend sees each physical device once; "cuda:0,opencl:0" does not.
  return checked(std::move(devices));
}

}  // namespace

DeviceGroup::DeviceGroup(std::string_view selector) : state_(make_state(selected(selector))) {}

DeviceGroup::DeviceGroup(std::vector<Device> devices)
    : state_(make_state(checked(std::move(devices)))) {}

std::size_t DeviceGroup::size() const { return state_->members.size(); }

const DeviceGroup::Member& DeviceGroup::operator[](std::size_t i) const {
  detail::check_index(i, size(), "DeviceGroup::operator[]");
  return state_->members[i];
}

std::vector<Program> DeviceGroup::build(const Source& source, std::string_view options,
                                        const std::vector<Source>& headers) const {
  std::vector<Program> programs(size());
  detail::run_per_device(*state_, "DeviceGroup::build", size(), [&](std::size_t i) {
    programs[i] = state_->members[i].context.build(source, options, headers);
  });
  return programs;
}

std::vector<double> DeviceGroup::weights() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  if (state_->fixed_weights) return *state_->fixed_weights;
  return detail::weights_from_rates(state_->rates, state_->measurements);
}

std::vector<Slice> DeviceGroup::split(std::size_t n) const {
  return detail::split_by_weights(n, weights());
}

void DeviceGroup::set_weights(std::vector<double> weights) {
  auto normalised = detail::normalised_weights(weights, size());
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->fixed_weights = std::move(normalised);
}

void DeviceGroup::adapt_weights() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->fixed_weights.reset();
}

void DeviceGroup::for_each(std::size_t n,
                           const std::function<void(Queue&, std::size_t, Slice)>& body) const {
  for_each_slices(split(n), body);
}

void DeviceGroup::for_each_slices(
    const std::vector<Slice>& slices,
    const std::function<void(Queue&, std::size_t, Slice)>& body) const {
  std::vector<double> seconds(size(), 0.0);
  detail::run_per_device(*state_, "DeviceGroup::for_each", size(), [&](std::size_t i) {
    if (slices[i].count == 0) return;
    Queue queue = state_->members[i].queue;
    const auto start = std::chrono::steady_clock::now();
    body(queue, i, slices[i]);
    queue.finish();
    seconds[i] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
  // Only a call where every device succeeded is measured: a failed one's times say nothing.
  // Rates are kept while weights are fixed, so adapt_weights() resumes from recent ones.
  std::lock_guard<std::mutex> lock(state_->mutex);
  for (std::size_t i = 0; i < size(); ++i) {
    if (slices[i].count == 0) continue;  // keeps the rate it had
    state_->rates[i] = detail::updated_rate(state_->rates[i], slices[i].count, seconds[i]);
    ++state_->measurements[i];
  }
}

}  // namespace xgpu
