// What a DeviceGroup and its copies share: the members, and the weights that split work
// (fixed by set_weights, or measured by for_each), guarded by one mutex.
#pragma once

#include <mutex>
#include <optional>
#include <vector>
#include <xgpu/device_group.hpp>

namespace xgpu::detail {

struct GroupState {
  std::vector<DeviceGroup::Member> members;
  mutable std::mutex mutex;
  std::optional<std::vector<double>> fixed_weights;  // normalised; set by set_weights()
  std::vector<double> rates;           // measured elements per second; 0: never measured
  std::vector<unsigned> measurements;  // how many calls each rate comes from
};

}  // namespace xgpu::detail
