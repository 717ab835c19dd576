// SHA-256 (FIPS 180-4): the kernel cache's key and checksum. xgpu's own, not OpenSSL's:
// libcrypto cost every process that loads libxgpu its linking and, on the first digest, the
// set-up of its providers (EVP_MD_fetch, reading openssl.cnf): each many times the cost of
// hashing a whole cache entry, and paid by every warm start.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace xgpu::detail {

using Digest = std::array<std::uint8_t, 32>;

/// SHA-256 of several pieces, as if concatenated, with the fastest engine this CPU has.
Digest sha256(std::initializer_list<std::string_view> pieces);
std::string to_hex(const Digest& digest);

/// The ways to compress blocks: plain C++ everywhere, or the x86 SHA extensions.
enum class Sha256Engine { portable, x86_sha };

/// Whether this CPU (and this build) can run `engine`.
bool sha256_engine_available(Sha256Engine engine);
/// SHA-256 with a chosen engine, for tests that compare the engines; throws
/// std::invalid_argument when the engine is not available.
Digest sha256_using(Sha256Engine engine, std::initializer_list<std::string_view> pieces);

}  // namespace xgpu::detail
