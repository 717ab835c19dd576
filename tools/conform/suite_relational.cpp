// The relational suite: the comparison and classification built-ins on float scalars (which
// return 1 or 0) and on float4 (which return -1 or 0 per component: the vector rule), any and
// all, select (a scalar picks by c != 0, a vector by each component's most significant bit)
// and bitselect, on NaN (both signs), +-0, +-inf, subnormal, normal and random inputs,
// against a host reference. (CTS: relationals, select.)
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "check.hpp"
#include "known_deviations.hpp"
#include "subnormals.hpp"

namespace xgpu::conform {
namespace {

#define XGPU_RELATIONALS(OUT)                                  \
  "  " OUT "[0] = isequal(x, y);\n  " OUT                      \
  "[1] = isnotequal(x, y);\n"                                  \
  "  " OUT "[2] = isgreater(x, y);\n  " OUT                    \
  "[3] = isgreaterequal(x, y);\n"                              \
  "  " OUT "[4] = isless(x, y);\n  " OUT                       \
  "[5] = islessequal(x, y);\n"                                 \
  "  " OUT "[6] = islessgreater(x, y);\n  " OUT                \
  "[7] = isfinite(x);\n"                                       \
  "  " OUT "[8] = isinf(x);\n  " OUT "[9] = isnan(x);\n  " OUT \
  "[10] = isnormal(x);\n"                                      \
  "  " OUT "[11] = isordered(x, y);\n  " OUT                   \
  "[12] = isunordered(x, y);\n"                                \
  "  " OUT "[13] = signbit(x);\n"

const char* const kSource =
    "kernel void scalar(global const float* a, global const float* b, global int* r) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float x = a[i], y = b[i];\n"
    "  global int* o = r + 14 * i;\n" XGPU_RELATIONALS("o")
    "}\n"
    "kernel void vector4(global const float4* a, global const float4* b, global int4* r) {\n"
    "  size_t i = get_global_id(0);\n"
    "  float4 x = a[i], y = b[i];\n"
    "  global int4* o = r + 14 * i;\n" XGPU_RELATIONALS("o")
    "}\n"
    R"(
kernel void selects(global const int4* a, global const int4* b, global const int4* c,
                    global int4* r) {
  size_t i = get_global_id(0);
  int4 x = a[i], y = b[i], z = c[i];
  global int4* o = r + 6 * i;
  o[0] = select(x, y, z);
  o[1] = (int4)(select(x.x, y.x, z.x), select(x.y, y.y, z.y), select(x.z, y.z, z.z),
                select(x.w, y.w, z.w));
  o[2] = as_int4(select(as_float4(x), as_float4(y), z));
  o[3] = bitselect(x, y, z);
  o[4] = as_int4(bitselect(as_float4(x), as_float4(y), as_float4(z)));
  o[5] = (int4)(any(z), all(z), any(z.xy), all(z.xy));
}
)";
#undef XGPU_RELATIONALS

const char* const kNames[14] = {"isequal",     "isnotequal",  "isgreater",     "isgreaterequal",
                                "isless",      "islessequal", "islessgreater", "isfinite",
                                "isinf",       "isnan",       "isnormal",      "isordered",
                                "isunordered", "signbit"};

float from_bits(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

std::uint32_t bits_of(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// The answer of relational `op` (kNames) as true/false, from the bit patterns.
bool relation(int op, float x, float y) {
  const bool unordered = std::isnan(x) || std::isnan(y);
  switch (op) {
    case 0:
      return !unordered && x == y;
    case 1:
      return unordered || x != y;
    case 2:
      return !unordered && x > y;
    case 3:
      return !unordered && x >= y;
    case 4:
      return !unordered && x < y;
    case 5:
      return !unordered && x <= y;
    case 6:
      return !unordered && (x < y || x > y);
    case 7:
      return (bits_of(x) & 0x7f800000u) != 0x7f800000u;
    case 8:
      return (bits_of(x) & 0x7fffffffu) == 0x7f800000u;
    case 9:
      return (bits_of(x) & 0x7fffffffu) > 0x7f800000u;
    case 10: {
      const std::uint32_t exponent = bits_of(x) & 0x7f800000u;
      return exponent != 0 && exponent != 0x7f800000u;
    }
    case 11:
      return !unordered;
    case 12:
      return unordered;
    default:
      return (bits_of(x) >> 31) != 0;
  }
}

std::string show(float x) {
  std::ostringstream text;
  text.precision(9);
  if (std::isnan(x))
    text << (std::signbit(x) ? "-nan" : "nan");
  else
    text << x;
  return text.str();
}

// NaN of both signs, +-0, +-inf, subnormals, the normal extremes, small numbers, then random
// bit patterns (all classes).
std::vector<float> specials() {
  return {from_bits(0x7fc00000u),
          from_bits(0xffc00000u),
          from_bits(0x7f800001u),
          0.0f,
          -0.0f,
          INFINITY,
          -INFINITY,
          from_bits(1),
          from_bits(0x80000001u),
          from_bits(0x007fffffu),
          -FLT_MIN,
          FLT_MIN,
          FLT_MAX,
          -FLT_MAX,
          1.0f,
          -1.0f,
          1.5f,
          std::nextafter(1.0f, 2.0f)};
}

struct Pairs {
  std::vector<float> x, y;
};

// Every pair of special values, then random pairs, to a multiple of 4 (for float4).
Pairs make_pairs(std::size_t n) {
  const std::vector<float> special = specials();
  Pairs p;
  for (float x : special)
    for (float y : special) p.x.push_back(x), p.y.push_back(y);
  std::mt19937 random(4242);
  while (p.x.size() < n || p.x.size() % 4) {
    const float x = from_bits(static_cast<std::uint32_t>(random()));
    p.x.push_back(x);
    p.y.push_back(random() % 3 ? from_bits(static_cast<std::uint32_t>(random())) : x);
  }
  return p;
}

// Checks one answer: `vector` expects -1 for true (the vector rule), else 1. Without
// subnormals either the answer on the inputs or on the inputs flushed to zero is right.
Result check_answer(int op, float x, float y, int got, bool vector, bool subnormals,
                    const std::string& where) {
  const int yes = vector ? -1 : 1;
  const int expected = relation(op, x, y) ? yes : 0;
  if (got == expected) return pass();
  if (!subnormals && got == (relation(op, flushed(x), flushed(y)) ? yes : 0)) return pass();
  const bool binary = op < 7 || op == 11 || op == 12;
  return fail_expected(std::string(kNames[op]) + (vector ? "(float4 " : "(") + show(x) +
                           (binary ? ", " + show(y) : "") + ")" + where,
                       expected, got);
}

Result relationals(Env& env) {
  const Pairs p = make_pairs(env.size(2048, 400));
  const std::size_t n = p.x.size();
  Buffer<float> a = env.context().alloc<float>(n), b = env.context().alloc<float>(n);
  env.queue().write(a, p.x);
  env.queue().write(b, p.y);
  Buffer<int> scalar = env.context().alloc<int>(14 * n), vector = env.context().alloc<int>(14 * n);
  const Program program = env.program("conform_relational.cl", kSource);
  env.queue().launch(program.kernel("scalar"), Range{n}, a, b, scalar);
  env.queue().launch(program.kernel("vector4"), Range{n / 4}, a, b, vector);
  const std::vector<int> got = env.queue().read(scalar), got4 = env.queue().read(vector);
  const bool subnormals = keeps_subnormals(env);
  Deviations deviations(env);
  for (std::size_t i = 0; i < n; ++i) {
    for (int op = 0; op < 14; ++op) {
      Result r = check_answer(op, p.x[i], p.y[i], got[14 * i + op], false, subnormals, "");
      // Vector results: item i / 4 wrote 14 int4, component i % 4 of each.
      if (r.outcome == Outcome::pass)
        r = check_answer(op, p.x[i], p.y[i], got4[4 * (14 * (i / 4) + op) + i % 4], true,
                         subnormals, ", component " + std::to_string(i % 4));
      if (r.outcome != Outcome::pass && !deviations.known(r)) return r;
    }
  }
  return deviations.outcome();
}

// Edge selectors: 0, 1 (non-zero, MSB clear), -1, INT_MIN (MSB alone), INT_MAX, then random.
std::vector<std::int32_t> selector_values(std::size_t n, std::mt19937& random) {
  std::vector<std::int32_t> values = {0,
                                      1,
                                      -1,
                                      std::numeric_limits<std::int32_t>::min(),
                                      std::numeric_limits<std::int32_t>::max(),
                                      0x40000000};
  while (values.size() < n) values.push_back(static_cast<std::int32_t>(random()));
  return values;
}

Result selects(Env& env) {
  std::mt19937 random(99);
  const std::size_t n4 = env.size(256, 32);  // int4 items
  std::vector<std::int32_t> c = selector_values(4 * n4, random), a(4 * n4), b(4 * n4);
  // Shuffle the edge selectors over the components, so all() and any() see mixtures.
  for (std::size_t i = 0; i < 4 * n4; ++i) {
    if (i >= 24 && random() % 2) c[i] = c[random() % 6];
    // Bit 30 clear: never a NaN or infinity as float, which select may not carry bit-exact.
    a[i] = static_cast<std::int32_t>(random() & 0xbfffffffu);
    b[i] = static_cast<std::int32_t>(random() & 0xbfffffffu);
  }
  Buffer<std::int32_t> da = env.context().alloc<std::int32_t>(4 * n4),
                       db = env.context().alloc<std::int32_t>(4 * n4),
                       dc = env.context().alloc<std::int32_t>(4 * n4),
                       dr = env.context().alloc<std::int32_t>(24 * n4);
  env.queue().write(da, a);
  env.queue().write(db, b);
  env.queue().write(dc, c);
  env.queue().launch(env.program("conform_relational.cl", kSource).kernel("selects"), Range{n4}, da,
                     db, dc, dr);
  const std::vector<std::int32_t> got = env.queue().read(dr);
  Deviations deviations(env);
  const char* names[5] = {"select(int4 a, int4 b, int4 c)", "select(int a, int b, int c)",
                          "select(float4 a, float4 b, int4 c)", "bitselect(int4 a, int4 b, int4 c)",
                          "bitselect(float4 a, float4 b, float4 c)"};
  for (std::size_t item = 0; item < n4; ++item) {
    const std::int32_t* o = &got[24 * item];
    bool any = false, all = true;
    for (int k = 0; k < 4; ++k) {
      const std::size_t i = 4 * item + k;
      const bool msb = c[i] < 0;
      any = any || msb;
      all = all && msb;
      const std::uint32_t ua = static_cast<std::uint32_t>(a[i]),
                          ub = static_cast<std::uint32_t>(b[i]),
                          uc = static_cast<std::uint32_t>(c[i]);
      const std::int32_t bitwise = static_cast<std::int32_t>((ua & ~uc) | (ub & uc));
      const std::int32_t expected[5] = {msb ? b[i] : a[i], c[i] != 0 ? b[i] : a[i],
                                        msb ? b[i] : a[i], bitwise, bitwise};
      for (int f = 0; f < 5; ++f) {
        if (o[4 * f + k] == expected[f]) continue;
        const Result r =
            fail_expected(std::string(names[f]) + " with a=" + std::to_string(a[i]) +
                              ", b=" + std::to_string(b[i]) + ", c=" + std::to_string(c[i]),
                          expected[f], o[4 * f + k]);
        if (!deviations.known(r)) return r;
      }
    }
    const bool any2 = c[4 * item] < 0 || c[4 * item + 1] < 0,
               all2 = c[4 * item] < 0 && c[4 * item + 1] < 0;
    const int expected[4] = {any, all, any2, all2};
    const char* reductions[4] = {"any(int4 ", "all(int4 ", "any(int2 ", "all(int2 "};
    for (int k = 0; k < 4; ++k) {
      if (o[20 + k] != expected[k])
        return fail_expected(std::string(reductions[k]) + std::to_string(c[4 * item]) + ", " +
                                 std::to_string(c[4 * item + 1]) + ", " +
                                 std::to_string(c[4 * item + 2]) + ", " +
                                 std::to_string(c[4 * item + 3]) + ")",
                             expected[k], o[20 + k]);
    }
  }
  return deviations.outcome();
}

}  // namespace

void register_relational(Registry& registry) {
  registry.add("relational", "float_scalar_and_float4", "", relationals);
  registry.add("relational", "select_bitselect_any_all", "", selects);
}

}  // namespace xgpu::conform
