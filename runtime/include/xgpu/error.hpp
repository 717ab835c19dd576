// xgpu::Error, the one exception type of the library, and xgpu::Errc, what kind it is.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>
#include <xgpu/export.hpp>

namespace xgpu {

/// What went wrong, in xgpu's terms. The native (driver) status is carried alongside.
enum class Errc : std::uint32_t {
#define XGPU_ERRC(id, name, meaning) id,
#include <xgpu/error_codes.def>
#undef XGPU_ERRC
};

/// The symbolic name of an Errc ("argument_type").
XGPU_API const char* errc_name(Errc code) noexcept;

/// Every failure of xgpu. what() is a complete sentence naming the mistake; the parts are
/// also available one by one for programs that react to them.
class XGPU_API Error : public std::runtime_error {
 public:
  struct Details {
    Errc code = Errc::backend;
    std::string message;               ///< what went wrong, in words
    std::string call;                  ///< the failing call ("clBuildProgram", "Queue::launch")
    std::int32_t native_status = 0;    ///< the backend's status (CL_* code), 0 when none
    std::string native_name;           ///< its symbolic name ("CL_OUT_OF_RESOURCES")
    std::string device;                ///< the device's name, when one is involved
    std::string build_log;             ///< for build_failed: the driver's full log
    std::string build_options;         ///< for build_failed: the options used
    std::vector<std::string> context;  ///< what xgpu was doing, innermost first
  };

  explicit Error(Details details);
  /// The common case: a kind, a sentence naming the mistake, and the call that found it.
  Error(Errc code, std::string message, std::string call);

  Errc code() const noexcept { return details_.code; }
  const std::string& message() const noexcept { return details_.message; }
  const std::string& call() const noexcept { return details_.call; }
  std::int32_t native_status() const noexcept { return details_.native_status; }
  const std::string& native_name() const noexcept { return details_.native_name; }
  const std::string& device() const noexcept { return details_.device; }
  const std::string& build_log() const noexcept { return details_.build_log; }
  const std::string& build_options() const noexcept { return details_.build_options; }
  const Details& details() const noexcept { return details_; }

  /// A copy of this error with one more line of context ("while building saxpy.cl").
  Error with_context(std::string what_was_happening) const;

 private:
  static std::string compose(const Details& details);
  Details details_;
};

}  // namespace xgpu
