// The algorithms library's shared machinery; see support.hpp.
#include "support.hpp"

#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <xgpu/extension.hpp>
#include <xgpu/kernels.hpp>
#include <xgpu/settings.hpp>

namespace xgpu::detail::algo {
namespace {

/// The library's kernels in one context, keyed by file, options and kernel name.
struct LibraryKernels {
  std::mutex mutex;
  std::map<std::string, Kernel> kernels;
};

}  // namespace

Kernel library_kernel(const Queue& queue, const char* file, const char* kernel,
                      const std::string& options) {
  const Context& context = queue.context();
  const auto state = ext::context_slot<LibraryKernels>(context, "xgpu.algorithms.kernels");
  std::string key = std::string(file) + '\n' + options + '\n' + kernel;
  {
    std::lock_guard<std::mutex> lock(state->mutex);
    auto found = state->kernels.find(key);
    if (found != state->kernels.end()) return found->second;
  }
  // Built outside the lock: a first build may take seconds, and other kernels need not wait.
  Kernel made = context.build(kernels::source(file), options).kernel(kernel);
  std::lock_guard<std::mutex> lock(state->mutex);
  return state->kernels.emplace(std::move(key), std::move(made)).first->second;
}

std::string word_setting(common::Setting setting, const char* call) {
  const std::string value = common::setting_text(setting);
  if (value.empty()) return value;
  if (auto problem = check_setting(common::spec(setting).name, value))
    throw Error(Errc::invalid_argument, problem->message, call);
  return value;
}

Layout layout_for(const DeviceInfo& info, common::Setting setting, const char* call) {
  const std::string forced = word_setting(setting, call);
  if (forced.empty()) return ext::is_cpu(info) ? Layout::cpu : Layout::gpu;
  return forced == "cpu" ? Layout::cpu : Layout::gpu;
}

std::size_t work_group_size(const Kernel& kernel, std::size_t at_most) {
  const KernelLimits& limits = kernel.limits();
  std::size_t allowed = std::min(at_most, limits.max_work_group_size);
  if (allowed == 0) allowed = 1;
  const std::size_t multiple = std::max<std::size_t>(limits.preferred_multiple, 1);
  if (allowed < multiple) return allowed;
  return allowed / multiple * multiple;
}

std::size_t power_of_two_work_group(const Kernel& kernel, std::size_t at_most) {
  const std::size_t size = work_group_size(kernel, at_most);
  std::size_t power = 1;
  while (power * 2 <= size) power *= 2;
  return power;
}

void require_fp64(const Queue& queue, const char* call) {
  if (!queue.device().info().fp64)
    throw Error(Errc::unsupported,
                std::string(call) + " needs double precision (cl_khr_fp64), which " +
                    queue.device().describe() + " lacks",
                call);
}

void size_mismatch(const char* call, const std::string& what, std::size_t got,
                   std::size_t expected) {
  throw Error(Errc::invalid_argument,
              std::string(call) + ": " + what + " has " + std::to_string(got) + " elements but " +
                  std::to_string(expected) + " were expected",
              call);
}

void invalid(const char* call, const std::string& message) {
  throw Error(Errc::invalid_argument, std::string(call) + ": " + message, call);
}

void require_same_or_apart(const char* call, const char* x_name, const UntypedBuffer& x,
                           const char* y_name, const UntypedBuffer& y) {
  if (ext::overlap(x, y) && !ext::same_buffer(x, y))
    invalid(call, std::string(x_name) + " and " + y_name +
                      " overlap in part (views of one buffer): pass the same range, or ranges "
                      "apart");
}

void require_queue(const Queue& queue, const char* call) {
  if (!queue)
    throw Error(Errc::invalid_handle,
                std::string(call) + ": the Queue is empty (default-constructed or moved-from)",
                call);
}

void require_uint_size(std::size_t count, const char* call) {
  if (count > kMaxElements)
    invalid(call, std::to_string(count) +
                      " elements is more than the 2^31 - 1 the kernels index (32-bit unsigned "
                      "arithmetic, with room for a tile past the last element)");
}

std::size_t matrix_elements(std::size_t rows, std::size_t cols, const char* call) {
  if (rows != 0 && cols > std::numeric_limits<std::size_t>::max() / rows)
    invalid(call, std::to_string(rows) + " x " + std::to_string(cols) + " overflows");
  require_uint_size(rows * cols, call);
  return rows * cols;
}

}  // namespace xgpu::detail::algo
