// The integer suite: every scalar integer built-in of OpenCL C on all eight widths (char to
// ulong), on edge values (0, 1, -1, MIN, MAX, MIN+1, MAX-1, the sign bit) crossed with each
// other and with random values, against a host reference in 128-bit arithmetic. mul24/mad24
// on int and uint with inputs in their 24-bit range; ctz where the device compiles OpenCL C
// 2.0 or later. Vector forms are the vectors suite's. (CTS: integer_ops.)
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "check.hpp"
#include "integer_reference.hpp"
#include "known_deviations.hpp"
#include "language_version.hpp"

namespace xgpu::conform {
namespace {

// Every result is stored widened to ulong, so sign-extended for signed result types; the
// host compares the low 64 bits of its exact answer. Slot 15 (upsample) has no ulong form.
const char* const kSource = R"(
#define INTEGER_OPS(T, UT, UPSAMPLE) \
kernel void ops_##T(global const T* a, global const T* b, global const T* c, \
                    global ulong* r) { \
  size_t i = get_global_id(0); \
  T x = a[i], y = b[i], z = c[i]; \
  global ulong* o = r + 16 * i; \
  o[0] = (ulong)abs(x); \
  o[1] = (ulong)abs_diff(x, y); \
  o[2] = (ulong)add_sat(x, y); \
  o[3] = (ulong)sub_sat(x, y); \
  o[4] = (ulong)hadd(x, y); \
  o[5] = (ulong)rhadd(x, y); \
  o[6] = (ulong)clamp(x, (T)(y < z ? y : z), (T)(y < z ? z : y)); \
  o[7] = (ulong)clz(x); \
  o[8] = (ulong)mad_hi(x, y, z); \
  o[9] = (ulong)mad_sat(x, y, z); \
  o[10] = (ulong)max(x, y); \
  o[11] = (ulong)min(x, y); \
  o[12] = (ulong)mul_hi(x, y); \
  o[13] = (ulong)rotate(x, y); \
  o[14] = (ulong)popcount(x); \
  o[15] = UPSAMPLE; \
}
INTEGER_OPS(char, uchar, (ulong)upsample(x, (uchar)y))
INTEGER_OPS(uchar, uchar, (ulong)upsample(x, (uchar)y))
INTEGER_OPS(short, ushort, (ulong)upsample(x, (ushort)y))
INTEGER_OPS(ushort, ushort, (ulong)upsample(x, (ushort)y))
INTEGER_OPS(int, uint, (ulong)upsample(x, (uint)y))
INTEGER_OPS(uint, uint, (ulong)upsample(x, (uint)y))
INTEGER_OPS(long, ulong, 0)
INTEGER_OPS(ulong, ulong, 0)

kernel void ops24_int(global const int* a, global const int* b, global const int* c,
                      global ulong* r) {
  size_t i = get_global_id(0);
  r[2 * i] = (ulong)mul24(a[i], b[i]);
  r[2 * i + 1] = (ulong)mad24(a[i], b[i], c[i]);
}
kernel void ops24_uint(global const uint* a, global const uint* b, global const uint* c,
                       global ulong* r) {
  size_t i = get_global_id(0);
  r[2 * i] = (ulong)mul24(a[i], b[i]);
  r[2 * i + 1] = (ulong)mad24(a[i], b[i], c[i]);
}
)";

// ctz is OpenCL C 2.0: its own program, built with -cl-std.
const char* const kCtzSource = R"(
#define CTZ(T) kernel void ctz_##T(global const T* a, global ulong* r) { \
  size_t i = get_global_id(0); \
  r[i] = (ulong)ctz(a[i]); \
}
CTZ(char) CTZ(uchar) CTZ(short) CTZ(ushort) CTZ(int) CTZ(uint) CTZ(long) CTZ(ulong)
)";

const char* const kOpNames[16] = {"abs",    "abs_diff", "add_sat",  "sub_sat", "hadd", "rhadd",
                                  "clamp",  "clz",      "mad_hi",   "mad_sat", "max",  "min",
                                  "mul_hi", "rotate",   "popcount", "upsample"};

// x * y / 2^bits rounded down: signed in 128 bits, unsigned (up to 2^128 - 2^65) unsigned.
Wide mul_hi(const IntType& t, Wide x, Wide y) {
  if (t.is_signed) return (x * y) >> t.bits;  // |x*y| <= 2^126; >> rounds down on GCC/Clang
  return static_cast<Wide>((static_cast<UWide>(x) * static_cast<UWide>(y)) >> t.bits);
}

Wide mad_sat(const IntType& t, Wide x, Wide y, Wide z) {
  if (t.is_signed) return t.saturate(x * y + z);
  const UWide sum = static_cast<UWide>(x) * static_cast<UWide>(y) + static_cast<UWide>(z);
  return sum > static_cast<UWide>(t.max()) ? t.max() : static_cast<Wide>(sum);
}

Wide count_leading_zeros(const IntType& t, Wide x) {
  const UWide bits = t.pattern(x);
  int n = 0;
  for (int bit = t.bits - 1; bit >= 0 && !((bits >> bit) & 1); --bit) ++n;
  return n;
}

Wide count_trailing_zeros(const IntType& t, Wide x) {
  const UWide bits = t.pattern(x);
  int n = 0;
  while (n < t.bits && !((bits >> n) & 1)) ++n;
  return n;
}

Wide rotate_left(const IntType& t, Wide x, Wide y) {
  const int s = static_cast<int>(t.pattern(y) & (t.bits - 1));  // the shift's modulo rule
  const UWide bits = t.pattern(x);
  const UWide mask = (UWide{1} << t.bits) - 1;
  return t.wrap(static_cast<Wide>(s ? ((bits << s) | (bits >> (t.bits - s))) & mask : bits));
}

Wide popcount(const IntType& t, Wide x) {
  int n = 0;
  for (UWide bits = t.pattern(x); bits; bits >>= 1) n += static_cast<int>(bits & 1);
  return n;
}

// The exact answer of operation `op` (kOpNames) for x, y, z of type t, in its result type.
Wide reference(int op, const IntType& t, Wide x, Wide y, Wide z) {
  const Wide lo = y < z ? y : z, hi = y < z ? z : y;
  switch (op) {
    case 0:
      return x < 0 ? -x : x;
    case 1:
      return x > y ? x - y : y - x;
    case 2:
      return t.saturate(x + y);
    case 3:
      return t.saturate(x - y);
    case 4:
      return (x + y) >> 1;
    case 5:
      return (x + y + 1) >> 1;
    case 6:
      return x < lo ? lo : x > hi ? hi : x;
    case 7:
      return count_leading_zeros(t, x);
    case 8:
      return t.wrap(mul_hi(t, x, y) + z);
    case 9:
      return mad_sat(t, x, y, z);
    case 10:
      return x > y ? x : y;
    case 11:
      return x < y ? x : y;
    case 12:
      return mul_hi(t, x, y);
    case 13:
      return rotate_left(t, x, y);
    case 14:
      return popcount(t, x);
    default:
      return x * (Wide{1} << t.bits) + t.as_unsigned().wrap(y);  // upsample
  }
}

struct Inputs {
  std::vector<Wide> x, y, z;
};

// Every pair of edge values, each edge value against random ones (both orders), then random
// pairs, up to n rows; z takes edge and random values in turn.
Inputs make_inputs(const IntType& t, const std::vector<Wide>& edge, std::size_t n,
                   std::uint64_t seed) {
  std::mt19937_64 random(seed);
  Inputs in;
  auto add = [&](Wide x, Wide y) {
    in.x.push_back(x);
    in.y.push_back(y);
    in.z.push_back(in.z.size() % 2 ? edge[in.z.size() / 2 % edge.size()] : random_value(t, random));
  };
  for (Wide x : edge)
    for (Wide y : edge) add(x, y);
  for (Wide e : edge) {
    add(e, random_value(t, random));
    add(random_value(t, random), e);
  }
  while (in.x.size() < n) add(random_value(t, random), random_value(t, random));
  return in;
}

// "add_sat((char)-128, (char)-1)"
std::string call(const char* op, const IntType& t, const std::vector<Wide>& args) {
  std::string s = std::string(op) + "(";
  for (std::size_t i = 0; i < args.size(); ++i)
    s += (i ? ", (" : "(") + std::string(t.name) + ")" + text(args[i]);
  return s + ")";
}

Result compare(const std::string& what, Wide expected, std::uint64_t got) {
  if (static_cast<std::uint64_t>(static_cast<UWide>(expected)) == got) return pass();
  // Read the bits back in a type of the expected value's sign, for a readable message.
  const Wide shown = expected < 0 ? Wide{static_cast<std::int64_t>(got)} : Wide{got};
  return fail_expected(what, text(expected), text(shown));
}

template <class T>
Result builtins(Env& env, const char* name) {
  const IntType t = type_of<T>(name);
  const Inputs in = make_inputs(t, edges(t), env.size(1024, 128), 12345 + t.bits + t.is_signed);
  const std::size_t n = in.x.size();
  Buffer<T> a = upload<T>(env, in.x), b = upload<T>(env, in.y), c = upload<T>(env, in.z);
  Buffer<std::uint64_t> r = env.context().alloc<std::uint64_t>(16 * n);
  const Program program = env.program("conform_integer_builtins.cl", kSource);
  env.queue().launch(program.kernel(std::string("ops_") + name), Range{n}, a, b, c, r);
  const std::vector<std::uint64_t> got = env.queue().read(r);
  const int ops = t.bits == 64 ? 15 : 16;  // no upsample to 128 bits
  Deviations deviations(env);
  for (std::size_t i = 0; i < n; ++i) {
    for (int op = 0; op < ops; ++op) {
      const int arity = op == 0 || op == 7 || op == 14 ? 1 : op == 6 || op == 8 || op == 9 ? 3 : 2;
      std::vector<Wide> args{in.x[i], in.y[i], in.z[i]};
      args.resize(arity);
      const Result result = compare(call(kOpNames[op], t, args),
                                    reference(op, t, in.x[i], in.y[i], in.z[i]), got[16 * i + op]);
      if (result.outcome != Outcome::pass && !deviations.known(result)) return result;
    }
  }
  return deviations.outcome();
}

// mul24/mad24: the product of the low 24 bits, kept to 32 bits, plus z (modulo 2^32).
template <class T>
Result builtins24(Env& env, const char* name) {
  const IntType t = type_of<T>(name);
  const IntType t24{name, 24, t.is_signed};
  Inputs in = make_inputs(t24, edges(t24), env.size(1024, 128), 2424 + t.is_signed);
  for (std::size_t i = 0; i < in.z.size(); i += 3) in.z[i] = t.max() - static_cast<Wide>(i);
  const std::size_t n = in.x.size();
  Buffer<T> a = upload<T>(env, in.x), b = upload<T>(env, in.y), c = upload<T>(env, in.z);
  Buffer<std::uint64_t> r = env.context().alloc<std::uint64_t>(2 * n);
  const Program program = env.program("conform_integer_builtins.cl", kSource);
  env.queue().launch(program.kernel(std::string("ops24_") + name), Range{n}, a, b, c, r);
  const std::vector<std::uint64_t> got = env.queue().read(r);
  for (std::size_t i = 0; i < n; ++i) {
    const Wide x = in.x[i], y = in.y[i], z = in.z[i];
    Result result = compare(call("mul24", t, {x, y}), t.wrap(x * y), got[2 * i]);
    if (result.outcome == Outcome::pass)
      result = compare(call("mad24", t, {x, y, z}), t.wrap(x * y + z), got[2 * i + 1]);
    if (result.outcome != Outcome::pass) return result;
  }
  return pass();
}

Result mul24_mad24(Env& env) {
  const Result signed_result = builtins24<std::int32_t>(env, "int");
  if (signed_result.outcome != Outcome::pass) return signed_result;
  return builtins24<std::uint32_t>(env, "uint");
}

template <class T>
Result ctz_of(Env& env, const Program& program, const char* name) {
  const IntType t = type_of<T>(name);
  Inputs in = make_inputs(t, edges(t), env.size(512, 64), 777 + t.bits);
  for (int bit = 0; bit < t.bits; ++bit) in.x.push_back(t.wrap(Wide{1} << bit));
  const std::size_t n = in.x.size();
  Buffer<T> a = upload<T>(env, in.x);
  Buffer<std::uint64_t> r = env.context().alloc<std::uint64_t>(n);
  env.queue().launch(program.kernel(std::string("ctz_") + name), Range{n}, a, r);
  const std::vector<std::uint64_t> got = env.queue().read(r);
  for (std::size_t i = 0; i < n; ++i) {
    const Result result =
        compare(call("ctz", t, {in.x[i]}), count_trailing_zeros(t, in.x[i]), got[i]);
    if (result.outcome != Outcome::pass) return result;
  }
  return pass();
}

Result ctz(Env& env) {
  const Version version = opencl_c_version(env.info());
  if (version < Version{2, 0})
    return skip("ctz is OpenCL C 2.0; the device compiles OpenCL C " + version.text());
  const Program program = env.program("conform_integer_ctz.cl", kCtzSource, cl_std_option(version));
  for (Result r :
       {ctz_of<std::int8_t>(env, program, "char"), ctz_of<std::uint8_t>(env, program, "uchar"),
        ctz_of<std::int16_t>(env, program, "short"), ctz_of<std::uint16_t>(env, program, "ushort"),
        ctz_of<std::int32_t>(env, program, "int"), ctz_of<std::uint32_t>(env, program, "uint"),
        ctz_of<std::int64_t>(env, program, "long"), ctz_of<std::uint64_t>(env, program, "ulong")}) {
    if (r.outcome != Outcome::pass) return r;
  }
  return pass();
}

}  // namespace

void register_integer(Registry& registry) {
  registry.add("integer", "char_builtins", "",
               [](Env& e) { return builtins<std::int8_t>(e, "char"); });
  registry.add("integer", "uchar_builtins", "",
               [](Env& e) { return builtins<std::uint8_t>(e, "uchar"); });
  registry.add("integer", "short_builtins", "",
               [](Env& e) { return builtins<std::int16_t>(e, "short"); });
  registry.add("integer", "ushort_builtins", "",
               [](Env& e) { return builtins<std::uint16_t>(e, "ushort"); });
  registry.add("integer", "int_builtins", "",
               [](Env& e) { return builtins<std::int32_t>(e, "int"); });
  registry.add("integer", "uint_builtins", "",
               [](Env& e) { return builtins<std::uint32_t>(e, "uint"); });
  registry.add("integer", "long_builtins", "",
               [](Env& e) { return builtins<std::int64_t>(e, "long"); });
  registry.add("integer", "ulong_builtins", "",
               [](Env& e) { return builtins<std::uint64_t>(e, "ulong"); });
  registry.add("integer", "mul24_mad24", "", mul24_mad24);
  registry.add("integer", "ctz", "", ctz);
}

}  // namespace xgpu::conform
