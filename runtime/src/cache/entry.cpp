// Encoding and parsing of cache entries; see entry.hpp for the layout.
#include "cache/entry.hpp"

#include <cstring>

#include "cache/hash.hpp"

namespace xgpu::detail {
namespace {

constexpr char kMagic[8] = {'X', 'G', 'P', 'U', 'K', 'C', '\r', '\n'};
constexpr std::uint32_t kSections = 4;
constexpr std::size_t kChecksumOffset = 48;

void put_u32(std::string& out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
}
void put_u64(std::string& out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
}
std::uint64_t get_le(std::string_view bytes, std::size_t at, int width) {
  std::uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    value |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
  }
  return value;
}

Digest checksum(std::string_view header_fields, const std::string_view (&sections)[kSections]) {
  return sha256({header_fields, sections[0], sections[1], sections[2], sections[3]});
}

bool fail(std::string* why, const char* reason) {
  if (why) *why = reason;
  return false;
}

}  // namespace

std::string encode_entry(const CacheEntry& entry) {
  const std::string_view sections[kSections] = {entry.key, entry.metadata, entry.build_log,
                                                entry.binary};
  std::string out(kMagic, sizeof kMagic);
  put_u32(out, kCacheFormatVersion);
  put_u32(out, kSections);
  for (const auto& section : sections) put_u64(out, section.size());
  Digest sum = checksum(out, sections);
  out.append(reinterpret_cast<const char*>(sum.data()), sum.size());
  for (const auto& section : sections) out.append(section);
  return out;
}

bool parse_entry(std::string_view bytes, CacheEntry& entry, std::string* why) {
  if (bytes.size() < kEntryHeaderSize) return fail(why, "truncated: shorter than the header");
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return fail(why, "not a cache entry (bad magic)");
  }
  if (get_le(bytes, 8, 4) != kCacheFormatVersion) return fail(why, "another cache format version");
  if (get_le(bytes, 12, 4) != kSections) return fail(why, "unexpected number of sections");
  std::uint64_t lengths[kSections];
  std::uint64_t remaining = bytes.size() - kEntryHeaderSize;
  for (std::uint32_t i = 0; i < kSections; ++i) {
    lengths[i] = get_le(bytes, 16 + 8 * i, 8);
    if (lengths[i] > remaining) return fail(why, "truncated: a section runs past the end");
    remaining -= lengths[i];
  }
  if (remaining != 0) return fail(why, "trailing bytes after the last section");
  std::string_view sections[kSections];
  std::size_t at = kEntryHeaderSize;
  for (std::uint32_t i = 0; i < kSections; ++i) {
    sections[i] = bytes.substr(at, lengths[i]);
    at += lengths[i];
  }
  Digest sum = checksum(bytes.substr(0, kChecksumOffset), sections);
  if (std::memcmp(sum.data(), bytes.data() + kChecksumOffset, sum.size()) != 0) {
    return fail(why, "checksum mismatch (corrupt)");
  }
  entry.key.assign(sections[0]);
  entry.metadata.assign(sections[1]);
  entry.build_log.assign(sections[2]);
  entry.binary.assign(sections[3]);
  return true;
}

std::string metadata_value(const std::string& metadata, std::string_view name) {
  std::size_t at = 0;
  while (at < metadata.size()) {
    std::size_t end = metadata.find('\n', at);
    if (end == std::string::npos) end = metadata.size();
    std::string_view line(metadata.data() + at, end - at);
    if (line.size() > name.size() && line.substr(0, name.size()) == name &&
        line[name.size()] == '=') {
      return std::string(line.substr(name.size() + 1));
    }
    at = end + 1;
  }
  return {};
}

}  // namespace xgpu::detail
