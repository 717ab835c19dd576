// Prefix sums (scans) of n elements of XGPU_T (float, double, int, uint or half storage).
// Work-item g owns the elements [g*chunk, (g+1)*chunk), chunk a multiple of XGPU_W, and reads
// them as one contiguous stream of XGPU_W-wide vectors. Two ways:
// - three launches, on any device:
//   1. xgpu_scan_partials: partials[g * XGPU_W + lane] = the sum of item g's elements in
//      each vector lane;
//   2. xgpu_scan_offsets (one work-group): partials becomes init + its exclusive scan, so
//      that partials[g * XGPU_W] is init + the sum of all elements before item g's;
//   3. xgpu_scan_apply: each item scans its elements (inclusive or exclusive), starting
//      from partials[g * XGPU_W];
// - one launch of xgpu_scan_single_pass, on CPU devices when `in` and `out` differ, which
//   reads the input from memory once instead of twice (see there).
// Those are the CPU layout. The GPU layout (the *_striped kernels, at the end) is three
// launches too, but work-group g owns a contiguous range of tiles and its items stripe
// across each tile, so that consecutive items touch consecutive addresses on every global
// load and store.
// An item reads each element before it writes the same index, so in == out (a scan in place)
// is safe.
// Sums of int wrap modulo 2^32 (they are done in uint; signed overflow is undefined in C).
//
// Build options: -DXGPU_T=<type> -DXGPU_T_<TYPE> (see support.hpp), -DXGPU_W=4|8|16, and
// optionally -DXGPU_STREAM_STORES (below).
// Requires: OpenCL C 1.2; cl_khr_fp64 for double.
#include "xgpu_element.cl"

#ifndef XGPU_W
#define XGPU_W 16
#endif

// SUM: the type sums are done in (macros rather than typedefs, so that drivers report kernel
// parameter types by their plain names). LOAD_*: elements as SUM; STORE_*: SUM as elements.
#if defined(XGPU_T_HALF)
#define SUM float
#define LOAD_VECTOR(i, p) XGPU_CAT(vload_half, XGPU_W)(i, p)
#define LOAD_ONE(i, p) vload_half(i, p)
#define STORE_VECTOR(v, i, p) XGPU_CAT(XGPU_CAT(vstore_half, XGPU_W), _rte)(v, i, p)
#define STORE_ONE(v, i, p) vstore_half_rte(v, i, p)
#elif defined(XGPU_T_INT)
#define SUM uint
#define LOAD_VECTOR(i, p) XGPU_CAT(as_uint, XGPU_W)(XGPU_CAT(vload, XGPU_W)(i, p))
#define LOAD_ONE(i, p) as_uint((p)[i])
#define STORE_VECTOR(v, i, p) XGPU_CAT(vstore, XGPU_W)(XGPU_CAT(as_int, XGPU_W)(v), i, p)
#define STORE_ONE(v, i, p) ((p)[i] = as_int(v))
#else
#define SUM XGPU_T
#define LOAD_VECTOR(i, p) XGPU_CAT(vload, XGPU_W)(i, p)
#define LOAD_ONE(i, p) ((p)[i])
#define STORE_VECTOR(v, i, p) XGPU_CAT(vstore, XGPU_W)(v, i, p)
#define STORE_ONE(v, i, p) ((p)[i] = (v))
#endif
#define SUMV XGPU_CAT(SUM, XGPU_W)

// Streaming (non-temporal) stores of the results, where the host asks for them
// (-DXGPU_STREAM_STORES, on CPU devices) and the compiler has clang's builtin: the output is
// written once and not read back soon, so skipping the read of each cache line before it is
// written (and the cache pollution) cuts a third of the last launch's memory traffic.
// Half results are converted by vstore_half, so they keep plain stores.
#if defined(XGPU_STREAM_STORES) && !defined(XGPU_T_HALF) && defined(__has_builtin)
#if __has_builtin(__builtin_nontemporal_store)
#define XGPU_NONTEMPORAL 1
#if defined(XGPU_T_INT)
#define STORE_STREAMING(v, i, p)                           \
  __builtin_nontemporal_store(XGPU_CAT(as_int, XGPU_W)(v), \
                              (__global XGPU_CAT(int, XGPU_W)*)(p) + (i))
#else
#define STORE_STREAMING(v, i, p) __builtin_nontemporal_store(v, (__global SUMV*)(p) + (i))
#endif
#endif
#endif

// In-register scans of one vector: inclusive_lanes(v) has lane i = v[0] + ... + v[i];
// SHIFT_ONE(p) moves lanes up by one, with 0 in lane 0 (inclusive to exclusive); LAST_LANE(p)
// is the vector's total. The lanes are scanned in groups of four first (shifts within each
// group: for floats, within each 16-byte part of the register, which x86 does in one cheap
// instruction), then each group adds the totals of the groups before it. Measured on PoCL,
// that made the last launch about 20% faster than four shifts across the whole vector, when
// the data is in cache. The shifted vectors are built from single lanes, not sub-vectors:
// clang makes sub-vector literals into shuffles with undefined lanes, which crash Oclgrind's
// uninitialized-value checker (21.10).
#define Z ((SUM)0)
#if XGPU_W == 16
static inline SUMV inclusive_lanes(SUMV p) {
  p += (SUMV)(Z, p.s0, p.s1, p.s2, Z, p.s4, p.s5, p.s6, Z, p.s8, p.s9, p.sa, Z, p.sc, p.sd, p.se);
  p += (SUMV)(Z, Z, p.s0, p.s1, Z, Z, p.s4, p.s5, Z, Z, p.s8, p.s9, Z, Z, p.sc, p.sd);
  // Group g adds group g-1's total, then group g-2's running total: 4 groups in 2 steps.
  p += (SUMV)(Z, Z, Z, Z, p.s3, p.s3, p.s3, p.s3, p.s7, p.s7, p.s7, p.s7, p.sb, p.sb, p.sb, p.sb);
  p += (SUMV)(Z, Z, Z, Z, Z, Z, Z, Z, p.s3, p.s3, p.s3, p.s3, p.s7, p.s7, p.s7, p.s7);
  return p;
}
#define SHIFT_ONE(p)                                                                         \
  ((SUMV)(Z, (p).s0, (p).s1, (p).s2, (p).s3, (p).s4, (p).s5, (p).s6, (p).s7, (p).s8, (p).s9, \
          (p).sa, (p).sb, (p).sc, (p).sd, (p).se))
#define LAST_LANE(p) ((p).sf)
#elif XGPU_W == 8
static inline SUMV inclusive_lanes(SUMV p) {
  p += (SUMV)(Z, p.s0, p.s1, p.s2, Z, p.s4, p.s5, p.s6);
  p += (SUMV)(Z, Z, p.s0, p.s1, Z, Z, p.s4, p.s5);
  p += (SUMV)(Z, Z, Z, Z, p.s3, p.s3, p.s3, p.s3);
  return p;
}
#define SHIFT_ONE(p) ((SUMV)(Z, (p).s0, (p).s1, (p).s2, (p).s3, (p).s4, (p).s5, (p).s6))
#define LAST_LANE(p) ((p).s7)
#else
static inline SUMV inclusive_lanes(SUMV p) {
  p += (SUMV)(Z, p.s0, p.s1, p.s2);
  p += (SUMV)(Z, Z, p.s0, p.s1);
  return p;
}
#define SHIFT_ONE(p) ((SUMV)(Z, (p).s0, (p).s1, (p).s2))
#define LAST_LANE(p) ((p).s3)
#endif

// The elements of item `item` (counted across the launch): [*begin, *end). 64-bit products:
// item * chunk may pass 2^32 for the empty items at the end.
static inline void item_range(const uint item, const uint n, const uint chunk, uint* begin,
                              uint* end) {
  const ulong start = (ulong)item * chunk;
  *begin = (uint)min(start, (ulong)n);
  *end = (uint)min(start + chunk, (ulong)n);
}

// The sums of in[begin .. end) in each vector lane; the single elements after the whole
// vectors count in lane 0. The lanes are left for the caller to add from memory: adding them
// here, with only the total used, is what LLVM turns into shuffles with undefined lanes, on
// which Oclgrind's uninitialized-value checker (21.10) crashes.
static inline SUMV lane_sums(const uint begin, const uint end, __global const XGPU_T* in) {
  const uint vectors_end = begin + (end - begin) / XGPU_W * XGPU_W;
  SUMV lanes = (SUMV)(0);
  for (uint i = begin; i < vectors_end; i += XGPU_W) lanes += LOAD_VECTOR(i / XGPU_W, in);
  SUM tail = 0;
  for (uint i = vectors_end; i < end; ++i) tail += LOAD_ONE(i, in);
  lanes.s0 += tail;
  return lanes;
}

// out[i] = start + in[begin] + ... + in[i] (inclusive) or + ... + in[i - 1], for i in
// [begin, end). Each element is read before the same index is written: in == out is safe.
static inline void scan_range(const bool inclusive, const uint begin, const uint end,
                              const SUM start, __global const XGPU_T* in, __global XGPU_T* out) {
  const uint vectors_end = begin + (end - begin) / XGPU_W * XGPU_W;
  // The running total is kept in every lane, so that the loop's only serial dependency is
  // one vector add per vector (the broadcast of each vector's total is off that chain).
  SUMV running_lanes = (SUMV)(start);
#if defined(XGPU_NONTEMPORAL)
  if ((size_t)out % sizeof(SUMV) == 0) {  // streaming stores need aligned vectors
    for (uint i = begin; i < vectors_end; i += XGPU_W) {
      const SUMV prefix = inclusive_lanes(LOAD_VECTOR(i / XGPU_W, in));
      STORE_STREAMING(running_lanes + (inclusive ? prefix : SHIFT_ONE(prefix)), i / XGPU_W, out);
      running_lanes += (SUMV)(LAST_LANE(prefix));
    }
  } else
#endif
  {
    for (uint i = begin; i < vectors_end; i += XGPU_W) {
      const SUMV prefix = inclusive_lanes(LOAD_VECTOR(i / XGPU_W, in));
      STORE_VECTOR(running_lanes + (inclusive ? prefix : SHIFT_ONE(prefix)), i / XGPU_W, out);
      running_lanes += (SUMV)(LAST_LANE(prefix));
    }
  }
  SUM running = running_lanes.s0;
  for (uint i = vectors_end; i < end; ++i) {
    const SUM value = LOAD_ONE(i, in);
    if (inclusive) running += value;
    STORE_ONE(running, i, out);
    if (!inclusive) running += value;
  }
}

// ---- Three launches (any device) ----

// partials[g * XGPU_W + lane] = the sum of item g's elements in that vector lane.
__kernel void xgpu_scan_partials(const uint n, const uint chunk, __global const XGPU_T* in,
                                 __global SUM* partials) {
  uint begin, end;
  item_range(get_global_id(0), n, chunk, &begin, &end);
  XGPU_CAT(vstore, XGPU_W)(lane_sums(begin, end, in), get_global_id(0), partials);
}

// partials[0 .. count) = init + the exclusive scan of partials, by one work-group of a
// power-of-two size: each item scans a contiguous run of the partials, and the runs' totals
// are scanned in local memory (Hillis and Steele: log2(size) steps, race-free with a barrier
// between the reads and the writes of each step).
__kernel void xgpu_scan_offsets(const uint count, const SUM init, __global SUM* partials,
                                __local SUM* scratch) {
  const uint lid = get_local_id(0), size = get_local_size(0);
  const uint per_item = (count + size - 1) / size;
  const uint begin = min(lid * per_item, count), end = min(begin + per_item, count);
  SUM own = 0;
  for (uint i = begin; i < end; ++i) own += partials[i];
  scratch[lid] = own;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint offset = 1; offset < size; offset *= 2) {
    const SUM before = lid >= offset ? scratch[lid - offset] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += before;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  SUM running = lid > 0 ? init + scratch[lid - 1] : init;
  for (uint i = begin; i < end; ++i) {
    const SUM value = partials[i];
    partials[i] = running;
    running += value;
  }
}

// The last launch: item g scans its elements from partials[g * XGPU_W] (init + the sum of all
// elements before them), inclusive (inclusive != 0) or exclusive. One kernel for both: PoCL
// compiles each kernel for each work-group size.
__kernel void xgpu_scan_apply(const uint n, const uint chunk, const uint inclusive,
                              __global const XGPU_T* in, __global XGPU_T* out,
                              __global const SUM* partials) {
  uint begin, end;
  item_range(get_global_id(0), n, chunk, &begin, &end);
  scan_range(inclusive != 0, begin, end, partials[get_global_id(0) * XGPU_W], in, out);
}

// ---- One launch: the single-pass scan (CPU devices, out of place) ----
//
// Tile t is get_local_size(0) consecutive item ranges of `chunk` elements, small enough to stay
// in the cache between its two reads. Each work-group takes the next tile number from
// status[0], so tiles start in order; adds its elements lane by lane; publishes the tile's
// total (its aggregate); finds the prefix before the tile from the tiles before it (a
// decoupled look-back); publishes its own inclusive prefix; then scans its elements from that
// prefix, reading them again from the cache. The input is read from memory once, not twice.
//
// No group ever waits for another: where a tile before it has published nothing yet (its
// group not started far enough, or its thread descheduled by the OS), the group adds that
// tile's input itself, the same way its owner does. So there is no spinning, whatever the
// scheduling. That read of another tile's input is why the host runs this scan only when `in`
// and `out` are different buffers. The prefix is always the left-to-right sum
// ((init + A0) + A1) + ... of the tiles' aggregates, wherever the look-back stops, so results
// do not depend on timing. Every access that another group may make at the same time is
// atomic.
//
// status[1 + t]: 0 nothing yet, AGGREGATE_OUT once tile t's total is published, PREFIX_OUT
// once its inclusive prefix (init + everything up to its end) is too. values: per tile, the
// aggregate then the inclusive prefix, as 32-bit words (two for double) for the atomics of
// OpenCL 1.2.
#define AGGREGATE_OUT 1u
#define PREFIX_OUT 2u
#if defined(XGPU_T_DOUBLE)
static inline void publish_value(volatile __global uint* words, const uint slot, const SUM v) {
  const uint2 bits = as_uint2(v);
  atomic_xchg(&words[2 * slot], bits.x);
  atomic_xchg(&words[2 * slot + 1], bits.y);
}
static inline SUM read_value(volatile __global uint* words, const uint slot) {
  return as_double((uint2)(atomic_or(&words[2 * slot], 0u), atomic_or(&words[2 * slot + 1], 0u)));
}
#else
#if defined(XGPU_T_FLOAT) || defined(XGPU_T_HALF)
#define SUM_FROM_BITS(b) as_float(b)
#else
#define SUM_FROM_BITS(b) (b)
#endif
static inline void publish_value(volatile __global uint* words, const uint slot, const SUM v) {
  atomic_xchg(&words[slot], as_uint(v));
}
static inline SUM read_value(volatile __global uint* words, const uint slot) {
  return SUM_FROM_BITS(atomic_or(&words[slot], 0u));
}
#endif
#define AGGREGATE_SLOT(t) (2 * (t))
#define PREFIX_SLOT(t) (2 * (t) + 1)

// The tile's flag, read atomically, then a fence so that the values it announces are seen.
static inline uint tile_flag(volatile __global uint* status, const uint tile) {
  const uint flag = atomic_or(&status[1 + tile], 0u);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  return flag;
}

// Sets the tile's flag after its values (the fence orders them).
static inline void set_tile_flag(volatile __global uint* status, const uint tile, const uint flag) {
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_xchg(&status[1 + tile], flag);
}

// The sum of one item's lanes, lane 0 first, as the owner of a tile adds them.
static inline SUM add_lanes(const SUMV v) {
  SUM lanes[XGPU_W];
  XGPU_CAT(vstore, XGPU_W)(v, 0, lanes);
  SUM total = 0;
  for (uint lane = 0; lane < XGPU_W; ++lane) total += lanes[lane];
  return total;
}

// Tile `tile`'s aggregate computed from its input, in the order its owner adds it: item by
// item, each item's lanes from lane 0. Bit for bit the value the owner publishes.
static inline SUM tile_aggregate(const uint tile, const uint size, const uint n, const uint chunk,
                                 __global const XGPU_T* in) {
  SUM total = 0;
  for (uint item = 0; item < size; ++item) {
    uint begin, end;
    item_range(tile * size + item, n, chunk, &begin, &end);
    total += add_lanes(lane_sums(begin, end, in));
  }
  return total;
}

// status: all zero at launch (status[0] is the next tile to take). values: 2 * tiles SUMs as
// words. lanes: get_local_size(0) * XGPU_W + 1 SUMs; tile_number: one uint.
__kernel void xgpu_scan_single_pass(const uint n, const uint chunk, const uint inclusive,
                                    const SUM init, __global const XGPU_T* in, __global XGPU_T* out,
                                    volatile __global uint* status, volatile __global uint* values,
                                    __local SUM* lanes, __local uint* tile_number) {
  const uint lid = get_local_id(0), size = get_local_size(0);
  if (lid == 0) *tile_number = atomic_inc(&status[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint tile = *tile_number;
  uint begin, end;
  item_range(tile * size + lid, n, chunk, &begin, &end);
  XGPU_CAT(vstore, XGPU_W)(lane_sums(begin, end, in), lid, lanes);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    // Each item's offset within the tile into lanes[item * W], over its lanes in memory.
    SUM aggregate = 0;
    for (uint item = 0; item < size; ++item) {
      SUM item_total = 0;
      for (uint lane = 0; lane < XGPU_W; ++lane) item_total += lanes[item * XGPU_W + lane];
      lanes[item * XGPU_W] = aggregate;
      aggregate += item_total;
    }
    publish_value(values, AGGREGATE_SLOT(tile), aggregate);
    set_tile_flag(status, tile, AGGREGATE_OUT);
    // Back to the nearest tile whose prefix is out (none: start from init), then forward,
    // adding the aggregates after it: published ones, or computed here for the others.
    uint start = tile;  // the first tile whose aggregate is added
    while (start > 0 && tile_flag(status, start - 1) != PREFIX_OUT) --start;
    SUM before = start > 0 ? read_value(values, PREFIX_SLOT(start - 1)) : init;
    for (uint t = start; t < tile; ++t) {
      before += tile_flag(status, t) != 0u ? read_value(values, AGGREGATE_SLOT(t))
                                           : tile_aggregate(t, size, n, chunk, in);
    }
    publish_value(values, PREFIX_SLOT(tile), before + aggregate);
    set_tile_flag(status, tile, PREFIX_OUT);
    lanes[size * XGPU_W] = before;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  scan_range(inclusive != 0, begin, end, lanes[size * XGPU_W] + lanes[lid * XGPU_W], in, out);
}

// ---- GPU layout: striped tiles ----
//
// Work-group g owns the elements [g * per_group, (g + 1) * per_group), per_group a multiple
// of the tile, XGPU_SCAN_TILE_PER_ITEM elements per item. Three launches:
//   1. xgpu_scan_group_sums_striped: partials[g] = the sum of group g's elements, read striped;
//   2. xgpu_scan_offsets, as above: partials[g] becomes init + the sum of the groups before g;
//   3. xgpu_scan_apply_striped: per tile, a striped load into local memory, each item scans
//      its run of TILE_PER_ITEM elements there from the group's running total plus the
//      runs before it (a scan across the group), and a striped store.
// A group reads a whole tile before it writes any of it, and only its own: in == out is safe.
#ifndef XGPU_SCAN_TILE_PER_ITEM
#define XGPU_SCAN_TILE_PER_ITEM 4
#endif

// This group's elements, [*begin, *end); 64-bit so that the empty groups' starts do not wrap.
static inline void group_range(const uint n, const uint per_group, uint* begin, uint* end) {
  const ulong first = min((ulong)get_group_id(0) * per_group, (ulong)n);
  *begin = (uint)first;
  *end = (uint)min(first + per_group, (ulong)n);
}

// The sum of `value` over the items before this one in the group, and in *total over all;
// scratch holds one SUM per item. Hillis and Steele, a barrier between each step's reads and
// writes; the last barrier lets the caller reuse scratch.
static inline SUM group_exclusive_scan(const SUM value, __local SUM* scratch, SUM* total) {
  const uint lid = get_local_id(0), size = get_local_size(0);
  scratch[lid] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint offset = 1; offset < size; offset *= 2) {
    const SUM before = lid >= offset ? scratch[lid - offset] : (SUM)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += before;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const SUM exclusive = lid > 0 ? scratch[lid - 1] : (SUM)0;
  *total = scratch[size - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return exclusive;
}

// partials[g] = the sum of group g's elements. scratch: one SUM per item.
__kernel void xgpu_scan_group_sums_striped(const uint n, const uint per_group,
                                           __global const XGPU_T* in, __global SUM* partials,
                                           __local SUM* scratch) {
  uint begin, end;
  group_range(n, per_group, &begin, &end);
  SUM own = 0;
  for (uint i = begin + get_local_id(0); i < end; i += get_local_size(0)) own += LOAD_ONE(i, in);
  SUM total;
  group_exclusive_scan(own, scratch, &total);
  if (get_local_id(0) == 0) partials[get_group_id(0)] = total;
}

// tile: size * TILE_PER_ITEM SUMs; scratch: one SUM per item.
__kernel void xgpu_scan_apply_striped(const uint n, const uint per_group, const uint inclusive,
                                      __global const XGPU_T* in, __global XGPU_T* out,
                                      __global const SUM* partials, __local SUM* tile,
                                      __local SUM* scratch) {
  const uint lid = get_local_id(0), size = get_local_size(0);
  const uint tile_size = size * XGPU_SCAN_TILE_PER_ITEM, first = lid * XGPU_SCAN_TILE_PER_ITEM;
  uint begin, end;
  group_range(n, per_group, &begin, &end);
  SUM running = partials[get_group_id(0)];
  for (uint start = begin; start < end; start += tile_size) {
    const uint valid = min(tile_size, end - start);
    for (uint p = lid; p < tile_size; p += size)  // striped loads; zeros past the end
      tile[p] = p < valid ? LOAD_ONE(start + p, in) : (SUM)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    SUM own = 0;
    for (uint j = 0; j < XGPU_SCAN_TILE_PER_ITEM; ++j) own += tile[first + j];
    SUM tile_total;
    SUM acc = running + group_exclusive_scan(own, scratch, &tile_total);
    for (uint j = 0; j < XGPU_SCAN_TILE_PER_ITEM; ++j) {
      const SUM value = tile[first + j];
      if (inclusive) acc += value;
      tile[first + j] = acc;
      if (!inclusive) acc += value;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint p = lid; p < valid; p += size) STORE_ONE(tile[p], start + p, out);  // striped
    running += tile_total;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
