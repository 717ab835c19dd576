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
// Measured on PoCL (2 cores, a loaded machine), CPU time per transpose of 4096 x 4096
// floats: 21 ms against 42 ms for xgpu_transpose_blocks and 12.4 ms for a device copy
// (glibc's memcpy, which streams too); the same tiles with plain stores took 47 ms. On
// matrices that fit the caches the blocks kernel is faster (see transpose.cpp).
// Launch: global (ceil(cols / (16 * tiles)) rounded up to the work-group, rows / 16).
#define XGPU_BITS16 XGPU_CAT(XGPU_BITS, 16)
// Non-temporal stores are weakly ordered: XGPU_STREAM_FENCE makes them visible before the
// kernel completes (x86's sfence, as memcpy ends its own; else OpenCL's fence).
#ifdef __has_builtin
#if __has_builtin(__builtin_nontemporal_store)
#define XGPU_STREAM_STORE(value, pointer) __builtin_nontemporal_store((value), (pointer))
#endif
#if __has_builtin(__builtin_ia32_sfence)
#define XGPU_STREAM_FENCE() __builtin_ia32_sfence()
#endif
#endif
#ifndef XGPU_STREAM_STORE
#define XGPU_STREAM_STORE(value, pointer) (*(pointer) = (value))
#endif
#ifndef XGPU_STREAM_FENCE
#define XGPU_STREAM_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif
// Column k (a hexadecimal digit) of the tile, gathered through a private array for the
// reason given at XGPU_COLUMN, streamed out as 16 elements of row col + k of `out`.
#define XGPU_COLUMN16(k)                                                                     \
  {                                                                                          \
    const XGPU_BITS column[16] = {m0.s##k,  m1.s##k,  m2.s##k,  m3.s##k,  m4.s##k,  m5.s##k,  \
                                  m6.s##k,  m7.s##k,  m8.s##k,  m9.s##k,  m10.s##k, m11.s##k, \
                                  m12.s##k, m13.s##k, m14.s##k, m15.s##k};                   \
    XGPU_STREAM_STORE(vload16(0, column), (__global XGPU_BITS16*)(o + 0x##k * rows));        \
  }

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
    const XGPU_BITS16 m0 = vload16(0, p), m1 = vload16(0, p + cols), m2 = vload16(0, p + 2 * cols),
                      m3 = vload16(0, p + 3 * cols), m4 = vload16(0, p + 4 * cols),
                      m5 = vload16(0, p + 5 * cols), m6 = vload16(0, p + 6 * cols),
                      m7 = vload16(0, p + 7 * cols), m8 = vload16(0, p + 8 * cols),
                      m9 = vload16(0, p + 9 * cols), m10 = vload16(0, p + 10 * cols),
                      m11 = vload16(0, p + 11 * cols), m12 = vload16(0, p + 12 * cols),
                      m13 = vload16(0, p + 13 * cols), m14 = vload16(0, p + 14 * cols),
                      m15 = vload16(0, p + 15 * cols);
    XGPU_COLUMN16(0) XGPU_COLUMN16(1) XGPU_COLUMN16(2) XGPU_COLUMN16(3)
    XGPU_COLUMN16(4) XGPU_COLUMN16(5) XGPU_COLUMN16(6) XGPU_COLUMN16(7)
    XGPU_COLUMN16(8) XGPU_COLUMN16(9) XGPU_COLUMN16(a) XGPU_COLUMN16(b)
    XGPU_COLUMN16(c) XGPU_COLUMN16(d) XGPU_COLUMN16(e) XGPU_COLUMN16(f)
  }
  // The last columns, fewer than 16, element by element.
  for (uint c = col; c < col_end; ++c)
    for (uint r = row; r < row + 16; ++r) out[c * rows + r] = in[r * cols + c];
  XGPU_STREAM_FENCE();
}
