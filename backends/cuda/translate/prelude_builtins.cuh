// xgpu OpenCL C prelude for NVRTC, part 2: work-items, synchronisation, atomics, loads and
// stores, conversions, reinterpretation and the integer, relational and math built-ins.
// Math uses CUDA's IEEE-accurate functions (never the fast intrinsics unless the build asked
// for -cl-fast-relaxed-math, which maps to --use_fast_math), so OpenCL's ULP bounds hold.

// ---- work-items ----------------------------------------------------------------------
// The hidden last kernel parameter (launch contract in opencl_to_cuda.hpp). Each kernel's
// first statement copies it here; every work-item writes the same bytes, so the copies of
// a work-group never disagree, and helper functions can read it too.
struct xgpu_cuda_launch_info {
  unsigned long long global_offset[3];
  unsigned long long global_size[3];
  unsigned int work_dim;
  unsigned int reserved;
};
__shared__ xgpu_cuda_launch_info xcl_launch;
extern __shared__ __align__(128) unsigned char xcl_dynamic_local[];
__device__ inline void xcl_enter(const xgpu_cuda_launch_info& info) { xcl_launch = info; }

__device__ inline xcl_size_t xcl_pick(uint d, unsigned x, unsigned y, unsigned z, unsigned other) {
  return d == 0 ? x : d == 1 ? y : d == 2 ? z : other;
}
__device__ inline xcl_size_t get_local_id(uint d) { return xcl_pick(d, threadIdx.x, threadIdx.y, threadIdx.z, 0); }
__device__ inline xcl_size_t get_group_id(uint d) { return xcl_pick(d, blockIdx.x, blockIdx.y, blockIdx.z, 0); }
__device__ inline xcl_size_t get_local_size(uint d) { return xcl_pick(d, blockDim.x, blockDim.y, blockDim.z, 1); }
__device__ inline xcl_size_t get_enqueued_local_size(uint d) { return get_local_size(d); }
__device__ inline xcl_size_t get_num_groups(uint d) { return xcl_pick(d, gridDim.x, gridDim.y, gridDim.z, 1); }
__device__ inline uint get_work_dim() { return xcl_launch.work_dim; }
__device__ inline xcl_size_t get_global_offset(uint d) { return d < 3 ? xcl_launch.global_offset[d] : 0; }
__device__ inline xcl_size_t get_global_size(uint d) { return d < 3 ? xcl_launch.global_size[d] : 1; }
__device__ inline xcl_size_t get_global_id(uint d) {
  return get_group_id(d) * get_local_size(d) + get_local_id(d) + get_global_offset(d);
}
__device__ inline xcl_size_t get_local_linear_id() {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}
__device__ inline xcl_size_t get_global_linear_id() {
  return ((get_global_id(2) - get_global_offset(2)) * get_global_size(1) +
          (get_global_id(1) - get_global_offset(1))) * get_global_size(0) +
         (get_global_id(0) - get_global_offset(0));
}

// ---- barriers and fences ---------------------------------------------------------------
typedef uint cl_mem_fence_flags;
#define CLK_LOCAL_MEM_FENCE 1u
#define CLK_GLOBAL_MEM_FENCE 2u
#define CLK_IMAGE_MEM_FENCE 4u
// __syncthreads() orders shared and global memory for the block: both OpenCL fences.
__device__ inline void barrier(cl_mem_fence_flags) { __syncthreads(); }
__device__ inline void work_group_barrier(cl_mem_fence_flags) { __syncthreads(); }
__device__ inline void mem_fence(cl_mem_fence_flags f) {
  if (f & CLK_GLOBAL_MEM_FENCE) __threadfence(); else __threadfence_block();
}
__device__ inline void read_mem_fence(cl_mem_fence_flags f) { mem_fence(f); }
__device__ inline void write_mem_fence(cl_mem_fence_flags f) { mem_fence(f); }

// ---- atomics (OpenCL 1.x names, global and local: CUDA's are generic) -------------------
// CUDA wants int / unsigned / unsigned long long pointers; OpenCL passes volatile ones.
template <class T> struct xcl_atomic_word { typedef T type; };
template <> struct xcl_atomic_word<long> { typedef unsigned long long type; };
template <> struct xcl_atomic_word<ulong> { typedef unsigned long long type; };
#define XCL_WORD(p) ((typename xcl_atomic_word<T>::type*)(p))
// atom_*: the cl_khr_*_atomics names of the same functions (64-bit ones included).
#define XCL_ATOMIC2(name, cuda)                                                          \
  template <class T> __device__ T atomic_##name(volatile T* p, T v) {                    \
    return (T)cuda(XCL_WORD(p), (typename xcl_atomic_word<T>::type)v);                  \
  }                                                                                      \
  template <class T> __device__ T atom_##name(volatile T* p, T v) { return atomic_##name(p, v); }
XCL_ATOMIC2(add, atomicAdd)
XCL_ATOMIC2(xchg, atomicExch)
XCL_ATOMIC2(and, atomicAnd)
XCL_ATOMIC2(or, atomicOr)
XCL_ATOMIC2(xor, atomicXor)
template <class T> __device__ T atomic_sub(volatile T* p, T v) { return atomic_add(p, (T)(0 - v)); }
template <class T> __device__ T atomic_inc(volatile T* p) { return atomic_add(p, (T)1); }
template <class T> __device__ T atomic_dec(volatile T* p) { return atomic_sub(p, (T)1); }
// min/max on 64-bit words must stay signed for long: CUDA has both signed and unsigned.
__device__ inline int atomic_min(volatile int* p, int v) { return atomicMin((int*)p, v); }
__device__ inline uint atomic_min(volatile uint* p, uint v) { return atomicMin((uint*)p, v); }
__device__ inline int atomic_max(volatile int* p, int v) { return atomicMax((int*)p, v); }
__device__ inline uint atomic_max(volatile uint* p, uint v) { return atomicMax((uint*)p, v); }
__device__ inline long atomic_min(volatile long* p, long v) { return atomicMin((long long*)p, (long long)v); }
__device__ inline ulong atomic_min(volatile ulong* p, ulong v) { return atomicMin((unsigned long long*)p, (unsigned long long)v); }
__device__ inline long atomic_max(volatile long* p, long v) { return atomicMax((long long*)p, (long long)v); }
__device__ inline ulong atomic_max(volatile ulong* p, ulong v) { return atomicMax((unsigned long long*)p, (unsigned long long)v); }
template <class T> __device__ T atomic_cmpxchg(volatile T* p, T cmp, T v) {
  return (T)atomicCAS(XCL_WORD(p), (typename xcl_atomic_word<T>::type)cmp,
                      (typename xcl_atomic_word<T>::type)v);
}
__device__ inline float atomic_xchg(volatile float* p, float v) { return atomicExch((float*)p, v); }
#define atom_sub atomic_sub
#define atom_inc atomic_inc
#define atom_dec atomic_dec
#define atom_min atomic_min
#define atom_max atomic_max
#define atom_cmpxchg atomic_cmpxchg

// ---- reinterpretation: as_T -------------------------------------------------------------
template <class T, int K>
__device__ xcl_vec<T, K> xcl_value(const xcl_swizzle<T, K>& s) { return s; }
template <class S>
__device__ const S& xcl_value(const S& s) { return s; }
template <class D, class S>
__device__ D xcl_bits(const S& s) {
  static_assert(sizeof(D) == sizeof(S), "as_<type>: the sizes differ");
  D d;
  memcpy(&d, &s, sizeof(D));
  return d;
}
// A swizzle is reinterpreted as the vector it reads as.
template <class D, class S>
__device__ D xcl_as(const S& s) { return xcl_bits<D>(xcl_value(s)); }
#define XCL_AS(name) template <class S> __device__ name as_##name(const S& s) { return xcl_as<name>(s); }
#define XCL_AS_ALL(name) XCL_AS(name) XCL_AS(name##2) XCL_AS(name##3) XCL_AS(name##4) XCL_AS(name##8) XCL_AS(name##16)
XCL_AS_ALL(char) XCL_AS_ALL(uchar) XCL_AS_ALL(short) XCL_AS_ALL(ushort) XCL_AS_ALL(int)
XCL_AS_ALL(uint) XCL_AS_ALL(long) XCL_AS_ALL(ulong) XCL_AS_ALL(float) XCL_AS_ALL(double)
XCL_AS_ALL(half)

// ---- limits and constants -----------------------------------------------------------------
#define CHAR_BIT 8
#define SCHAR_MAX 127
#define SCHAR_MIN (-127 - 1)
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define UCHAR_MAX 255
#define SHRT_MAX 32767
#define SHRT_MIN (-32767 - 1)
#define USHRT_MAX 65535
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define UINT_MAX 0xffffffffu
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define ULONG_MAX 0xffffffffffffffffUL
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP 38
#define FLT_MAX_EXP 128
#define FLT_MIN_10_EXP (-37)
#define FLT_MIN_EXP (-125)
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define DBL_MAX_10_EXP 308
#define DBL_MAX_EXP 1024
#define DBL_MIN_10_EXP (-307)
#define DBL_MIN_EXP (-1021)
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52
#define HALF_MAX 65504.0f
#define MAXFLOAT FLT_MAX
#define HUGE_VALF __int_as_float(0x7f800000)
#define HUGE_VAL __longlong_as_double(0x7ff0000000000000LL)
#define INFINITY __int_as_float(0x7f800000)
#define NAN __int_as_float(0x7fc00000)
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN 2147483647
#define M_E_F 2.718281828f
#define M_LOG2E_F 1.442695041f
#define M_LOG10E_F 0.434294482f
#define M_LN2_F 0.693147181f
#define M_LN10_F 2.302585093f
#define M_PI_F 3.141592654f
#define M_PI_2_F 1.570796327f
#define M_PI_4_F 0.785398163f
#define M_1_PI_F 0.318309886f
#define M_2_PI_F 0.636619772f
#define M_2_SQRTPI_F 1.128379167f
#define M_SQRT2_F 1.414213562f
#define M_SQRT1_2_F 0.707106781f
#define M_E 2.718281828459045090796
#define M_LOG2E 1.442695040888963387005
#define M_LOG10E 0.434294481903251816668
#define M_LN2 0.693147180559945286227
#define M_LN10 2.302585092994045901094
#define M_PI 3.141592653589793115998
#define M_PI_2 1.570796326794896557999
#define M_PI_4 0.785398163397448278999
#define M_1_PI 0.318309886183790691216
#define M_2_PI 0.636619772367581382433
#define M_2_SQRTPI 1.128379167095512558561
#define M_SQRT2 1.414213562373095145475
#define M_SQRT1_2 0.707106781186547572737
