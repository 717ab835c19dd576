// The memory limit's text (XGPU_MEMORY_LIMIT's value) read as bytes, refused with a named error.
// Reading the settings is settings.cpp's part, so this parser stands alone (tests/fuzz).
#include <cmath>
#include <cstdlib>
#include <string>

#include "../util/byte_size.hpp"
#include "pool.hpp"
#include "xgpu/error.hpp"

namespace xgpu::detail {

std::uint64_t parse_memory_limit(const std::string& text, std::uint64_t device_memory,
                                 const char* source) {
  const std::string quoted = std::string(source) + "='" + text + "'";
  if (!text.empty() && text[0] == '-') {
    throw Error(Errc::invalid_argument,
                quoted +
                    " is negative: give a size such as 4G or a "
                    "fraction of the device's memory such as 0.8",
                "Context");
  }
  // A unitless number with a decimal point is a fraction of the device's memory; anything
  // else is a size in bytes ("4G", "512M", "1000000").
  const bool fraction = text.find('.') != std::string::npos &&
                        text.find_first_not_of("0123456789.") == std::string::npos;
  if (fraction) {
    const double share = std::strtod(text.c_str(), nullptr);
    if (!(share > 0.0 && share <= 1.0)) {
      throw Error(Errc::invalid_argument,
                  quoted + ": a fraction of the device's memory must be above 0 and at most 1",
                  "Context");
    }
    if (device_memory == 0) {
      throw Error(Errc::invalid_argument,
                  quoted + " is a fraction, but the device does not report its memory size",
                  "Context");
    }
    // As a double the device's size may round up (to 2^64 for the largest a profile may
    // claim), and converting that back would overflow: the whole device is the most.
    const double share_bytes = std::floor(share * static_cast<double>(device_memory));
    const std::uint64_t bytes = share_bytes >= static_cast<double>(device_memory)
                                    ? device_memory
                                    : static_cast<std::uint64_t>(share_bytes);
    if (bytes == 0) {
      throw Error(Errc::invalid_argument,
                  quoted + " is less than one byte of the device's " +
                      std::to_string(device_memory) + " (unset it for no limit)",
                  "Context");
    }
    return bytes;
  }
  const auto bytes = util::parse_byte_size(text);
  if (!bytes) {
    throw Error(Errc::invalid_argument,
                quoted + " is not a size (4G, 512M) nor a fraction of the device's memory (0.8)",
                "Context");
  }
  if (*bytes == 0) {
    throw Error(Errc::invalid_argument,
                quoted + " is zero: no allocation could succeed (unset it for no limit)",
                "Context");
  }
  return *bytes;
}

}  // namespace xgpu::detail
