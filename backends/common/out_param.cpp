// The (capacity, size_ret) idiom, written once.
#include "xgpu/common/out_param.hpp"

#include <cstring>

#include "xgpu/common/errors.hpp"

namespace xgpu::common {

Bytes bytes_of_string(const std::string& text) {
  const char* begin = text.c_str();
  return Bytes(begin, begin + text.size() + 1);
}

Bytes bytes_of_u64(uint64_t value) { return bytes_of_u64s(&value, 1); }

Bytes bytes_of_bool(bool value) {
  uint32_t word = value ? 1 : 0;
  const auto* begin = reinterpret_cast<const unsigned char*>(&word);
  return Bytes(begin, begin + sizeof(word));
}

Bytes bytes_of_u64s(const uint64_t* values, size_t count) {
  const auto* begin = reinterpret_cast<const unsigned char*>(values);
  return Bytes(begin, begin + count * sizeof(uint64_t));
}

xgpu_status copy_out_quiet(const void* data, size_t size, void* buffer, size_t capacity,
                           size_t* size_ret) noexcept {
  if (size_ret != nullptr) *size_ret = size;
  if (buffer == nullptr) return XGPU_STATUS_SUCCESS;
  if (capacity < size) return XGPU_STATUS_INVALID_VALUE;
  if (size != 0) std::memcpy(buffer, data, size);
  return XGPU_STATUS_SUCCESS;
}

void require_capacity(size_t needed, size_t capacity) {
  if (capacity < needed) {
    fail(XGPU_STATUS_INVALID_VALUE, "buffer too small: " + std::to_string(needed) +
                                        " bytes needed, capacity " + std::to_string(capacity));
  }
}

void copy_out(const void* data, size_t size, void* buffer, size_t capacity, size_t* size_ret) {
  if (copy_out_quiet(data, size, buffer, capacity, size_ret) != XGPU_STATUS_SUCCESS) {
    require_capacity(size, capacity);
  }
}

}  // namespace xgpu::common
