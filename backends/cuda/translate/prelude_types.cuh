// xgpu OpenCL C prelude for NVRTC, part 1: qualifiers, scalar types, vector types.
// Embedded into the CUDA module at build time (cmake/embed_text.cmake); NVRTC sees it ahead
// of every translated OpenCL C program. No CUDA toolkit header is included: NVRTC's
// built-ins (threadIdx, sin(float), atomicAdd, ...) are all it needs.
#define __OPENCL_VERSION__ 120
#define __OPENCL_C_VERSION__ 120
#define CL_VERSION_1_0 100
#define CL_VERSION_1_1 110
#define CL_VERSION_1_2 120
#define __ENDIAN_LITTLE__ 1
#define __IMAGE_SUPPORT__ 0
#define cl_khr_fp64 1
#define cl_khr_global_int32_base_atomics 1
#define cl_khr_local_int32_base_atomics 1
#define cl_khr_int64_base_atomics 1

// Address spaces: CUDA pointers are generic, so pointer qualifiers vanish. The translation
// turns `__local` variable declarations into __shared__ and __constant program-scope
// variables into __constant__ before these apply (opencl_to_cuda.cpp). Only the __ forms
// are macros: the translation spells `global`, `local`, `constant`, `private` that way,
// since CUDA's own __global__ and __constant__ expand to __attribute__((global)) and
// __attribute__((constant)), which a macro named `global` or `constant` would empty.
#define __global
#define __private
#define __constant const
#define __local
#define __read_only const
#define __write_only
#define __read_write
#define restrict __restrict__

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef decltype(sizeof(0)) xcl_size_t;

// half: a binary16 in an unsigned short. NVRTC has no built-in half type (cuda_fp16.h is a
// toolkit header, absent without include paths), so conversions are inline PTX and the
// arithmetic (prelude_half.cuh) native f16 instructions from sm_53 on. Converting from float,
// double or an integer rounds to nearest even (OpenCL's implicit conversion); to float is exact.
template <bool B, class T = void> struct xcl_enable_if {};
template <class T> struct xcl_enable_if<true, T> { typedef T type; };
struct xcl_half;
__device__ inline float xcl_half_to_float(xcl_half h);
__device__ inline xcl_half xcl_float_to_half_rte(float f);
__device__ inline xcl_half xcl_double_to_half_rte(double f);
template <class I> struct xcl_is_integer { static constexpr bool value = false; };
#define XCL_INTEGER(I) template <> struct xcl_is_integer<I> { static constexpr bool value = true; };
XCL_INTEGER(bool) XCL_INTEGER(char) XCL_INTEGER(signed char) XCL_INTEGER(unsigned char)
XCL_INTEGER(short) XCL_INTEGER(unsigned short) XCL_INTEGER(int) XCL_INTEGER(unsigned int)
XCL_INTEGER(long) XCL_INTEGER(unsigned long) XCL_INTEGER(long long) XCL_INTEGER(unsigned long long)
struct xcl_half {
  unsigned short bits;
  xcl_half() = default;
  __device__ xcl_half(float f);
  __device__ xcl_half(double d);
  // Through float: exact up to 2^24, and anything larger overflows half to infinity either way.
  template <class I, class = typename xcl_enable_if<xcl_is_integer<I>::value>::type>
  __device__ xcl_half(I i) : xcl_half((float)i) {}
  __device__ operator float() const { return xcl_half_to_float(*this); }
};
typedef xcl_half half;
__device__ inline float xcl_half_to_float(xcl_half h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
  return f;
}
// xcl_float_to_half_<round> and xcl_double_to_half_<round>: one PTX cvt each, `mode` its
// rounding (rn, rz, rp, rm).
#define XCL_TO_HALF_FROM(name, type, ptx_type, constraint, mode)                 \
  __device__ inline xcl_half name(type f) {                                      \
    xcl_half h;                                                                  \
    asm("cvt." mode ".f16." ptx_type " %0, %1;" : "=h"(h.bits) : constraint(f)); \
    return h;                                                                    \
  }
#define XCL_TO_HALF(round, mode)                                               \
  XCL_TO_HALF_FROM(xcl_float_to_half_##round, float, "f32", "f", mode)         \
  XCL_TO_HALF_FROM(xcl_double_to_half_##round, double, "f64", "d", mode)
XCL_TO_HALF(rte, "rn")
XCL_TO_HALF(rtz, "rz")
XCL_TO_HALF(rtp, "rp")
XCL_TO_HALF(rtn, "rm")
__device__ inline xcl_half::xcl_half(float f) : bits(xcl_float_to_half_rte(f).bits) {}
__device__ inline xcl_half::xcl_half(double d) : bits(xcl_double_to_half_rte(d).bits) {}

// ---- vector types --------------------------------------------------------------------
// xcl_vec<T, N>: one-component swizzles (.x, .s3, .sF) are real members (below); component
// i is also (&x)[i]. Swizzles of several components (.xy, .s01, .lo, .even, ...) are
// rewritten by the translation into sw<i...>() / lo_() / hi_() / even_() / odd_(): a proxy
// that reads as a vector and writes back through assignment. A 3-component vector has the
// size and alignment of 4 (OpenCL).
template <class T, int N>
struct xcl_vec;
template <class T, int K>
struct xcl_swizzle;

template <class T> struct xcl_is_vec { static constexpr bool value = false; };
template <class T, int N> struct xcl_is_vec<xcl_vec<T, N>> { static constexpr bool value = true; };
template <class T, int K> struct xcl_is_vec<xcl_swizzle<T, K>> { static constexpr bool value = true; };

template <class T> struct xcl_components { static constexpr int value = 1; };
template <class T, int N> struct xcl_components<xcl_vec<T, N>> { static constexpr int value = N; };
template <class T, int K> struct xcl_components<xcl_swizzle<T, K>> { static constexpr int value = K; };

// The components as members: x, y, z, w and s0 ... sF (sa ... sf and sA ... sF alike) name
// the same storage through anonymous structs in a union (a GNU extension NVRTC accepts), so
// one-component swizzles need no rewriting, even when a macro pastes them (`v.s ## k`).
template <class T, int N>
struct xcl_storage;
template <class T>
struct __align__(2 * sizeof(T)) xcl_storage<T, 2> {
  union {
    struct { T x, y; };
    struct { T s0, s1; };
  };
};
template <class T>
struct __align__(4 * sizeof(T)) xcl_storage<T, 3> {
  union {
    struct { T x, y, z; T rest_xyzw_[1]; };
    struct { T s0, s1, s2; T pad_s_; };
  };
};
template <class T>
struct __align__(4 * sizeof(T)) xcl_storage<T, 4> {
  union {
    struct { T x, y, z, w; };
    struct { T s0, s1, s2, s3; };
  };
};
template <class T>
struct __align__(8 * sizeof(T)) xcl_storage<T, 8> {
  union {
    struct { T x, y, z, w; T rest_xyzw_[4]; };
    struct { T s0, s1, s2, s3, s4, s5, s6, s7; };
  };
};
template <class T>
struct __align__(16 * sizeof(T)) xcl_storage<T, 16> {
  union {
    struct { T x, y, z, w; T rest_xyzw_[12]; };
    struct { T s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, sa, sb, sc, sd, se, sf; };
    struct { T skip_upper_[10]; T sA, sB, sC, sD, sE, sF; };
  };
};

template <class T, int N>
struct xcl_vec : xcl_storage<T, N> {
  typedef T element_type;
  static constexpr int size = N;
  __device__ T& operator[](int i) { return (&this->x)[i]; }
  __device__ const T& operator[](int i) const { return (&this->x)[i]; }
  template <int I>
  __device__ T& at() {
    static_assert(I < N, "vector component out of range");
    return (&this->x)[I];
  }
  template <int I>
  __device__ const T& at() const {
    static_assert(I < N, "vector component out of range");
    return (&this->x)[I];
  }
  xcl_vec() = default;
  // (float4)(s): every component s.
  __device__ xcl_vec(T s) {
    for (int i = 0; i < N; ++i) (*this)[i] = s;
  }
  // (float4)(a, b.xy, c): the components of each argument in turn; OpenCL requires the
  // total to be N, which the static_assert checks.
  template <class A, class B, class... R>
  __device__ xcl_vec(const A& a, const B& b, const R&... r) {
    static_assert(xcl_components<A>::value + xcl_components<B>::value + (0 + ... + xcl_components<R>::value) == N,
                  "vector literal: the number of components does not match the type");
    int i = 0;
    put(i, a);
    put(i, b);
    (put(i, r), ...);
  }
  template <class U>
  __device__ void put(int& i, const U& s) {
    if constexpr (xcl_is_vec<U>::value) {
      for (int k = 0; k < xcl_components<U>::value; ++k) (*this)[i++] = (T)s[k];
    } else {
      (*this)[i++] = (T)s;
    }
  }

  template <int... I>
  __device__ xcl_swizzle<T, sizeof...(I)> sw();
  // Reading a swizzle of a const vector: the proxy is a copy, and OpenCL allows no write.
  template <int... I>
  __device__ const xcl_swizzle<T, sizeof...(I)> sw() const {
    return const_cast<xcl_vec*>(this)->template sw<I...>();
  }
  __device__ const xcl_swizzle<T, (N == 3 ? 2 : N / 2)> lo_() const { return const_cast<xcl_vec*>(this)->lo_(); }
  __device__ const xcl_swizzle<T, (N == 3 ? 2 : N / 2)> hi_() const { return const_cast<xcl_vec*>(this)->hi_(); }
  __device__ const xcl_swizzle<T, (N == 3 ? 2 : N / 2)> even_() const { return const_cast<xcl_vec*>(this)->even_(); }
  __device__ const xcl_swizzle<T, (N == 3 ? 2 : N / 2)> odd_() const { return const_cast<xcl_vec*>(this)->odd_(); }
  __device__ xcl_swizzle<T, (N == 3 ? 2 : N / 2)> lo_();
  __device__ xcl_swizzle<T, (N == 3 ? 2 : N / 2)> hi_();
  __device__ xcl_swizzle<T, (N == 3 ? 2 : N / 2)> even_();
  __device__ xcl_swizzle<T, (N == 3 ? 2 : N / 2)> odd_();
};

// A swizzle: the selected components as a vector value, plus where they came from, so an
// assignment writes them back. A one-component swizzle (.s0, .x written .at<0>()) never
// gets here.
template <class T, int K>
struct xcl_swizzle : xcl_vec<T, K> {
  T* base_;
  int index_[K];
  __device__ xcl_swizzle(T* base, const int* index) : base_(base) {
    for (int i = 0; i < K; ++i) {
      index_[i] = index[i];
      (*this)[i] = base[index[i]];
    }
  }
  __device__ xcl_swizzle& operator=(const xcl_vec<T, K>& v) {
    for (int i = 0; i < K; ++i) base_[index_[i]] = v[i];
    for (int i = 0; i < K; ++i) (*this)[i] = v[i];
    return *this;
  }
  __device__ xcl_swizzle& operator=(const xcl_swizzle& v) { return *this = (xcl_vec<T, K>)v; }
  __device__ xcl_swizzle& operator=(T s) { return *this = xcl_vec<T, K>(s); }
};

template <class T, int N>
template <int... I>
__device__ xcl_swizzle<T, sizeof...(I)> xcl_vec<T, N>::sw() {
  static_assert(((I < N) && ...), "swizzle component out of range");
  const int index[] = {I...};
  return xcl_swizzle<T, sizeof...(I)>(&this->x, index);
}
#define XCL_HALVES(name, first, step)                                            \
  template <class T, int N>                                                      \
  __device__ xcl_swizzle<T, (N == 3 ? 2 : N / 2)> xcl_vec<T, N>::name() {        \
    constexpr int K = N == 3 ? 2 : N / 2;                                        \
    int index[K];                                                                \
    for (int i = 0; i < K; ++i) index[i] = (first) + i * (step);                 \
    return xcl_swizzle<T, K>(&this->x, index);                                   \
  }
XCL_HALVES(lo_, 0, 1)
XCL_HALVES(hi_, (N == 3 ? 2 : N / 2), 1)
XCL_HALVES(even_, 0, 2)
XCL_HALVES(odd_, 1, 2)

// The signed integer type of a comparison's result per component (OpenCL: -1 true, 0 false).
template <class T> struct xcl_mask { typedef int type; };
template <> struct xcl_mask<double> { typedef long type; };
template <> struct xcl_mask<long> { typedef long type; };
template <> struct xcl_mask<ulong> { typedef long type; };
template <> struct xcl_mask<short> { typedef short type; };
template <> struct xcl_mask<half> { typedef short type; };
template <> struct xcl_mask<ushort> { typedef short type; };
template <> struct xcl_mask<char> { typedef char type; };
template <> struct xcl_mask<signed char> { typedef char type; };
template <> struct xcl_mask<uchar> { typedef char type; };

// Component-wise operators: vector op vector, vector op scalar, scalar op vector. A
// comparison gives a mask vector (xcl_mask); the others a vector of the operands' type.
template <class T, int N>
using xcl_mask_vec = xcl_vec<typename xcl_mask<T>::type, N>;
// The forms beside vector op vector: the scalar broadcast to a vector on either side
// (`Result`: xcl_vec or xcl_mask_vec), and op= on a vector.
#define XCL_SCALAR_RIGHT(op, Result)                                                     \
  template <class T, int N, class S, class = typename xcl_enable_if<!xcl_is_vec<S>::value>::type> \
  __device__ Result<T, N> operator op(const xcl_vec<T, N>& a, S b) {                     \
    return a op xcl_vec<T, N>((T)b);                                                     \
  }
#define XCL_SCALAR_LEFT(op, Result)                                                      \
  template <class T, int N, class S, class = typename xcl_enable_if<!xcl_is_vec<S>::value>::type> \
  __device__ Result<T, N> operator op(S a, const xcl_vec<T, N>& b) {                     \
    return xcl_vec<T, N>((T)a) op b;                                                     \
  }
#define XCL_ASSIGN(op)                                                                   \
  template <class T, int N, class S>                                                     \
  __device__ xcl_vec<T, N>& operator op##=(xcl_vec<T, N>& a, const S& b) {               \
    return a = a op b;                                                                   \
  }
// `element` computes component i of the result from a[i] and b[i].
#define XCL_VECTOR_OP(op, Result, element)                                               \
  template <class T, int N>                                                              \
  __device__ Result<T, N> operator op(const xcl_vec<T, N>& a, const xcl_vec<T, N>& b) {  \
    Result<T, N> r;                                                                      \
    for (int i = 0; i < N; ++i) r[i] = element;                                          \
    return r;                                                                            \
  }
#define XCL_BINARY(op)                                                                   \
  XCL_VECTOR_OP(op, xcl_vec, a[i] op b[i])                                               \
  XCL_SCALAR_RIGHT(op, xcl_vec)                                                          \
  XCL_SCALAR_LEFT(op, xcl_vec)                                                           \
  XCL_ASSIGN(op)                                                                         \
  template <class T, int K, class S>                                                     \
  __device__ xcl_swizzle<T, K>& operator op##=(xcl_swizzle<T, K>&& a, const S& b) {      \
    return a = (xcl_vec<T, K>)a op b;                                                    \
  }
XCL_BINARY(+)
XCL_BINARY(-)
XCL_BINARY(*)
XCL_BINARY(/)
XCL_BINARY(%)
XCL_BINARY(&)
XCL_BINARY(|)
XCL_BINARY(^)
// Shifts: OpenCL takes the count modulo the width of the element (C++ leaves it undefined).
#define XCL_SHIFT(op)                                                                    \
  XCL_VECTOR_OP(op, xcl_vec, a[i] op (b[i] & (T)(sizeof(T) * 8 - 1)))                    \
  XCL_SCALAR_RIGHT(op, xcl_vec)                                                          \
  XCL_ASSIGN(op)
XCL_SHIFT(<<)
XCL_SHIFT(>>)

#define XCL_COMPARE(op)                                                                  \
  XCL_VECTOR_OP(op, xcl_mask_vec, (a[i] op b[i]) ? -1 : 0)                               \
  XCL_SCALAR_RIGHT(op, xcl_mask_vec)                                                     \
  XCL_SCALAR_LEFT(op, xcl_mask_vec)
XCL_COMPARE(==)
XCL_COMPARE(!=)
XCL_COMPARE(<)
XCL_COMPARE(>)
XCL_COMPARE(<=)
XCL_COMPARE(>=)
XCL_COMPARE(&&)
XCL_COMPARE(||)

template <class T, int N>
__device__ xcl_vec<T, N> operator-(const xcl_vec<T, N>& a) {
  xcl_vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = -a[i];
  return r;
}
template <class T, int N>
__device__ xcl_vec<T, N> operator+(const xcl_vec<T, N>& a) { return a; }
template <class T, int N>
__device__ xcl_vec<T, N> operator~(const xcl_vec<T, N>& a) {
  xcl_vec<T, N> r;
  for (int i = 0; i < N; ++i) r[i] = ~a[i];
  return r;
}
template <class T, int N>
__device__ xcl_vec<typename xcl_mask<T>::type, N> operator!(const xcl_vec<T, N>& a) {
  xcl_vec<typename xcl_mask<T>::type, N> r;
  for (int i = 0; i < N; ++i) r[i] = a[i] ? 0 : -1;
  return r;
}
template <class T, int N>
__device__ xcl_vec<T, N>& operator++(xcl_vec<T, N>& a) { return a += (T)1; }
template <class T, int N>
__device__ xcl_vec<T, N>& operator--(xcl_vec<T, N>& a) { return a -= (T)1; }
template <class T, int N>
__device__ xcl_vec<T, N> operator++(xcl_vec<T, N>& a, int) { xcl_vec<T, N> o = a; a += (T)1; return o; }
template <class T, int N>
__device__ xcl_vec<T, N> operator--(xcl_vec<T, N>& a, int) { xcl_vec<T, N> o = a; a -= (T)1; return o; }

// The OpenCL names. Macros over typedefs (not over the template) so that a type name passed
// through nested macros stays one macro argument; NVRTC's own float4 etc. are hidden.
#define XCL_VECTOR_NAMES(T, name)                                                  \
  typedef xcl_vec<T, 2> xcl_##name##2;                                             \
  typedef xcl_vec<T, 3> xcl_##name##3;                                             \
  typedef xcl_vec<T, 4> xcl_##name##4;                                             \
  typedef xcl_vec<T, 8> xcl_##name##8;                                             \
  typedef xcl_vec<T, 16> xcl_##name##16;
XCL_VECTOR_NAMES(char, char)
XCL_VECTOR_NAMES(uchar, uchar)
XCL_VECTOR_NAMES(short, short)
XCL_VECTOR_NAMES(ushort, ushort)
XCL_VECTOR_NAMES(int, int)
XCL_VECTOR_NAMES(uint, uint)
XCL_VECTOR_NAMES(long, long)
XCL_VECTOR_NAMES(ulong, ulong)
XCL_VECTOR_NAMES(float, float)
XCL_VECTOR_NAMES(double, double)
XCL_VECTOR_NAMES(half, half)
#define char2 xcl_char2
#define char3 xcl_char3
#define char4 xcl_char4
#define char8 xcl_char8
#define char16 xcl_char16
#define uchar2 xcl_uchar2
#define uchar3 xcl_uchar3
#define uchar4 xcl_uchar4
#define uchar8 xcl_uchar8
#define uchar16 xcl_uchar16
#define short2 xcl_short2
#define short3 xcl_short3
#define short4 xcl_short4
#define short8 xcl_short8
#define short16 xcl_short16
#define ushort2 xcl_ushort2
#define ushort3 xcl_ushort3
#define ushort4 xcl_ushort4
#define ushort8 xcl_ushort8
#define ushort16 xcl_ushort16
#define int2 xcl_int2
#define int3 xcl_int3
#define int4 xcl_int4
#define int8 xcl_int8
#define int16 xcl_int16
#define uint2 xcl_uint2
#define uint3 xcl_uint3
#define uint4 xcl_uint4
#define uint8 xcl_uint8
#define uint16 xcl_uint16
#define long2 xcl_long2
#define long3 xcl_long3
#define long4 xcl_long4
#define long8 xcl_long8
#define long16 xcl_long16
#define ulong2 xcl_ulong2
#define ulong3 xcl_ulong3
#define ulong4 xcl_ulong4
#define ulong8 xcl_ulong8
#define ulong16 xcl_ulong16
#define float2 xcl_float2
#define float3 xcl_float3
#define float4 xcl_float4
#define float8 xcl_float8
#define float16 xcl_float16
#define double2 xcl_double2
#define double3 xcl_double3
#define double4 xcl_double4
#define double8 xcl_double8
#define double16 xcl_double16
#define half2 xcl_half2
#define half3 xcl_half3
#define half4 xcl_half4
#define half8 xcl_half8
#define half16 xcl_half16
