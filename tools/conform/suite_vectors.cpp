// The vectors suite: vloadn/vstoren for n = 2, 3, 4, 8, 16 on float (two widths each on int
// and uchar) at element offsets that are not multiples of n, float3's size and alignment
// (4-element storage) against vload3/vstore3's packed 3 elements, swizzles (.xyzw, .s0-.sF,
// .lo/.hi/.even/.odd, repeated and reversed components, as l-values) and vector literals, and
// component-wise arithmetic and comparisons (-1/0 per component) for every n. (CTS: vectors,
// basic vload/vstore and swizzle tests.)
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

const int kWidths[] = {2, 3, 4, 8, 16};

// Load: item i reads n elements at i * (n + 1) (misaligned for most i) and with vloadn's
// offset from src + 1; both are stored aligned. Store: item i writes its aligned vector at
// i * (n + 1) + 1 (the element before it must stay untouched) and with vstoren's offset at
// dst2 + 3.
const char* const kLoadStore = R"(
#define LOAD_STORE(T, N) \
kernel void load_##T##N(global const T* src, global T* dst) { \
  size_t i = get_global_id(0); \
  vstore##N(vload##N(0, src + i * (N + 1)), 2 * i, dst); \
  vstore##N(vload##N(i, src + 1), 2 * i + 1, dst); \
} \
kernel void store_##T##N(global const T* src, global T* dst, global T* dst2) { \
  size_t i = get_global_id(0); \
  T##N v = vload##N(i, src); \
  vstore##N(v, 0, dst + i * (N + 1) + 1); \
  vstore##N(v, i, dst2 + 3); \
}
LOAD_STORE(float, 2) LOAD_STORE(float, 3) LOAD_STORE(float, 4) LOAD_STORE(float, 8)
LOAD_STORE(float, 16) LOAD_STORE(int, 3) LOAD_STORE(int, 16) LOAD_STORE(uchar, 2)
LOAD_STORE(uchar, 8)

typedef struct { float a; float3 b; } WithFloat3;
kernel void float3_layout(global const float* packed, global float3* wide, global float* out,
                          global int* sizes) {
  size_t i = get_global_id(0);
  float3 v = vload3(i, packed);
  wide[i] = v;
  vstore3(v.zxy, i, out);
  if (i == 0) {
    WithFloat3 s;
    sizes[0] = sizeof(float3);
    sizes[1] = vec_step(float3);
    sizes[2] = (int)((private char*)&s.b - (private char*)&s);
    sizes[3] = sizeof(WithFloat3);
  }
}

#define COMPONENTWISE(N) \
kernel void componentwise##N(global const float* a, global const float* b, global float* f, \
                             global const int* p, global const int* q, global int* r) { \
  size_t i = get_global_id(0); \
  float##N x = vload##N(i, a), y = vload##N(i, b); \
  int##N m = vload##N(i, p), n = vload##N(i, q); \
  vstore##N(x + y, 2 * i, f); \
  vstore##N(x * y, 2 * i + 1, f); \
  vstore##N(x < y, 5 * i, r); \
  vstore##N(x == y, 5 * i + 1, r); \
  vstore##N(x >= y, 5 * i + 2, r); \
  vstore##N(m - n, 5 * i + 3, r); \
  vstore##N(m > n, 5 * i + 4, r); \
}
COMPONENTWISE(2) COMPONENTWISE(3) COMPONENTWISE(4) COMPONENTWISE(8) COMPONENTWISE(16)
)";

// One swizzle case: statements, then an expression of width n whose component k is v's
// component index[k] (v: the item's float16, v.sK = in[16 * item + K]).
struct Swizzle {
  const char* setup;
  const char* expression;
  std::vector<int> index;
};

const std::vector<Swizzle>& swizzles() {
  static const std::vector<Swizzle> cases = {
      {"", "v.s3210", {3, 2, 1, 0}},
      {"", "v.s4567.wzyx", {7, 6, 5, 4}},
      {"", "v.lo.lo.xxyy", {0, 0, 1, 1}},
      {"", "v.sFEDCBA9876543210", {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
      {"", "v.lo", {0, 1, 2, 3, 4, 5, 6, 7}},
      {"", "v.hi", {8, 9, 10, 11, 12, 13, 14, 15}},
      {"", "v.even", {0, 2, 4, 6, 8, 10, 12, 14}},
      {"", "v.odd", {1, 3, 5, 7, 9, 11, 13, 15}},
      {"", "v.lo.hi", {4, 5, 6, 7}},
      {"", "v.odd.even", {1, 5, 9, 13}},
      {"", "v.hi.odd.lo", {9, 11}},
      {"", "v.s123.zyx", {3, 2, 1}},
      {"", "v.s45.yx", {5, 4}},
      {"", "v.sAAA", {10, 10, 10}},
      {"float4 t = v.lo.lo; t.wx = v.s89;", "t", {9, 1, 2, 8}},
      {"float8 u = v.hi; u.even = v.lo.odd;", "u", {1, 9, 3, 11, 5, 13, 7, 15}},
      {"float16 w = v; w.lo = v.hi; w.hi.odd = v.s0000;",
       "w",
       {8, 9, 10, 11, 12, 13, 14, 15, 8, 0, 10, 0, 12, 0, 14, 0}},
      {"float2 p = v.s01; p.yx = p;", "p", {1, 0}},
      {"float3 q = v.sBCD; q.xz = q.zx;", "q", {13, 12, 11}},
      {"float4 s = v.s0123; s.s31 = v.sEF;", "s", {0, 15, 2, 14}},
      {"", "(float4)(v.s1, v.s23, v.s0)", {1, 2, 3, 0}},
      {"", "(float8)((float2)(v.s9, v.sA), v.s0, v.s123, v.sFE)", {9, 10, 0, 1, 2, 3, 15, 14}},
      {"", "(float4)(v.s7)", {7, 7, 7, 7}},
  };
  return cases;
}

std::size_t swizzle_width() {
  std::size_t total = 0;
  for (const Swizzle& s : swizzles()) total += s.index.size();
  return total;
}

// One kernel storing every swizzle case in turn (vstoren, so float3 takes 3 elements).
std::string swizzle_source() {
  std::ostringstream text;
  text << "kernel void swizzles(global const float* in, global float* out) {\n"
       << "  size_t i = get_global_id(0);\n  float16 v = vload16(i, in);\n"
       << "  global float* o = out + " << swizzle_width() << " * i;\n";
  std::size_t at = 0;
  for (const Swizzle& s : swizzles()) {
    text << "  { " << s.setup << " vstore" << s.index.size() << "(" << s.expression << ", 0, o + "
         << at << "); }\n";
    at += s.index.size();
  }
  text << "}\n";
  return text.str();
}

Program program(Env& env) { return env.program("conform_vectors.cl", kLoadStore); }

template <class T>
T value(std::size_t i) {
  return static_cast<T>((i * 37 + 11) % 251);  // exact in every type, distinct neighbours
}

template <class T>
Result load_store(Env& env, const char* type, int n) {
  const std::size_t items = env.size(64, 8), elements = items * (n + 1) + 2 * n;
  std::vector<T> src(elements);
  for (std::size_t i = 0; i < elements; ++i) src[i] = value<T>(i);
  const T sentinel = static_cast<T>(253);
  Buffer<T> in = env.context().alloc<T>(elements), loaded = env.context().alloc<T>(2 * n * items),
            stored = env.context().alloc<T>(elements), stored2 = env.context().alloc<T>(elements);
  env.queue().write(in, src);
  env.queue().fill(stored, sentinel);
  env.queue().fill(stored2, sentinel);
  const std::string suffix = type + std::to_string(n);
  env.queue().launch(program(env).kernel("load_" + suffix), Range{items}, in, loaded);
  env.queue().launch(program(env).kernel("store_" + suffix), Range{items}, in, stored, stored2);
  const std::vector<T> l = env.queue().read(loaded), s = env.queue().read(stored),
                       s2 = env.queue().read(stored2);
  const std::string vload = "vload" + std::to_string(n) + " (" + type + ")",
                    vstore = "vstore" + std::to_string(n) + " (" + type + ")";
  for (std::size_t i = 0; i < items; ++i) {
    for (int k = 0; k < n; ++k) {
      const std::string at = " item " + std::to_string(i) + " component " + std::to_string(k);
      if (l[2 * n * i + k] != src[i * (n + 1) + k])
        return fail_expected(vload + "(0, p + " + std::to_string(i * (n + 1)) + ")" + at,
                             +src[i * (n + 1) + k], +l[2 * n * i + k]);
      if (l[2 * n * i + n + k] != src[1 + i * n + k])
        return fail_expected(vload + "(" + std::to_string(i) + ", p + 1)" + at, +src[1 + i * n + k],
                             +l[2 * n * i + n + k]);
      if (s[i * (n + 1) + 1 + k] != src[i * n + k])
        return fail_expected(vstore + "(v, 0, p + " + std::to_string(i * (n + 1) + 1) + ")" + at,
                             +src[i * n + k], +s[i * (n + 1) + 1 + k]);
      if (s2[3 + i * n + k] != src[i * n + k])
        return fail_expected(vstore + "(v, " + std::to_string(i) + ", p + 3)" + at, +src[i * n + k],
                             +s2[3 + i * n + k]);
    }
    if (s[i * (n + 1)] != sentinel)
      return fail_expected(vstore + " wrote outside its " + std::to_string(n) +
                               " elements, at element " + std::to_string(i * (n + 1)),
                           +sentinel, +s[i * (n + 1)]);
  }
  return pass();
}

// Every n on float; int and uchar on two widths each (each kernel costs PoCL compile time).
Result load_store_all(Env& env) {
  for (int n : kWidths) {
    const Result r = load_store<float>(env, "float", n);
    if (r.outcome != Outcome::pass) return r;
  }
  for (Result r :
       {load_store<std::int32_t>(env, "int", 3), load_store<std::int32_t>(env, "int", 16),
        load_store<std::uint8_t>(env, "uchar", 2), load_store<std::uint8_t>(env, "uchar", 8)}) {
    if (r.outcome != Outcome::pass) return r;
  }
  return pass();
}

Result float3_layout(Env& env) {
  const std::size_t n = env.size(64, 8);
  std::vector<float> packed(3 * n);
  for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = value<float>(i);
  Buffer<float> in = env.context().alloc<float>(3 * n), wide = env.context().alloc<float>(4 * n),
                out = env.context().alloc<float>(3 * n);
  Buffer<int> sizes = env.context().alloc<int>(4);
  env.queue().write(in, packed);
  env.queue().launch(program(env).kernel("float3_layout"), Range{n}, in, wide, out, sizes);
  const std::vector<int> s = env.queue().read(sizes);
  const char* what[4] = {"sizeof(float3)", "vec_step(float3)",
                         "offset of float3 b in struct { float a; float3 b; }",
                         "sizeof(struct { float a; float3 b; })"};
  const int expected[4] = {16, 4, 16, 32};
  for (int k = 0; k < 4; ++k)
    if (s[k] != expected[k]) return fail_expected(what[k], expected[k], s[k]);
  const std::vector<float> w = env.queue().read(wide), o = env.queue().read(out);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      if (w[4 * i + k] != packed[3 * i + k])
        return fail_expected("float3 array element " + std::to_string(i) + "." + "xyz"[k] +
                                 " at float " + std::to_string(4 * i + k) + " (4-element storage)",
                             packed[3 * i + k], w[4 * i + k]);
      const float rotated = packed[3 * i + (k + 2) % 3];
      if (o[3 * i + k] != rotated)
        return fail_expected(
            "vstore3(v.zxy, " + std::to_string(i) + ", p) element " + std::to_string(k), rotated,
            o[3 * i + k]);
    }
  }
  return pass();
}

Result swizzle_cases(Env& env) {
  const std::size_t items = env.size(32, 4), width = swizzle_width();
  std::vector<float> in(16 * items);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = value<float>(i) + 0.5f;
  Buffer<float> din = env.context().alloc<float>(in.size()),
                dout = env.context().alloc<float>(width * items);
  env.queue().write(din, in);
  env.queue().launch(env.program("conform_vectors_swizzle.cl", swizzle_source()).kernel("swizzles"),
                     Range{items}, din, dout);
  const std::vector<float> got = env.queue().read(dout);
  for (std::size_t i = 0; i < items; ++i) {
    std::size_t at = width * i;
    for (const Swizzle& s : swizzles()) {
      for (std::size_t k = 0; k < s.index.size(); ++k, ++at) {
        const float expected = in[16 * i + s.index[k]];
        if (got[at] != expected)
          return fail_expected(std::string(s.setup) + (*s.setup ? " " : "") + s.expression +
                                   " component " + std::to_string(k) + " (should be v.s" +
                                   "0123456789ABCDEF"[s.index[k]] + ")",
                               expected, got[at]);
      }
    }
  }
  return pass();
}

Result componentwise(Env& env) {
  const std::size_t items = env.size(64, 8), max = 16 * items;
  std::vector<float> a(max), b(max);
  std::vector<int> p(max), q(max);
  for (std::size_t i = 0; i < max; ++i) {
    a[i] = static_cast<float>(i % 13) * 0.75f - 4;
    b[i] = i % 5 == 0 ? a[i] : static_cast<float>(i % 7) * 1.25f - 3;
    p[i] = static_cast<int>(i * 2654435761u);
    q[i] = i % 6 == 0 ? p[i] : static_cast<int>(i * 40503u) - 1000000;
  }
  Buffer<float> da = env.context().alloc<float>(max), db = env.context().alloc<float>(max),
                df = env.context().alloc<float>(2 * max);
  Buffer<int> dp = env.context().alloc<int>(max), dq = env.context().alloc<int>(max),
              dr = env.context().alloc<int>(5 * max);
  env.queue().write(da, a);
  env.queue().write(db, b);
  env.queue().write(dp, p);
  env.queue().write(dq, q);
  for (int n : kWidths) {
    env.queue().launch(program(env).kernel("componentwise" + std::to_string(n)), Range{items}, da,
                       db, df, dp, dq, dr);
    const std::vector<float> f = env.queue().read(df);
    const std::vector<int> r = env.queue().read(dr);
    const std::string type = std::to_string(n) + " ";
    for (std::size_t i = 0; i < items; ++i) {
      for (int k = 0; k < n; ++k) {
        const std::size_t e = n * i + k;
        const float fx[2] = {a[e] + b[e], a[e] * b[e]};
        const char* fname[2] = {" + ", " * "};
        for (int j = 0; j < 2; ++j) {
          if (f[n * (2 * i + j) + k] != fx[j])
            return fail_expected("float" + type + std::to_string(a[e]) + fname[j] +
                                     std::to_string(b[e]) + " component " + std::to_string(k),
                                 fx[j], f[n * (2 * i + j) + k]);
        }
        const int ix[5] = {
            a[e] < b[e] ? -1 : 0, a[e] == b[e] ? -1 : 0, a[e] >= b[e] ? -1 : 0,
            static_cast<int>(static_cast<unsigned>(p[e]) - static_cast<unsigned>(q[e])),
            p[e] > q[e] ? -1 : 0};
        const std::string iname[5] = {
            "float" + type + std::to_string(a[e]) + " < " + std::to_string(b[e]),
            "float" + type + std::to_string(a[e]) + " == " + std::to_string(b[e]),
            "float" + type + std::to_string(a[e]) + " >= " + std::to_string(b[e]),
            "int" + type + std::to_string(p[e]) + " - " + std::to_string(q[e]),
            "int" + type + std::to_string(p[e]) + " > " + std::to_string(q[e])};
        for (int j = 0; j < 5; ++j) {
          if (r[n * (5 * i + j) + k] != ix[j])
            return fail_expected(iname[j] + " component " + std::to_string(k), ix[j],
                                 r[n * (5 * i + j) + k]);
        }
      }
    }
  }
  return pass();
}

}  // namespace

void register_vectors(Registry& registry) {
  registry.add("vectors", "vload_vstore_misaligned", "", load_store_all);
  registry.add("vectors", "float3_size_alignment", "", float3_layout);
  registry.add("vectors", "swizzles_and_literals", "", swizzle_cases);
  registry.add("vectors", "componentwise_every_n", "", componentwise);
}

}  // namespace xgpu::conform
