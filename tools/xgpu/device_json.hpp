// The JSON document of `xgpu query --json` (schema: docs/query-json.md).
#pragma once

#include <nlohmann/json.hpp>
#include <vector>
#include <xgpu/device.hpp>

#include "probe.hpp"

namespace xgpu::cli {

/// Keys stay in the order written, so the document reads like the detail view.
using Json = nlohmann::ordered_json;

/// Bumped whenever a field changes meaning or is removed; adding a field keeps the version.
inline constexpr int kQuerySchemaVersion = 1;

/// One device (index: its position in xgpu::devices()): every DeviceInfo field, sizes as integer
/// bytes, flags as booleans. A field whose query failed is null, and its error is in
/// "query_errors". What only a Device knows (selector, preferred, physical_id, aliases) is
/// left null, true, null and [] for the overload below to fill.
Json device_json(const DeviceInfo& info, std::size_t index);

/// device_json(info, index) with the device's selector ("cuda:0"), whether selectors without
/// a backend see it ("preferred"), its physical_id and its visible aliases' selectors.
Json device_json(const Device& device);

/// What --probe found, by check name: {"fp16": {"advertised": true, "observed": false,
/// "agrees": false, "detail": "..."}, ..., "max_work_group_size": {"advertised": 1024,
/// "observed": 256, ...}}. "observed" is null for a check that was not run.
Json probe_json(const std::vector<ProbeCheck>& checks);

Json backend_json(const BackendReport& report);

/// {"schema_version": 1, "xgpu_version": ..., "backends": [...], "devices": [...]}.
Json query_json(const std::vector<BackendReport>& backends, const std::vector<Device>& devices);

/// The document as text; invalid UTF-8 from a driver is replaced rather than thrown on.
std::string dump_json(const Json& document);

}  // namespace xgpu::cli
