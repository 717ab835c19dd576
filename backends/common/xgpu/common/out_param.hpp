// The (capacity, size_ret) idiom every string and value out-parameter of the ABI follows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "xgpu/backend.h"

namespace xgpu::common {

/// The bytes of one answer, as they will be copied to the caller.
using Bytes = std::vector<unsigned char>;

Bytes bytes_of_string(const std::string& text);  // with its terminating NUL
Bytes bytes_of_u64(uint64_t value);
Bytes bytes_of_bool(bool value);  // the ABI's bool: uint32_t 0 or 1
Bytes bytes_of_u64s(const uint64_t* values, size_t count);

/// Sets *size_ret (when given) to `size`; copies into `buffer` when it is given and large
/// enough, else returns XGPU_STATUS_INVALID_VALUE without recording a text, so last_error()
/// can use it on its own text.
xgpu_status copy_out_quiet(const void* data, size_t size, void* buffer, size_t capacity,
                           size_t* size_ret) noexcept;

/// Throws Failure(XGPU_STATUS_INVALID_VALUE) saying so when capacity < needed.
void require_capacity(size_t needed, size_t capacity);

/// As copy_out_quiet(), but a too small buffer throws Failure with a text saying so.
void copy_out(const void* data, size_t size, void* buffer, size_t capacity, size_t* size_ret);
inline void copy_out(const Bytes& bytes, void* buffer, size_t capacity, size_t* size_ret) {
  copy_out(bytes.data(), bytes.size(), buffer, capacity, size_ret);
}

}  // namespace xgpu::common
