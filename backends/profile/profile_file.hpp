// A profile file: one device object of `xgpu query --json` (docs/query-json.md, schema
// version 1), either the whole document of `xgpu query --json -d N` (one device) or the
// device object alone with "schema_version": 1 added. Read and checked here; every refusal
// names the file and the field.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace xgpu::profile {

/// The query schema version this module reads.
constexpr int kProfileSchemaVersion = 1;

struct ProfileFile {
  std::string path;
  nlohmann::json device;  ///< the device object; every field it has is of the schema's type
};

/// Reads and checks `path`. Throws common::Failure (XGPU_STATUS_INVALID_VALUE) naming the file
/// and the field when the file is unreadable, not JSON, of another schema version, has a
/// field of the wrong type, or an impossible value (local memory 0, max work-group size 0, a
/// work-item size above the work-group size, ...).
ProfileFile read_profile_file(const std::string& path);

}  // namespace xgpu::profile
