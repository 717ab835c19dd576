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

#include <dlfcn.h>

#include <atomic>
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

// Every entry point's address, first its resolver (below), which opens the loader and then
// calls through the table again. Constant-initialized, so nothing runs before main; read with
// acquire, so a caller that sees the loader's function also sees the library it belongs to.
struct Table {
#define XGPU_CL_FUNCTION(result, name, parameters, arguments) std::atomic<decltype(&::name)> name;
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION
};

#define XGPU_CL_FUNCTION(result, name, parameters, arguments) \
  result CL_API_CALL resolve_##name parameters;
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION

Table g_table = {
#define XGPU_CL_FUNCTION(result, name, parameters, arguments) {resolve_##name},
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION
};

struct Loader {
  DynamicLibrary library;
  std::string problem;
};

// Opens the ICD loader once and points every entry of the table at its function (or at
// Missing where it has none, or where it could not be opened).
const Loader& open_once() {
  static const Loader loader = [] {
    Loader opened;
    // Global, and each function taken from the global scope first, as a linked libOpenCL's
    // calls resolve: a tool preloaded to intercept OpenCL calls (LD_PRELOAD, such as
    // tests/cuda/capture_cl_sources.c) sees them, and finds the loader's own behind it.
    opened.library =
        DynamicLibrary::open({"the OpenCL ICD loader", std::nullopt, {"libOpenCL.so.1"}, true});
    if (!opened.library.loaded()) opened.problem = opened.library.attempts();
#define XGPU_CL_FUNCTION(result, name, parameters, arguments)                  \
  {                                                                            \
    auto function = reinterpret_cast<decltype(&::name)>(                       \
        opened.library.loaded() ? dlsym(RTLD_DEFAULT, #name) : nullptr);       \
    if (function == nullptr || function == &::name)                            \
      function = opened.library.function<decltype(&::name)>(#name);            \
    g_table.name.store(function ? function : Missing<decltype(&::name)>::call, \
                       std::memory_order_release);                             \
  }
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION
    return opened;
  }();
  return loader;
}

// The first call of each entry point: open the loader (once for all), then call it.
#define XGPU_CL_FUNCTION(result, name, parameters, arguments)      \
  result CL_API_CALL resolve_##name parameters {                   \
    open_once();                                                   \
    return g_table.name.load(std::memory_order_acquire) arguments; \
  }
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION

}  // namespace

const std::string& opencl_loader_problem() { return open_once().problem; }

}  // namespace xgpu::common

// The entry points themselves, hidden as declared above: a load of the table and a jump, as
// the ICD loader itself dispatches every call.
#define XGPU_CL_FUNCTION(result, name, parameters, arguments)                    \
  extern "C" result CL_API_CALL name parameters {                                \
    return xgpu::common::g_table.name.load(std::memory_order_acquire) arguments; \
  }
#include "xgpu/common/opencl_functions.def"
#undef XGPU_CL_FUNCTION
