// One GPU is one device: devices of two modules that report the same physical identity (UUID,
// else PCI bus id) are aliases, and the backend order says which of them selectors without a
// backend see. docs/backends.md explains the order and its default.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace xgpu::detail {

struct DeviceRecord;

/// An XGPU_BACKEND_ORDER value (comma-separated module names, first preferred; empty: the
/// default of settings.def, the OpenCL module first until the CUDA module has passed
/// tools/gpu-check.sh on a real GPU, docs/backends.md), parsed. Throws xgpu::Error
/// (invalid_argument) naming an unknown, repeated or empty name; `known` are the names a
/// selector accepts (Registry::backend_names()).
std::vector<std::string> parse_backend_order(const std::string& text,
                                             const std::vector<std::string>& known);

/// XGPU_BACKEND_ORDER of this process, parsed as above.
std::vector<std::string> backend_order(const std::vector<std::string>& known);

/// Links every device to its aliases (DeviceRecord::aliases) and gives each its physical_id.
/// Two devices of one module are never aliases of each other.
void link_aliases(const std::vector<DeviceRecord*>& devices);

/// Of `record` and its aliases that pass `usable`, the one first in `order` (modules it does
/// not name come after, in load order); nullptr when none passes.
const DeviceRecord* preferred_alias(const DeviceRecord& record,
                                    const std::vector<std::string>& order,
                                    const std::function<bool(const DeviceRecord&)>& usable);

/// A module's place in `order`: its position, or order.size() when it is not named.
std::size_t backend_rank(const std::string& backend, const std::vector<std::string>& order);

}  // namespace xgpu::detail
