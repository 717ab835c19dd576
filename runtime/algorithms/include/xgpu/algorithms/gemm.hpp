// Dense matrix product (GEMM) of the algorithms library: C = alpha * op(A) * op(B) + beta * C
// on row-major matrices held in Buffers, by the fastest engine measured for the device.
//
// Engines (GemmEngine):
// - vendor_blas: the backend's tuned BLAS (CLBlast for the opencl backend), opened at run
//   time; the core never links it. Absent library: the engine is unavailable.
// - host_blas: a C BLAS on the host (XGPU_HOST_BLAS, else libopenblas.so.0, then
//   libblas.so.3), for devices whose memory the host shares (CPU devices, integrated GPUs
//   with host-unified memory): A, B and C are mapped without copy and the host computes.
// - kernel: xgpu's own tiled kernel (kernels/gemm.cl); always available.
// - automatic: the rule of gemm.cpp (chosen_gemm_engine() says which): a device sharing
//   host memory, for float/double, with a tuned host BLAS (one named in XGPU_HOST_BLAS, or
//   OpenBLAS running kernels for the CPU's AVX-512/AVX2) -> host_blas; a real GPU with the
//   vendor BLAS, for float/double -> vendor_blas; otherwise (half, simulators such as
//   Oclgrind, CPUs whose OpenBLAS fell back to old kernels, no library) -> kernel.
//
// Environment:
// - XGPU_GEMM=auto|vendor_blas|kernel|host_blas overrides the automatic choice (not an
//   engine passed explicitly). Where the named engine is unavailable for a call, the
//   automatic choice stands and a warning is logged. Another value: Errc::invalid_argument.
// - XGPU_GEMM_SHAPE=cpu|gpu forces the kernel engine's tile shape (vectors in registers
//   for CPUs, one element per register for GPUs) instead of the one for the device type;
//   for testing and tuning. Another value: Errc::invalid_argument.
// - XGPU_HOST_BLAS=<library file> is the host BLAS to open instead of the defaults;
//   XGPU_CLBLAST_LIBRARY=<file> the CLBlast library (default libclblast.so.1). Both are read
//   once, at first use.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {

/// Whether a matrix is used as stored (no) or transposed (yes).
enum class Transpose { no, yes };

/// Who computes a GEMM; see the top of this header.
enum class GemmEngine { automatic, vendor_blas, kernel, host_blas };

/// "automatic", "vendor_blas", "kernel", "host_blas".
XGPU_ALGORITHMS_API const char* to_string(GemmEngine engine);

/// Whether gemm() takes Buffer<T>: float, double (devices with fp64) and xgpu::half
/// (storage only).
template <class T>
inline constexpr bool is_gemm_type_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, half>;

namespace detail {
template <class T>
constexpr void check_gemm_type() {
  static_assert(is_gemm_type_v<T>, "xgpu::gemm takes Buffer<T> of float, double or xgpu::half");
}
template <class T>
XGPU_ALGORITHMS_API Event gemm_impl(Queue& queue, std::size_t m, std::size_t n, std::size_t k,
                                    scalar_t<T> alpha, const Buffer<T>& a, const Buffer<T>& b,
                                    scalar_t<T> beta, const Buffer<T>& c, Transpose ta,
                                    Transpose tb, GemmEngine engine);
template <class T>
XGPU_ALGORITHMS_API GemmEngine chosen_gemm_engine_impl(const Queue& queue);
template <class T>
XGPU_ALGORITHMS_API bool gemm_engine_available_impl(const Queue& queue, GemmEngine engine,
                                                    std::string* why);
// The mixed-precision form: 16-bit inputs (In: half or bfloat16), float output.
template <class In>
XGPU_ALGORITHMS_API Event gemm_mixed_impl(Queue& queue, std::size_t m, std::size_t n, std::size_t k,
                                          float alpha, const Buffer<In>& a, const Buffer<In>& b,
                                          float beta, const Buffer<float>& c, Transpose ta,
                                          Transpose tb, GemmEngine engine);
template <class In, class Out>
constexpr void check_gemm_mixed_types() {
  static_assert(is_16bit_float_v<In> && std::is_same_v<Out, float>,
                "xgpu::gemm<In, Out> with In != Out takes half or bfloat16 inputs and a float "
                "output (gemm<xgpu::half, float>, gemm<xgpu::bfloat16, float>)");
}
}  // namespace detail

/// C = alpha * op(A) * op(B) + beta * C with row-major, packed matrices: op(A) is m x k
/// (A holds m * k elements, stored m x k, or k x m when ta is yes), op(B) is k x n, C is
/// m x n. Types: float, double (fp64 devices; otherwise Errc::unsupported) and half
/// (storage; products are accumulated in float by the kernel engine). A buffer with fewer
/// elements than its matrix needs is Errc::invalid_argument naming it (a, b or c); larger
/// buffers are fine (the matrix is at the start). C must not be the buffer of A or B
/// (invalid_argument). m, n or k of 0 is valid: C = beta * C when k == 0, and the same when
/// alpha == 0, without reading A or B; beta == 0 never reads C (NaNs in C do not leak).
/// An engine asked for explicitly but unavailable is Errc::unsupported with the reason.
/// Returns the Event of the last command enqueued; host_blas computes before returning (an
/// empty Event). Accuracy: each element is within (k + 3) * eps * (|alpha| * sum |a||b| +
/// |beta * c|) of the exact value (eps of float or double); for half add the rounding of
/// the result to half (2^-11 relative). The vendor BLAS's half GEMM accumulates in half.
template <class T>
Event gemm(Queue& queue, std::size_t m, std::size_t n, std::size_t k, scalar_t<T> alpha,
           const Buffer<T>& a, const Buffer<T>& b, scalar_t<T> beta, const Buffer<T>& c,
           Transpose ta = Transpose::no, Transpose tb = Transpose::no,
           GemmEngine engine = GemmEngine::automatic) {
  detail::check_gemm_type<T>();
  return detail::gemm_impl<T>(queue, m, n, k, alpha, a, b, beta, c, ta, tb, engine);
}

/// Mixed precision: C (float) = alpha * op(A) * op(B) + beta * C with A and B of half or
/// bfloat16, spelled gemm<xgpu::half, float>(...) (or gemm<xgpu::half>(...) with a
/// Buffer<float> C). Every product and sum is in float, as for float inputs: the inputs widen
/// to float exactly, so each element is within (k + 3) * 2^-23 * (|alpha| * sum |a||b| +
/// |beta * c|) of the exact value, on every engine (the float GEMM's bound; nothing is
/// rounded to 16 bits). Engines, chosen as for float (the same rule and XGPU_GEMM):
/// - kernel: kernels/gemm.cl reads A and B as 16 bits and accumulates in float;
/// - vendor_blas and host_blas: A and B converted to float on the device first (xgpu::cast's
///   kernel, into temporaries of m * k and k * n floats), then the float GEMM of that engine
///   (CLBlast's SGEMM; the host's cblas_sgemm). CLBlast's HGEMM is not used: it accumulates
///   in half.
/// Sizes, transposes, aliasing, k == 0, alpha == 0, beta == 0 and errors as for gemm<T>.
template <class In, class Out>
std::enable_if_t<!std::is_same_v<In, Out>, Event> gemm(
    Queue& queue, std::size_t m, std::size_t n, std::size_t k, float alpha, const Buffer<In>& a,
    const Buffer<In>& b, float beta, const Buffer<Out>& c, Transpose ta = Transpose::no,
    Transpose tb = Transpose::no, GemmEngine engine = GemmEngine::automatic) {
  detail::check_gemm_mixed_types<In, Out>();
  return detail::gemm_mixed_impl<In>(queue, m, n, k, alpha, a, b, beta, c, ta, tb, engine);
}

/// The engine gemm<T>(queue, ...) uses with GemmEngine::automatic on this queue's device,
/// XGPU_GEMM applied. Never automatic.
template <class T>
GemmEngine chosen_gemm_engine(const Queue& queue) {
  detail::check_gemm_type<T>();
  return detail::chosen_gemm_engine_impl<T>(queue);
}

/// Whether `engine` can compute gemm<T> on this queue's device; when not and `why` is given,
/// the reason. automatic is always available.
template <class T>
bool gemm_engine_available(const Queue& queue, GemmEngine engine, std::string* why = nullptr) {
  detail::check_gemm_type<T>();
  return detail::gemm_engine_available_impl<T>(queue, engine, why);
}

/// The engine and availability of gemm<In, Out> (half or bfloat16 in, float out): those of
/// gemm<float>, whose engines it uses.
template <class In, class Out>
std::enable_if_t<!std::is_same_v<In, Out>, GemmEngine> chosen_gemm_engine(const Queue& queue) {
  detail::check_gemm_mixed_types<In, Out>();
  return detail::chosen_gemm_engine_impl<float>(queue);
}
template <class In, class Out>
std::enable_if_t<!std::is_same_v<In, Out>, bool> gemm_engine_available(const Queue& queue,
                                                                       GemmEngine engine,
                                                                       std::string* why = nullptr) {
  detail::check_gemm_mixed_types<In, Out>();
  return detail::gemm_engine_available_impl<float>(queue, engine, why);
}

}  // namespace xgpu
