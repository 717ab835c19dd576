// The block compression functions behind hash.cpp: each updates the eight state words with
// `count` 64-byte blocks.
#pragma once

#include <cstddef>
#include <cstdint>

namespace xgpu::detail {

void sha256_blocks_portable(std::uint32_t state[8], const unsigned char* blocks, std::size_t count);

/// Whether the CPU has the SHA extensions (and SSSE3 and SSE4.1, which the code uses too).
bool cpu_has_x86_sha();
/// Only where cpu_has_x86_sha() is true.
void sha256_blocks_x86_sha(std::uint32_t state[8], const unsigned char* blocks, std::size_t count);

}  // namespace xgpu::detail
