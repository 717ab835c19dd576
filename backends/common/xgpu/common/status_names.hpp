// Symbolic names of statuses: the ABI's own (xgpu/backend_status.def) and the lookup a
// module runs over its native table (an X-macro of {value, name} rows), so that every
// name comes from a table and none from a hand-written switch.
#pragma once

#include <cstddef>
#include <cstdint>

#include "xgpu/backend.h"

namespace xgpu::common {

/// One row of a status table.
struct StatusName {
  int32_t value;
  const char* name;
};

/// The name of `status` in table[0, count), or nullptr. The first matching row wins, so a
/// table lists the preferred name first where two share a value.
const char* find_status_name(const StatusName* table, size_t count, int32_t status) noexcept;
template <size_t N>
const char* find_status_name(const StatusName (&table)[N], int32_t status) noexcept {
  return find_status_name(table, N, status);
}

/// "XGPU_STATUS_SUCCESS" for 0 and the name of every status backend_status.def lists;
/// nullptr for any other (a backend's native status).
const char* abi_status_name(xgpu_status status) noexcept;

/// A module's status_name() entry when it has no native table: abi_status_name(), else
/// "UNKNOWN".
const char* status_name_or_unknown(xgpu_status status) noexcept;

}  // namespace xgpu::common
