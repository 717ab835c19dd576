// xgpu.Program, xgpu.Kernel and xgpu.Local as the extension holds them (DeviceGroup.build makes
// programs too).
#pragma once

#include <string>
#include <vector>

#include "common.hpp"

namespace xgpu_python {

/// xgpu.Local(dtype, count): local memory of `count` elements for one launch.
struct LocalMemory {
  DType dtype = DType::float32;
  std::size_t count = 0;
};

/// A program and the stream whose context built it (its kernels launch there by default).
struct PyProgram {
  xgpu::Program program;
  StreamPtr home;
};

/// How a kernel parameter takes a Python value.
enum class Take { buffer, local, real, integer, vector, bytes, as_given };
enum class Real { f16, f32, f64 };
struct Plan {
  Take take = Take::as_given;
  Real real = Real::f32;
  std::string element;  ///< the scalar type, for vectors and messages
  unsigned lanes = 1;
  std::string name, type;
};

struct PyKernel {
  xgpu::Kernel kernel;
  StreamPtr home;
  /// How each parameter takes a Python value; empty when the driver reports no types.
  std::vector<Plan> plans;
};

/// How `parameter` takes a Python value.
Plan plan_for(const xgpu::KernelParameter& parameter);
/// Converts Python argument `index` of a launch of `kernel` and adds it to `out`; TypeError
/// naming the argument when it cannot be the parameter's.
void add_argument(const PyKernel& kernel, std::size_t index, nb::handle value,
                  xgpu::KernelArgs& out);

}  // namespace xgpu_python
