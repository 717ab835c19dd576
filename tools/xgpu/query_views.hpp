// The human-readable views of `xgpu query`: the table, the tree (-l), the pick (--select),
// the backend notes, and the detail of one device (-d).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>
#include <xgpu/device.hpp>

#include "color.hpp"
#include "probe.hpp"

namespace xgpu::cli {

/// The backend column: "opencl (also cuda:0)" for a physical device seen by several modules;
/// with `all_backends` (one row per module device) the device's selector, "cuda:0 (alias)"
/// for one that selectors without a backend do not see.
std::string backend_label(const Device& device, bool all_backends);

/// One row per device: index, backend, platform, name, type, hardware vendor, compute
/// units, global memory, OpenCL C version, fp16, fp64.
void print_table(std::ostream& out, const std::vector<Device>& devices, const Style& style,
                 bool all_backends = false);

/// One line per device, under a line for its backend and platform.
void print_tree(std::ostream& out, const std::vector<Device>& devices, const Style& style);

/// The device a selector picked, on one line: index, backend, name, platform.
void print_pick(std::ostream& out, const Device& device, const Style& style);

/// One line per backend module that was refused, failed or found no device, with the
/// reason; loaded modules with devices are not mentioned. Returns the number of lines.
std::size_t print_backend_notes(std::ostream& out, const std::vector<BackendReport>& reports,
                                const Style& style);

/// One line per backend module the loader found or tried (--modules): loaded with how many
/// devices, loaded with none and why (a vendor driver not installed), or refused and why.
void print_modules(std::ostream& out, const std::vector<BackendReport>& reports,
                   const Style& style);

/// What --probe found: one row per device with advertised next to observed where they
/// differ, then a line per difference saying why.
void print_probe(std::ostream& out, const std::vector<ProbedDevice>& probed, const Style& style);

/// Every property of one device, grouped and aligned.
void print_detail(std::ostream& out, const Device& device, const Style& style);

}  // namespace xgpu::cli
