// XGPU_API marks what libxgpu exports: it is built with -fvisibility=hidden, so a
// declaration without it is the library's own business and no program can link to it.
// XGPU_ALGORITHMS_API does the same for libxgpu-algorithms.
#pragma once

#if defined(_WIN32)
#define XGPU_VISIBLE
#else
#define XGPU_VISIBLE __attribute__((visibility("default")))
#endif

#define XGPU_API XGPU_VISIBLE
#define XGPU_ALGORITHMS_API XGPU_VISIBLE
