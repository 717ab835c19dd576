// OpenCL C features the prelude does not cover: each is refused with its name and line,
// never left to become a confusing NVRTC error or a silent miscompile.
#pragma once

#include <string>

namespace xgpu_cuda {

/// What the feature is called in an error ("images (image2d_t)"), or empty when
/// `identifier` is fine.
std::string unsupported_feature(const std::string& identifier);

}  // namespace xgpu_cuda
