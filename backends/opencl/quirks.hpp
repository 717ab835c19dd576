// The registry of driver quirks: every workaround the module applies for a driver's bug is one
// named entry here (in quirks.cpp), stating the implementation it applies to (as
// classify_device() names it), the driver versions, and why. Code that works around a quirk
// asks for it by id (quirk_platforms.hpp); it never tests a vendor or version string itself.
//
// Pure C++ with no OpenCL dependency, like classify.cpp, so unit tests can compile it alone.
#pragma once

#include <cstddef>
#include <string>

namespace xgpu::backend_opencl {

enum class QuirkId : std::size_t {
  kSerializeAllCalls,
  kRetainQueueForEvents,
  kSerializeCompiles,
  kFinishQueuesBeforeBinary,
  kChooseLocalSize,
  kCount  // not a quirk: the number of them
};

struct Quirk {
  QuirkId id;
  const char* name;            // what the workaround does, as logged
  const char* implementation;  // classify_device()'s key: "oclgrind", "pocl", "nvidia", ...
  // Driver versions it applies to, inclusive, compared number by number with the first dotted
  // number of CL_DRIVER_VERSION ("Oclgrind 21.10" -> 21.10). "" leaves that end open.
  const char* first_version;
  const char* last_version;
  const char* seen;  // the versions the bug was observed on
  const char* why;
};

const Quirk& quirk(QuirkId id);

/// True when the quirk applies to a device of `implementation` whose CL_DRIVER_VERSION is
/// `driver_version`. A version with no number only matches a range open at both ends.
bool quirk_applies(const Quirk& quirk, const std::string& implementation,
                   const std::string& driver_version);

}  // namespace xgpu::backend_opencl
