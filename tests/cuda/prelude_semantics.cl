// cuda.prelude_semantics: one kernel per family of the CUDA module's OpenCL C prelude, so a
// missing overload or a broken rewrite fails NVRTC or ptxas here (compile only: no GPU).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

typedef struct { float w; int s1; } Pair;  // member names that are also swizzles

constant int kTable[4] = {1, 2, 3, 4};

float helper(local float* scratch, uint i) { return scratch[i] + (float)get_local_id(0); }

kernel void work_items(global ulong* out) {
  size_t i = get_global_id(0);
  out[i] = get_global_id(1) + get_global_size(0) + get_global_offset(0) + get_local_id(2) +
           get_local_size(0) + get_group_id(0) + get_num_groups(0) + get_work_dim() +
           get_local_linear_id() + get_global_linear_id() + get_enqueued_local_size(0);
}

kernel void barriers(global float* x, local float* a, local float4* b) {
  local float tile[64];
  const uint l = get_local_id(0);
  tile[l] = x[l];
  a[l] = tile[l];
  b[0] = (float4)(a[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  x[l] = helper(a, l) + tile[63 - l] + kTable[l & 3] + b[0].w;
}

kernel void vectors(global float* f, global int* i, global float4* f4, global int8* i8,
                    global uint16* u16, global double2* d2, global uchar4* c4) {
  float4 a = vload4(0, f), b = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  float3 c = (float3)(a.xy, 1.0f);
  float8 e = (float8)(a, b);
  float16 g = (float16)(e, e.s76543210);
  // Arithmetic, vector-scalar both ways, compound assignment, unary.
  a = a + b - b * 2.0f / (b + 1.0f);
  a = 2.0f * a;
  a += 1.0f;
  a *= b;
  a = -a;
  ++a;
  a--;
  // Comparisons and logic give signed integer vectors.
  int4 m = a < b;
  m = m & (a >= b) | (a == b) ^ (a != 1.0f);
  m = !m || (m && (int4)(1, 0, 1, 0));
  int8 k = vload8(0, i);
  k = k % 3 + (k << 1) + (k >> 2) + ~k;
  k.s0123 = k.s4567;
  k.lo = k.hi;
  k.even = k.odd;
  k.s7 = 5;
  k.sw<0, 1>();
  // Swizzles of every kind, reads and writes.
  a.xy = a.zw;
  a.s1 = a.S2 + a.w;
  a.wzyx = b;
  c.z = a.x + c.s2 + c.lo.y + c.hi.x;
  g.sA = g.sf + g.sF + g.s0;
  float2 h = g.s01 + g.lo.lo.lo + g.hi.odd.even;
  // Loads and stores.
  vstore4(a, 1, f);
  vstore3(c, 2, f);
  vstore8(e, 1, f);
  vstore16(g, 1, f);
  vstore2(h, 9, f);
  f4[0] = a;
  i8[0] = k;
  u16[0] = vload16(0, (global uint*)i);
  d2[0] = vload2(0, (global double*)f) + (double2)(0.5, 1.0);
  c4[0] = c4[1].wzyx + (uchar)1;
  i[0] = vec_step(float3) + vec_step(a) + vec_step(int16) + vec_step(k.lo);
  // The struct's members stay members.
  Pair p = {1.0f, 2};
  f[0] += p.w + p.s1;
}

kernel void conversions(global const float* f, global int* out, global float* outf,
                        global uchar4* c4, global half* h, global double* d) {
  float4 a = vload4(0, f);
  out[0] = convert_int(f[0]) + convert_int_sat(f[1]) + convert_int_rte(f[2]) +
           convert_int_sat_rtn(f[3]) + convert_uint_sat(f[4]) + convert_char_sat(f[5]) +
           convert_long_rtp(f[6]) + convert_ushort_sat_rtz(f[7]);
  int4 i4 = convert_int4(a) + convert_int4_sat_rte(a);
  c4[0] = convert_uchar4_sat(i4);
  outf[0] = convert_float(out[1]) + convert_float_rtz(out[2]) + convert_float_rtp((ulong)out[3]) +
            convert_float_rtn(d[0]) + convert_float(d[1]);
  vstore4(convert_float4(i4), 0, outf);
  d[2] = convert_double(out[4]) + convert_double_rtz((long)out[5]);
  // Reinterpretation.
  out[1] = as_int(f[0]) + as_int(as_float((uint)out[2]));
  out[2] = as_uint(as_uchar4(out[3]).wzyx);
  vstore4(as_int4(a), 1, out);
  d[3] = as_double((int2)(out[0], out[1]));
  // half storage.
  outf[1] = vload_half(0, h) + vload_half4(0, h).w + vload_half2(1, h).x;
  vstore_half(f[0], 0, h);
  vstore_half_rte(f[1], 1, h);
  vstore_half_rtz(f[2], 2, h);
  vstore_half_rtp(f[3], 3, h);
  vstore_half_rtn(d[4], 4, h);
  vstore_half4(a, 2, h);
  vstore_half8_rtz((float8)(a, a), 2, h);
}

kernel void math(global float* f, global double* d, global int* k) {
  const float x = f[0], y = f[1], z = f[2];
  const double u = d[0], v = d[1];
  float4 a = vload4(1, f), b = vload4(2, f);
  int e;
  float ip, c;
  f[0] = sin(x) + cos(x) + tan(x) + asin(x) + acos(x) + atan(x) + atan2(x, y) + sinh(x) +
         cosh(x) + tanh(x) + asinh(x) + acosh(x) + atanh(x) + exp(x) + exp2(x) + exp10(x) +
         expm1(x) + log(x) + log2(x) + log10(x) + log1p(x) + logb(x) + cbrt(x) + sqrt(x) +
         rsqrt(x) + pow(x, y) + pown(x, 3) + powr(x, y) + rootn(x, 3) + hypot(x, y) + fma(x, y, z) +
         mad(x, y, z) + fmin(x, y) + fmax(x, y) + fdim(x, y) + fmod(x, y) + remainder(x, y) +
         copysign(x, y) + nextafter(x, y) + ceil(x) + floor(x) + trunc(x) + round(x) + rint(x) +
         fabs(x) + erf(x) + erfc(x) + tgamma(x) + lgamma(x) + sinpi(x) + cospi(x) + tanpi(x) +
         asinpi(x) + acospi(x) + atanpi(x) + atan2pi(x, y) + maxmag(x, y) + minmag(x, y) +
         ldexp(x, 3) + frexp(x, &e) + modf(x, &ip) + fract(x, &ip) + sincos(x, &c) +
         remquo(x, y, &e) + lgamma_r(x, &e) + (float)ilogb(x) + nan(1u) + mix(x, y, z) +
         step(x, y) + smoothstep(x, y, z) + sign(x) + degrees(x) + radians(x) + clamp(x, y, z) +
         min(x, y) + max(x, y) + native_sin(x) + native_exp(x) + native_divide(x, y) +
         native_recip(x) + native_sqrt(x) + half_exp(x) + half_log(x) + half_divide(x, y) +
         MAXFLOAT + FLT_EPSILON + M_PI_F + INFINITY + NAN + HUGE_VALF;
  d[0] = sin(u) + exp(u) + pow(u, v) + pown(u, 2) + rootn(u, 3) + fma(u, v, u) + fmin(u, v) +
         tanpi(u) + maxmag(u, v) + fract(u, &d[1]) + sincos(u, &d[2]) + DBL_MAX + M_PI;
  a = sin(a) + pow(a, b) + fmin(a, b) + fmax(a, 1.0f) + fma(a, b, a) + clamp(a, 0.0f, 1.0f) +
      clamp(a, b, b) + mix(a, b, 0.5f) + mix(a, b, b) + sqrt(a) + fabs(a) + floor(a) +
      min(a, b) + max(a, b) + native_exp(a) + half_sqrt(a) + ldexp(a, (int4)(1)) +
      pown(a, (int4)(2)) + copysign(a, b) + hypot(a, b);
  vstore4(a, 0, f);
  // Relational: scalars give 1 / 0, vectors -1 / 0.
  k[0] = isnan(x) + isinf(x) + isfinite(x) + isnormal(x) + signbit(x) + isequal(x, y) +
         isnotequal(x, y) + isgreater(x, y) + isgreaterequal(x, y) + isless(x, y) +
         islessequal(x, y) + islessgreater(x, y) + isordered(x, y) + isunordered(x, y) +
         isnan(u) + signbit(v);
  int4 m = isnan(a) | isless(a, b) | signbit(a);
  k[1] = any(m) + all(m) + any(m.xy) + all(k[2]) + select(1, 2, k[3]) + bitselect(1, 2, 3);
  vstore4(select(a, b, m), 1, f);
  vstore4(bitselect(a, b, a), 2, f);
}

kernel void integers(global int* i, global uint* u, global long* l, global ulong* ul,
                     global short* s, global uchar* c) {
  const int a = i[0], b = i[1];
  const uint p = u[0], q = u[1];
  i[2] = abs(a) + abs_diff(a, b) + add_sat(a, b) + sub_sat(a, b) + mul_hi(a, b) + mad_hi(a, b, a) +
         mad_sat(a, b, a) + mul24(a, b) + mad24(a, b, a) + clz(a) + ctz(a) + popcount(a) +
         rotate(a, b) + hadd(a, b) + rhadd(a, b) + clamp(a, 0, 10) + min(a, b) + max(a, b);
  u[2] = abs(p) + add_sat(p, q) + sub_sat(p, q) + mul_hi(p, q) + mad_sat(p, q, p) + clz(p) +
         popcount(p) + rotate(p, q) + upsample((ushort)p, (ushort)q);
  l[0] = mul_hi(l[1], l[2]) + mad_sat(l[1], l[2], l[3]) + add_sat(l[1], l[2]) + clz(l[1]) +
         ctz(l[1]) + popcount(l[1]) + upsample(a, p) + rotate(l[1], l[2]);
  ul[0] = mul_hi(ul[1], ul[2]) + mad_sat(ul[1], ul[2], ul[3]) + sub_sat(ul[1], ul[2]);
  s[0] = add_sat(s[1], s[2]) + mad_sat(s[1], s[2], s[3]) + upsample((char)c[0], c[1]);
  c[0] = add_sat(c[1], c[2]) + sub_sat(c[1], c[2]) + abs_diff(c[1], c[2]) + rhadd(c[1], c[2]) +
         clz(c[1]) + ctz(c[2]) + popcount((char)c[3]) + mul_hi(c[1], c[2]);
  s[1] = clz(s[2]) + ctz(s[3]) + popcount(s[4]) + mul_hi(s[2], s[3]);
  uint4 shifted = vload4(0, u) << (uint4)(33u) >> 1u;
  vstore4(select(shifted, shifted + 1u, shifted), 1, u);
  int4 v = vload4(0, i);
  vstore4(add_sat(v, v) + clz(v) + popcount(v) + rotate(v, v) + mul_hi(v, v) + abs_diff(v, v).x +
              mad24(v, v, v) + hadd(v, v) + mad_sat(v, v, v) + clamp(v, 0, 1),
          1, i);
  i[3] = INT_MAX + INT_MIN + (int)UINT_MAX + CHAR_BIT + SHRT_MAX + (int)LONG_MAX;
}

kernel void atomics(volatile global int* gi, volatile global uint* gu, global long* gl,
                    global ulong* gul, global float* gf, local int* li) {
  local uint lu[4];
  int o = atomic_add(gi, 1) + atomic_sub(gi, 1) + atomic_inc(gi) + atomic_dec(gi) +
          atomic_xchg(gi, 3) + atomic_cmpxchg(gi, 3, 4) + atomic_min(gi, 0) + atomic_max(gi, 9) +
          atomic_and(gi, 7) + atomic_or(gi, 8) + atomic_xor(gi, 1);
  uint p = atomic_add(gu, 1u) + atomic_inc(gu) + atomic_min(gu, 2u) + atomic_max(gu, 3u) +
           atomic_cmpxchg(gu, 1u, 2u) + atom_add(gu, 1u) + atom_xchg(gu, 5u);
  long q = atom_add(gl, 1L) + atom_cmpxchg(gl, 1L, 2L) + atom_min(gl, 0L) + atom_max(gl, 3L) +
           atom_xchg(gl, 4L) + atom_inc(gl) + atom_dec(gl) + atom_and(gl, 1L) + atom_or(gl, 2L) +
           atom_xor(gl, 3L);
  ulong r = atom_add(gul, 1UL) + atom_min(gul, 0UL) + atom_max(gul, 3UL) + atom_cmpxchg(gul, 1UL, 2UL);
  float s = atomic_xchg(gf, 1.0f);
  int t = atomic_add(li, 1) + atomic_inc(li) + atomic_cmpxchg(li, 0, 1) + atomic_min(li, 0) +
          atomic_max(li, 1) + (int)atomic_add(&lu[1], 1u) + (int)atomic_or(&lu[2], 4u);
  gi[1] = o + (int)p + (int)q + (int)r + (int)s + t;
}

kernel __attribute__((reqd_work_group_size(16, 4, 1))) __attribute__((vec_type_hint(float4)))
void attributes(global float* restrict out, const global float* restrict in) {
  out[get_global_id(0)] = in[get_global_id(0)];
  printf("%d %f\n", (int)get_global_id(0), in[0]);
}

// Half arithmetic (cl_khr_fp16, defined from sm_53 on): operators, mixed operands, vectors,
// conversions and math built-ins. Each native operation is one kernel, so the PTX check
// (`xgpu-ptx-expect`) can see that kernel's own instruction, rounding modifier included.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#ifndef cl_khr_fp16
#error "cl_khr_fp16 is not defined for an sm_53+ target"
#endif
// xgpu-ptx-expect: half_add add.rn.f16
kernel void half_add(global half* h) { h[0] = h[1] + h[2]; }
// xgpu-ptx-expect: half_sub sub.rn.f16
kernel void half_sub(global half* h) { h[0] = h[1] - h[2]; }
// xgpu-ptx-expect: half_mul mul.rn.f16
kernel void half_mul(global half* h) { h[0] = h[1] * h[2]; }
// xgpu-ptx-expect: half_fma fma.rn.f16
kernel void half_fma(global half* h) { h[0] = fma(h[1], h[2], h[3]); }
// xgpu-ptx-expect: half_madd mul.rn.f16 add.rn.f16
kernel void half_madd(global half* h) { h[0] = h[1] * h[2] + h[1]; }

kernel void half_ops(global half* h, global half4* h4, global float* f, global short4* m,
                     global int* i) {
  half a = h[0], b = h[1];
  // Operators and compound assignment; integers convert to half, half to float beside one.
  half r = a / b - -a + +b;
  r += a;
  r -= 2;
  r *= b;
  r /= (half)3.0f;
  ++r;
  r--;
  half s = a * 2 + 1 + 1.5h * b - 0.25H;
  float widened = a * 2.0f + b;
  double wider = b * 2.0;
  i[0] = (a < b) + (a >= b) * 2 + (a == 1) + (r != s) + (a > 0.5f) + (!a) + (a && b);
  // Vectors: component-wise, with scalars, swizzles, comparisons giving short.
  half4 v = h4[0], w = (half4)(a, b, r, s);
  v = v * w + (half4)(1.0f) - v / w;
  v += a;
  v.xy = v.zw * (half)2.0f;
  v.s3 = v.s0 + v.s1;
  half2 lo = v.lo + v.hi;
  half8 e = (half8)(v, w);
  m[0] = (v < w) | (v == w);
  h4[1] = v + (half4)(lo, e.s45);
  // Conversions, both ways and every rounding; bits.
  half c = (half)f[0] + convert_half(i[1]) + convert_half_rtz(f[1]) + convert_half_rtp(wider);
  int4 iv = convert_int4_sat(v);
  float4 fv = convert_float4(v);
  ushort bits = as_ushort(c);
  half back = as_half(bits);
  f[1] = widened + (float)wider + fv.x + (float)back + iv.w + vload_half(0, h);
  // Math built-ins give half (with vectors component-wise).
  half m1 = sqrt(a) + exp(b) + log(a) + sin(b) + pow(a, b) + fabs(r) + fmin(a, b) + fmax(a, b) +
            mad(a, b, r) + mix(a, b, r) + clamp(a, (half)0.0f, (half)1.0f) + nextafter(a, b) +
            pown(a, 3) + ldexp(b, 2) + rsqrt(b) + floor(a) + copysign(a, b);
  half4 m4 = sqrt(v) + fma(v, w, v) + exp(w) + fmax(v, w) + select(v, w, m[0]);
  h[2] = m1 + m4.x + (half)isnan(a) + (half)isnormal(b) + (half)signbit(r);
  vstore_half4(convert_float4(m4), 1, h);
}
