// The shared state behind Context, Program and Kernel handles.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "arg_pattern.hpp"
#include "cache/kernel_cache.hpp"
#include "memory/allocation.hpp"
#include "memory/pool.hpp"
#include "registry.hpp"
#include "util/launch_lock.hpp"
#include "xgpu/context.hpp"
#include "xgpu/handle.hpp"

namespace xgpu::detail {

struct ProgramState;

struct ContextState {
  Device device;
  const DeviceRecord* record = nullptr;
  Handle<ObjectKind::context> handle;
  const Module& module() const { return *record->module; }
  /// The context's allocator: its buffers, cache and statistics (shared with every buffer
  /// it made, which may outlive the context).
  std::shared_ptr<MemoryPool> pool;

  /// The in-process layer of the kernel cache: a program built twice is built once.
  std::mutex programs_mutex;
  std::map<std::string, std::shared_ptr<const ProgramState>> programs;  ///< by cache hash

  /// What libraries built on xgpu keep per context, by key (xgpu::ext::context_slot).
  std::mutex slots_mutex;
  std::map<std::string, std::shared_ptr<void>> slots;
};

/// A kernel parameter as the driver describes it, digested once at kernel creation.
struct Parameter {
  std::string name;
  std::string type_name;            ///< as reported: "float*", "uint", "float4", "struct foo"
  std::uint32_t address_space = 0;  ///< XGPU_ADDRESS_*
  bool pointer = false;
  std::string element;  ///< builtin scalar name ("float"), empty for structs and others
  unsigned lanes = 1;
  /// Bytes a by-value builtin takes (a 3-vector those of 4: float3 is 16); 0 when unknown
  /// (structs: OpenCL does not report their size).
  std::size_t value_size = 0;
};

struct ProgramState {
  // The program refers to its context by the backend handle, not the ContextState:
  // the context's program map holds programs, and must not be held by them in turn.
  const DeviceRecord* record = nullptr;
  Handle<ObjectKind::context> context;
  Handle<ObjectKind::program> handle;
  std::string source_name;
  std::string options;
  std::string build_log;
  std::vector<std::string> kernel_names;
  /// Kernel signatures saved in a cache entry, for drivers that give no argument info
  /// for programs made from binaries.
  std::map<std::string, std::vector<Parameter>> saved_signatures;
  std::shared_ptr<CacheTicket> ticket;  ///< set when the program is in the disk cache
  const Module& module() const { return *record->module; }
};

struct KernelState {
  std::shared_ptr<const ProgramState> program;
  Handle<ObjectKind::kernel> handle;
  std::string name;
  std::size_t arg_count = 0;
  bool signature_known = false;  ///< false when the driver gives no argument info
  std::vector<Parameter> parameters;
  KernelLimits limits;
  LaunchLock launch_lock;   ///< arguments are per-kernel state: set and enqueue atomically
  ArgPattern checked_args;  ///< under launch_lock: the arguments the last launch checked
  /// Work-group sizes launched so far (under launch_lock), to tell the cache of new ones.
  std::vector<std::array<std::size_t, 4>> launched_shapes;
};

/// Turns the driver's type name into pointer / element / lanes.
void digest(Parameter& parameter);
/// Signatures as saved in a cache entry: "kernel(name|type|space,...);kernel2(...)".
std::string encode_signatures(const std::map<std::string, std::vector<Parameter>>& signatures);
std::map<std::string, std::vector<Parameter>> decode_signatures(const std::string& text);

/// Reads and digests a kernel's parameters; `known` is false when the driver has no
/// argument info (then only the count is checked before a launch).
std::vector<Parameter> read_parameters(const Module& module, xgpu_kernel kernel, std::size_t count,
                                       bool& known);

/// The invalid_handle error of state_of(), out of line: the check itself stays inline, since
/// every launch and copy makes it.
[[noreturn]] void throw_empty_handle(const char* what);

/// The state behind a handle, or an invalid_handle error naming what was empty.
template <class State>
const State& state_of(const std::shared_ptr<State>& state, const char* what) {
  if (!state) throw_empty_handle(what);
  return *state;
}

}  // namespace xgpu::detail
