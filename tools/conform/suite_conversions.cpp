// The conversions suite: convert_<type>[_sat][_rte|_rtz|_rtp|_rtn] for float to every integer
// type (NaN to 0 and saturation with _sat, each rounding mode on .5 boundaries, negatives and
// the types' bounds), every integer type to float (values float cannot hold: each rounding
// mode, ties to even), integers to every other integer type with and without _sat, the same
// with double where the device has fp64, and as_<type> reinterpretation. Without _sat an
// out-of-range float is undefined (and an out-of-range signed integer implementation-defined):
// those answers are not checked. (CTS: conversions.)
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "check.hpp"
#include "integer_reference.hpp"
#include "known_deviations.hpp"
#include "rounding.hpp"
#include "subnormals.hpp"

namespace xgpu::conform {
namespace {

// F: a floating type, T: an integer type. Ten answers per input, all widened to ulong:
// convert_T, then _rte _rtz _rtp _rtn, then the same five with _sat.
const char* const kMacros = R"(
#define TO_INTEGER(F, T) \
kernel void F##_to_##T(global const F* a, global ulong* r) { \
  size_t i = get_global_id(0); \
  F x = a[i]; \
  global ulong* o = r + 10 * i; \
  o[0] = (ulong)convert_##T(x); o[1] = (ulong)convert_##T##_rte(x); \
  o[2] = (ulong)convert_##T##_rtz(x); o[3] = (ulong)convert_##T##_rtp(x); \
  o[4] = (ulong)convert_##T##_rtn(x); o[5] = (ulong)convert_##T##_sat(x); \
  o[6] = (ulong)convert_##T##_sat_rte(x); o[7] = (ulong)convert_##T##_sat_rtz(x); \
  o[8] = (ulong)convert_##T##_sat_rtp(x); o[9] = (ulong)convert_##T##_sat_rtn(x); \
}
#define TO_FLOATING(S, F) \
kernel void S##_to_##F(global const S* a, global F* r) { \
  size_t i = get_global_id(0); \
  S x = a[i]; \
  global F* o = r + 5 * i; \
  o[0] = convert_##F(x); o[1] = convert_##F##_rte(x); o[2] = convert_##F##_rtz(x); \
  o[3] = convert_##F##_rtp(x); o[4] = convert_##F##_rtn(x); \
}
)";

const char* const kFloatKernels = R"(
TO_INTEGER(float, char) TO_INTEGER(float, uchar) TO_INTEGER(float, short)
TO_INTEGER(float, ushort) TO_INTEGER(float, int) TO_INTEGER(float, uint)
TO_INTEGER(float, long) TO_INTEGER(float, ulong)
TO_FLOATING(char, float) TO_FLOATING(uchar, float) TO_FLOATING(short, float)
TO_FLOATING(ushort, float) TO_FLOATING(int, float) TO_FLOATING(uint, float)
TO_FLOATING(long, float) TO_FLOATING(ulong, float)

// Every integer type from S, with _sat (0-7) and without (8-15).
#define INTEGERS(S) \
kernel void from_##S(global const S* a, global ulong* r) { \
  size_t i = get_global_id(0); \
  S x = a[i]; \
  global ulong* o = r + 16 * i; \
  o[0] = (ulong)convert_char_sat(x); o[1] = (ulong)convert_uchar_sat(x); \
  o[2] = (ulong)convert_short_sat(x); o[3] = (ulong)convert_ushort_sat(x); \
  o[4] = (ulong)convert_int_sat(x); o[5] = (ulong)convert_uint_sat(x); \
  o[6] = (ulong)convert_long_sat(x); o[7] = (ulong)convert_ulong_sat(x); \
  o[8] = (ulong)convert_char(x); o[9] = (ulong)convert_uchar(x); \
  o[10] = (ulong)convert_short(x); o[11] = (ulong)convert_ushort(x); \
  o[12] = (ulong)convert_int(x); o[13] = (ulong)convert_uint(x); \
  o[14] = (ulong)convert_long(x); o[15] = (ulong)convert_ulong(x); \
}
INTEGERS(short) INTEGERS(ushort) INTEGERS(int) INTEGERS(uint) INTEGERS(long) INTEGERS(ulong)

kernel void reinterpret(global const float* a, global uint* r) {
  size_t i = get_global_id(0);
  float x = a[i];
  r[3 * i] = as_uint(x);
  r[3 * i + 1] = as_uint(as_uchar4(x).wzyx);
  r[3 * i + 2] = as_uint(-as_float(as_uint(x) ^ 0x80000000u));
}
)";

const char* const kDoubleKernels = R"(
TO_INTEGER(double, int) TO_INTEGER(double, uint) TO_INTEGER(double, long)
TO_INTEGER(double, ulong)
TO_FLOATING(double, float) TO_FLOATING(long, double) TO_FLOATING(ulong, double)
TO_FLOATING(int, double)
)";

Program float_program(Env& env) {
  return env.program("conform_conversions.cl", std::string(kMacros) + kFloatKernels);
}

Program double_program(Env& env) {
  return env.program(
      "conform_conversions_double.cl",
      std::string("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n") + kMacros + kDoubleKernels);
}

const IntType kIntegers[] = {{"char", 8, true},     {"uchar", 8, false}, {"short", 16, true},
                             {"ushort", 16, false}, {"int", 32, true},   {"uint", 32, false},
                             {"long", 64, true},    {"ulong", 64, false}};

std::string show(double x) {
  std::ostringstream text;
  text.precision(17);
  text << x;
  return text.str();
}

// "convert_char_sat_rte(float 127.5)"
std::string call(const std::string& dst, int form, const char* src, const std::string& value) {
  const std::string sat = form >= 5 ? "_sat" : "";
  const std::string mode = form % 5 ? kModeSuffix[form % 5 - 1] : "";
  return "convert_" + dst + sat + mode + "(" + src + " " + value + ")";
}

// Floats that test float to integer: NaN, +-0, +-inf, .5 boundaries, every type's bounds and
// their neighbours (+-0.5, +-1), huge values, then random ones of every magnitude.
template <class F>
std::vector<F> floating_inputs(std::size_t n, std::uint64_t seed) {
  std::vector<F> v = {F(NAN),
                      F(0),
                      F(-0.0),
                      F(INFINITY),
                      F(-INFINITY),
                      F(1e30),
                      F(-1e30),
                      std::numeric_limits<F>::max(),
                      std::numeric_limits<F>::denorm_min()};
  for (double h : {0.5, 1.5, 2.5, 3.5, 0.25, 0.75, 1.0, 2.0, 0.49999997, 1e6 + 0.5})
    v.push_back(F(h)), v.push_back(F(-h));
  for (const IntType& t : kIntegers) {
    for (double bound : {double(t.min()), double(t.max())}) {
      for (double d : {-1.0, -0.5, 0.0, 0.5, 1.0}) v.push_back(F(bound + d));
      v.push_back(std::nextafter(F(bound), F(0)));
      v.push_back(std::nextafter(F(bound), -F(bound) * 2));
    }
  }
  std::mt19937_64 random(seed);
  while (v.size() < n) {
    const double magnitude = std::ldexp(1.0, static_cast<int>(random() % 70) - 4);
    const double x = magnitude * (static_cast<double>(random() % 4096) / 4096 + 1);
    // Half of them on a .5 boundary.
    v.push_back(F((random() & 1 ? -1 : 1) * (random() & 2 ? std::floor(x) + 0.5 : x)));
  }
  return v;
}

template <class F>
Result floating_to_integers(Env& env, const Program& program, const char* src,
                            const std::vector<IntType>& types) {
  const std::vector<F> in = floating_inputs<F>(env.size(1024, 160), sizeof(F));
  const std::size_t n = in.size();
  Buffer<F> a = env.context().alloc<F>(n);
  env.queue().write(a, in);
  Deviations deviations(env);
  const bool subnormals = keeps_subnormals(env);
  for (const IntType& t : types) {
    Buffer<std::uint64_t> r = env.context().alloc<std::uint64_t>(10 * n);
    env.queue().launch(program.kernel(std::string(src) + "_to_" + t.name), Range{n}, a, r);
    const std::vector<std::uint64_t> got = env.queue().read(r);
    for (std::size_t i = 0; i < n; ++i) {
      for (int form = 0; form < 10; ++form) {
        // Without subnormals a float subnormal may arrive as 0: then round that instead.
        const bool flush = !subnormals && sizeof(F) == 4 &&
                           std::fpclassify(in[i]) == FP_SUBNORMAL && got[10 * i + form] == 0;
        const double x = flush ? 0.0 : static_cast<double>(in[i]);
        const bool sat = form >= 5;
        const Mode mode = form % 5 ? kModes[form % 5 - 1] : Mode::rtz;  // default: toward 0
        Wide expected = 0;                                              // NaN with _sat
        if (!std::isnan(x)) {
          const double r = std::isinf(x) ? x : round_integral(x, mode);
          if (!sat && !in_range(r, t)) continue;  // undefined without _sat
          expected = saturate_integral(r, t);
        } else if (!sat) {
          continue;
        }
        if (static_cast<std::uint64_t>(static_cast<UWide>(expected)) == got[10 * i + form])
          continue;
        const Wide shown = t.wrap(static_cast<Wide>(got[10 * i + form]));
        const Result failure =
            fail_expected(call(t.name, form, src, show(in[i])), text(expected), text(shown));
        if (!deviations.known(failure)) return failure;
      }
    }
  }
  return deviations.outcome();
}

// Integers that floating types cannot hold: ties (halfway between neighbours) and values
// beside them, above 2^(significand bits); the type's edges; random values.
std::vector<Wide> integer_inputs(const IntType& t, int significand, std::size_t n) {
  std::vector<Wide> v = edges(t);
  std::mt19937_64 random(t.bits * 3 + significand);
  while (v.size() < n) {
    if (t.bits <= significand + 1) {
      v.push_back(random_value(t, random));
      continue;
    }
    const int shift =
        1 + static_cast<int>(random() % (t.bits - significand - (t.is_signed ? 1 : 0)));
    const Wide m =
        static_cast<Wide>(random() >> (64 - significand)) | (Wide{1} << (significand - 1));
    Wide x = (m << shift) + (Wide{1} << (shift - 1)) + static_cast<Wide>(random() % 3) - 1;
    if (x > t.max()) x = t.max() - static_cast<Wide>(random() % 1024);
    v.push_back(t.is_signed && (random() & 1) ? -x : x);
  }
  return v;
}

template <class F>
std::string show_floating(F f) {
  return show(static_cast<double>(f));
}

template <class T, class F>
Result integer_to_floating(Env& env, const Program& program, const IntType& t, const char* dst,
                           Deviations& deviations) {
  const int significand = std::numeric_limits<F>::digits;
  const std::vector<Wide> in = integer_inputs(t, significand, env.size(512, 96));
  const std::size_t n = in.size();
  Buffer<T> a = upload<T>(env, in);
  Buffer<F> r = env.context().alloc<F>(5 * n);
  env.queue().launch(program.kernel(std::string(t.name) + "_to_" + dst), Range{n}, a, r);
  const std::vector<F> got = env.queue().read(r);
  for (std::size_t i = 0; i < n; ++i) {
    for (int form = 0; form < 5; ++form) {
      const F expected = integer_to_floating<F>(in[i], form ? kModes[form - 1] : Mode::rte);
      if (got[5 * i + form] == expected) continue;
      const Result failure =
          fail_expected(call(dst, form, t.name, text(in[i])), show_floating(expected),
                        show_floating(got[5 * i + form]));
      if (!deviations.known(failure)) return failure;
    }
  }
  return pass();
}

Result integers_to_float(Env& env) {
  const Program program = float_program(env);
  Deviations deviations(env);
  for (Result r :
       {integer_to_floating<std::int8_t, float>(env, program, kIntegers[0], "float", deviations),
        integer_to_floating<std::uint8_t, float>(env, program, kIntegers[1], "float", deviations),
        integer_to_floating<std::int16_t, float>(env, program, kIntegers[2], "float", deviations),
        integer_to_floating<std::uint16_t, float>(env, program, kIntegers[3], "float", deviations),
        integer_to_floating<std::int32_t, float>(env, program, kIntegers[4], "float", deviations),
        integer_to_floating<std::uint32_t, float>(env, program, kIntegers[5], "float", deviations),
        integer_to_floating<std::int64_t, float>(env, program, kIntegers[6], "float", deviations),
        integer_to_floating<std::uint64_t, float>(env, program, kIntegers[7], "float",
                                                  deviations)}) {
    if (r.outcome != Outcome::pass) return r;
  }
  return deviations.outcome();
}

Result float_to_integers(Env& env) {
  return floating_to_integers<float>(env, float_program(env), "float",
                                     {std::begin(kIntegers), std::end(kIntegers)});
}

// Integer to integer: _sat clamps; without _sat an unsigned destination takes the value
// modulo 2^bits (C99 6.3.1.3), a signed one is checked only in range.
template <class S>
Result from_integer(Env& env, const Program& program, const IntType& s, Deviations& deviations) {
  std::vector<Wide> in = edges(s);
  for (const IntType& t : kIntegers) {
    for (Wide e : {t.min() - 1, t.min(), t.max(), t.max() + 1})
      if (e >= s.min() && e <= s.max()) in.push_back(e);
  }
  std::mt19937_64 random(s.bits + s.is_signed);
  while (in.size() < env.size(512, 96)) in.push_back(random_value(s, random));
  const std::size_t n = in.size();
  Buffer<S> a = upload<S>(env, in);
  Buffer<std::uint64_t> r = env.context().alloc<std::uint64_t>(16 * n);
  env.queue().launch(program.kernel(std::string("from_") + s.name), Range{n}, a, r);
  const std::vector<std::uint64_t> got = env.queue().read(r);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 16; ++k) {
      const IntType& t = kIntegers[k % 8];
      const bool sat = k < 8;
      const Wide x = in[i];
      if (!sat && t.is_signed && (x < t.min() || x > t.max())) continue;
      const Wide expected = sat ? t.saturate(x) : t.wrap(x);
      if (static_cast<std::uint64_t>(static_cast<UWide>(expected)) == got[16 * i + k]) continue;
      const Result failure = fail_expected(
          "convert_" + std::string(t.name) + (sat ? "_sat(" : "(") + s.name + " " + text(x) + ")",
          text(expected), text(t.wrap(static_cast<Wide>(got[16 * i + k]))));
      if (!deviations.known(failure)) return failure;
    }
  }
  return pass();
}

Result integer_saturation(Env& env) {
  const Program program = float_program(env);
  Deviations deviations(env);
  for (Result r : {from_integer<std::int16_t>(env, program, kIntegers[2], deviations),
                   from_integer<std::uint16_t>(env, program, kIntegers[3], deviations),
                   from_integer<std::int32_t>(env, program, kIntegers[4], deviations),
                   from_integer<std::uint32_t>(env, program, kIntegers[5], deviations),
                   from_integer<std::int64_t>(env, program, kIntegers[6], deviations),
                   from_integer<std::uint64_t>(env, program, kIntegers[7], deviations)}) {
    if (r.outcome != Outcome::pass) return r;
  }
  return deviations.outcome();
}

// as_uint(float), as_uchar4 (bytes reversed by a swizzle), as_float: the bits unchanged.
Result reinterpretation(Env& env) {
  const std::vector<float> in = floating_inputs<float>(env.size(256, 64), 5);
  const std::size_t n = in.size();
  Buffer<float> a = env.context().alloc<float>(n);
  Buffer<std::uint32_t> r = env.context().alloc<std::uint32_t>(3 * n);
  env.queue().write(a, in);
  env.queue().launch(float_program(env).kernel("reinterpret"), Range{n}, a, r);
  const std::vector<std::uint32_t> got = env.queue().read(r);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, &in[i], sizeof bits);
    if (std::isnan(in[i])) continue;  // negation need not keep a NaN's payload
    const std::uint32_t swapped =
        (bits >> 24) | ((bits >> 8) & 0xff00u) | ((bits << 8) & 0xff0000u) | (bits << 24);
    const std::uint32_t expected[3] = {bits, swapped, bits};
    const char* what[3] = {"as_uint(float ", "as_uint(as_uchar4(float ",
                           "as_uint(-as_float(as_uint(x) ^ sign)) for x = "};
    for (int k = 0; k < 3; ++k) {
      if (got[3 * i + k] != expected[k])
        return fail_expected(what[k] + show(in[i]) +
                                 (k == 1   ? ").wzyx)"
                                  : k == 0 ? ")"
                                           : ""),
                             expected[k], got[3 * i + k]);
    }
  }
  return pass();
}

Result double_to_integers(Env& env) {
  return floating_to_integers<double>(env, double_program(env), "double",
                                      {kIntegers[4], kIntegers[5], kIntegers[6], kIntegers[7]});
}

// double to float in each mode: between neighbours, ties, overflow, subnormal results.
Result doubles_to_float(Env& env) {
  std::vector<double> in = {NAN,
                            0.0,
                            -0.0,
                            INFINITY,
                            -INFINITY,
                            0x1p128,
                            -0x1p128,
                            double(FLT_MAX) + 0x1p103,
                            -(double(FLT_MAX) + 0x1p103),
                            0x1p-150,
                            -0x1p-150,
                            0x1p-151,
                            1e-300,
                            1.0 + 0x1p-24,
                            1.0 + 0x1p-23 + 0x1p-24};
  std::mt19937_64 random(64);
  while (in.size() < env.size(1024, 128)) {
    const double m = 1.0 + static_cast<double>(random() >> 11) * 0x1p-53;
    const int e = static_cast<int>(random() % 300) - 150;
    double x = std::ldexp(m, e);
    if (random() % 4 == 0) x = std::ldexp(std::floor(m * 0x1p24) + 0.5, e - 24);  // a tie
    in.push_back(random() & 1 ? -x : x);
  }
  const std::size_t n = in.size();
  Buffer<double> a = env.context().alloc<double>(n);
  Buffer<float> r = env.context().alloc<float>(5 * n);
  env.queue().write(a, in);
  env.queue().launch(double_program(env).kernel("double_to_float"), Range{n}, a, r);
  const std::vector<float> got = env.queue().read(r);
  Deviations deviations(env);
  const bool subnormals = keeps_subnormals(env);
  for (std::size_t i = 0; i < n; ++i) {
    for (int form = 0; form < 5; ++form) {
      const float expected = double_to_float(in[i], form ? kModes[form - 1] : Mode::rte);
      const float g = got[5 * i + form];
      auto same_as = [g](float e) {
        return std::isnan(e) ? std::isnan(g) : g == e && std::signbit(g) == std::signbit(e);
      };
      // Without subnormals a subnormal result may be flushed to zero of its sign.
      if (same_as(expected) || (!subnormals && same_as(flushed(expected)))) continue;
      const Result failure =
          fail_expected(call("float", form, "double", show(in[i])), show(expected), show(g));
      if (!deviations.known(failure)) return failure;
    }
  }
  return deviations.outcome();
}

Result integers_to_double(Env& env) {
  const Program program = double_program(env);
  Deviations deviations(env);
  for (Result r :
       {integer_to_floating<std::int32_t, double>(env, program, kIntegers[4], "double", deviations),
        integer_to_floating<std::int64_t, double>(env, program, kIntegers[6], "double", deviations),
        integer_to_floating<std::uint64_t, double>(env, program, kIntegers[7], "double",
                                                   deviations)}) {
    if (r.outcome != Outcome::pass) return r;
  }
  return deviations.outcome();
}

}  // namespace

void register_conversions(Registry& registry) {
  registry.add("conversions", "float_to_integer", "", float_to_integers);
  registry.add("conversions", "integer_to_float", "", integers_to_float);
  registry.add("conversions", "integer_to_integer_sat", "", integer_saturation);
  registry.add("conversions", "as_type", "", reinterpretation);
  registry.add("conversions", "double_to_integer", "fp64", double_to_integers);
  registry.add("conversions", "double_to_float", "fp64", doubles_to_float);
  registry.add("conversions", "integer_to_double", "fp64", integers_to_double);
}

}  // namespace xgpu::conform
