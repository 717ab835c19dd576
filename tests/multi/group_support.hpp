// Helpers of the DeviceGroup tests: the group a CTest entry names, and a saxpy kernel.
#pragma once

#include <string>
#include <xgpu/device_group.hpp>

#include "test_support.hpp"

namespace xgpu_test {

/// The group the CTest entry asks for: XGPU_TEST_GROUP is its selector and
/// XGPU_TEST_GROUP_SIZE how many devices it must hold, so a group that lost a device
/// fails here instead of quietly testing less.
inline xgpu::DeviceGroup group_under_test() {
  const auto selector = env("XGPU_TEST_GROUP");
  const auto expected = env_number("XGPU_TEST_GROUP_SIZE");
  INFO("XGPU_TEST_GROUP and XGPU_TEST_GROUP_SIZE come from the CTest entry (tests/CMakeLists.txt)");
  REQUIRE(selector);
  REQUIRE(expected);
  xgpu::DeviceGroup group(*selector);
  REQUIRE(group.size() == static_cast<std::size_t>(*expected));
  return group;
}

inline bool has_oclgrind(const xgpu::DeviceGroup& group) {
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (is_oclgrind(group[i].device)) return true;
  }
  return false;
}

/// y[i] = a * x[i] + y[i] for i < n: the kernel the for_each tests split.
inline const xgpu::Source kSaxpySource{"multi_saxpy.cl", R"(
__kernel void saxpy(float a, __global const float* x, __global float* y, uint n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
)"};

}  // namespace xgpu_test
