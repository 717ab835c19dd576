// The on-disk format of one kernel-cache entry, and its checked parser.
//
//   offset  size  field
//   0       8     magic "XGPUKC\r\n" (the \r\n catches text-mode mangling)
//   8       4     format version (little-endian), kCacheFormatVersion
//   12      4     number of sections, 4
//   16      32    lengths of the sections, 4 x u64 little-endian
//   48      32    SHA-256 of the header's first 48 bytes and every section
//   80      ...   sections: key text, metadata, build log, binary
//
// The parser trusts nothing: every length is checked against the bytes present before
// it is used, and the checksum covers the header's fields as well as the sections.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace xgpu::detail {

inline constexpr std::uint32_t kCacheFormatVersion = 1;
inline constexpr std::size_t kEntryHeaderSize = 80;

struct CacheEntry {
  std::string key;        ///< the full key text; compared on load, so a hash collision misses
  std::string metadata;   ///< "name=value" lines: device, driver, source, kernels, variants
  std::string build_log;  ///< the log of the original build
  std::string binary;     ///< the driver's program binary
};

std::string encode_entry(const CacheEntry& entry);

/// Parses an entry; on failure returns false and says why in *why (never throws, never
/// reads outside `bytes`).
bool parse_entry(std::string_view bytes, CacheEntry& entry, std::string* why);

/// One "name=value" line of the metadata, or empty when absent.
std::string metadata_value(const std::string& metadata, std::string_view name);

}  // namespace xgpu::detail
