// The BLAS libraries xgpu opens at run time, named once: the opencl module's vendor GEMM
// (CLBlast), the cuda module's (cuBLAS), the algorithms library's host engine (a CBLAS) and `xgpu
// bench library`, which compares with both and so must measure the very library xgpu::gemm uses.
// The files tried, and the variable that names another, are the settings' (settings.def).
#pragma once

#include "xgpu/common/dynamic_library.hpp"

namespace xgpu::common {

/// CLBlast's C API; XGPU_CLBLAST_LIBRARY names another file.
inline const LibrarySpec kClblastLibrary = library_spec("CLBlast", Setting::clblast_library);
/// cuBLAS, any major version since 11 (the v2 entry points are the same); XGPU_CUBLAS_LIBRARY
/// names another file.
inline const LibrarySpec kCublasLibrary = library_spec("cuBLAS", Setting::cublas_library);
/// A CBLAS (LP64: 32-bit int sizes); XGPU_HOST_BLAS names another file.
inline const LibrarySpec kHostBlasLibrary = library_spec("host BLAS", Setting::host_blas);

}  // namespace xgpu::common
