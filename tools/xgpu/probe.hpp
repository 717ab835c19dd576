// `xgpu query --probe`: tiny kernels that check what a driver advertises (fp16 and fp64
// arithmetic, the maximum work-group size) against what the device actually does.
#pragma once

#include <string>
#include <vector>
#include <xgpu/device.hpp>

#include "color.hpp"

namespace xgpu::cli {

/// One fact, as advertised by the driver and as observed by running a kernel.
struct ProbeCheck {
  std::string name;        ///< "fp16", "fp64", "max_work_group_size"
  std::string advertised;  ///< "yes", "no", or a number
  std::string observed;
  std::string detail;  ///< why the observation differs: a build error, a wrong answer, ...
  /// False for a feature the driver does not advertise: building for it would only make
  /// the driver print its own errors, and a missing feature is not a broken promise.
  bool tested = true;
  bool agrees() const { return advertised == observed; }
  /// The driver promised more than the device did: a real problem, not an understatement.
  bool overstated = false;
};

/// A device's checks, with what the views need to name it.
struct ProbedDevice {
  std::size_t index = 0;
  std::string name;
  std::vector<ProbeCheck> checks;
};

/// Runs every check on one device. Never throws for a device that misbehaves: a failure is
/// an observation. Builds go through the kernel cache like any other.
std::vector<ProbeCheck> probe_device(const Device& device);

/// Probes each device, showing which one on stderr when `progress` is on (a build can take a
/// second or more).
std::vector<ProbedDevice> probe_all(const std::vector<Device>& devices, const Style& progress);

/// kExitFailure when some driver promised what its device did not do, after saying so on
/// stderr; otherwise kExitOk.
int probe_exit_code(const std::vector<ProbedDevice>& probed);

}  // namespace xgpu::cli
