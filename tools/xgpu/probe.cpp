// The probe kernels and how their results become observations. The kernels are inline
// rather than in kernels/: they belong to this tool, not to the library users link.
#include "probe.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <xgpu/xgpu.hpp>

#include "exit_codes.hpp"

namespace xgpu::cli {
namespace {

const char* kFp64Source = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void probe_fp64(__global const double* in, __global double* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] * in[i] + 1.0e-12;
}
)";

const char* kFp16Source = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void probe_fp16(__global const float* in, __global float* out) {
  size_t i = get_global_id(0);
  half a = (half)in[i];
  half b = a * (half)3.0f + (half)0.5f;
  out[i] = (float)b;
}
)";

const char* kWorkGroupSource = R"(
__kernel void probe_work_group(__global uint* out) {
  out[get_global_id(0)] = (uint)get_local_id(0) + 1u;
}
)";

// The first line of an error, enough to say why in a table's footnote.
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

ProbeCheck flag_check(const char* name, bool advertised) {
  ProbeCheck check;
  check.name = name;
  check.advertised = advertised ? "yes" : "no";
  check.observed = "no";
  check.tested = advertised;
  if (!advertised) check.detail = "not advertised, so not run";
  return check;
}

// 1 + 2^-40 squared, plus 1e-12: a float computation loses both small terms.
ProbeCheck check_fp64(const Context& context, Queue& queue, bool advertised) {
  ProbeCheck check = flag_check("fp64", advertised);
  if (!check.tested) return check;
  try {
    const std::vector<double> in{1.0 + std::ldexp(1.0, -40), 2.0, -3.0};
    auto input = context.alloc<double>(in.size(), Access::read_only);
    auto output = context.alloc<double>(in.size(), Access::write_only);
    queue.write(input, in);
    Kernel kernel = context.build(Source{"probe_fp64.cl", kFp64Source}).kernel("probe_fp64");
    queue.launch(kernel, Range{in.size()}, input, output);
    const std::vector<double> out = queue.read(output);
    for (std::size_t i = 0; i < in.size(); ++i) {
      const double expected = in[i] * in[i] + 1.0e-12;
      if (std::fabs(out[i] - expected) > 1e-15 * std::max(1.0, std::fabs(expected))) {
        check.detail = "wrong result: " + std::to_string(out[i]) + " for " +
                       std::to_string(expected) + " (not double precision)";
        return check;
      }
    }
    check.observed = "yes";
  } catch (const Error& e) {
    check.detail = first_line(e.what());
  }
  return check;
}

// Values exactly representable in half, so the answer is exact.
ProbeCheck check_fp16(const Context& context, Queue& queue, bool advertised) {
  ProbeCheck check = flag_check("fp16", advertised);
  if (!check.tested) return check;
  try {
    const std::vector<float> in{1.5f, -2.25f, 100.0f};
    auto input = context.alloc<float>(in.size(), Access::read_only);
    auto output = context.alloc<float>(in.size(), Access::write_only);
    queue.write(input, in);
    Kernel kernel = context.build(Source{"probe_fp16.cl", kFp16Source}).kernel("probe_fp16");
    queue.launch(kernel, Range{in.size()}, input, output);
    const std::vector<float> out = queue.read(output);
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (out[i] != in[i] * 3.0f + 0.5f) {
        check.detail = "wrong result: " + std::to_string(out[i]) + " for " +
                       std::to_string(in[i] * 3.0f + 0.5f);
        return check;
      }
    }
    check.observed = "yes";
  } catch (const Error& e) {
    check.detail = first_line(e.what());
  }
  return check;
}

// Launches one work-group of the advertised size; on failure halves it until one launches.
ProbeCheck check_work_group(const Context& context, Queue& queue, const DeviceInfo& info) {
  ProbeCheck check;
  check.name = "max_work_group_size";
  check.advertised = std::to_string(info.max_work_group_size);
  check.observed = "0";
  std::size_t size = std::min(info.max_work_group_size, info.max_work_item_sizes[0]);
  if (size == 0) size = 1;
  try {
    Kernel kernel =
        context.build(Source{"probe_work_group.cl", kWorkGroupSource}).kernel("probe_work_group");
    for (; size >= 1; size /= 2) {
      try {
        auto output = context.alloc<std::uint32_t>(size, Access::write_only);
        queue.launch(kernel, Range{size}, Range{size}, output);
        const std::vector<std::uint32_t> out = queue.read(output);
        bool right = true;
        for (std::size_t i = 0; i < size && right; ++i) right = out[i] == i + 1;
        if (right) {
          check.observed = std::to_string(size);
          break;
        }
        if (check.detail.empty())
          check.detail = "work-group of " + std::to_string(size) + " ran but left wrong values";
      } catch (const Error& e) {
        if (check.detail.empty()) {
          check.detail = "work-group of " + std::to_string(size) + ": " + first_line(e.what());
        }
      }
    }
  } catch (const Error& e) {
    check.detail = first_line(e.what());
  }
  if (check.agrees()) check.detail.clear();
  return check;
}

}  // namespace

std::vector<ProbeCheck> probe_device(const Device& device) {
  const DeviceInfo& info = device.info();
  std::vector<ProbeCheck> checks;
  try {
    Context context(device);
    Queue queue = context.queue();
    checks.push_back(check_fp16(context, queue, info.fp16));
    checks.push_back(check_fp64(context, queue, info.fp64));
    checks.push_back(check_work_group(context, queue, info));
  } catch (const Error& e) {
    // No context or queue at all: nothing could be observed, for that one reason.
    ProbeCheck work_group;
    work_group.name = "max_work_group_size";
    work_group.advertised = std::to_string(info.max_work_group_size);
    work_group.observed = "0";
    checks = {flag_check("fp16", info.fp16), flag_check("fp64", info.fp64), work_group};
    for (ProbeCheck& check : checks) check.detail = first_line(e.what());
  }
  for (ProbeCheck& check : checks) {
    // Promised but not delivered: "yes" observed as "no", or a smaller work-group.
    check.overstated =
        !check.agrees() && (check.advertised == "yes" || check.name == "max_work_group_size");
  }
  return checks;
}

std::vector<ProbedDevice> probe_all(const std::vector<Device>& devices, const Style& progress) {
  std::vector<ProbedDevice> results;
  for (const Device& device : devices) {
    if (progress.enabled()) {
      std::cerr << progress.dim("probing device " + std::to_string(device.index()) + "...") << '\r'
                << std::flush;
    }
    results.push_back({device.index(), device.info().name, probe_device(device)});
  }
  if (progress.enabled() && !devices.empty()) std::cerr << "\033[K" << std::flush;
  return results;
}

int probe_exit_code(const std::vector<ProbedDevice>& probed) {
  int code = kExitOk;
  for (const ProbedDevice& device : probed) {
    for (const ProbeCheck& check : device.checks) {
      if (!check.overstated) continue;
      std::cerr << "xgpu: device " << device.index << " advertises " << check.name << " "
                << check.advertised << " but showed " << check.observed << ": " << check.detail
                << '\n';
      code = kExitFailure;
    }
  }
  return code;
}

}  // namespace xgpu::cli
