// xgpu::Source, xgpu::Program and xgpu::Kernel: OpenCL C built for one device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include <xgpu/export.hpp>

namespace xgpu {
namespace detail {
struct ProgramState;
struct KernelState;
struct Internals;
}  // namespace detail

/// OpenCL C text with the file name its build messages should name. `#include "x.cl"`
/// finds, in order, the headers passed to Context::build and the embedded kernels/ files.
struct Source {
  std::string name;  ///< e.g. "saxpy.cl"; appears in build logs as file:line
  std::string text;
};

class Kernel;

/// What a kernel allows on its device, for choosing a work-group size.
struct KernelLimits {
  std::size_t max_work_group_size = 0;  ///< items per work-group
  std::size_t preferred_multiple = 1;   ///< work-group sizes that are multiples of it run best
  std::uint64_t local_memory = 0;       ///< bytes of local memory the kernel declares itself
  std::uint64_t private_memory = 0;     ///< bytes per work-item
};

/// A kernel parameter as the driver describes it (OpenCL's kernel argument info).
struct KernelParameter {
  /// Where the parameter points: `value` for one passed by value.
  enum class Space { value, global, constant, local };
  std::string name;  ///< as written in the source
  std::string type;  ///< as the driver reports it: "float*", "uint", "float4", "struct pair"
  Space space = Space::value;
  bool pointer = false;
  std::string element;  ///< the scalar type: "float" for float*, float4 and float; "" for structs
  unsigned lanes = 1;   ///< vector width: 4 for float4
};

/// A program built for its context's device. Copies share the program.
class XGPU_API Program {
 public:
  Program() = default;

  /// Throws xgpu::Error (unknown_kernel) listing the kernels the program has.
  Kernel kernel(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  /// The driver's log of a successful build (warnings); usually empty.
  const std::string& build_log() const;
  const std::string& source_name() const;
  explicit operator bool() const noexcept { return static_cast<bool>(state_); }

 private:
  friend struct detail::Internals;
  explicit Program(std::shared_ptr<const detail::ProgramState> state) : state_(std::move(state)) {}
  std::shared_ptr<const detail::ProgramState> state_;
};

/// One kernel of a program. Copies share the kernel; launches of one kernel from several
/// threads are serialized by xgpu (a kernel's arguments are per-object state in OpenCL).
class XGPU_API Kernel {
 public:
  Kernel() = default;

  const std::string& name() const;
  std::size_t arg_count() const;
  /// Parameter names as written in the source, when the driver reports them.
  std::vector<std::string> arg_names() const;
  /// The parameters, in order, when the driver reports them; empty when it does not (then a
  /// launch checks only the argument count, and the driver the sizes).
  std::vector<KernelParameter> parameters() const;
  /// Work-group limits on the program's device (the device's own limits when the backend
  /// cannot tell them per kernel).
  const KernelLimits& limits() const;
  explicit operator bool() const noexcept { return static_cast<bool>(state_); }

 private:
  friend struct detail::Internals;
  explicit Kernel(std::shared_ptr<detail::KernelState> state) : state_(std::move(state)) {}
  std::shared_ptr<detail::KernelState> state_;
};

}  // namespace xgpu
