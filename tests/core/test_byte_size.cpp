// Sizes in bytes, read (util::parse_byte_size, behind XGPU_CACHE_MAX_SIZE, cache::parse_size
// and requirement filters) and written (xgpu::format_bytes, behind the library's messages and
// the `xgpu` command's views). White-box: it includes the core's util header. No device needed.
#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>

#include "memory/pool.hpp"
#include "util/byte_size.hpp"
#include "xgpu/error.hpp"

namespace {

using Bytes = std::optional<std::uint64_t>;
constexpr std::uint64_t kMax = ~std::uint64_t{0};

Bytes parse(const char* text) { return xgpu::util::parse_byte_size(text); }

}  // namespace

TEST_CASE("sizes parse with K, M, G and T as powers of 1024", "[byte_size]") {
  CHECK(parse("100") == Bytes(100));
  CHECK(parse("0") == Bytes(0));
  CHECK(parse("1K") == Bytes(1024));
  CHECK(parse("512M") == Bytes(512ull << 20));
  CHECK(parse("2G") == Bytes(2ull << 30));
  CHECK(parse("3T") == Bytes(3ull << 40));
  CHECK(parse("24g") == Bytes(24ull << 30));
  CHECK(parse("100B") == Bytes(100));
  CHECK(parse("2GB") == Bytes(2ull << 30));
  CHECK(parse("2Gi") == Bytes(2ull << 30));
  CHECK(parse("2GiB") == Bytes(2ull << 30));
  CHECK(parse("2gib") == Bytes(2ull << 30));
}

TEST_CASE("sizes take decimal fractions; a fraction of a byte is dropped", "[byte_size]") {
  CHECK(parse("1.5G") == Bytes(3ull << 29));
  CHECK(parse("0.5K") == Bytes(512));
  CHECK(parse(".25M") == Bytes(256ull << 10));
  CHECK(parse("0.1K") == Bytes(102));  // 102.4
  CHECK(parse("1.5") == Bytes(1));
  CHECK(parse("2.") == Bytes(2));
  CHECK(parse("1.00000000000000000000000001K") == Bytes(1024));
}

TEST_CASE("sizes that are not sizes give nothing", "[byte_size]") {
  const char* const junk_texts[] = {
      "",     "abc",   "M",   ".",       ".K",            // no number
      "5Q",   "12MM",  "2KK", "2iB",     "2Gx",  "1,5G",  // no unit or junk after it
      "-1",   "+1",    " 1",  "1 ",      "1 G",           // signs and blanks
      "1..5", "1.5.2", "1e3", "1e30",    "0x10",          // what strtod would read
      "nan",  "NaN",   "inf", "infinity"};
  for (const char* junk : junk_texts) {
    INFO("'" << junk << "'");
    CHECK(parse(junk) == std::nullopt);
  }
}

TEST_CASE("sizes past 64 bits give nothing instead of wrapping", "[byte_size]") {
  CHECK(parse("18446744073709551615") == Bytes(kMax));
  CHECK(parse("18446744073709551616") == std::nullopt);
  CHECK(parse("99999999999999999999999") == std::nullopt);
  CHECK(parse("16777215T") == Bytes(kMax - (1ull << 40) + 1));
  CHECK(parse("16777216T") == std::nullopt);
  CHECK(parse("17179869184G") == std::nullopt);  // 2^34 G = 2^64
  CHECK(parse("18446744073709551615.9") == Bytes(kMax));
  CHECK(parse("16777215.5T") == Bytes(kMax - (1ull << 39) + 1));
  CHECK(parse("16777216.5T") == std::nullopt);
  CHECK(parse("5.99999999999999999999") == Bytes(5));  // never rounded up to 6
}

TEST_CASE("byte counts print in the largest binary unit, two decimals at most", "[byte_size]") {
  CHECK(xgpu::format_bytes(0) == "0 B");
  CHECK(xgpu::format_bytes(512) == "512 B");
  CHECK(xgpu::format_bytes(1023) == "1023 B");
  CHECK(xgpu::format_bytes(1024) == "1 KiB");
  CHECK(xgpu::format_bytes(32768) == "32 KiB");
  CHECK(xgpu::format_bytes(134217728) == "128 MiB");
  CHECK(xgpu::format_bytes(3996813312) == "3.72 GiB");
  CHECK(xgpu::format_bytes(3ull << 29) == "1.5 GiB");
  CHECK(xgpu::format_bytes(3ull << 40) == "3 TiB");
  CHECK(xgpu::format_bytes(1048575) == "1 MiB");  // 1023.999 KiB rounds up a unit
  CHECK(xgpu::format_bytes(kMax) == "16 EiB");
}

TEST_CASE("a printed size parses back to the same count", "[byte_size]") {
  for (std::uint64_t bytes :
       {0ull, 1ull, 1000ull, 1ull << 10, 3ull << 29, 512ull << 20, 5ull << 40}) {
    std::string text = xgpu::format_bytes(bytes);
    text.erase(text.find(' '), 1);  // "1.5 GiB" -> "1.5GiB"
    CHECK(parse(text.c_str()) == Bytes(bytes));
  }
}

// Found by fuzzing (tests/fuzz/fuzz_byte_size.cpp): a fraction of the largest size a profile
// may claim overflowed the conversion back from double, and one too small to be a byte gave
// a limit of 0, which means no limit at all.
TEST_CASE("XGPU_MEMORY_LIMIT's fractions stay within the device's memory", "[byte_size]") {
  using xgpu::detail::parse_memory_limit;
  CHECK(parse_memory_limit("1.0", kMax, "XGPU_MEMORY_LIMIT") == kMax);
  CHECK(parse_memory_limit("1.0", kMax - 1, "XGPU_MEMORY_LIMIT") == kMax - 1);
  CHECK(parse_memory_limit("0.5", 8ull << 30, "XGPU_MEMORY_LIMIT") == 4ull << 30);
  CHECK(parse_memory_limit("1.0", 3, "XGPU_MEMORY_LIMIT") == 3);
  try {
    parse_memory_limit("0.1", 3, "XGPU_MEMORY_LIMIT");
    FAIL("a limit of 0.3 bytes was taken");
  } catch (const xgpu::Error& error) {
    CHECK(error.code() == xgpu::Errc::invalid_argument);
    CHECK_THAT(error.what(),
               Catch::Contains("XGPU_MEMORY_LIMIT='0.1'") && Catch::Contains("less than one byte"));
  }
}
