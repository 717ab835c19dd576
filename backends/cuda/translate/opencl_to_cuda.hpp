// OpenCL C to CUDA C++ for NVRTC: the prelude, the source rewriting, the kernel signatures
// and the build options. No libcuda and no NVRTC are needed here: this is text in, text out,
// so the CUDA module and the tests (which run without a GPU) share it.
//
// THE LAUNCH CONTRACT (what the CUDA module must do for every kernel of a Translation):
//  1. CUDA kernel parameters are the OpenCL parameters in source order, except that each
//     `__local T*` parameter (KernelParam::space == local_, is_pointer) becomes a 32-bit
//     `unsigned int`: the byte offset of that argument inside the launch's dynamic shared
//     memory. CUDA has no pointer-to-shared kernel parameters.
//  2. After the last OpenCL parameter comes one hidden parameter, `xgpu_cuda_launch_info`
//     (LaunchInfo below, by value, 56 bytes): the global offset and global size per
//     dimension and the number of dimensions. get_global_offset(), get_global_size() and
//     get_work_dim() read it; CUDA has no global offset and no work_dim of its own.
//  3. Local arguments are laid out in parameter order, each at an offset that is a multiple
//     of kLocalArgAlignment (128: the alignment of the widest OpenCL type, double16); the
//     launch's dynamic shared memory is the end of the last one (sum of aligned sizes).
//     A kernel's own `__local` variables are static __shared__ and are not counted here.
//  4. gridDim * blockDim must equal the global size in every dimension (uniform work-groups,
//     OpenCL 1.2's rule): report XGPU_DEVICE_NON_UNIFORM_WORK_GROUPS as false so the core
//     rounds global sizes up; the hidden global size is what get_global_size() returns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xgpu_cuda {

enum class AddressSpace { global_, local_, constant_, private_ };

struct KernelParam {
  std::string name;
  std::string type;  ///< as written, e.g. "float4", "const __global float*"
  AddressSpace space = AddressSpace::private_;
  bool is_pointer = false;
  std::size_t value_size = 0;  ///< bytes for by-value params, 0 if unknown (structs, macros)
};

struct KernelSignature {
  std::string name;
  std::vector<KernelParam> params;
};

struct Translation {
  std::string cuda_source;               ///< prelude + rewritten source, ready for NVRTC
  std::vector<KernelSignature> kernels;  ///< in source order
};

/// The hidden last kernel parameter (launch contract, 2). Same layout on host and device.
struct LaunchInfo {
  std::uint64_t global_offset[3];
  std::uint64_t global_size[3];
  std::uint32_t work_dim;
  std::uint32_t reserved;
};
static_assert(sizeof(LaunchInfo) == 56, "LaunchInfo must match xgpu_cuda_launch_info");

/// Launch contract, 3: each __local argument starts at a multiple of this many bytes.
constexpr std::size_t kLocalArgAlignment = 128;

/// An OpenCL feature the prelude does not cover, or a source the translation cannot read.
/// what() is "file:line: <message>", e.g. "k.cl:4: images (image2d_t) are not supported by
/// the CUDA module".
class TranslationError : public std::runtime_error {
 public:
  TranslationError(const std::string& file, int line, const std::string& message);
  int line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  int line_;
  std::string message_;
};

/// Translates one OpenCL C program (includes already expanded by the core; `#line` markers
/// are kept, so NVRTC's log names the original files). `opencl_options` are the build
/// options: their -D and -U become #define / #undef lines after the prelude (NVRTC would
/// apply them to its built-in headers too), and size by-value parameters whose type is a
/// macro; conditionals (#ifdef ...) decide which kernels are listed.
/// Kernels whose name is made by token pasting inside a macro are translated but have no
/// signature (the module may ask the driver instead).
/// `half_arithmetic`: the target has cl_khr_fp16 (compute capability 5.3 and above), which
/// the prelude then defines, so `#ifdef cl_khr_fp16` keeps its kernels; `1.5h` literals
/// become half values either way.
/// Throws TranslationError naming the feature and the line for what the prelude lacks.
Translation translate_opencl_c(std::string_view source, std::string_view file_name,
                               std::string_view opencl_options = {}, bool half_arithmetic = true);

/// OpenCL build options to NVRTC options: -I kept, -D/-U skipped (translate_opencl_c
/// writes them into the source), -cl-fast-relaxed-math (and
/// -cl-unsafe-math-optimizations) map to --use_fast_math, the only way to get it; the other
/// accepted -cl-* flags are mapped or dropped (nvrtc_options.cpp says why for each); an
/// unknown -cl-* flag or any other unknown option throws TranslationError (line 0) naming
/// it. Adds --gpu-architecture=compute_XY, -std=c++17 and -default-device (OpenCL helper
/// functions carry no __device__).
std::vector<std::string> nvrtc_options(std::string_view opencl_options, int cc_major, int cc_minor);

}  // namespace xgpu_cuda
