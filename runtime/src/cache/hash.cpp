// SHA-256 over pieces (FIPS 180-4: padding and the big-endian length); the block function
// comes from sha256_blocks.cpp, the x86 SHA extensions where the CPU has them.
#include "cache/hash.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "cache/sha256_blocks.hpp"

namespace xgpu::detail {
namespace {

using BlockFunction = void (*)(std::uint32_t*, const unsigned char*, std::size_t);

// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
constexpr std::uint32_t kInitialState[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

BlockFunction best_block_function() {
  static const BlockFunction best =
      cpu_has_x86_sha() ? &sha256_blocks_x86_sha : &sha256_blocks_portable;
  return best;
}

Digest digest(BlockFunction compress, std::initializer_list<std::string_view> pieces) {
  std::uint32_t state[8];
  std::memcpy(state, kInitialState, sizeof state);
  unsigned char block[64];
  std::size_t buffered = 0;
  std::uint64_t total = 0;
  for (std::string_view piece : pieces) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(piece.data());
    std::size_t left = piece.size();
    total += left;
    if (buffered > 0) {
      const std::size_t taken = std::min(left, sizeof block - buffered);
      if (taken > 0) std::memcpy(block + buffered, bytes, taken);  // data() may be NULL
      buffered += taken;
      bytes += taken;
      left -= taken;
      if (buffered < sizeof block) continue;
      compress(state, block, 1);
      buffered = 0;
    }
    compress(state, bytes, left / 64);  // whole blocks straight from the caller's bytes
    bytes += left / 64 * 64;
    left %= 64;
    if (left > 0) std::memcpy(block, bytes, left);
    buffered = left;
  }
  // A one bit, zeros, then the length in bits in the last 8 bytes of a block.
  block[buffered++] = 0x80;
  if (buffered > 56) {
    std::memset(block + buffered, 0, sizeof block - buffered);
    compress(state, block, 1);
    buffered = 0;
  }
  std::memset(block + buffered, 0, 56 - buffered);
  const std::uint64_t bits = total * 8;
  for (int i = 0; i < 8; ++i) block[56 + i] = static_cast<unsigned char>(bits >> (56 - 8 * i));
  compress(state, block, 1);
  Digest result{};
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 4; ++j)
      result[4 * i + j] = static_cast<std::uint8_t>(state[i] >> (24 - 8 * j));
  }
  return result;
}

}  // namespace

Digest sha256(std::initializer_list<std::string_view> pieces) {
  return digest(best_block_function(), pieces);
}

bool sha256_engine_available(Sha256Engine engine) {
  return engine == Sha256Engine::portable || cpu_has_x86_sha();
}

Digest sha256_using(Sha256Engine engine, std::initializer_list<std::string_view> pieces) {
  if (!sha256_engine_available(engine)) {
    throw std::invalid_argument("this CPU has no x86 SHA extensions");
  }
  return digest(engine == Sha256Engine::portable ? &sha256_blocks_portable : &sha256_blocks_x86_sha,
                pieces);
}

std::string to_hex(const Digest& digest) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text;
  text.reserve(digest.size() * 2);
  for (std::uint8_t byte : digest) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

}  // namespace xgpu::detail
