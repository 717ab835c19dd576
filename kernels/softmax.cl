// Row-wise softmax: out[r][c] = exp(in[r][c] - m) / sum_k exp(in[r][k] - m), m the row's
// maximum (so no exp overflows). Built with -DXGPU_T=<type> -DXGPU_T_<TYPE> (float, double,
// half; half is storage only and computes in float).
//
// Infinities: an entry equal to the row's maximum counts exp(0) = 1 even when both are
// infinite, so a row of -inf (or several +inf) shares the weight equally among those
// entries, the limit of equal finite values, instead of giving inf - inf = NaN. A NaN in
// a row makes that row NaN.
// The host guarantees rows * cols < 2^31, so uint indices do not overflow.
// Requires: OpenCL C 1.2; cl_khr_fp64 for XGPU_T_DOUBLE.
#include "xgpu_element.cl"

#ifdef XGPU_T_DOUBLE
#define XGPU_S double
#else
#define XGPU_S float
#endif

#ifdef XGPU_T_HALF
#define LOAD(p, i) vload_half((i), (p))
#define STORE(p, i, v) vstore_half((v), (i), (p))
#else
#define LOAD(p, i) ((p)[i])
#define STORE(p, i, v) ((p)[i] = (v))
#endif

// exp(x - maximum), with x == maximum giving exactly 1 (see above).
inline XGPU_S xgpu_shifted_exp(XGPU_S x, XGPU_S maximum) {
  return x == maximum ? (XGPU_S)1 : exp(x - maximum);
}

// Compensated (Kahan) summation of a row's weights: the rounding error of the sum stays
// near 2 eps of it, whatever the number of terms, where a plain sequential sum's grows with
// it (measured on PoCL, one item per row: 49,000 float eps at 2^20 weights near 1, 0.3 %).
// No products, so contraction into fma cannot change it; the library builds without
// -cl-fast-relaxed-math, which could reassociate it away.
#define XGPU_KAHAN_ADD(sum, carry, term)  \
  do {                                    \
    const XGPU_S kahan_y = (term)-carry;  \
    const XGPU_S kahan_t = sum + kahan_y; \
    carry = (kahan_t - sum) - kahan_y;    \
    sum = kahan_t;                        \
  } while (0)

// The row maximum ignoring NaN (fmax), -inf for no entries; the NaN then reaches the sum.
// One work-item per row: for narrow rows, where a work-group per row would idle.
__kernel void xgpu_softmax_rows_item(const uint rows, const uint cols, __global const XGPU_T* in,
                                     __global XGPU_T* out) {
  const uint row = (uint)get_global_id(0);
  if (row >= rows) return;
  const uint first = row * cols, end = first + cols;
  XGPU_S maximum = -INFINITY;
  for (uint i = first; i < end; ++i) maximum = fmax(maximum, LOAD(in, i));
  XGPU_S sum = 0, carry = 0;
  for (uint i = first; i < end; ++i)
    XGPU_KAHAN_ADD(sum, carry, xgpu_shifted_exp(LOAD(in, i), maximum));
  for (uint i = first; i < end; ++i) STORE(out, i, xgpu_shifted_exp(LOAD(in, i), maximum) / sum);
}

// Tree reduction of scratch[0 .. size) into scratch[0]; size is a power of two, the
// work-group's size. Every item must call it; it ends with a barrier, so all may read
// scratch[0] afterwards.
#define XGPU_REDUCE(scratch, size, item, combine)                                                \
  for (uint half_size = (size) / 2; half_size > 0; half_size /= 2) {                             \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                \
    if ((item) < half_size) scratch[item] = combine(scratch[item], scratch[(item) + half_size]); \
  }                                                                                              \
  barrier(CLK_LOCAL_MEM_FENCE)

#define XGPU_PLUS(a, b) ((a) + (b))

// One work-group per row (group r does row r); its size must be a power of two, and
// scratch holds one value per item.
__kernel void xgpu_softmax_rows_group(const uint rows, const uint cols, __global const XGPU_T* in,
                                      __global XGPU_T* out, __local XGPU_S* scratch) {
  const uint row = (uint)get_group_id(0);
  const uint item = (uint)get_local_id(0), size = (uint)get_local_size(0);
  const uint first = row * cols;
  // rows is the group count, so row < rows always; kept as a guard for odd launches.
  if (row >= rows) return;

  XGPU_S maximum = -INFINITY;
  for (uint c = item; c < cols; c += size) maximum = fmax(maximum, LOAD(in, first + c));
  scratch[item] = maximum;
  XGPU_REDUCE(scratch, size, item, fmax);
  maximum = scratch[0];
  // Everyone reads scratch[0] before anyone overwrites scratch for the sum.
  barrier(CLK_LOCAL_MEM_FENCE);

  // Each item's share compensated, then a tree of log2(size) levels: (log2(size) + 2) eps.
  XGPU_S sum = 0, carry = 0;
  for (uint c = item; c < cols; c += size)
    XGPU_KAHAN_ADD(sum, carry, xgpu_shifted_exp(LOAD(in, first + c), maximum));
  scratch[item] = sum;
  XGPU_REDUCE(scratch, size, item, XGPU_PLUS);
  sum = scratch[0];

  for (uint c = item; c < cols; c += size)
    STORE(out, first + c, xgpu_shifted_exp(LOAD(in, first + c), maximum) / sum);
}
