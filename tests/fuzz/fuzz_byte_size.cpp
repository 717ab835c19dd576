// libFuzzer target for sizes in bytes: util::parse_byte_size (XGPU_CACHE_MAX_SIZE, requirement
// filters, `xgpu cache`) against an independent reading in 128-bit arithmetic, and
// parse_memory_limit (XGPU_MEMORY_LIMIT, Context::set_memory_limit's text form) on devices of
// every size, the largest a profile file may claim included.
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

#include "fuzz_support.hpp"
#include "memory/pool.hpp"
#include "util/byte_size.hpp"
#include "xgpu/error.hpp"

namespace {

using u128 = unsigned __int128;
constexpr std::uint64_t kMax = ~std::uint64_t{0};

// The documented grammar, read the simple way: digits, an optional fraction (its first 18
// digits count), an optional K/M/G/T with optional "i" and "B"; nothing beyond 64 bits.
std::optional<std::uint64_t> reference(std::string_view text) {
  std::size_t at = 0;
  u128 whole = 0, numerator = 0, denominator = 1;
  bool digits = false;
  for (; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at) {
    whole = whole * 10 + static_cast<unsigned>(text[at] - '0');
    if (whole > kMax) return std::nullopt;
    digits = true;
  }
  if (at < text.size() && text[at] == '.') {
    for (++at; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at) {
      digits = true;
      if (denominator < u128{1000000000000000000ull}) {
        numerator = numerator * 10 + static_cast<unsigned>(text[at] - '0');
        denominator *= 10;
      }
    }
  }
  if (!digits) return std::nullopt;
  std::string unit(text.substr(at));
  int power = 0;
  if (!unit.empty() && unit != "B" && unit != "b") {
    const std::string letters = "KMGT";
    const auto found = letters.find(static_cast<char>(std::toupper(unit[0])));
    if (found == std::string::npos) return std::nullopt;
    power = static_cast<int>(found) + 1;
    std::string rest = unit.substr(1);
    if (!rest.empty() && rest[0] == 'i') rest.erase(0, 1);
    if (!rest.empty() && rest != "B" && rest != "b") return std::nullopt;
  }
  const u128 scale = u128{1} << (10 * power);
  const u128 bytes = whole * scale + numerator * scale / denominator;
  if (bytes > kMax) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

std::string show(const std::optional<std::uint64_t>& value) {
  return value ? std::to_string(*value) : "nothing";
}

void fuzz_memory_limit(const std::string& text) {
  for (std::uint64_t device_memory : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{8} << 30,
                                      (std::uint64_t{1} << 53) + 1, kMax - 1, kMax}) {
    std::uint64_t limit = 0;
    try {
      limit = xgpu::detail::parse_memory_limit(text, device_memory, "XGPU_MEMORY_LIMIT");
    } catch (const xgpu::Error& error) {
      if (error.code() != xgpu::Errc::invalid_argument ||
          error.message().find("XGPU_MEMORY_LIMIT='") == std::string::npos)
        xgpu_fuzz::fail(std::string("parse_memory_limit refused without naming it: ") +
                        error.what());
      continue;
    }
    if (limit == 0) xgpu_fuzz::fail("parse_memory_limit gave a limit of 0 bytes");
    const bool fraction = text.find_first_not_of("0123456789.") == std::string::npos &&
                          text.find('.') != std::string::npos;
    if (fraction && limit > device_memory)
      xgpu_fuzz::fail("a fraction of " + std::to_string(device_memory) + " bytes gave " +
                      std::to_string(limit));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = xgpu_fuzz::as_text(data, size);
  const auto parsed = xgpu::util::parse_byte_size(text);
  const auto expected = reference(text);
  if (parsed != expected)
    xgpu_fuzz::fail("parse_byte_size gave " + show(parsed) + ", the reference " + show(expected));
  if (parsed) {  // what format_bytes prints for it must not be empty nor drop the unit
    const std::string printed = xgpu::format_bytes(*parsed);
    if (printed.empty() || printed.back() != 'B') xgpu_fuzz::fail("format_bytes: " + printed);
  }
  fuzz_memory_limit(std::string(text));
  return 0;
}
