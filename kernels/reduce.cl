// Reductions over n elements of XGPU_T (float, double, int, uint, or half or bfloat16 storage,
// accumulated in float): sums,
// dot products, sums of scaled squares (for norm2) and extremes with their index (for
// min/max/argmin/argmax). Each work-group writes one partial result per vector lane, XGPU_W
// of them; the host combines those few values.
//
// Results stay in vector lanes to the end: no kernel adds or compares the lanes of one vector
// with each other. That saves device work, and keeps LLVM from turning such horizontal
// operations into shuffles with undefined lanes, on which Oclgrind's uninitialized-value
// checker (21.10) crashes.
//
// Build options: -DXGPU_T=<type> -DXGPU_T_<TYPE> (see support.hpp) and -DXGPU_W=4|8|16, the
// vector width of the loads. Launch with a power-of-two work-group size and __local scratch of
// XGPU_W values (and XGPU_W uints, for extremes) per work-item.
//
// Work split (the `contiguous` argument):
//   contiguous != 0: item g reads elements [g*chunk, (g+1)*chunk), chunk a multiple of XGPU_W:
//     one long sequential stream per item, which suits CPU devices (each work-item runs to its
//     end before the next starts, and hardware prefetchers follow the stream);
//   contiguous == 0: the whole vectors are dealt round-robin (item g reads vectors g, g+items,
//     ...), so neighbouring items read neighbouring memory, which suits GPUs; item 0 takes
//     the n % XGPU_W elements after the last whole vector.
// Requires: OpenCL C 1.2; cl_khr_fp64 for double.
#include "xgpu_element.cl"

#ifndef XGPU_W
#define XGPU_W 16
#endif

// VAL: an element as arithmetic sees it (float for half storage). SUM: the type sums are
// accumulated in: uint for int, so that sums wrap modulo 2^32 instead of overflowing (signed
// overflow is undefined in OpenCL C). Both are macros, not typedefs, so that drivers report
// kernel parameter types by their plain names.
#if defined(XGPU_T_HALF)
#define VAL float
#define LOAD_VECTOR(i, p) XGPU_CAT(vload_half, XGPU_W)(i, p)
#define LOAD_ONE(i, p) vload_half(i, p)
#elif defined(XGPU_T_BFLOAT16)
#define VAL float
#define LOAD_VECTOR(i, p) XGPU_CAT(xgpu_bf16_to_float, XGPU_W)(XGPU_CAT(vload, XGPU_W)(i, p))
#define LOAD_ONE(i, p) xgpu_bf16_to_float((p)[i])
#else
#define VAL XGPU_T
#define LOAD_VECTOR(i, p) XGPU_CAT(vload, XGPU_W)(i, p)
#define LOAD_ONE(i, p) ((p)[i])
#endif
#define VALV XGPU_CAT(VAL, XGPU_W)

#if defined(XGPU_T_INT)
#define SUM uint
#define TO_SUM(v) as_uint(v)
#define TO_SUMV(v) XGPU_CAT(as_uint, XGPU_W)(v)
#else
#define SUM VAL
#define TO_SUM(v) (v)
#define TO_SUMV(v) (v)
#endif
#define SUMV XGPU_CAT(SUM, XGPU_W)

#if defined(XGPU_T_FLOAT) || defined(XGPU_T_DOUBLE) || defined(XGPU_T_HALF) || \
    defined(XGPU_T_BFLOAT16)
#define XGPU_FLOATING 1
#endif

// A comparison of VALV vectors yields a signed integer vector as wide as the elements
// (long for double); comparisons of the uint index vectors yield int vectors: INDEX_MASK and
// TO_VALV_MASK convert between the two.
#if defined(XGPU_T_DOUBLE)
#define VALV_MASK XGPU_CAT(long, XGPU_W)
#define INDEX_MASK(m) XGPU_CAT(convert_int, XGPU_W)(m)
#define TO_VALV_MASK(m) XGPU_CAT(convert_long, XGPU_W)(m)
#else
#define VALV_MASK XGPU_CAT(int, XGPU_W)
#define INDEX_MASK(m) (m)
#define TO_VALV_MASK(m) (m)
#endif

#define XGPU_NONE 0xffffffffu  // the index of "no element" (an item with nothing to read)

// Sums are accumulated in blocks of SUM_BLOCK vectors (plain adds), and blocks are added
// into a compensated (Kahan) sum; see sum_items.
#define SUM_BLOCK 16u

// The vectors one item reads: first, first + step, ... (count of them), and the single
// elements [tail_begin, tail_end) after them.
typedef struct {
  uint first, step, count, tail_begin, tail_end;
} Span;

static inline Span item_span(const uint n, const uint chunk, const uint contiguous) {
  const uint item = get_global_id(0), items = get_global_size(0);
  Span span;
  if (contiguous) {
    // 64-bit products: item * chunk may pass 2^32 for the empty items near the end.
    const uint begin = (uint)min((ulong)item * chunk, (ulong)n);
    const uint end = (uint)min((ulong)item * chunk + chunk, (ulong)n);
    span.first = begin / XGPU_W;
    span.step = 1;
    span.count = (end - begin) / XGPU_W;
    span.tail_begin = begin + span.count * XGPU_W;
    span.tail_end = end;
  } else {
    const uint vectors = n / XGPU_W;
    span.first = item;
    span.step = items;
    span.count = item < vectors ? (vectors - 1 - item) / items + 1 : 0;
    span.tail_begin = item == 0 ? vectors * XGPU_W : n;
    span.tail_end = n;
  }
  return span;
}

// Plain vector loads and stores of SUM and VAL (scratch, partials), and of uint indices.
#define VLOAD XGPU_CAT(vload, XGPU_W)
#define VSTORE XGPU_CAT(vstore, XGPU_W)

// Adds the work-group's vectors in scratch (a power-of-two count of them), lane by lane, and
// writes the group's XGPU_W lane totals to partials[group * XGPU_W ...].
static inline void write_group_sums(const SUMV lanes, __local SUM* scratch,
                                    __global SUM* partials) {
  const uint lid = get_local_id(0);
  VSTORE(lanes, lid, scratch);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint half_size = get_local_size(0) / 2; half_size > 0; half_size /= 2) {
    if (lid < half_size)
      VSTORE(VLOAD(lid, scratch) + VLOAD(lid + half_size, scratch), lid, scratch);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) VSTORE(VLOAD(0, scratch), get_group_id(0), partials);
}

#define TERM_SUM 0     // x[i]
#define TERM_DOT 1     // x[i] * y[i]
#define TERM_SQUARE 2  // (x[i] * scale)^2

// The item's share of sum(term(i)): each term has its own inner loop.
//
// Accuracy (floating types), u the unit roundoff: every lane adds at most SUM_BLOCK terms in a
// plain running sum (SUM_BLOCK - 1 roundings), and the block sums go into a Kahan sum, whose
// error (2u + O(blocks * u^2)) does not grow with the count of blocks; then one rounding for
// total - lost, one for the tail, log2(work-group size) for the group's tree and about one on
// the host. With SUM_BLOCK 16 and groups <= 256 items that is under 30u * sum(|term|) for any
// n < 2^32, within the 40u reduce.hpp states. Compensating costs four operations per block of
// SUM_BLOCK vectors, so the loop stays bound by memory. Integer sums wrap modulo 2^32 (uint
// arithmetic).
static inline SUMV sum_items(const uint term, const uint n, const uint chunk, const uint contiguous,
                             const VAL scale, __global const XGPU_T* x, __global const XGPU_T* y) {
  const Span span = item_span(n, chunk, contiguous);
  SUMV total = (SUMV)(0);
#if XGPU_FLOATING
  SUMV lost = (SUMV)(0);  // Kahan's compensation: the true sum is about total - lost
#endif
  uint k = 0;
  while (k < span.count) {
    const uint block_end = min(span.count, k + SUM_BLOCK);
    SUMV block = (SUMV)(0);
    if (term == TERM_SUM) {
      for (; k < block_end; ++k) block += TO_SUMV(LOAD_VECTOR(span.first + k * span.step, x));
    } else if (term == TERM_DOT) {
      for (; k < block_end; ++k) {
        const uint v = span.first + k * span.step;
        block += TO_SUMV(LOAD_VECTOR(v, x)) * TO_SUMV(LOAD_VECTOR(v, y));
      }
    } else {
      for (; k < block_end; ++k) {
        const SUMV scaled = TO_SUMV(LOAD_VECTOR(span.first + k * span.step, x)) * (SUM)scale;
        block += scaled * scaled;
      }
    }
#if XGPU_FLOATING
    const SUMV corrected = block - lost;
    const SUMV next = total + corrected;
    lost = (next - total) - corrected;
    // Past an overflow or an infinity, (next - total) is NaN: keep the plain sum instead.
    lost = select((SUMV)(0), lost, isfinite(next));
    total = next;
#else
    total += block;
#endif
  }
#if XGPU_FLOATING
  SUMV sums = total - lost;
#else
  SUMV sums = total;
#endif
  // The < XGPU_W single elements are summed apart, so that they add one rounding, not up to
  // XGPU_W, to lane 0.
  SUM tail = 0;
  for (uint i = span.tail_begin; i < span.tail_end; ++i) {
    if (term == TERM_SUM) {
      tail += TO_SUM(LOAD_ONE(i, x));
    } else if (term == TERM_DOT) {
      tail += TO_SUM(LOAD_ONE(i, x)) * TO_SUM(LOAD_ONE(i, y));
    } else {
      const SUM scaled = TO_SUM(LOAD_ONE(i, x)) * (SUM)scale;
      tail += scaled * scaled;
    }
  }
  sums.s0 += tail;
  return sums;
}

// partials[group * XGPU_W + lane] = the sum over the group's elements in that lane of x[i]
// (term TERM_SUM), x[i] * y[i] (TERM_DOT) or (x[i] * scale)^2 (TERM_SQUARE: norm2 scales by a
// power of two near 1/max|x|, so that no square overflows). One kernel rather than three: PoCL
// compiles each kernel for each work-group size, and the term costs one uniform branch per
// block of SUM_BLOCK vectors.
__kernel void xgpu_reduce_sum(const uint n, const uint chunk, const uint contiguous,
                              const uint term, const VAL scale, __global const XGPU_T* x,
                              __global const XGPU_T* y, __global SUM* partials,
                              __local SUM* scratch) {
  write_group_sums(sum_items(term, n, chunk, contiguous, scale, x, y), scratch, partials);
}

// |v| for norm2's scale, and NaN tests (never true for integers).
#if XGPU_FLOATING
#define MAGNITUDE(v) fabs(v)
#define IS_NAN(v) isnan(v)
#define NAN_LANES(v) isnan(v)
#else
#define MAGNITUDE(v) (v)
#define IS_NAN(v) false
#define NAN_LANES(v) ((VALV_MASK)(0))
#endif

#if XGPU_W == 16
#define LANE_OFFSETS (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#elif XGPU_W == 8
#define LANE_OFFSETS (uint8)(0, 1, 2, 3, 4, 5, 6, 7)
#else
#define LANE_OFFSETS (uint4)(0, 1, 2, 3)
#endif
#define INDEXV XGPU_CAT(uint, XGPU_W)

// Extremes. A NaN counts as more extreme than any number (so min and max propagate NaN), and
// of equal values the lower index wins. Whether (a, ia) beats (b, ib); XGPU_NONE is no element.
static inline bool beats(const VAL a, const uint ia, const VAL b, const uint ib,
                         const bool is_max) {
  if (ia == XGPU_NONE) return false;
  if (ib == XGPU_NONE) return true;
  const bool a_nan = IS_NAN(a), b_nan = IS_NAN(b);
  if (a_nan != b_nan) return a_nan;
  if (!a_nan && a != b) return is_max ? a > b : a < b;
  return ia < ib;
}

// The same rule lane by lane: the lanes where (a, ia) beats (b, ib).
static inline VALV_MASK beats_lanes(const VALV a, const INDEXV ia, const VALV b, const INDEXV ib,
                                    const bool is_max) {
  const VALV_MASK a_nan = NAN_LANES(a), b_nan = NAN_LANES(b);
  const VALV_MASK a_none = TO_VALV_MASK(ia == (INDEXV)(XGPU_NONE));
  const VALV_MASK b_none = TO_VALV_MASK(ib == (INDEXV)(XGPU_NONE));
  const VALV_MASK larger = is_max ? a > b : a < b;  // false where either is NaN
  const VALV_MASK tie = (a == b) | (a_nan & b_nan);
  return ~a_none & (b_none | (a_nan & ~b_nan) | larger | (tie & TO_VALV_MASK(ia < ib)));
}

// The extreme (value and index) of the item's elements in each lane, of x or of |x| when
// `absolute`; the group's best per lane goes to values[group * XGPU_W + lane] and indices[...].
// Each lane keeps its first extreme (lanes visit their elements in increasing index order and
// replace only on a strict win); the single elements after the whole vectors go to lane 0.
static inline void extreme(const bool is_max, const bool absolute, const uint n, const uint chunk,
                           const uint contiguous, __global const XGPU_T* x, __global VAL* values,
                           __global uint* indices, __local VAL* scratch_values,
                           __local uint* scratch_indices) {
  const Span span = item_span(n, chunk, contiguous);
  VALV lane_best = (VALV)(0);
  INDEXV lane_index = (INDEXV)(XGPU_NONE);
  if (span.count > 0) {
    lane_best = LOAD_VECTOR(span.first, x);
    if (absolute) lane_best = MAGNITUDE(lane_best);
    lane_index = (INDEXV)(span.first * XGPU_W) + LANE_OFFSETS;
    for (uint k = 1; k < span.count; ++k) {
      const uint v = span.first + k * span.step;
      VALV value = LOAD_VECTOR(v, x);
      if (absolute) value = MAGNITUDE(value);
      const VALV_MASK wins = (is_max ? value > lane_best : value < lane_best) |
                             (NAN_LANES(value) & ~NAN_LANES(lane_best));
      lane_best = select(lane_best, value, wins);
      lane_index = select(lane_index, (INDEXV)(v * XGPU_W) + LANE_OFFSETS, INDEX_MASK(wins));
    }
  }
  VAL tail_best = 0;
  uint tail_index = XGPU_NONE;
  for (uint i = span.tail_begin; i < span.tail_end; ++i) {
    VAL value = LOAD_ONE(i, x);
    if (absolute) value = MAGNITUDE(value);
    if (beats(value, i, tail_best, tail_index, is_max)) {
      tail_best = value;
      tail_index = i;
    }
  }
  if (beats(tail_best, tail_index, lane_best.s0, lane_index.s0, is_max)) {
    lane_best.s0 = tail_best;
    lane_index.s0 = tail_index;
  }

  const uint lid = get_local_id(0);
  VSTORE(lane_best, lid, scratch_values);
  VSTORE(lane_index, lid, scratch_indices);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint half_size = get_local_size(0) / 2; half_size > 0; half_size /= 2) {
    if (lid < half_size) {
      const VALV mine = VLOAD(lid, scratch_values), other = VLOAD(lid + half_size, scratch_values);
      const INDEXV mine_index = VLOAD(lid, scratch_indices);
      const INDEXV other_index = VLOAD(lid + half_size, scratch_indices);
      const VALV_MASK wins = beats_lanes(other, other_index, mine, mine_index, is_max);
      VSTORE(select(mine, other, wins), lid, scratch_values);
      VSTORE(select(mine_index, other_index, INDEX_MASK(wins)), lid, scratch_indices);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    VSTORE(VLOAD(0, scratch_values), get_group_id(0), values);
    VSTORE(VLOAD(0, scratch_indices), get_group_id(0), indices);
  }
}

// values/indices[group * XGPU_W + lane] = the smallest (is_max == 0) or largest x[i] of the
// group's elements in that lane, or of |x[i]| when `absolute` (for norm2's scale), the first of
// equal ones (NaN before all), and its index, XGPU_NONE where the lane had none. One kernel for
// all four, as for the sums.
__kernel void xgpu_reduce_extreme(const uint n, const uint chunk, const uint contiguous,
                                  const uint is_max, const uint absolute, __global const XGPU_T* x,
                                  __global VAL* values, __global uint* indices,
                                  __local VAL* scratch_values, __local uint* scratch_indices) {
  extreme(is_max != 0, absolute != 0, n, chunk, contiguous, x, values, indices, scratch_values,
          scratch_indices);
}
