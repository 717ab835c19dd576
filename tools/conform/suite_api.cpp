// The api suite: devices enumerate, their properties are readable and meet the OpenCL
// minimums, and a device takes many contexts and queues.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

constexpr std::uint64_t kMiB = 1024 * 1024;

Result enumerate(Env& env) {
  const std::vector<Device> all = devices();
  if (std::find(all.begin(), all.end(), env.device()) == all.end())
    return fail_expected("xgpu::devices()", "the device under test", all.size());
  if (env.device().index() >= all.size() || all[env.device().index()] != env.device())
    return fail_expected("Device::index()", "its position in devices()", env.device().index());
  return pass();
}

Result properties_queryable(Env& env) {
  const DeviceInfo& info = env.info();
  if (!info.query_errors.empty()) {
    const auto& first = *info.query_errors.begin();
    return fail_expected(first.first, "a value", "query failed: " + first.second);
  }
  if (info.name.empty()) return fail_expected("name", "non-empty", "\"\"");
  if (info.device_version.empty()) return fail_expected("device_version", "non-empty", "\"\"");
  return pass();
}

Result minimums(Env& env) {
  const DeviceInfo& info = env.info();
  if (info.max_work_item_sizes[0] == 0 || info.max_work_item_sizes[1] == 0 ||
      info.max_work_item_sizes[2] == 0)
    return fail("expected 3 work-item dimensions, got a zero max_work_item_sizes entry");
  if (info.max_work_group_size < 1) return fail_expected("max_work_group_size", ">= 1", 0);
  if (info.compute_units < 1) return fail_expected("compute_units", ">= 1", 0);
  if (info.max_parameter_size < 1024)
    return fail_expected("max_parameter_size", ">= 1024", info.max_parameter_size);
  const bool full_profile = info.platform_version.find("EMBEDDED") == std::string::npos;
  // OpenCL 1.x and 2.x: max(global / 4, 128 MiB). OpenCL 3.0 relaxed it to
  // max(min(1 GiB, global / 4), 32 MiB): a 3.0 device with 25 GiB of shared memory and 4 GiB
  // allocations (Intel's NEO on an integrated GPU) meets it.
  int major = 0, minor = 0;
  std::sscanf(info.device_version.c_str(), "OpenCL %d.%d", &major, &minor);
  const std::uint64_t min_alloc =
      major >= 3 ? std::max(std::min(info.global_memory / 4, 1024 * kMiB), 32 * kMiB)
                 : std::max(info.global_memory / 4, 128 * kMiB);
  if (full_profile && info.max_allocation < std::min(min_alloc, info.global_memory))
    return fail_expected("max_allocation (full profile)", ">= " + std::to_string(min_alloc),
                         info.max_allocation);
  if (info.local_memory < (full_profile ? 32 * 1024 : 1024))
    return fail_expected("local_memory", ">= 32 KiB", info.local_memory);
  return pass();
}

// "OpenCL 3.0 ..." and "OpenCL C 1.2 ...": both must parse and the language must not be newer
// than the device version.
Result versions(Env& env) {
  const DeviceInfo& info = env.info();
  int major = 0, minor = 0, c_major = 0, c_minor = 0;
  if (std::sscanf(info.language_version.c_str(), "OpenCL C %d.%d", &c_major, &c_minor) != 2)
    return fail_expected("language_version", "\"OpenCL C M.m ...\"", info.language_version);
  // The cuda module's devices (and profiles of them: the Jetson's) state their compute
  // capability instead (backends/cuda/device_info.cpp); their OpenCL C is the prelude's.
  int sm = 0;
  if (std::sscanf(info.device_version.c_str(), "CUDA sm_%d", &sm) == 1 && sm > 0) return pass();
  if (std::sscanf(info.device_version.c_str(), "OpenCL %d.%d", &major, &minor) != 2)
    return fail_expected("device_version",
                         "\"OpenCL M.m ...\" (or the cuda module's \"CUDA sm_XY\")",
                         info.device_version);
  if (c_major * 10 + c_minor > major * 10 + minor)
    return fail_expected("OpenCL C version", "<= device version " + info.device_version,
                         info.language_version);
  return pass();
}

Result many_queues(Env& env) {
  std::vector<Queue> queues;
  for (int i = 0; i < 100; ++i) queues.push_back(env.context().queue());
  Buffer<int> buffer = env.context().alloc<int>(100);
  for (int i = 0; i < 100; ++i) queues[i].fill(buffer, i, 1, i);
  for (Queue& queue : queues) queue.finish();
  const std::vector<int> got = env.queue().read(buffer);
  for (int i = 0; i < 100; ++i) {
    if (got[i] != i)
      return fail_expected("element written by queue " + std::to_string(i), i, got[i]);
  }
  return pass();
}

// Contexts made and released in turn must not leak or interfere: each keeps its own data.
Result many_contexts(Env& env) {
  std::vector<Context> contexts;
  std::vector<Buffer<int>> buffers;
  const int count = env.quick() ? 4 : 16;
  for (int i = 0; i < count; ++i) {
    contexts.emplace_back(env.device());
    buffers.push_back(contexts.back().alloc<int>(4));
    contexts.back().queue().fill(buffers.back(), i * 7).wait();
  }
  for (int i = 0; i < count; ++i) {
    const std::vector<int> got = contexts[i].queue().read(buffers[i]);
    if (got[3] != i * 7) return fail_expected("context " + std::to_string(i), i * 7, got[3]);
  }
  return pass();
}

}  // namespace

void register_api(Registry& registry) {
  registry.add("api", "devices_enumerate", "", enumerate);
  registry.add("api", "properties_queryable", "", properties_queryable);
  registry.add("api", "opencl_minimums", "", minimums);
  registry.add("api", "versions_agree", "", versions);
  registry.add("api", "hundred_queues", "", many_queues);
  registry.add("api", "many_contexts", "", many_contexts);
}

}  // namespace xgpu::conform
