// Matrix transpose: `in` is rows x cols, row-major; `out` becomes cols x rows, row-major.
// Three kernels: tiled through local memory (GPUs), 8 x 8 blocks and streaming 16 x 16
// tiles (CPUs); runtime/algorithms/src/transpose.cpp chooses.
// Built with -DXGPU_T=<type> -DXGPU_T_<TYPE> (float, double, int, uint, half). Elements are
// only moved, never computed on, so half moves as its 16 bits (ushort).
// The host guarantees rows * cols < 2^31, so uint indices do not overflow.
// Requires: OpenCL C 1.2; cl_khr_fp64 for XGPU_T_DOUBLE.
#include "xgpu_element.cl"

// XGPU_BITS: a type of the element's size the kernels copy through.
#ifdef XGPU_T_HALF
#define XGPU_BITS ushort
#else
#define XGPU_BITS XGPU_T
#endif

// Tiled through local memory, for devices where uncoalesced global access is costly (GPUs).
// A work-group of (tile, rows_per_pass) items moves one tile x tile block: it reads the
// block's rows (consecutive items read consecutive addresses), then writes the block's
// columns as rows of `out`, again consecutively. `tile` is the work-group's first
// dimension; the scratch is tile x (tile + 1): the extra column puts the elements of a
// scratch column in different banks, so reading a column is free of bank conflicts.
__kernel void xgpu_transpose_tiled(const uint rows, const uint cols, __global const XGPU_T* in_,
                                   __global XGPU_T* out_, __local XGPU_BITS* scratch) {
  __global const XGPU_BITS* in = (__global const XGPU_BITS*)in_;
  __global XGPU_BITS* out = (__global XGPU_BITS*)out_;
  const uint tile = (uint)get_local_size(0), pass = (uint)get_local_size(1);
  const uint x = (uint)get_local_id(0), y = (uint)get_local_id(1);
  const uint first_row = (uint)get_group_id(1) * tile, first_col = (uint)get_group_id(0) * tile;
  const uint stride = tile + 1;

  const uint col = first_col + x;
  for (uint r = y; r < tile; r += pass) {
    const uint row = first_row + r;
    if (row < rows && col < cols) scratch[r * stride + x] = in[row * cols + col];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Item x now writes row first_row + x of the block (a column of `in`), element by element:
  // out[c][row] = in[row][c]. It reads exactly the scratch entries the guard above filled.
  const uint row = first_row + x;
  for (uint c = y; c < tile; c += pass) {
    const uint out_row = first_col + c;
    if (row < rows && out_row < cols) out[out_row * rows + row] = scratch[x * stride + c];
  }
}

// Without local memory, for CPUs (PoCL), where caches do the tiling and per-work-item
// overhead is what counts. Each work-item moves 8 columns of `in` down `blocks` row blocks
// of 8, as 8 x 8 squares: eight 8-wide row loads, kept in registers, become eight 8-wide
// stores into rows of `out`, and successive squares continue the same rows of `out`
// (sequential writes). Squares that cross the matrix's edge go element by element.
// (Measured on PoCL: 16 columns per item, or 16 x 16 squares, ran slower.)
// Launch: global (ceil(cols / 8), ceil(rows / (8 * blocks))) rounded up to the work-group.
#define XGPU_BITS8 XGPU_CAT(XGPU_BITS, 8)
// Column k of the square as a vector, gathered through a private array rather than built as
// (XGPU_BITS8)(m0.sk, m1.sk, ...) or lane by lane: Oclgrind 21.10's uninitialized-value
// check misreads such vectors and crashes on them. Compilers turn the array back into the
// same register shuffles (measured on PoCL: no slower).
#define XGPU_COLUMN(k)                                                \
  {                                                                   \
    const XGPU_BITS column[8] = {m0.s##k, m1.s##k, m2.s##k, m3.s##k,  \
                                 m4.s##k, m5.s##k, m6.s##k, m7.s##k}; \
    vstore8(vload8(0, column), 0, o + k * rows);                      \
  }

__kernel void xgpu_transpose_blocks(const uint rows, const uint cols, const uint blocks,
                                    __global const XGPU_T* in_, __global XGPU_T* out_) {
  __global const XGPU_BITS* in = (__global const XGPU_BITS*)in_;
  __global XGPU_BITS* out = (__global XGPU_BITS*)out_;
  const uint first_col = (uint)get_global_id(0) * 8;
  const uint first_row = (uint)get_global_id(1) * blocks * 8;
  if (first_col >= cols || first_row >= rows) return;
  const uint row_end = min(first_row + blocks * 8, rows), col_end = min(first_col + 8, cols);
  uint row = first_row;
  // Whole squares in a tight loop (the common case), then what is left at the edges.
  if (col_end == first_col + 8) {
    for (; row + 8 <= row_end; row += 8) {
      __global const XGPU_BITS* p = in + row * cols + first_col;
      __global XGPU_BITS* o = out + first_col * rows + row;
      const XGPU_BITS8 m0 = vload8(0, p), m1 = vload8(0, p + cols), m2 = vload8(0, p + 2 * cols),
                       m3 = vload8(0, p + 3 * cols), m4 = vload8(0, p + 4 * cols),
                       m5 = vload8(0, p + 5 * cols), m6 = vload8(0, p + 6 * cols),
                       m7 = vload8(0, p + 7 * cols);
      XGPU_COLUMN(0);
      XGPU_COLUMN(1);
      XGPU_COLUMN(2);
      XGPU_COLUMN(3);
      XGPU_COLUMN(4);
      XGPU_COLUMN(5);
      XGPU_COLUMN(6);
      XGPU_COLUMN(7);
    }
  }
  for (uint c = first_col; c < col_end; ++c)
    for (uint r = row; r < row_end; ++r) out[c * rows + r] = in[r * cols + c];
}

// For CPUs (PoCL), on matrices larger than the caches whose elements take 4 or 8 bytes and
// whose row count is a multiple of 16 (the host checks all three). Each work-item owns a
// band of 16 rows of `in` and walks right along it, `tiles` 16 x 16 tiles in turn. A tile
// is 16 row loads of 16 elements, read along the rows (16 streams that the prefetchers
// follow), and 16 stores of 16 elements into 16 rows of `out`: 64 or 128 bytes each,
// aligned, so each line of `out` is written whole, by one store, once. No line has to stay
// in a cache from one tile to the next, so the power-of-two strides that put all the lines
// of a column in one cache set cost nothing. The stores are non-temporal (where the
// compiler offers them): the lines go to memory without being read first, as a plain
// store reads them (a third of the traffic), and without pushing `in` out of the caches.
// On PoCL, in CPU time per transpose of 4096 x 4096 floats, this kernel takes well under
// half of xgpu_transpose_blocks' and comes near a device copy (glibc's memcpy, which streams
// too); the same tiles with plain stores were slower than the blocks kernel.
// On matrices that fit the caches the blocks kernel is faster (see transpose.cpp).
// Launch: global (ceil(cols / (16 * tiles)) rounded up to the work-group, rows / 16).
// XGPU_STREAM_STORE and XGPU_STREAM_FENCE: see xgpu_common.cl.
// XGPU_TRANSPOSE8: columns c0..c7 of the 8 x 8 square whose rows are r0..r7 (XGPU_BITS8).
// With clang's __builtin_shufflevector, the three rounds of register shuffles of an AVX
// 8 x 8 transpose (pairs of rows interleaved, then pairs of pairs, then halves swapped):
// 24 shuffles a square. Otherwise each column gathered through a private array, as
// XGPU_COLUMN does, which compiles to several times as many instructions and made the
// transpose markedly slower on PoCL. Every lane of every shuffle is defined (see XGPU_COLUMN
// on Oclgrind).
#ifdef __has_builtin
#if __has_builtin(__builtin_shufflevector)
#define XGPU_SHUFFLE __builtin_shufflevector
#endif
#endif
#ifdef XGPU_SHUFFLE
#define XGPU_PAIR_LO(a, b) XGPU_SHUFFLE(a, b, 0, 8, 1, 9, 4, 12, 5, 13)
#define XGPU_PAIR_HI(a, b) XGPU_SHUFFLE(a, b, 2, 10, 3, 11, 6, 14, 7, 15)
#define XGPU_QUAD_LO(a, b) XGPU_SHUFFLE(a, b, 0, 1, 8, 9, 4, 5, 12, 13)
#define XGPU_QUAD_HI(a, b) XGPU_SHUFFLE(a, b, 2, 3, 10, 11, 6, 7, 14, 15)
#define XGPU_HALVES_LO(a, b) XGPU_SHUFFLE(a, b, 0, 1, 2, 3, 8, 9, 10, 11)
#define XGPU_HALVES_HI(a, b) XGPU_SHUFFLE(a, b, 4, 5, 6, 7, 12, 13, 14, 15)
#define XGPU_TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7, c0, c1, c2, c3, c4, c5, c6, c7)        \
  {                                                                                          \
    const XGPU_BITS8 t0 = XGPU_PAIR_LO(r0, r1), t1 = XGPU_PAIR_HI(r0, r1),                   \
                     t2 = XGPU_PAIR_LO(r2, r3), t3 = XGPU_PAIR_HI(r2, r3),                   \
                     t4 = XGPU_PAIR_LO(r4, r5), t5 = XGPU_PAIR_HI(r4, r5),                   \
                     t6 = XGPU_PAIR_LO(r6, r7), t7 = XGPU_PAIR_HI(r6, r7);                   \
    const XGPU_BITS8 u0 = XGPU_QUAD_LO(t0, t2), u1 = XGPU_QUAD_HI(t0, t2),                   \
                     u2 = XGPU_QUAD_LO(t1, t3), u3 = XGPU_QUAD_HI(t1, t3),                   \
                     u4 = XGPU_QUAD_LO(t4, t6), u5 = XGPU_QUAD_HI(t4, t6),                   \
                     u6 = XGPU_QUAD_LO(t5, t7), u7 = XGPU_QUAD_HI(t5, t7);                   \
    c0 = XGPU_HALVES_LO(u0, u4);                                                             \
    c1 = XGPU_HALVES_LO(u1, u5);                                                             \
    c2 = XGPU_HALVES_LO(u2, u6);                                                             \
    c3 = XGPU_HALVES_LO(u3, u7);                                                             \
    c4 = XGPU_HALVES_HI(u0, u4);                                                             \
    c5 = XGPU_HALVES_HI(u1, u5);                                                             \
    c6 = XGPU_HALVES_HI(u2, u6);                                                             \
    c7 = XGPU_HALVES_HI(u3, u7);                                                             \
  }
#else
#define XGPU_GATHER8(k, c)                                                                   \
  {                                                                                          \
    const XGPU_BITS column[8] = {s0.s##k, s1.s##k, s2.s##k, s3.s##k,                         \
                                 s4.s##k, s5.s##k, s6.s##k, s7.s##k};                        \
    c = vload8(0, column);                                                                   \
  }
#define XGPU_TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7, c0, c1, c2, c3, c4, c5, c6, c7)        \
  {                                                                                          \
    const XGPU_BITS8 s0 = r0, s1 = r1, s2 = r2, s3 = r3, s4 = r4, s5 = r5, s6 = r6, s7 = r7; \
    XGPU_GATHER8(0, c0) XGPU_GATHER8(1, c1) XGPU_GATHER8(2, c2) XGPU_GATHER8(3, c3)          \
    XGPU_GATHER8(4, c4) XGPU_GATHER8(5, c5) XGPU_GATHER8(6, c6) XGPU_GATHER8(7, c7)          \
  }
#endif
// Rows top .. top + 7 of the tile, columns side * 8 .. side * 8 + 7, as columns c0..c7.
#define XGPU_ROW8(i) vload8(0, p + (i)*cols + side * 8)
#define XGPU_SQUARE(top, c0, c1, c2, c3, c4, c5, c6, c7)                                     \
  XGPU_TRANSPOSE8(XGPU_ROW8(top), XGPU_ROW8(top + 1), XGPU_ROW8(top + 2), XGPU_ROW8(top + 3), \
                  XGPU_ROW8(top + 4), XGPU_ROW8(top + 5), XGPU_ROW8(top + 6),                \
                  XGPU_ROW8(top + 7), c0, c1, c2, c3, c4, c5, c6, c7)
// Row k of this side's 8 rows of `out`: 8 elements from the tile's upper square, then 8
// from its lower square, stored back to back so that the line is complete at once.
#define XGPU_STREAM_ROW(k, upper, lower)                                                     \
  XGPU_STREAM_STORE(upper, (__global XGPU_BITS8*)(o + (k)*rows));                            \
  XGPU_STREAM_STORE(lower, (__global XGPU_BITS8*)(o + (k)*rows + 8));

__kernel void xgpu_transpose_streaming(const uint rows, const uint cols, const uint tiles,
                                       __global const XGPU_T* in_, __global XGPU_T* out_) {
  __global const XGPU_BITS* in = (__global const XGPU_BITS*)in_;
  __global XGPU_BITS* out = (__global XGPU_BITS*)out_;
  const uint first_col = (uint)get_global_id(0) * tiles * 16;
  const uint row = (uint)get_global_id(1) * 16;
  if (first_col >= cols || row >= rows) return;
  const uint col_end = min(first_col + tiles * 16, cols);
  uint col = first_col;
  for (; col + 16 <= col_end; col += 16) {
    __global const XGPU_BITS* p = in + row * cols + col;
    __global XGPU_BITS* o = out + col * rows + row;  // 16-element aligned: rows % 16 == 0
    // Columns 0-7 of the tile (side 0), then 8-15 (side 1): 16 rows of 8 each.
    for (uint side = 0; side < 2; ++side, o += 8 * rows) {
      XGPU_BITS8 a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7;
      XGPU_SQUARE(0, a0, a1, a2, a3, a4, a5, a6, a7);
      XGPU_SQUARE(8, b0, b1, b2, b3, b4, b5, b6, b7);
      XGPU_STREAM_ROW(0, a0, b0) XGPU_STREAM_ROW(1, a1, b1) XGPU_STREAM_ROW(2, a2, b2)
      XGPU_STREAM_ROW(3, a3, b3) XGPU_STREAM_ROW(4, a4, b4) XGPU_STREAM_ROW(5, a5, b5)
      XGPU_STREAM_ROW(6, a6, b6) XGPU_STREAM_ROW(7, a7, b7)
    }
  }
  // The last columns, fewer than 16, element by element.
  for (uint c = col; c < col_end; ++c)
    for (uint r = row; r < row + 16; ++r) out[c * rows + r] = in[r * cols + c];
  XGPU_STREAM_FENCE();
}
