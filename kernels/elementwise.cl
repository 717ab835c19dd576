// Element-wise operations over buffers of n elements. The float kernels xgpu_*_f32 take one
// element per work-item: launch at least n items (extra items do nothing). The typed kernels
// take XGPU_EW_W consecutive elements per item: launch at least ceil(n / XGPU_EW_W).
//
// Built without options, the file holds the float kernels xgpu_*_f32. Built with
// -DXGPU_T=<type> -DXGPU_T_<TYPE> (float, double, int, uint, half; bfloat16 as ushort with
// XGPU_T_BFLOAT16), it also holds the typed kernels xgpu_ew_* of the algorithms library, one
// per operation, all made by the macros below. half and bfloat16 are storage: they compute in
// float and round to nearest even once, when stored (vstore_half; xgpu_bfloat16.cl). With
// -DXGPU_HALF_NATIVE (the host's word that the device has cl_khr_fp16) and the compiler's
// cl_khr_fp16 both, half computes in half instead: +, -, *, /, fma, abs and relu natively
// (scalars rounded to half first), the math functions still in float. Both are needed:
// Oclgrind defines cl_khr_fp16 without the extension (and cannot run half constants), and a
// profile that claims fp16 over a backing compiler without it gets the float path.
// Integers wrap modulo 2^32.
// Requires: OpenCL C 1.2; cl_khr_fp64 for XGPU_T_DOUBLE; cl_khr_fp16 for the native path.
#include "xgpu_common.cl"
#ifdef XGPU_T_BFLOAT16
#include "xgpu_bfloat16.cl"
#endif

// y[i] = a * x[i] + y[i]
__kernel void xgpu_axpy_f32(const uint n, const float a, __global const float* x,
                            __global float* y) {
  const size_t i = xgpu_index();
  if (i < n) y[i] = fma(a, x[i], y[i]);
}

// x[i] = value
__kernel void xgpu_fill_f32(const uint n, const float value, __global float* x) {
  const size_t i = xgpu_index();
  if (i < n) x[i] = value;
}

// x[i] *= a
__kernel void xgpu_scale_f32(const uint n, const float a, __global float* x) {
  const size_t i = xgpu_index();
  if (i < n) x[i] *= a;
}

#ifdef XGPU_T

// XGPU_A: the type scalar arguments arrive as (float for half and bfloat16 storage).
// XGPU_S: the type a work-item computes in (half only on the native path). XGPU_M: the type
// of the math functions (exp, log, ...; float for all 16-bit storage). LOAD / STORE read
// and write element i of a __global XGPU_T buffer.
#if defined(XGPU_T_HALF) && defined(XGPU_HALF_NATIVE) && defined(cl_khr_fp16)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define XGPU_A float
#define XGPU_S half
#define XGPU_M float
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (v))
#elif defined(XGPU_T_HALF)
#define XGPU_A float
#define XGPU_S float
#define XGPU_M float
#define LOAD(p, i) vload_half((i), (p))
#define STORE(p, i, v) vstore_half((v), (i), (p))
#elif defined(XGPU_T_BFLOAT16)
#define XGPU_A float
#define XGPU_S float
#define XGPU_M float
#define LOAD(p, i) xgpu_bf16_to_float((p)[i])
#define STORE(p, i, v) ((p)[i] = xgpu_bf16_from_float(v))
#else
#define XGPU_A XGPU_T
#define XGPU_S XGPU_T
#define XGPU_M XGPU_T
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (v))
#endif

#if defined(XGPU_T_INT) || defined(XGPU_T_UINT)
#define XGPU_INTEGER 1
#endif

// Elements per work-item, a build option: 1 for GPUs, where consecutive items then touch
// consecutive elements (a warp's access coalesces), 16 for CPUs, where each item's whole
// block runs as a fixed-length loop that the compiler turns into vector code. (PoCL does not
// vectorize across work-items a kernel whose body sits under `if (i < n)`: on PoCL, axpy
// with one element per item ran far below the triad's bandwidth, with a block of 16 per item
// at it.)
#ifndef XGPU_EW_W
#define XGPU_EW_W 1
#endif

// Runs the statement (the macro's variadic rest, which may hold commas) for each element i of the item's block: [first, first + XGPU_EW_W)
// when the block is whole (a loop of constant length, without a bound check per element),
// else the part below n.
#define XGPU_EACH(i, ...)                                                   \
  do {                                                                      \
    const uint xgpu_first = (uint)get_global_id(0) * XGPU_EW_W;             \
    if (xgpu_first + XGPU_EW_W <= n) {                                      \
      for (uint xgpu_k = 0; xgpu_k < XGPU_EW_W; ++xgpu_k) {                 \
        const uint i = xgpu_first + xgpu_k;                                 \
        __VA_ARGS__;                                                        \
      }                                                                     \
    } else {                                                                \
      for (uint i = xgpu_first; i < n; ++i) {                               \
        __VA_ARGS__;                                                        \
      }                                                                     \
    }                                                                       \
  } while (0)

// Integer arithmetic goes through uint so that overflow wraps (signed overflow is undefined
// in OpenCL C); for floats these are the plain operators. MULADD is fused for floats: one
// rounding, so y = a*x + y is the correctly rounded result.
#if defined(XGPU_T_INT)
#define WRAP(e) as_int(e)
#define ADD(a, b) WRAP(as_uint(a) + as_uint(b))
#define SUB(a, b) WRAP(as_uint(a) - as_uint(b))
#define MUL(a, b) WRAP(as_uint(a) * as_uint(b))
#define MULADD(a, x, y) WRAP(as_uint(a) * as_uint(x) + as_uint(y))
#elif defined(XGPU_T_UINT)
#define ADD(a, b) ((a) + (b))
#define SUB(a, b) ((a) - (b))
#define MUL(a, b) ((a) * (b))
#define MULADD(a, x, y) ((a) * (x) + (y))
#else
#define ADD(a, b) ((a) + (b))
#define SUB(a, b) ((a) - (b))
#define MUL(a, b) ((a) * (b))
#define MULADD(a, x, y) fma((a), (x), (y))
#endif

// Division is defined for every input: x / 0 is 0 for integers (the hardware may trap),
// and INT_MIN / -1 wraps to INT_MIN. Floats follow IEEE 754 (x / 0 is +-inf or NaN).
inline XGPU_S xgpu_divide(XGPU_S a, XGPU_S b) {
#if defined(XGPU_T_INT)
  if (b == 0) return 0;
  if (b == -1) return as_int(0u - as_uint(a));
  return a / b;
#elif defined(XGPU_T_UINT)
  return b == 0 ? 0u : a / b;
#else
  return a / b;
#endif
}

#ifndef XGPU_INTEGER
// Beyond XGPU_TANH_ONE, tanh(x) rounds to +-1 (1 - tanh(x) ~ 2e^-2x is below half an ulp of
// 1: x > 9.02 for float, 19.1 for double). Some libraries return the value below 1 there,
// even at +-inf, where OpenCL defines +-1 (PoCL's float tanh), so those inputs are settled
// here. A NaN fails the comparison and stays NaN.
#ifdef XGPU_T_DOUBLE
#define XGPU_TANH_ONE 20.0
#else
#define XGPU_TANH_ONE 10.0f
#endif
inline XGPU_M xgpu_tanh(XGPU_M x) {
  return fabs(x) >= XGPU_TANH_ONE ? copysign((XGPU_M)1, x) : tanh(x);
}
#endif

// out[i] = expression of a[i] and b[i] (named a and b in `expression`).
#define XGPU_BINARY(name, expression)                                                        \
  __kernel void name(const uint n, __global const XGPU_T* in_a, __global const XGPU_T* in_b, \
                     __global XGPU_T* out) {                                                 \
    XGPU_EACH(i, {                                                                           \
      const XGPU_S a = LOAD(in_a, i), b = LOAD(in_b, i);                                     \
      STORE(out, i, (expression));                                                           \
    });                                                                                      \
  }

// out[i] = expression of x = in[i]. in and out may be the same buffer: each item reads
// its element before writing it.
#define XGPU_UNARY(name, expression)                                                  \
  __kernel void name(const uint n, __global const XGPU_T* in, __global XGPU_T* out) { \
    XGPU_EACH(i, {                                                                    \
      const XGPU_S x = LOAD(in, i);                                                   \
      STORE(out, i, (expression));                                                    \
    });                                                                               \
  }

__kernel void xgpu_ew_fill(const uint n, const XGPU_A value_arg, __global XGPU_T* x) {
  const XGPU_S value = (XGPU_S)value_arg;
  XGPU_EACH(i, STORE(x, i, value));
}

__kernel void xgpu_ew_axpy(const uint n, const XGPU_A a_arg, __global const XGPU_T* x,
                           __global XGPU_T* y) {
  const XGPU_S a = (XGPU_S)a_arg;
  XGPU_EACH(i, STORE(y, i, MULADD(a, LOAD(x, i), LOAD(y, i))));
}

__kernel void xgpu_ew_scale(const uint n, const XGPU_A a_arg, __global XGPU_T* x) {
  const XGPU_S a = (XGPU_S)a_arg;
  XGPU_EACH(i, STORE(x, i, MUL(a, LOAD(x, i))));
}

XGPU_BINARY(xgpu_ew_add, ADD(a, b))
XGPU_BINARY(xgpu_ew_sub, SUB(a, b))
XGPU_BINARY(xgpu_ew_mul, MUL(a, b))
XGPU_BINARY(xgpu_ew_div, xgpu_divide(a, b))

#ifdef XGPU_INTEGER
#ifdef XGPU_T_INT
// abs(INT_MIN) does not fit: it wraps to INT_MIN, as two's complement negation does.
XGPU_UNARY(xgpu_ew_abs, as_int(abs(x)))
XGPU_UNARY(xgpu_ew_relu, max(x, 0))
#else
XGPU_UNARY(xgpu_ew_abs, x)   // every uint is its own absolute value
XGPU_UNARY(xgpu_ew_relu, x)  // and not negative
#endif
#else
XGPU_UNARY(xgpu_ew_abs, fabs(x))
// x < 0 ? 0 : x rather than fmax(x, 0): a NaN passes through instead of becoming 0.
XGPU_UNARY(xgpu_ew_relu, x < (XGPU_S)0 ? (XGPU_S)0 : x)
// The math functions compute in XGPU_M (float for 16-bit storage, also on the native path,
// where half's built-ins would be less accurate).
XGPU_UNARY(xgpu_ew_exp, (XGPU_S)exp((XGPU_M)x))
XGPU_UNARY(xgpu_ew_log, (XGPU_S)log((XGPU_M)x))
XGPU_UNARY(xgpu_ew_sqrt, (XGPU_S)sqrt((XGPU_M)x))
XGPU_UNARY(xgpu_ew_tanh, (XGPU_S)xgpu_tanh((XGPU_M)x))
// 1 / (1 + e^-x): e^-x overflowing to inf for very negative x gives the right limit 0.
XGPU_UNARY(xgpu_ew_sigmoid, (XGPU_S)((XGPU_M)1 / ((XGPU_M)1 + exp(-(XGPU_M)x))))
#endif

#endif  // XGPU_T
