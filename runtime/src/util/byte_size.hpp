// Sizes in bytes, read and written in one place: every size the core or the command reads
// ("512M", "1.5G") goes through parse_byte_size, every size it prints through
// xgpu::format_bytes (xgpu/byte_size.hpp, public so that the tools use it too).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "xgpu/byte_size.hpp"

namespace xgpu::util {

/// A count of bytes: digits with an optional decimal fraction ("100", "1.5"), then an
/// optional unit K, M, G or T (powers of 1024, either case), optionally followed by "i"
/// and/or "B": "512M", "2G", "1.5GiB", "3T", "100B". A fraction of a byte is dropped.
/// Nothing for empty text, a sign, an exponent, NaN or infinity, an unknown or repeated
/// unit, trailing junk, or more bytes than 64 bits hold.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

}  // namespace xgpu::util
