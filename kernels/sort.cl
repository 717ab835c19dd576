// LSD radix sort of 32-bit keys, optionally carrying 32-bit values, XGPU_SORT_BITS bits
// per pass. Keys and values are moved as raw bits (uint); only the digit is computed from
// an order-preserving image of the key (see xgpu_sort_image), so one program serves uint,
// int and float keys.
//
// Layout: the launch has `items` work-items in total; item t owns one contiguous chunk of
// the keys, and chunks follow item order. One pass is three kernels:
//   xgpu_sort_histogram  each item counts the digits of its chunk:
//                        counts[digit * items + t]
//   xgpu_sort_scan       one work-group turns counts, read digit by digit and item by item,
//                        into exclusive prefix sums: where item t's first key of each digit
//                        goes
//   xgpu_sort_scatter    each item walks its chunk in order and moves every key to the next
//                        slot of its digit, through a cache line's buffer per digit written
//                        whole (below). Keys of one digit from one item keep their order,
//                        and items are ordered like their chunks: the pass is stable.
// Passes ping-pong between the caller's buffer and a scratch buffer of the same size.
// Owning whole chunks per item (rather than striding across a group) suits CPU devices,
// where a work-group's items run one after another on one core; it is correct anywhere.
// That is the CPU layout. The GPU layout (the *_striped kernels, at the end) gives each
// work-group a contiguous range of tiles instead, and its items stripe across each tile,
// so that consecutive items touch consecutive addresses on every global load and store.
//
// Passes whose digit is the same for every key are skipped: the first histogram also
// ORs and ANDs the keys' images into state[], and a digit is constant when those agree on
// its bits. Which buffer holds the keys then depends on the data, so it is kept on the
// device (state[XGPU_SORT_SOURCE + pass]) and xgpu_sort_copy_back moves the result home
// when it ends in the scratch buffer.
//
// Requires: OpenCL C 1.2 (32-bit global atomics), local memory of RADIX uints per item in
// the histogram, 2 * RADIX in the scatter and RADIX uints in the scan; the CPU scatter's
// line buffers are global scratch (RADIX * 16 uints per item, twice that with values).
#include "xgpu_common.cl"

#ifndef XGPU_SORT_BITS
#define XGPU_SORT_BITS 8
#endif
#define XGPU_SORT_RADIX (1u << XGPU_SORT_BITS)
#define XGPU_SORT_MASK (XGPU_SORT_RADIX - 1u)
#define XGPU_SORT_PASSES ((32 + XGPU_SORT_BITS - 1) / XGPU_SORT_BITS)

// Words of the state buffer: OR and AND of every key's image, then for each pass (and one
// past the last) whether its input is the scratch buffer (1) or the caller's (0).
#define XGPU_SORT_OR 0
#define XGPU_SORT_AND 1
#define XGPU_SORT_SOURCE 2

// The key as a uint whose unsigned order is the key's order. uint: itself (both flips 0).
// int: flip the sign bit (flip_sign = 0x80000000). float: IEEE total order, flip the sign
// bit of non-negative values and every bit of negative ones (flip_negative = 0x7fffffff):
// -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
inline uint xgpu_sort_image(const uint bits, const uint flip_sign, const uint flip_negative) {
  return bits ^ flip_sign ^ ((uint)((int)bits >> 31) & flip_negative);
}

inline uint xgpu_sort_digit(const uint image, const uint pass) {
  return (image >> (pass * XGPU_SORT_BITS)) & XGPU_SORT_MASK;
}

// Whether every key has the same digit in this pass (known once pass 0's histogram ran).
inline bool xgpu_sort_constant(__global const uint* state, const uint pass) {
  const uint differ = state[XGPU_SORT_OR] ^ state[XGPU_SORT_AND];
  return xgpu_sort_digit(differ, pass) == 0;
}

// The chunk [*begin, *end) of the n keys that this work-item owns.
inline void xgpu_sort_chunk(const uint n, uint* begin, uint* end) {
  const ulong items = get_global_size(0);
  const ulong chunk = ((ulong)n + items - 1) / items;
  const ulong first = min((ulong)get_global_id(0) * chunk, (ulong)n);
  *begin = (uint)first;
  *end = (uint)min(first + chunk, (ulong)n);
}

// The state before pass 0: nothing ORed, everything ANDed, the keys at home. One work-item.
__kernel void xgpu_sort_init(__global uint* state) {
  state[XGPU_SORT_OR] = 0;
  state[XGPU_SORT_AND] = 0xffffffffu;
  for (uint pass = 0; pass <= XGPU_SORT_PASSES; ++pass) state[XGPU_SORT_SOURCE + pass] = 0;
}

// Per-item digit counts of this pass; local_counts holds RADIX uints per item (each item
// uses only its own row, so no barrier is needed).
__kernel void xgpu_sort_histogram(const uint n, const uint pass, const uint flip_sign,
                                  const uint flip_negative, __global const uint* keys,
                                  __global const uint* scratch, __global uint* counts,
                                  __global uint* state, __local uint* local_counts) {
  if (pass > 0 && xgpu_sort_constant(state, pass)) return;
  __global const uint* source = state[XGPU_SORT_SOURCE + pass] ? scratch : keys;
  __local uint* mine = local_counts + get_local_id(0) * XGPU_SORT_RADIX;
  for (uint d = 0; d < XGPU_SORT_RADIX; ++d) mine[d] = 0;

  uint begin, end;
  xgpu_sort_chunk(n, &begin, &end);
  // Four keys a step: the four counter updates overlap (about 9% less time on PoCL here).
  // Scalar arithmetic on the lanes: with the same arithmetic on uint4 (scalars widened to
  // vectors), Oclgrind 21.10's uninitialized-value check crashed with SIGSEGV.
  uint any = 0, every = 0xffffffffu;
  uint i = begin;
  for (; end - i >= 4; i += 4) {  // not i + 4 <= end, which wraps near 2^32
    const uint4 bits = vload4(0, source + i);
    const uint a = xgpu_sort_image(bits.s0, flip_sign, flip_negative),
               b = xgpu_sort_image(bits.s1, flip_sign, flip_negative),
               c = xgpu_sort_image(bits.s2, flip_sign, flip_negative),
               d = xgpu_sort_image(bits.s3, flip_sign, flip_negative);
    any |= a | b | c | d;
    every &= a & b & c & d;
    ++mine[xgpu_sort_digit(a, pass)];
    ++mine[xgpu_sort_digit(b, pass)];
    ++mine[xgpu_sort_digit(c, pass)];
    ++mine[xgpu_sort_digit(d, pass)];
  }
  for (; i < end; ++i) {
    const uint image = xgpu_sort_image(source[i], flip_sign, flip_negative);
    any |= image;
    every &= image;
    ++mine[xgpu_sort_digit(image, pass)];
  }

  const uint items = get_global_size(0), item = get_global_id(0);
  for (uint d = 0; d < XGPU_SORT_RADIX; ++d) counts[d * items + item] = mine[d];
  if (pass == 0 && begin < end) {
    atomic_or(&state[XGPU_SORT_OR], any);
    atomic_and(&state[XGPU_SORT_AND], every);
  }
}

// One work-group: counts (digit-major) become exclusive prefix sums over all of them, and
// state records where the next pass reads from. totals holds RADIX uints.
__kernel void xgpu_sort_scan(const uint pass, const uint items, __global uint* counts,
                             __global uint* state, __local uint* totals) {
  const uint lid = get_local_id(0), size = get_local_size(0);
  const uint source = state[XGPU_SORT_SOURCE + pass];
  if (xgpu_sort_constant(state, pass)) {
    if (lid == 0) state[XGPU_SORT_SOURCE + pass + 1] = source;
    return;
  }
  for (uint d = lid; d < XGPU_SORT_RADIX; d += size) {
    __global const uint* row = counts + d * items;
    uint sum = 0;
    for (uint t = 0; t < items; ++t) sum += row[t];
    totals[d] = sum;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    uint sum = 0;
    for (uint d = 0; d < XGPU_SORT_RADIX; ++d) {
      const uint count = totals[d];
      totals[d] = sum;
      sum += count;
    }
    state[XGPU_SORT_SOURCE + pass + 1] = source ^ 1u;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint d = lid; d < XGPU_SORT_RADIX; d += size) {
    __global uint* row = counts + d * items;
    uint sum = totals[d];
    for (uint t = 0; t < items; ++t) {
      const uint count = row[t];
      row[t] = sum;
      sum += count;
    }
  }
}

// Software write-combining for the CPU layout's scatter. An item's keys of one digit go to
// consecutive slots, but consecutive keys go to 256 different runs: stored one by one, each
// store reads its line first (read for ownership) and lines are evicted half written. So
// each item gathers every digit's keys in a buffer of one cache line per digit (`lines`,
// global scratch: RADIX * LINE words per item, another as many for values) and writes a
// line once it holds a whole aligned line's worth of slots, with non-temporal stores (see
// XGPU_STREAM_STORE): no read for ownership. Measured on PoCL: the buffering with plain
// stores is slower than storing each key; with streaming stores it is clearly faster.
// Lanes follow addresses: slot s of the target sits in lane (s + lead) % LINE of its line,
// lead being where the target's first word sits in its line.
#define XGPU_SORT_LINE 16  // uints per 64-byte cache line

// Where word 0 of `target` sits in its 64-byte line (buffers are at least 4-byte aligned).
inline uint xgpu_sort_lead(__global const uint* target) {
  return (uint)(((ulong)target / sizeof(uint)) % XGPU_SORT_LINE);
}

// Writes slots [lo, hi] of one line of `target` from `line`, which holds slot s in lane
// (s + lead) % LINE: non-temporal stores when they are a whole aligned line held in lane
// order, plain stores otherwise (a line's edges that other items also write, or
// values whose buffer's lead differs from the keys').
inline void xgpu_sort_write_line(__global uint* target, const uint lo, const uint hi,
                                 __global const uint* line, const uint lead) {
  __global uint* first = target + lo;
  const bool whole = hi - lo + 1 == XGPU_SORT_LINE && (lo + lead) % XGPU_SORT_LINE == 0;
  if (whole && ((ulong)first % (XGPU_SORT_LINE * sizeof(uint))) == 0) {
    // Two 32-byte halves back to back (a 64-byte vector would need AVX-512's calling
    // convention on PoCL's x86 builds: clang warns that it changes the ABI).
    XGPU_STREAM_STORE(vload8(0, line), (__global uint8*)first);
    XGPU_STREAM_STORE(vload8(1, line), (__global uint8*)first + 1);
    return;
  }
  for (uint s = lo; s <= hi; ++s) target[s] = line[(s + lead) % XGPU_SORT_LINE];
}

// Moves each key (and value) of this item's chunk, in order, to the next slot of its digit,
// through the line buffers above. local_offsets holds 2 * RADIX uints per item: the next slot
// of each digit, then its first slot (no line is written below it: the slots before belong
// to other items). Inlined into the two kernels below with a constant with_values, so the
// keys-only loop carries no test per key.
inline void xgpu_sort_scatter(const uint n, const uint pass, const uint flip_sign,
                              const uint flip_negative, __global uint* keys, __global uint* scratch,
                              __global uint* values, __global uint* values_scratch,
                              const bool with_values, __global const uint* counts,
                              __global const uint* state, __global uint* lines,
                              __local uint* local_offsets) {
  if (xgpu_sort_constant(state, pass)) return;
  const bool from_scratch = state[XGPU_SORT_SOURCE + pass] != 0;
  __global const uint* source = from_scratch ? scratch : keys;
  __global uint* target = from_scratch ? keys : scratch;
  __global const uint* value_source = from_scratch ? values_scratch : values;
  __global uint* value_target = from_scratch ? values : values_scratch;

  const uint items = get_global_size(0), item = get_global_id(0);
  __local uint* next = local_offsets + get_local_id(0) * 2 * XGPU_SORT_RADIX;
  __local uint* first = next + XGPU_SORT_RADIX;
  for (uint d = 0; d < XGPU_SORT_RADIX; ++d) next[d] = first[d] = counts[d * items + item];
  const uint line_words = XGPU_SORT_RADIX * XGPU_SORT_LINE;
  __global uint* key_lines = lines + (ulong)item * (with_values ? 2 : 1) * line_words;
  __global uint* value_lines = key_lines + line_words;
  const uint lead = xgpu_sort_lead(target);

  uint begin, end;
  xgpu_sort_chunk(n, &begin, &end);
  for (uint i = begin; i < end; ++i) {
    const uint key = source[i];
    const uint digit = xgpu_sort_digit(xgpu_sort_image(key, flip_sign, flip_negative), pass);
    const uint slot = next[digit]++;
    // Values take their key's lane, so one test finds both lines full; the values' line is
    // then whole but unaligned where the two buffers' leads differ (plain stores).
    const uint lane = (slot + lead) % XGPU_SORT_LINE;
    __global uint* key_line = key_lines + digit * XGPU_SORT_LINE;
    __global uint* value_line = value_lines + digit * XGPU_SORT_LINE;
    key_line[lane] = key;
    if (with_values) value_line[lane] = value_source[i];
    if (lane == XGPU_SORT_LINE - 1) {
      // Not slot - lane: with a lead other than 0 that wraps below slot 0.
      const uint lo = slot - min(lane, slot - first[digit]);
      xgpu_sort_write_line(target, lo, slot, key_line, lead);
      if (with_values) xgpu_sort_write_line(value_target, lo, slot, value_line, lead);
    }
  }
  // The last, partial line of each digit.
  for (uint d = 0; d < XGPU_SORT_RADIX; ++d) {
    if (next[d] == first[d]) continue;
    const uint last = next[d] - 1, lane = (last + lead) % XGPU_SORT_LINE;
    if (lane == XGPU_SORT_LINE - 1) continue;  // written whole above
    const uint lo = last - min(lane, last - first[d]);
    xgpu_sort_write_line(target, lo, last, key_lines + d * XGPU_SORT_LINE, lead);
    if (with_values)
      xgpu_sort_write_line(value_target, lo, last, value_lines + d * XGPU_SORT_LINE, lead);
  }
  XGPU_STREAM_FENCE();
}

__kernel void xgpu_sort_scatter_keys(const uint n, const uint pass, const uint flip_sign,
                                     const uint flip_negative, __global uint* keys,
                                     __global uint* scratch, __global const uint* counts,
                                     __global const uint* state, __global uint* lines,
                                     __local uint* local_offsets) {
  xgpu_sort_scatter(n, pass, flip_sign, flip_negative, keys, scratch, 0, 0, false, counts, state,
                    lines, local_offsets);
}

__kernel void xgpu_sort_scatter_pairs(const uint n, const uint pass, const uint flip_sign,
                                      const uint flip_negative, __global uint* keys,
                                      __global uint* scratch, __global uint* values,
                                      __global uint* values_scratch, __global const uint* counts,
                                      __global const uint* state, __global uint* lines,
                                      __local uint* local_offsets) {
  xgpu_sort_scatter(n, pass, flip_sign, flip_negative, keys, scratch, values, values_scratch, true,
                    counts, state, lines, local_offsets);
}

// Moves one buffer's sorted elements home from its scratch buffer when an odd number of
// passes ran; does nothing otherwise. Launched like the histogram, once for the keys and
// once for the values.
__kernel void xgpu_sort_copy_back(const uint n, __global uint* home, __global const uint* scratch,
                                  __global const uint* state) {
  if (state[XGPU_SORT_SOURCE + XGPU_SORT_PASSES] == 0) return;
  uint begin, end;
  xgpu_sort_chunk(n, &begin, &end);
  for (uint i = begin; i < end; ++i) home[i] = scratch[i];
}

// ---- GPU layout: striped tiles ----
//
// Work-group g owns the keys [g * per_group, (g + 1) * per_group), per_group a multiple of
// the tile of XGPU_SORT_TILE_PER_ITEM keys per item. One pass is:
//   xgpu_sort_histogram_striped  the group's digit counts (local atomics), read striped:
//                                counts[digit * groups + g]
//   xgpu_sort_scan               as in the CPU layout, with one "item" per group
//   xgpu_sort_scatter_*_striped  per tile: a striped load into local memory, a stable sort of
//                                the tile by the digit there (one split per digit bit), and
//                                a striped store: local position p goes to the next slot of
//                                its digit, so consecutive items write consecutive addresses
//                                within each digit's run. Tiles are taken in order and the
//                                local sort is stable: the pass is stable.
// Requires local memory of RADIX + 2 uints (histogram) and 2 tiles of keys (and of values),
// 2 * RADIX and one uint per item (scatter).
#ifndef XGPU_SORT_TILE_PER_ITEM
#define XGPU_SORT_TILE_PER_ITEM 4
#endif

// This group's keys, [*begin, *end); 64-bit so that the empty groups' starts do not wrap.
inline void xgpu_sort_group_range(const uint n, const uint per_group, uint* begin, uint* end) {
  const ulong first = min((ulong)get_group_id(0) * per_group, (ulong)n);
  *begin = (uint)first;
  *end = (uint)min(first + per_group, (ulong)n);
}

// The raw bits whose image is 0xffffffff: every digit the largest, so padding sorts last.
inline uint xgpu_sort_padding(const uint flip_sign) { return 0xffffffffu ^ flip_sign; }

// local_counts holds RADIX + 2 uints: the counts, then the group's OR and AND of the images.
__kernel void xgpu_sort_histogram_striped(const uint n, const uint pass, const uint flip_sign,
                                          const uint flip_negative, __global const uint* keys,
                                          __global const uint* scratch, __global uint* counts,
                                          __global uint* state, const uint per_group,
                                          __local uint* local_counts) {
  if (pass > 0 && xgpu_sort_constant(state, pass)) return;  // the same for the whole group
  __global const uint* source = state[XGPU_SORT_SOURCE + pass] ? scratch : keys;
  const uint lid = get_local_id(0), size = get_local_size(0);
  for (uint d = lid; d < XGPU_SORT_RADIX; d += size) local_counts[d] = 0;
  if (lid == 0) {
    local_counts[XGPU_SORT_RADIX] = 0;
    local_counts[XGPU_SORT_RADIX + 1] = 0xffffffffu;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  uint begin, end;
  xgpu_sort_group_range(n, per_group, &begin, &end);
  uint any = 0, every = 0xffffffffu;
  for (uint i = begin + lid; i < end; i += size) {
    const uint image = xgpu_sort_image(source[i], flip_sign, flip_negative);
    any |= image;
    every &= image;
    atomic_inc(&local_counts[xgpu_sort_digit(image, pass)]);
  }
  if (pass == 0) {
    atomic_or(&local_counts[XGPU_SORT_RADIX], any);
    atomic_and(&local_counts[XGPU_SORT_RADIX + 1], every);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  const uint groups = get_num_groups(0), group = get_group_id(0);
  for (uint d = lid; d < XGPU_SORT_RADIX; d += size) counts[d * groups + group] = local_counts[d];
  if (pass == 0 && lid == 0 && begin < end) {
    atomic_or(&state[XGPU_SORT_OR], local_counts[XGPU_SORT_RADIX]);
    atomic_and(&state[XGPU_SORT_AND], local_counts[XGPU_SORT_RADIX + 1]);
  }
}

// The sum of `value` over the items before this one in the group, and in *total over all;
// scratch holds one uint per item. Hillis and Steele: log2(size) steps, a barrier between
// each step's reads and writes; the last barrier lets the caller reuse scratch.
inline uint xgpu_sort_group_exclusive(const uint value, __local uint* scratch, uint* total) {
  const uint lid = get_local_id(0), size = get_local_size(0);
  scratch[lid] = value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint offset = 1; offset < size; offset *= 2) {
    const uint before = lid >= offset ? scratch[lid - offset] : 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += before;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const uint inclusive = scratch[lid];
  *total = scratch[size - 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  return inclusive - value;
}

// Sorts the tile in tile_keys[0 .. T) (and tile_values), T = size * TILE_PER_ITEM, stably by
// the pass's digit: one split per digit bit, low bit first, each moving the keys whose bit
// is 0 ahead of those whose bit is 1, in order. Item lid splits the run
// [lid * TILE_PER_ITEM, +TILE_PER_ITEM); the second halves of tile_keys and tile_values are
// the other buffer. Returns the half that holds the result (0 or 1).
inline uint xgpu_sort_tile(const uint pass, const uint flip_sign, const uint flip_negative,
                           __local uint* tile_keys, __local uint* tile_values,
                           const bool with_values, __local uint* item_scratch) {
  const uint lid = get_local_id(0), size = get_local_size(0);
  const uint tile = size * XGPU_SORT_TILE_PER_ITEM, first = lid * XGPU_SORT_TILE_PER_ITEM;
  uint half_now = 0;
  for (uint bit = 0; bit < XGPU_SORT_BITS; ++bit) {
    __local const uint* from = tile_keys + half_now * tile;
    __local uint* to = tile_keys + (half_now ^ 1u) * tile;
    __local const uint* values_from = tile_values + half_now * tile;
    __local uint* values_to = tile_values + (half_now ^ 1u) * tile;
    uint zeros = 0;
    for (uint j = 0; j < XGPU_SORT_TILE_PER_ITEM; ++j) {
      const uint digit =
          xgpu_sort_digit(xgpu_sort_image(from[first + j], flip_sign, flip_negative), pass);
      zeros += ((digit >> bit) & 1u) ^ 1u;
    }
    uint all_zeros;
    uint zero_slot = xgpu_sort_group_exclusive(zeros, item_scratch, &all_zeros);
    uint one_slot = all_zeros + (first - zero_slot);
    for (uint j = 0; j < XGPU_SORT_TILE_PER_ITEM; ++j) {
      const uint key = from[first + j];
      const uint digit = xgpu_sort_digit(xgpu_sort_image(key, flip_sign, flip_negative), pass);
      const uint slot = ((digit >> bit) & 1u) ? one_slot++ : zero_slot++;
      to[slot] = key;
      if (with_values) values_to[slot] = values_from[first + j];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    half_now ^= 1u;
  }
  return half_now;
}

// local memory: tile_keys and tile_values 2 * T uints each (tile_values 1 uint without
// values), next RADIX uints (the global slot of this group's next key of each digit),
// run_start RADIX uints (where each digit's run starts in the sorted tile), item_scratch one
// uint per item.
inline void xgpu_sort_scatter_striped(const uint n, const uint pass, const uint flip_sign,
                                      const uint flip_negative, __global uint* keys,
                                      __global uint* scratch, __global uint* values,
                                      __global uint* values_scratch, const bool with_values,
                                      __global const uint* counts, __global const uint* state,
                                      const uint per_group, __local uint* tile_keys,
                                      __local uint* tile_values, __local uint* next,
                                      __local uint* run_start, __local uint* item_scratch) {
  if (xgpu_sort_constant(state, pass)) return;  // the same for the whole group
  const bool from_scratch = state[XGPU_SORT_SOURCE + pass] != 0;
  __global const uint* source = from_scratch ? scratch : keys;
  __global uint* target = from_scratch ? keys : scratch;
  __global const uint* value_source = from_scratch ? values_scratch : values;
  __global uint* value_target = from_scratch ? values : values_scratch;

  const uint lid = get_local_id(0), size = get_local_size(0);
  const uint groups = get_num_groups(0), group = get_group_id(0);
  const uint tile = size * XGPU_SORT_TILE_PER_ITEM;
  for (uint d = lid; d < XGPU_SORT_RADIX; d += size) next[d] = counts[d * groups + group];
  const uint padding = xgpu_sort_padding(flip_sign);

  uint begin, end;
  xgpu_sort_group_range(n, per_group, &begin, &end);
  for (uint start = begin; start < end; start += tile) {
    const uint valid = min(tile, end - start);
    for (uint p = lid; p < tile; p += size) {  // striped loads
      tile_keys[p] = p < valid ? source[start + p] : padding;
      if (with_values) tile_values[p] = p < valid ? value_source[start + p] : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint sorted = xgpu_sort_tile(pass, flip_sign, flip_negative, tile_keys, tile_values,
                                       with_values, item_scratch);
    __local const uint* sorted_keys = tile_keys + sorted * tile;
    __local const uint* sorted_values = tile_values + sorted * tile;
    // The padding sorts after every real key (its digit is the largest and it came last):
    // positions below `valid` are the real keys.
    for (uint p = lid; p < valid; p += size) {
      const uint digit =
          xgpu_sort_digit(xgpu_sort_image(sorted_keys[p], flip_sign, flip_negative), pass);
      if (p == 0 ||
          digit !=
              xgpu_sort_digit(xgpu_sort_image(sorted_keys[p - 1], flip_sign, flip_negative), pass))
        run_start[digit] = p;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint p = lid; p < valid; p += size) {  // striped stores, consecutive within a run
      const uint digit =
          xgpu_sort_digit(xgpu_sort_image(sorted_keys[p], flip_sign, flip_negative), pass);
      const uint slot = next[digit] + (p - run_start[digit]);
      target[slot] = sorted_keys[p];
      if (with_values) value_target[slot] = sorted_values[p];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    // The last key of each digit's run moves that digit's next slot past the run.
    for (uint p = lid; p < valid; p += size) {
      const uint digit =
          xgpu_sort_digit(xgpu_sort_image(sorted_keys[p], flip_sign, flip_negative), pass);
      if (p + 1 == valid ||
          digit !=
              xgpu_sort_digit(xgpu_sort_image(sorted_keys[p + 1], flip_sign, flip_negative), pass))
        next[digit] += p + 1 - run_start[digit];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

__kernel void xgpu_sort_scatter_keys_striped(const uint n, const uint pass, const uint flip_sign,
                                             const uint flip_negative, __global uint* keys,
                                             __global uint* scratch, __global const uint* counts,
                                             __global const uint* state, const uint per_group,
                                             __local uint* tile_keys, __local uint* tile_values,
                                             __local uint* next, __local uint* run_start,
                                             __local uint* item_scratch) {
  xgpu_sort_scatter_striped(n, pass, flip_sign, flip_negative, keys, scratch, 0, 0, false, counts,
                            state, per_group, tile_keys, tile_values, next, run_start,
                            item_scratch);
}

__kernel void xgpu_sort_scatter_pairs_striped(
    const uint n, const uint pass, const uint flip_sign, const uint flip_negative,
    __global uint* keys, __global uint* scratch, __global uint* values,
    __global uint* values_scratch, __global const uint* counts, __global const uint* state,
    const uint per_group, __local uint* tile_keys, __local uint* tile_values, __local uint* next,
    __local uint* run_start, __local uint* item_scratch) {
  xgpu_sort_scatter_striped(n, pass, flip_sign, flip_negative, keys, scratch, values,
                            values_scratch, true, counts, state, per_group, tile_keys, tile_values,
                            next, run_start, item_scratch);
}

// As xgpu_sort_copy_back, striped: item g copies g, g + items, ...
__kernel void xgpu_sort_copy_back_striped(const uint n, __global uint* home,
                                          __global const uint* scratch,
                                          __global const uint* state) {
  if (state[XGPU_SORT_SOURCE + XGPU_SORT_PASSES] == 0) return;
  const uint items = get_global_size(0);
  for (uint i = get_global_id(0); i < n; i += items) home[i] = scratch[i];
}
