// SHA-256, from OpenSSL's libcrypto: the kernel cache's key and checksum.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace xgpu::detail {

using Digest = std::array<std::uint8_t, 32>;

/// SHA-256 of several pieces, as if concatenated.
Digest sha256(std::initializer_list<std::string_view> pieces);
std::string to_hex(const Digest& digest);

}  // namespace xgpu::detail
