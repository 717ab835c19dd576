// The OpenCL entry points of opencl_functions.def, defined here and forwarded to the ICD loader
// opened at run time; see xgpu/common/opencl_loader.hpp.
#include "xgpu/common/opencl_loader.hpp"

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
// Hidden, so that the definitions below are too: a module never exports them, and a program
// that also links libOpenCL (a test) does not hand them to other libraries.
#pragma GCC visibility push(hidden)
#include <CL/cl.h>
#pragma GCC visibility pop

#include <tuple>
#include <type_traits>

#include "xgpu/common/dynamic_library.hpp"

namespace xgpu::common {
namespace {

// cl_khr_icd: no platform at all, what the ICD loader says when it finds none.
constexpr cl_int kPlatformNotFoundKhr = -1001;

// An entry point the loader does not have (or no loader): the failure a program without
// platforms sees. A function returning an object sets its errcode_ret, the last parameter.
template <class Function>
struct Missing;
template <class Result, class... Args>
struct Missing<Result(CL_API_CALL*)(Args...)> {
  static Result CL_API_CALL call(Args... args) {
    if constexpr (std::is_same_v<Result, cl_int>) {
      return kPlatformNotFoundKhr;
    } else {
      if constexpr (sizeof...(Args) > 0) {
        using Last = std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>;
        if constexpr (std::is_same_v<Last, cl_int*>) {
          cl_int* errcode = std::get<sizeof...(Args) - 1>(std::forward_as_tuple(args...));
          if (errcode) *errcode = kPlatformNotFoundKhr;
        }
      }
      return Result{};
    }
  }
};

struct Loader {
  DynamicLibrary library;
  std::string problem;
#define XGPU_CL_FUNCTION(result, name, parameters, arguments) decltype(&::name) name;
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION
};

Loader open_loader() {
  Loader loader;
  loader.library = DynamicLibrary::open({"the OpenCL ICD loader", nullptr, {"libOpenCL.so.1"}});
  if (!loader.library.loaded()) loader.problem = loader.library.attempts();
#define XGPU_CL_FUNCTION(result, name, parameters, arguments)      \
  loader.name = loader.library.function<decltype(&::name)>(#name); \
  if (loader.name == nullptr) loader.name = Missing<decltype(&::name)>::call;
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION
  return loader;
}

// Opened on first use: a static's initialization is thread-safe and, once done, costs each call
// one load and a branch.
const Loader& loader() {
  static const Loader instance = open_loader();
  return instance;
}

}  // namespace

const std::string& opencl_loader_problem() { return loader().problem; }

}  // namespace xgpu::common

// The entry points themselves, hidden as declared above.
#define XGPU_CL_FUNCTION(result, name, parameters, arguments) \
  extern "C" result CL_API_CALL name parameters { return xgpu::common::loader().name arguments; }
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION
