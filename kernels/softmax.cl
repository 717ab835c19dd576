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

// XGPU_EXP1 and XGPU_EXPV (below): exp of one value and of a VECTOR. The CPU layout's float
// build (float and half storage) uses xgpu_exp.cl's branch-free exp, within the same 3 ulp as
// the driver's: PoCL 3.1's exp was about 40 % of the short-row softmax's time (1M x 16
// floats). Everything else keeps the driver's exp.
#if defined(XGPU_SOFTMAX_FOR_CPU) && !defined(XGPU_T_DOUBLE)
#include "xgpu_exp.cl"
#define XGPU_EXP1(x) xgpu_exp_float(x)
#else
#define XGPU_EXP1(x) exp(x)
#endif

// exp(x - maximum), with x == maximum giving exactly 1 (see above).
inline XGPU_S xgpu_shifted_exp(XGPU_S x, XGPU_S maximum) {
  return x == maximum ? (XGPU_S)1 : XGPU_EXP1(x - maximum);
}

// Compensated (Kahan) summation of a row's weights: the rounding error of the sum stays
// near 2 eps of it, whatever the number of terms, where a plain sequential sum's grows with
// it (on PoCL, one item per row, tens of thousands of eps at 2^20 weights near 1).
// No products, so contraction into fma cannot change it; the library builds without
// -cl-fast-relaxed-math, which could reassociate it away.
#define XGPU_KAHAN_ADD(sum, carry, term)  \
  do {                                    \
    const XGPU_S kahan_y = (term)-carry;  \
    const XGPU_S kahan_t = sum + kahan_y; \
    carry = (kahan_t - sum) - kahan_y;    \
    sum = kahan_t;                        \
  } while (0)

// XGPU_SOFTMAX_W: the vector width a work-item reads its row with (kernels below that use
// vectors); 16 by default. VECTOR is XGPU_S of that width; LOADV/STOREV read and write
// XGPU_SOFTMAX_W elements at element offset i (any alignment, as vload/vstore allow).
#ifndef XGPU_SOFTMAX_W
#define XGPU_SOFTMAX_W 16
#endif
#define VECTOR XGPU_CAT(XGPU_S, XGPU_SOFTMAX_W)
#ifdef XGPU_T_HALF
#define LOADV(p, i) XGPU_CAT(vload_half, XGPU_SOFTMAX_W)(0, (p) + (i))
#define STOREV(p, i, v) XGPU_CAT(vstore_half, XGPU_SOFTMAX_W)((v), 0, (p) + (i))
#else
#define LOADV(p, i) XGPU_CAT(vload, XGPU_SOFTMAX_W)(0, (p) + (i))
#define STOREV(p, i, v) XGPU_CAT(vstore, XGPU_SOFTMAX_W)((v), 0, (p) + (i))
#endif

// The lanes of a VECTOR combined pairwise with `combine` (fmax, XGPU_PLUS): log2(width)
// levels. With -DXGPU_SOFTMAX_FOR_CPU (the CPU layout's build) through the halves of the
// vector (.lo/.hi), which compile to a few shuffles; otherwise through a private array, as
// Oclgrind 21.10's uninitialized-value checker crashes on those shuffles (see reduce.cl). The
// array made the CPU layout several times slower on short rows on PoCL, and slower on long
// ones.
#define XGPU_PLUS(a, b) ((a) + (b))
#if XGPU_SOFTMAX_W != 4 && XGPU_SOFTMAX_W != 8 && XGPU_SOFTMAX_W != 16
#error "XGPU_SOFTMAX_W must be 4, 8 or 16"
#endif
#ifdef XGPU_SOFTMAX_FOR_CPU
#define XGPU_S2 XGPU_CAT(XGPU_S, 2)
#define XGPU_S4 XGPU_CAT(XGPU_S, 4)
#if XGPU_SOFTMAX_W == 16
#define XGPU_TO_FOUR(v, combine) combine(combine((v).lo, (v).hi).lo, combine((v).lo, (v).hi).hi)
#elif XGPU_SOFTMAX_W == 8
#define XGPU_TO_FOUR(v, combine) combine((v).lo, (v).hi)
#else
#define XGPU_TO_FOUR(v, combine) (v)
#endif
#define XGPU_LANES_FUNCTION(name, combine, combine_scalars) \
  static inline XGPU_S name(const VECTOR v) {              \
    const XGPU_S4 four = XGPU_TO_FOUR(v, combine);         \
    const XGPU_S2 two = combine(four.lo, four.hi);         \
    return combine_scalars(two.x, two.y);                  \
  }
#else
#define XGPU_LANES_FUNCTION(name, combine, combine_scalars)                    \
  static inline XGPU_S name(const VECTOR v) {                                  \
    XGPU_S lane[XGPU_SOFTMAX_W];                                               \
    XGPU_CAT(vstore, XGPU_SOFTMAX_W)(v, 0, lane);                              \
    for (uint half_size = XGPU_SOFTMAX_W / 2; half_size > 0; half_size /= 2)   \
      for (uint i = 0; i < half_size; ++i)                                     \
        lane[i] = combine_scalars(lane[i], lane[i + half_size]);               \
    return lane[0];                                                            \
  }
#endif
// XGPU_ROW_MAX: how the per-item kernel takes the maximum of two vectors. The CPU layout
// uses a plain compare and select (one vmaxps on x86, where fmax's NaN rule costs a compare and a
// blend more: 7 % of the short-row softmax's time, PoCL, 1M x 16 floats); it may keep or drop
// a NaN, and either way the row comes out NaN (the NaN's own weight, or every weight, is NaN).
// On vectors it is written as select(), not `?:` with a vector condition: the same in OpenCL C,
// but the CUDA module's prelude (C++) cannot take a vector as the condition of `?:`.
#ifdef XGPU_SOFTMAX_FOR_CPU
#define XGPU_ROW_MAX(a, b) select((b), (a), (a) > (b))
#define XGPU_ROW_MAX_SCALARS(a, b) ((a) > (b) ? (a) : (b))
#else
#define XGPU_ROW_MAX(a, b) fmax((a), (b))
#define XGPU_ROW_MAX_SCALARS(a, b) fmax((a), (b))
#endif
XGPU_LANES_FUNCTION(lanes_max, XGPU_ROW_MAX, XGPU_ROW_MAX_SCALARS)
XGPU_LANES_FUNCTION(lanes_sum, XGPU_PLUS, XGPU_PLUS)

// With -DXGPU_SOFTMAX_FOR_CPU (the CPU layout's build), the per-item kernel's second
// pass stores each weight in out, and the third divides it there instead of computing exp
// again: half the exps, and the same results, as the weight is the same value either way
// (measured faster on PoCL). Not for half storage, where
// the stored weight would be rounded to half first. Not by default: Oclgrind 21.10's
// uninitialized-value checker reports the third pass's results as uninitialized (it loses
// track of what vstore wrote), though they are right.
#if defined(XGPU_SOFTMAX_FOR_CPU) && !defined(XGPU_T_HALF)
#define XGPU_WEIGHTS_IN_OUT 1
#endif

#if defined(XGPU_SOFTMAX_FOR_CPU) && !defined(XGPU_T_DOUBLE) && XGPU_SOFTMAX_W == 16
#define XGPU_EXPV(x) xgpu_exp_float16(x)
#else
#define XGPU_EXPV(x) exp(x)
#endif

// exp(x - maximum) lane by lane, 1 where x == maximum (see xgpu_shifted_exp).
#define XGPU_SHIFTED_EXPV(x, maximum) \
  select(XGPU_EXPV((x) - (maximum)), (VECTOR)(1), (x) == (maximum))

// The row maximum (ignoring NaN with fmax; see XGPU_ROW_MAX), -inf for no entries; a NaN
// then reaches the sum.
// One work-item per row, the CPU layout, and the GPU one for narrow rows. The item reads its
// row in vectors of XGPU_SOFTMAX_W and its last cols % XGPU_SOFTMAX_W entries one by one:
// one long stream per item (a row is contiguous), which a CPU's prefetchers follow, and
// vector exp and compares (PoCL cannot vectorize across items whose loops run inside them).
// Each lane keeps its own compensated sum; the lanes are then added pairwise (log2 of the
// width roundings) and the single entries added compensated onto that.
__kernel void xgpu_softmax_rows_item(const uint rows, const uint cols, __global const XGPU_T* in,
                                     __global XGPU_T* out) {
  const uint row = (uint)get_global_id(0);
  if (row >= rows) return;
  const __global XGPU_T* x = in + (size_t)row * cols;
  __global XGPU_T* y = out + (size_t)row * cols;
#ifdef XGPU_T_HALF
  // Half rows go one entry at a time: PoCL 3.1's vload_half16 and vstore_half16 crash (an
  // aligned vector access) on rows that do not start at a multiple of 32 bytes.
  const uint whole = 0;
#else
  const uint whole = cols / XGPU_SOFTMAX_W * XGPU_SOFTMAX_W;
#endif

#ifdef XGPU_WEIGHTS_IN_OUT
  // A row of exactly one vector (16 floats): the same operations as below, in straight-line
  // code with the weights kept in registers (measured faster on PoCL, near the triad's
  // time).
  if (cols == XGPU_SOFTMAX_W) {
    const VECTOR v = LOADV(x, 0);
    const VECTOR weight = XGPU_SHIFTED_EXPV(v, lanes_max(v));
    STOREV(y, 0, weight * ((XGPU_S)1 / lanes_sum(weight)));
    return;
  }
#endif
  XGPU_S maximum = -INFINITY;
  if (whole > 0) {
    VECTOR lanes = (VECTOR)(-INFINITY);
    for (uint c = 0; c < whole; c += XGPU_SOFTMAX_W) lanes = XGPU_ROW_MAX(lanes, LOADV(x, c));
    maximum = lanes_max(lanes);
  }
  for (uint c = whole; c < cols; ++c) maximum = fmax(maximum, LOAD(x, c));

  XGPU_S sum = 0, carry = 0;
  VECTOR first_weight = (VECTOR)(0);
  if (whole > 0) {
    // The first vector starts the lanes' sums: what adding it to zero would give, without the
    // compensation's four operations (a tenth of the time for rows of 16 floats). Its weights
    // stay in registers until the results are written (the others go through out).
    first_weight = XGPU_SHIFTED_EXPV(LOADV(x, 0), maximum);
    VECTOR lane_sum = first_weight, lane_carry = (VECTOR)(0);
    for (uint c = XGPU_SOFTMAX_W; c < whole; c += XGPU_SOFTMAX_W) {
      const VECTOR weight = XGPU_SHIFTED_EXPV(LOADV(x, c), maximum);
#ifdef XGPU_WEIGHTS_IN_OUT
      STOREV(y, c, weight);
#endif
      const VECTOR kahan_y = weight - lane_carry;
      const VECTOR kahan_t = lane_sum + kahan_y;
      lane_carry = (kahan_t - lane_sum) - kahan_y;
      lane_sum = kahan_t;
    }
    // Past an infinity (a NaN in the row), the carry is NaN: the plain sum is NaN as well.
    sum = lanes_sum(lane_sum - lane_carry);
  }
  for (uint c = whole; c < cols; ++c)
    XGPU_KAHAN_ADD(sum, carry, xgpu_shifted_exp(LOAD(x, c), maximum));
  sum -= carry;

  // One division per row, then products: two roundings (about 1 ulp) where a division has
  // one; OpenCL allows a float division 2.5 ulp, and the bound in docs/algorithms.md counts 3.
  const XGPU_S scale = (XGPU_S)1 / sum;
#ifdef XGPU_WEIGHTS_IN_OUT
  if (whole > 0) STOREV(y, 0, first_weight * scale);
  for (uint c = XGPU_SOFTMAX_W; c < whole; c += XGPU_SOFTMAX_W) STOREV(y, c, LOADV(y, c) * scale);
#else
  for (uint c = 0; c < whole; c += XGPU_SOFTMAX_W)
    STOREV(y, c, XGPU_SHIFTED_EXPV(LOADV(x, c), maximum) * scale);
#endif
  for (uint c = whole; c < cols; ++c) STORE(y, c, xgpu_shifted_exp(LOAD(x, c), maximum) * scale);
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
