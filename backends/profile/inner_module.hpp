// The module under the profiles: the opencl module, loaded through the same C ABI and the
// same rules the core uses, whose table every profile entry forwards to.
#pragma once

#include <string>

#include "xgpu/backend.h"

namespace xgpu::profile {

/// Finds, opens and initialises the opencl module (XGPU_BACKEND_PATH folders first, then the
/// folder this module lives in, as the core searches). Throws common::Failure when none
/// serves. Safe to call more than once: the first success is kept.
void load_inner(const xgpu_host_v1* host);

/// The inner module's table; load_inner() must have succeeded.
const xgpu_backend_v1& inner();

/// The inner module's last error text on this thread.
std::string inner_error();

/// A forwarded call's status: on failure, the inner module's text becomes this module's last
/// error, so the core (which asks this module) reads what the driver said.
xgpu_status pass(xgpu_status status);

}  // namespace xgpu::profile
