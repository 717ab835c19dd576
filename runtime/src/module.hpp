// A loaded backend module: the checked function table, and helpers to call it and turn
// its failures into xgpu::Error.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "xgpu/backend.h"
#include "xgpu/device.hpp"
#include "xgpu/error.hpp"

namespace xgpu::detail {

struct DeviceRecord;

struct Module {
  std::string name;  ///< the table's name ("opencl")
  std::string path;
  const xgpu_backend_v1* table = nullptr;
  xgpu_host_v1 host{};

  /// Whether an optional member is present: inside the table's size and not NULL.
  template <class Member>
  bool has(Member xgpu_backend_v1::*member) const {
    static const xgpu_backend_v1 probe{};
    const auto offset = static_cast<std::size_t>(reinterpret_cast<const char*>(&(probe.*member)) -
                                                 reinterpret_cast<const char*>(&probe));
    return offset + sizeof(void*) <= table->struct_size && table->*member != nullptr;
  }

  std::string status_name(xgpu_status status) const;
  /// The module's description of the last failure on this thread.
  std::string last_error() const;
};

/// Outcome of loading one module file: a module when it passed every check.
struct LoadOutcome {
  std::unique_ptr<Module> module;
  BackendReport report;
};

/// dlopen()s a file, finds the entry symbol, checks ABI version and table size, and calls
/// init(). Never throws: every refusal is described in report.message.
LoadOutcome load_module(const std::string& path);

/// The one mapping of a module status to xgpu's terms, from xgpu/backend_status.def: a
/// status the ABI reserves becomes its Errc (XGPU_STATUS_UNSUPPORTED -> unsupported,
/// XGPU_STATUS_INVALID_VALUE -> invalid_argument, ...); any other is the backend's own
/// status (CL_*) and becomes Errc::backend.
Errc errc_of_status(xgpu_status status) noexcept;

/// What a failed module call means: the Errc of errc_of_status(), the operation, the native
/// status and its name, the module's own explanation, and the device. Every xgpu::Error
/// made from a module status starts from these.
Error::Details backend_error_details(const Module& module, xgpu_status status,
                                     const std::string& operation, const DeviceRecord* device);

/// Throws the xgpu::Error of backend_error_details().
[[noreturn]] void throw_backend_error(const Module& module, xgpu_status status,
                                      const std::string& operation, const DeviceRecord* device);

inline void check(const Module& module, xgpu_status status, const char* operation,
                  const DeviceRecord* device) {
  if (status != XGPU_STATUS_SUCCESS) throw_backend_error(module, status, operation, device);
}

/// Called once the modules (and through them the drivers) are loaded: from then on, the
/// start of exit() is noticed, after which objects are no longer released (handle.cpp).
void watch_for_exit();
/// True once exit() has begun: driver objects still held are left to the operating system.
bool exit_has_begun() noexcept;

/// Reads a string result through the (capacity, size_ret) idiom: ask the size, then fill.
template <class Query>
xgpu_status read_string(Query&& query, std::string& out) {
  std::size_t size = 0;
  xgpu_status status = query(nullptr, 0, &size);
  if (status != XGPU_STATUS_SUCCESS) return status;
  out.assign(size, '\0');
  if (size == 0) return status;
  status = query(out.data(), out.size(), &size);
  if (status == XGPU_STATUS_SUCCESS) out.resize(size > 0 ? size - 1 : 0);  // drop the NUL
  return status;
}

}  // namespace xgpu::detail
