// What xgpu knows about OpenCL implementations, read from the one table of known_drivers.def:
// their bugs and lacks, the driver versions each applies to, the runtime workaround the opencl
// module applies for it, and the conformance checks it excuses. Everything that acts on a
// driver's known behaviour asks here; nothing tests a vendor or a version string itself.
// Pure C++ (no driver header), so tests and every layer below the ABI can use it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xgpu::drivers {

/// What a fact affects: the four kinds of known_drivers.def.
enum class Affects : std::uint8_t {
  workaround,       ///< the opencl module applies a workaround (XGPU_WORKAROUND)
  wrong_result,     ///< a check seeing it reports a skip naming it (XGPU_WRONG_RESULT)
  missing_feature,  ///< the checks that need it skip (XGPU_MISSING_FEATURE)
  avoided           ///< the checks leave out an input that crashes the driver (XGPU_AVOIDED)
};

/// The workarounds the opencl module implements (backends/opencl/quirk_platforms.hpp asks
/// for them by this id).
enum class Workaround : std::uint8_t {
  none,
  serialize_all_calls,
  retain_queue_for_events,
  serialize_compiles,
  finish_queues_before_binary,
  choose_local_size,
  count  // not a workaround: one past the last
};

/// "serialize_all_calls", as logged; "none" for none.
const char* workaround_name(Workaround workaround);

/// One row of known_drivers.def (which documents each field).
struct DriverFact {
  const char* implementation;
  const char* first_version;
  const char* last_version;
  Affects affects;
  Workaround workaround;  ///< none unless affects == workaround
  const char* checks;     ///< "suite/name" space-separated; "" for a workaround
  const char* failure;    ///< a regex on a failure's detail (wrong_result); "" any failure
  const char* input;      ///< the input left out (avoided); "" otherwise
  const char* why;
};

/// Every row, in the table's order.
const std::vector<DriverFact>& known_driver_facts();

/// True when the fact is about `implementation` and `driver_version` (CL_DRIVER_VERSION's
/// text) lies in its range. A version with no number matches only a range open at both ends.
bool applies(const DriverFact& fact, std::string_view implementation,
             std::string_view driver_version);

/// The fact's checks, each "suite/name".
std::vector<std::string> checks_of(const DriverFact& fact);

/// True when `check` ("suite/name") is one of the fact's checks.
bool concerns(const DriverFact& fact, std::string_view check);

/// The facts of one kind that apply to a device, in the table's order.
std::vector<const DriverFact*> facts_for(std::string_view implementation,
                                         std::string_view driver_version, Affects affects);

/// The checks that may skip on a device: those of its wrong_result and missing_feature facts,
/// sorted, each once.
std::vector<std::string> allowed_skips(std::string_view implementation,
                                       std::string_view driver_version);

/// Every implementation the table names, sorted, each once.
std::vector<std::string> known_implementations();

}  // namespace xgpu::drivers
