// What each of xgpu's shared libraries exports, one macro per library: each is built with
// -fvisibility=hidden, so a declaration without its macro is the library's own business and
// no program can link to it. XGPU_API: libxgpu; XGPU_ALGORITHMS_API: libxgpu-algorithms;
// XGPU_MULTI_API: libxgpu-multi; XGPU_MPI_API: libxgpu-mpi.
#pragma once

#if defined(_WIN32)
#define XGPU_VISIBLE
#else
#define XGPU_VISIBLE __attribute__((visibility("default")))
#endif

#define XGPU_API XGPU_VISIBLE
#define XGPU_ALGORITHMS_API XGPU_VISIBLE
#define XGPU_MULTI_API XGPU_VISIBLE
#define XGPU_MPI_API XGPU_VISIBLE
