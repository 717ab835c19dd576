// libFuzzer target for the kernel-cache entry parser: any bytes must be parsed or refused,
// never read out of bounds, and whatever parses must encode back to the same bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cache/entry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  xgpu::detail::CacheEntry entry;
  std::string why;
  if (xgpu::detail::parse_entry(bytes, entry, &why)) {
    if (xgpu::detail::encode_entry(entry) != bytes) std::abort();
  } else if (why.empty()) {
    std::abort();  // every refusal says why
  }
  return 0;
}
