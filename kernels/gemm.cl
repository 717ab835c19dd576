// GEMM: C = alpha * op(A) * op(B) + beta * C on row-major matrices. op(A) is M x K, op(B)
// is K x N, C is M x N; lda, ldb, ldc are the stored row lengths (elements).
//
// Built with -DXGPU_T=<float|double|half> -DXGPU_T_<TYPE> (float when absent), or bfloat16
// as -DXGPU_T=ushort -DXGPU_T_BFLOAT16. half and bfloat16 are storage only: tiles hold float
// and every product is accumulated in float. -DXGPU_GEMM_C_FLOAT makes C float whatever the
// inputs (half or bfloat16 A and B, float C: the mixed-precision GEMM); otherwise C is XGPU_T.
//
// Shape (all compile-time, set by the host per device kind; defaults suit a GPU):
//   XGPU_GEMM_LX x XGPU_GEMM_LY   work-group (reqd_work_group_size)
//   XGPU_GEMM_WM x XGPU_GEMM_WN   rows x vectors of C per work-item, held in registers
//   XGPU_GEMM_VW                  elements per vector: 1 on GPUs, a SIMD register on CPUs
//   XGPU_GEMM_TK                  depth of the K tile staged in local memory
//   XGPU_GEMM_TA, XGPU_GEMM_TB    1: op(A) = A^T (A stored K x M), op(B) = B^T (N x K)
// A work-group computes a TM x TN block of C (TM = WM * LY, TN = WN * VW * LX). For each
// K tile it copies TM x TK of op(A) and TK x TN of op(B) into local memory (zeros past the
// matrix edges), then each item accumulates its WM x (WN * VW) elements: per k step WN
// vector loads and WM scalar broadcasts feed WM * WN vector FMAs. Item (tx, ty) owns rows
// ty * WM + r and the vectors starting at columns (c * LX + tx) * VW, so that neighbouring
// items on a GPU touch neighbouring addresses.
// Launch: global = (ceil(N / TN) * LX, ceil(M / TM) * LY), local = (LX, LY).
// Requires: OpenCL C 1.2, local memory of at most TM * (TK + PAD) + TK * (TN + PAD)
// elements of the compute type (PAD = 1 when VW == 1, else 0), cl_khr_fp64 for double.
#include "xgpu_element.cl"

#ifdef XGPU_T_DOUBLE
#define GEMM_R double
#else
#define GEMM_R float  // float, and half storage
#endif

#ifndef XGPU_GEMM_LX
#define XGPU_GEMM_LX 16
#endif
#ifndef XGPU_GEMM_LY
#define XGPU_GEMM_LY 16
#endif
#ifndef XGPU_GEMM_WM
#define XGPU_GEMM_WM 4
#endif
#ifndef XGPU_GEMM_WN
#define XGPU_GEMM_WN 4
#endif
#ifndef XGPU_GEMM_VW
#define XGPU_GEMM_VW 1
#endif
#ifndef XGPU_GEMM_TK
#define XGPU_GEMM_TK 16
#endif
#ifndef XGPU_GEMM_TA
#define XGPU_GEMM_TA 0
#endif
#ifndef XGPU_GEMM_TB
#define XGPU_GEMM_TB 0
#endif

#define LX XGPU_GEMM_LX
#define LY XGPU_GEMM_LY
#define WM XGPU_GEMM_WM
#define WN XGPU_GEMM_WN
#define VW XGPU_GEMM_VW
#define TK XGPU_GEMM_TK
#define TM (WM * LY)
#define TN (WN * VW * LX)
#define ITEMS (LX * LY)
#if TK % VW != 0 || (XGPU_GEMM_TA && TM % VW != 0)
#error "XGPU_GEMM_TK, and TM when A is transposed, must be multiples of XGPU_GEMM_VW"
#endif

#define GEMM_CAT_(a, b) a##b
#define GEMM_CAT(a, b) GEMM_CAT_(a, b)

// RV: VW elements of the compute type. LOADV / STOREV move VW consecutive elements of a
// __global XGPU_T array; LOADV_R / STOREV_R of a local or private GEMM_R array.
// LOAD1 / STORE1: one element of a __global XGPU_T array.
#if VW == 1
#define RV GEMM_R
#define LOADV_R(p) (*(p))
#define STOREV_R(v, p) (*(p) = (v))
#else
#define RV GEMM_CAT(GEMM_R, VW)
#define LOADV_R(p) GEMM_CAT(vload, VW)(0, p)
#define STOREV_R(v, p) GEMM_CAT(vstore, VW)(v, 0, p)
#endif

#ifdef XGPU_T_HALF
#define LOAD1(p) vload_half(0, p)
#define STORE1(v, p) vstore_half(v, 0, p)
#if VW == 1
#define LOADV(p) vload_half(0, p)
#define STOREV(v, p) vstore_half(v, 0, p)
#else
#define LOADV(p) GEMM_CAT(vload_half, VW)(0, p)
#define STOREV(v, p) GEMM_CAT(vstore_half, VW)(v, 0, p)
#endif
#elif defined(XGPU_T_BFLOAT16)
#define LOAD1(p) xgpu_bf16_to_float(*(p))
#define STORE1(v, p) (*(p) = xgpu_bf16_from_float(v))
#if VW == 1
#define LOADV(p) LOAD1(p)
#define STOREV(v, p) STORE1(v, p)
#else
#define LOADV(p) GEMM_CAT(xgpu_bf16_to_float, VW)(GEMM_CAT(vload, VW)(0, p))
#define STOREV(v, p) GEMM_CAT(vstore, VW)(GEMM_CAT(xgpu_bf16_from_float, VW)(v), 0, p)
#endif
#else
#define LOAD1(p) (*(p))
#define STORE1(v, p) (*(p) = (v))
#define LOADV(p) LOADV_R(p)
#define STOREV(v, p) STOREV_R(v, p)
#endif

// XGPU_C: C's element type. CLOAD1 / CSTORE1 / CLOADV / CSTOREV move its elements as LOAD1 /
// STORE1 / LOADV / STOREV move A's and B's.
#ifdef XGPU_GEMM_C_FLOAT
#define XGPU_C float
#define CLOAD1(p) (*(p))
#define CSTORE1(v, p) (*(p) = (v))
#define CLOADV(p) LOADV_R(p)
#define CSTOREV(v, p) STOREV_R(v, p)
#else
#define XGPU_C XGPU_T
#define CLOAD1(p) LOAD1(p)
#define CSTORE1(v, p) STORE1(v, p)
#define CLOADV(p) LOADV(p)
#define CSTOREV(v, p) STOREV(v, p)
#endif

// Local tiles: A_AT(r, p) is op(A)(m0 + r, k0 + p), B_AT(p, c) is op(B)(k0 + p, n0 + c).
// The A tile keeps the stored orientation, so that its copy reads and writes runs of
// consecutive elements either way; the B tile is always k-major, because the inner loop
// loads vectors along N, and is filled by a transposing copy when B is transposed. Rows
// are padded by one element where a GPU would otherwise touch one local-memory bank from
// every row (with vectors, VW > 1, there is no padding: vector rows stay aligned).
// Transposes are compile-time: as run-time flags, the branches around the copies made
// PoCL keep the accumulators in memory across the inner loop (an order of magnitude
// slower), and one program holding all four variants compiled several times slower than one
// variant.
#define PAD (VW == 1 ? 1 : 0)
#if XGPU_GEMM_TA
#define A_LD (TM + PAD)
#define A_AT(r, p) a_tile[(p)*A_LD + (r)]
#define A_NEXT_ROW 1
#define A_TILE_SIZE (TK * A_LD)
#else
#define A_LD (TK + PAD)
#define A_AT(r, p) a_tile[(r)*A_LD + (p)]
#define A_NEXT_ROW A_LD
#define A_TILE_SIZE (TM * A_LD)
#endif
#define B_LD (TN + (XGPU_GEMM_TB ? PAD : 0))
#define B_AT(p, c) b_tile[(p)*B_LD + (c)]

// Copies op(A)(m0 .. m0 + TM, k0 .. k0 + TK) into the A tile, by runs of VW elements
// consecutive in memory: a run inside the matrix is one vector load, a run that crosses
// its edge goes element by element, with zeros past the edge.
inline void load_a_tile(__local GEMM_R* a_tile, __global const XGPU_T* A, const uint lda,
                        const uint M, const uint K, const uint m0, const uint k0, const uint item) {
#if XGPU_GEMM_TA
  // Stored K x M: a run along M of stored row k0 + p, a row of the tile.
  for (uint i = item; i < TK * TM / VW; i += ITEMS) {
    const uint p = i / (TM / VW), r = i % (TM / VW) * VW;
    __global const XGPU_T* from = A + (k0 + p) * lda + m0 + r;
    if (k0 + p < K && m0 + r + VW <= M) {
      STOREV_R(LOADV(from), &A_AT(r, p));
    } else {
      for (uint j = 0; j < VW; ++j)
        A_AT(r + j, p) = (k0 + p < K && m0 + r + j < M) ? LOAD1(from + j) : 0;
    }
  }
#else
  // Stored M x K: a run along K of stored row m0 + r, a row of the tile.
  for (uint i = item; i < TM * TK / VW; i += ITEMS) {
    const uint r = i / (TK / VW), p = i % (TK / VW) * VW;
    __global const XGPU_T* from = A + (m0 + r) * lda + k0 + p;
    if (m0 + r < M && k0 + p + VW <= K) {
      STOREV_R(LOADV(from), &A_AT(r, p));
    } else {
      for (uint j = 0; j < VW; ++j)
        A_AT(r, p + j) = (m0 + r < M && k0 + p + j < K) ? LOAD1(from + j) : 0;
    }
  }
#endif
}

// Copies op(B)(k0 .. k0 + TK, n0 .. n0 + TN) into the B tile, as load_a_tile does.
inline void load_b_tile(__local GEMM_R* b_tile, __global const XGPU_T* B, const uint ldb,
                        const uint N, const uint K, const uint n0, const uint k0, const uint item) {
#if XGPU_GEMM_TB && VW == 1
  // Stored N x K, one element an item: neighbouring items read along K (coalesced).
  for (uint i = item; i < TN * TK; i += ITEMS) {
    const uint c = i / TK, p = i % TK;
    B_AT(p, c) = (n0 + c < N && k0 + p < K) ? LOAD1(B + (n0 + c) * ldb + k0 + p) : 0;
  }
#elif XGPU_GEMM_TB
  // Stored N x K, vectors: a tile row (fixed k) gathered from VW stored rows at a time, so
  // that local memory gets whole vectors; the gathered lines serve the next k too (CPU
  // caches). Scattering runs along K into tile columns was twice as slow on PoCL.
  for (uint i = item; i < TK * TN / VW; i += ITEMS) {
    const uint p = i / (TN / VW), c = i % (TN / VW) * VW;
    __global const XGPU_T* from = B + (n0 + c) * ldb + k0 + p;
    GEMM_R run[VW];
    if (k0 + p < K && n0 + c + VW <= N) {
      for (uint j = 0; j < VW; ++j) run[j] = LOAD1(from + j * ldb);
    } else {
      for (uint j = 0; j < VW; ++j)
        run[j] = (k0 + p < K && n0 + c + j < N) ? LOAD1(from + j * ldb) : 0;
    }
    STOREV_R(LOADV_R(run), &B_AT(p, c));
  }
#else
  // Stored K x N: a run along N of stored row k0 + p, a row of the tile.
  for (uint i = item; i < TK * TN / VW; i += ITEMS) {
    const uint p = i / (TN / VW), c = i % (TN / VW) * VW;
    __global const XGPU_T* from = B + (k0 + p) * ldb + n0 + c;
    if (k0 + p < K && n0 + c + VW <= N) {
      STOREV_R(LOADV(from), &B_AT(p, c));
    } else {
      for (uint j = 0; j < VW; ++j)
        B_AT(p, c + j) = (k0 + p < K && n0 + c + j < N) ? LOAD1(from + j) : 0;
    }
  }
#endif
}

__kernel __attribute__((reqd_work_group_size(LX, LY, 1))) void xgpu_gemm(
    const uint M, const uint N, const uint K, const GEMM_R alpha, __global const XGPU_T* A,
    const uint lda, __global const XGPU_T* B, const uint ldb, const GEMM_R beta, __global XGPU_C* C,
    const uint ldc) {
  __local GEMM_R a_tile[A_TILE_SIZE];
  __local GEMM_R b_tile[TK * B_LD];
  const uint tx = get_local_id(0), ty = get_local_id(1);
  const uint item = ty * LX + tx;
  const uint m0 = get_group_id(1) * TM, n0 = get_group_id(0) * TN;
  const bool inside_m = m0 + TM <= M, inside_n = n0 + TN <= N;

  RV acc[WM][WN];
#pragma unroll
  for (uint r = 0; r < WM; ++r) {
#pragma unroll
    for (uint c = 0; c < WN; ++c) acc[r][c] = (RV)(0);
  }

  for (uint k0 = 0; k0 < K; k0 += TK) {
    load_a_tile(a_tile, A, lda, M, K, m0, k0, item);
    load_b_tile(b_tile, B, ldb, N, K, n0, k0, item);
    barrier(CLK_LOCAL_MEM_FENCE);
    // Always true; it keeps PoCL (CPU) from splitting the loop below per iteration across
    // the work-group, with the accumulators in memory (its implicit loop barriers apply
    // only to loops every item is known to enter).
    if (item < ITEMS) {
      for (uint p = 0; p < TK; ++p) {
        // This item's A elements of column p, WM of them, A_NEXT_ROW apart: as one base
        // pointer with constant offsets, they cost the CPU no index arithmetic.
        __local const GEMM_R* a_column = &A_AT(ty * WM, p);
        RV b[WN];
#pragma unroll
        for (uint c = 0; c < WN; ++c) b[c] = LOADV_R(&B_AT(p, (c * LX + tx) * VW));
#pragma unroll
        for (uint r = 0; r < WM; ++r) {
          const RV a = (RV)(a_column[r * A_NEXT_ROW]);
#pragma unroll
          for (uint c = 0; c < WN; ++c) acc[r][c] = fma(a, b[c], acc[r][c]);
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // beta == 0 must not read C: it may hold NaNs the caller never meant to scale.
  const uint row0 = m0 + ty * WM;
  if (inside_m && inside_n) {  // every element of the item's block exists: whole vectors
#pragma unroll
    for (uint r = 0; r < WM; ++r) {
#pragma unroll
      for (uint c = 0; c < WN; ++c) {
        __global XGPU_C* out = C + (row0 + r) * ldc + n0 + (c * LX + tx) * VW;
        const RV scaled = alpha * acc[r][c];
        CSTOREV(beta == 0 ? scaled : fma((RV)(beta), CLOADV(out), scaled), out);
      }
    }
  } else {  // a block on the matrix's edge: element by element, through private memory
    GEMM_R values[WM][WN][VW];
#pragma unroll
    for (uint r = 0; r < WM; ++r) {
#pragma unroll
      for (uint c = 0; c < WN; ++c) STOREV_R(alpha * acc[r][c], values[r][c]);
    }
    for (uint r = 0; r < WM && row0 + r < M; ++r) {
      for (uint c = 0; c < WN; ++c) {
        const uint col = n0 + (c * LX + tx) * VW;
        for (uint j = 0; j < VW && col + j < N; ++j) {
          __global XGPU_C* out = C + (row0 + r) * ldc + col + j;
          CSTORE1(beta == 0 ? values[r][c][j] : fma(beta, CLOAD1(out), values[r][c][j]), out);
        }
      }
    }
  }
}

// C = beta * C over `count` elements, for k == 0 or alpha == 0, where no product is
// formed (BLAS semantics: A and B are not read). beta == 0 writes zeros without reading C.
// Launch over at least `count` items.
__kernel void xgpu_gemm_scale(const uint count, const GEMM_R beta, __global XGPU_C* C) {
  const size_t i = xgpu_index();
  if (i < count) CSTORE1(beta == 0 ? 0 : beta * CLOAD1(C + i), C + i);
}
