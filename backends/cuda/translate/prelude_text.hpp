// The OpenCL C prelude (prelude_*.cuh), embedded at build time by cmake/embed_text.cmake.
#pragma once

namespace xgpu_cuda {
/// The prelude's text, ahead of every translated program.
const char* prelude_text();
}  // namespace xgpu_cuda
