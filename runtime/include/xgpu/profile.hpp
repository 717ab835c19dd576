// Simulated devices from profiles, from a program: what XGPU_PROFILE and XGPU_PROFILE_BACKING
// do from the environment. The profile module (backends/profile, docs/profiles.md) reads
// those two variables when the devices are first enumerated, so this only sets them.
#pragma once

#include <optional>
#include <string>
#include <vector>
#include <xgpu/export.hpp>

namespace xgpu {

/// Adds a device of backend `profile` described by `profile`: a file (a device of
/// `xgpu query --json`, path with a '/' or ending in .json) or the name of a shipped profile
/// ("nvidia-h100"), backed by the device `backing_selector` picks among the opencl module's
/// devices ("cpu", "pocl", "oclgrind", "gpu:1", an index; empty: the first CPU device, or
/// whatever XGPU_PROFILE_BACKING already says). Appends to XGPU_PROFILE and sets
/// XGPU_PROFILE_BACKING. Call it before anything enumerates devices (xgpu::devices(),
/// select(), a Context): afterwards Errc::invalid_argument says so, as it does for a file
/// that cannot be read, a path with ':' in it, or a second backing selector that differs
/// from the first (all profiles share one backing device). A profile the module refuses
/// (bad JSON, impossible values) shows as a warning and in `xgpu query --json`'s backends.
XGPU_API void add_profile(const std::string& profile, const std::string& backing_selector = {});

/// The folders searched for shipped profiles (profiles/*.json, installed to
/// share/xgpu/profiles), which XGPU_PROFILE and add_profile() take by name; the first that has
/// a name wins: each folder of XGPU_PROFILE_DIR, the install's, the build tree's. The same
/// search as the profile module's.
XGPU_API std::vector<std::string> shipped_profile_dirs();

/// The file of the shipped profile `name` ("nvidia-h100"), or nullopt when none has that name
/// (or `name` is not a plain name: letters, digits, '-', '_', '.', not starting with '.').
XGPU_API std::optional<std::string> find_shipped_profile(const std::string& name);

/// Every shipped profile's name (its file name without ".json"), sorted, each once.
XGPU_API std::vector<std::string> shipped_profile_names();

}  // namespace xgpu
