// Single-precision GEMM: C = alpha * A * B + beta * C, row-major, A is M x K, B is K x N,
// C is M x N, with leading dimensions lda, ldb, ldc (elements per row).
// Tiled through local memory: a work-group of XGPU_GEMM_TILE x (XGPU_GEMM_TILE /
// XGPU_GEMM_WPT) items computes one XGPU_GEMM_TILE^2 block of C, each item XGPU_GEMM_WPT
// elements of one column of it. Launch with
//   global = (round_up(N, TILE), round_up(M, TILE) / WPT), local = (TILE, TILE / WPT).
// Any M, N, K: edges are padded with zeros in local memory and guarded on store.
// Requires: OpenCL C 1.2, local memory of 2 * TILE^2 floats (2 KiB at TILE 16).
#include "xgpu_common.cl"

#ifndef XGPU_GEMM_TILE
#define XGPU_GEMM_TILE 16
#endif
#ifndef XGPU_GEMM_WPT
#define XGPU_GEMM_WPT 4
#endif
#define XGPU_GEMM_RTS (XGPU_GEMM_TILE / XGPU_GEMM_WPT)

__kernel __attribute__((reqd_work_group_size(XGPU_GEMM_TILE, XGPU_GEMM_RTS, 1)))
void xgpu_sgemm(const uint M, const uint N, const uint K, const float alpha,
                __global const float* A, const uint lda, __global const float* B,
                const uint ldb, const float beta, __global float* C, const uint ldc) {
  const uint tx = get_local_id(0);  // column within the tile
  const uint ty = get_local_id(1);  // first row within the tile, stepping by RTS
  const uint col = get_group_id(0) * XGPU_GEMM_TILE + tx;
  const uint row0 = get_group_id(1) * XGPU_GEMM_TILE + ty;

  __local float a_tile[XGPU_GEMM_TILE][XGPU_GEMM_TILE];
  __local float b_tile[XGPU_GEMM_TILE][XGPU_GEMM_TILE];

  float acc[XGPU_GEMM_WPT];
  for (uint w = 0; w < XGPU_GEMM_WPT; ++w) acc[w] = 0.0f;

  const uint tiles = (K + XGPU_GEMM_TILE - 1) / XGPU_GEMM_TILE;
  for (uint t = 0; t < tiles; ++t) {
    const uint k0 = t * XGPU_GEMM_TILE;
    for (uint w = 0; w < XGPU_GEMM_WPT; ++w) {
      const uint r = ty + w * XGPU_GEMM_RTS;
      const uint a_row = get_group_id(1) * XGPU_GEMM_TILE + r;
      const uint a_col = k0 + tx;
      a_tile[r][tx] = (a_row < M && a_col < K) ? A[a_row * lda + a_col] : 0.0f;
      const uint b_row = k0 + r;
      b_tile[r][tx] = (b_row < K && col < N) ? B[b_row * ldb + col] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint k = 0; k < XGPU_GEMM_TILE; ++k) {
      const float b = b_tile[k][tx];
      for (uint w = 0; w < XGPU_GEMM_WPT; ++w) {
        acc[w] = fma(a_tile[ty + w * XGPU_GEMM_RTS][k], b, acc[w]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  if (col >= N) return;
  for (uint w = 0; w < XGPU_GEMM_WPT; ++w) {
    const uint row = row0 + w * XGPU_GEMM_RTS;
    if (row < M) {
      const uint at = row * ldc + col;
      // beta == 0 must not read C: it may hold NaNs the caller never meant to scale.
      C[at] = beta == 0.0f ? alpha * acc[w] : fma(alpha, acc[w], beta * C[at]);
    }
  }
}
