// The BLAS libraries xgpu opens at run time, named once: the opencl module's vendor GEMM
// (CLBlast), the cuda module's (cuBLAS), the algorithms library's host engine (a CBLAS) and `xgpu
// bench library`, which compares with both and so must measure the very library xgpu::gemm uses.
#pragma once

#include "xgpu/common/dynamic_library.hpp"

namespace xgpu::common {

/// CLBlast's C API; XGPU_CLBLAST_LIBRARY names another file.
inline const LibrarySpec kClblastLibrary{
    "CLBlast", "XGPU_CLBLAST_LIBRARY", {"libclblast.so.1", "libclblast.so"}};
/// cuBLAS, any major version since 11 (the v2 entry points are the same); XGPU_CUBLAS_LIBRARY
/// names another file.
inline const LibrarySpec kCublasLibrary{
    "cuBLAS",
    "XGPU_CUBLAS_LIBRARY",
    {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"}};
/// A CBLAS (LP64: 32-bit int sizes); XGPU_HOST_BLAS names another file.
inline const LibrarySpec kHostBlasLibrary{
    "host BLAS", "XGPU_HOST_BLAS", {"libopenblas.so.0", "libblas.so.3"}};

}  // namespace xgpu::common
