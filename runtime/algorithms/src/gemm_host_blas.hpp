// The host BLAS engine of xgpu::gemm (host_blas.cpp): a C BLAS opened at run time at first
// use, run on buffers mapped into host memory. Shared by gemm.cpp and host_blas.cpp only.
#pragma once

#include <cstddef>
#include <string>
#include <xgpu/queue.hpp>

namespace xgpu::detail::algo {

/// Whether a host BLAS with cblas_sgemm and cblas_dgemm could be opened (the first call
/// opens xgpu::common::kHostBlasLibrary: XGPU_HOST_BLAS, else OpenBLAS, then the reference
/// BLAS). When not, and `why` is given, what was tried and why each failed.
bool host_blas_loaded(std::string* why);

/// Whether the host BLAS is fit to be chosen automatically: one the user named in
/// XGPU_HOST_BLAS, or OpenBLAS running kernels that use the host CPU's vector width
/// (AVX-512, AVX2). When not, and `why` is given, the reason.
bool host_blas_tuned(std::string* why);

/// C = alpha * op(A) * op(B) + beta * C by the host BLAS, on row-major packed matrices
/// (lda = ta ? m : k, ldb = tb ? k : n, ldc = n). Maps A, B and C (once each, B with A when
/// they are one buffer), calls cblas_?gemm, unmaps; returns when C is written. The caller
/// has checked sizes, contexts and aliasing; m, n, k are > 0 and fit an int; the library is
/// loaded. T: float or double.
template <class T>
void host_blas_gemm(Queue& queue, std::size_t m, std::size_t n, std::size_t k, T alpha,
                    const Buffer<T>& a, const Buffer<T>& b, T beta, const Buffer<T>& c, bool ta,
                    bool tb);

}  // namespace xgpu::detail::algo
