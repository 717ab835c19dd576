// The math and half checks broken on purpose: each wrong kernel (Env::sabotage) or lying
// input below must turn a passing check into a failure (or, for the precision probe, into a
// refusal). Runs on every device: PoCL at full size, Oclgrind at quick size.
#include <catch2/catch.hpp>
#include <check.hpp>
#include <climits>
#include <cmath>
#include <math_check.hpp>
#include <math_references.hpp>
#include <random>
#include <string>
#include <vector>

using namespace xgpu::conform;

namespace {

const Check& find_check(const Registry& registry, const std::string& name) {
  for (const Check& check : registry.checks())
    if (check.suite + "/" + check.name == name) return check;
  throw std::logic_error("no check " + name);
}

const Registry& registry() {
  static const Registry all = all_checks();
  return all;
}

bool quick_for(const xgpu::Device& device) { return device.info().implementation == "oclgrind"; }

// Runs `check` on a fresh Env of every device: it passes, then fails once `program` has
// `from` replaced by `to`; the failure's detail must contain `mentions`.
void expect_sabotage_fails(const std::string& check_name, const std::string& program,
                           const std::string& from, const std::string& to,
                           const std::string& mentions = {}) {
  const Check& check = find_check(registry(), check_name);
  for (const xgpu::Device& device : xgpu::devices()) {
    INFO(device.describe() << " " << check_name);
    Env env(device, quick_for(device));
    const Result good = run_check(check, env);
    INFO("unbroken: " << good.detail);
    CHECK(good.outcome != Outcome::fail);
    env.sabotage(program, from, to);
    const Result broken = run_check(check, env);
    INFO("broken: " << broken.detail);
    CHECK(broken.outcome == Outcome::fail);
    CHECK(broken.detail.find(mentions) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("sin with a sloppy argument reduction for large |a| fails", "[conform][broken]") {
  // Broken: a relative error of 1e-6 in the reduced argument, only above 1e4 (the hard cases
  // k*pi/2 up to k = 2^20 and 1e5..1e30 are there; the uniform samples are not).
  expect_sabotage_fails("math/float_sin", "conform_math_float.cl", "r_[i] = sin(a);",
                        "r_[i] = fabs(a) > 1e4f ? sin(a - 1e-6f * a) : sin(a);", "sin(a)");
}

TEST_CASE("pow with a wrong special case fails", "[conform][broken]") {
  // Broken: pow(-1, +-inf) gives NaN instead of 1 (C99 Annex F), a pair only the special-case
  // table holds.
  expect_sabotage_fails("math/float_pow", "conform_math_float.cl", "r_[i] = pow(a, b);",
                        "r_[i] = (a == -1.0f && isinf(b)) ? NAN : pow(a, b);",
                        "a=-1 (-0x1p+0), b=inf");
}

TEST_CASE("exp overflowing early and log losing digits near 1 fail", "[conform][broken]") {
  // Broken: exp gives inf from 88.7 (below log(FLT_MAX) = 88.7228).
  expect_sabotage_fails("math/float_exp", "conform_math_float.cl", "r_[i] = exp(a);",
                        "r_[i] = a > 88.7f ? INFINITY : exp(a);", "expected");
  // Broken: log computed as log2(a) * ln 2 in float, which loses the low digits near 1.
  expect_sabotage_fails("math/float_log", "conform_math_float.cl", "r_[i] = log(a);",
                        "r_[i] = fabs(a - 1.0f) < 1e-3f ? (a - 1.0f) * 1.001f : log(a);");
}

TEST_CASE("vstore_half_rte rounding toward zero fails", "[conform][broken]") {
  // Broken: the round-to-nearest-even kernel truncates instead.
  expect_sabotage_fails("math/half_vstore_rte_boundaries", "conform_half.cl",
                        "vstore_half_rte(f[i]", "vstore_half_rtz(f[i]", "store_rte");
  // Broken: rtp rounds to nearest instead of up.
  expect_sabotage_fails("math/half_vstore_rtp_boundaries", "conform_half.cl",
                        "vstore_half_rtp(f[i]", "vstore_half_rte(f[i]", "store_rtp");
}

TEST_CASE("vload_half flushing subnormal halves fails", "[conform][broken]") {
  // Broken: subnormal halves (exponent field 0) read as zero.
  expect_sabotage_fails(
      "math/half_vload_every_value", "conform_half.cl",
      "f[i] = vload_half(i, (global const half*)h);",
      "f[i] = (h[i] & 0x7c00) == 0 ? 0.0f : vload_half(i, (global const half*)h);", "vload_half");
}

TEST_CASE("the half reference rounds as IEEE 754 says", "[conform][broken]") {
  using math::float_to_half_bits;
  using math::HalfRounding;
  const auto bits = [](float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  };
  CHECK(float_to_half_bits(bits(65520.0f), HalfRounding::rte) == 0x7c00);  // halfway to 2^16
  CHECK(float_to_half_bits(bits(65520.0f), HalfRounding::rtz) == 0x7bff);
  CHECK(float_to_half_bits(bits(-65520.0f), HalfRounding::rtp) == 0xfbff);
  CHECK(float_to_half_bits(bits(-65520.0f), HalfRounding::rtn) == 0xfc00);
  CHECK(float_to_half_bits(bits(1.0f + 0x1p-11f), HalfRounding::rte) == 0x3c00);  // tie: even
  CHECK(float_to_half_bits(bits(1.0f + 3 * 0x1p-11f), HalfRounding::rte) == 0x3c02);
  CHECK(float_to_half_bits(bits(0x1p-25f), HalfRounding::rte) == 0x0000);  // tie with 0
  CHECK(float_to_half_bits(bits(0x1p-25f), HalfRounding::rtp) == 0x0001);
  CHECK(float_to_half_bits(bits(0x1.8p-25f), HalfRounding::rte) == 0x0001);
  CHECK(float_to_half_bits(bits(0x1.ff8p-15f), HalfRounding::rte) == 0x03ff);  // largest subnormal
  CHECK(float_to_half_bits(bits(0x1.ffcp-15f), HalfRounding::rte) ==
        0x0400);  // tie: carries to normal
  CHECK(float_to_half_bits(bits(0x1.ffcp-15f), HalfRounding::rtz) == 0x03ff);
  CHECK(math::half_to_float_bits(0x0001) == bits(0x1p-24f));
  CHECK(math::half_to_float_bits(0xfbff) == bits(-65504.0f));
  // A lying reference (rte taken for rtz) disagrees on the boundaries the check uses.
  std::size_t differ = 0;
  for (float f : math::half_rounding_boundaries(97))
    differ += float_to_half_bits(bits(f), HalfRounding::rte) !=
              float_to_half_bits(bits(f), HalfRounding::rtz);
  CHECK(differ > 100);
}

TEST_CASE("a long double no wider than double refuses double precision", "[conform][broken]") {
  // The probe's lying answers: digits claimed but no extra bit seen, and plain double.
  CHECK(math::double_reference_missing({64, false}).find("no wider than double") !=
        std::string::npos);
  CHECK(!math::double_reference_missing({53, true}).empty());
  INFO("this host: " << math::host_long_double().digits << " digits");
#if defined(__x86_64__) || defined(__i386__)
  CHECK(math::double_reference_missing(math::host_long_double()).empty());
#endif
  const math::Function f = {"dsqrt",
                            "sqrt(a)",
                            1,
                            0,
                            0,
                            100,
                            [](long double a, long double, long double) { return sqrtl(a); }};
  for (const xgpu::Device& device : xgpu::devices()) {
    if (!missing_capability("fp64", device.info()).empty()) continue;
    Env env(device, true);
    const xgpu::Program program = env.program(
        "conform_broken_double.cl",
        math::program_text({f}, "double", "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"));
    CHECK(math::check_double_function(env, program, f, {64, true}).outcome == Outcome::pass);
    const Result refused = math::check_double_function(env, program, f, {53, false});
    CHECK(refused.outcome == Outcome::skip);
    CHECK(refused.detail.find("no reference for double precision") != std::string::npos);
  }
}

TEST_CASE("--full over a reduced range: passes, reports progress, and fails on a wrong kernel",
          "[conform][broken]") {
  const Check& check = find_check(registry(), "math/float_log");
  for (const xgpu::Device& device : xgpu::devices()) {
    INFO(device.describe());
    Env env(device, quick_for(device));
    // Every float from 1.0 up 2^16 (quick: 2^12) ulp, in batches of 2^12: log near 1.
    env.exhaustive().on = true;
    env.exhaustive().first = 0x3f800000;
    env.exhaustive().end = 0x3f800000 + (quick_for(device) ? 1u << 12 : 1u << 16);
    env.exhaustive().batch = 1u << 12;
    double last = 0;
    int calls = 0;
    env.exhaustive().progress = [&](const std::string& name, double fraction) {
      CHECK(name == "float_log");
      CHECK(fraction > last);
      last = fraction, ++calls;
    };
    const Result good = run_check(check, env);
    INFO(good.detail);
    CHECK(good.outcome == Outcome::pass);
    CHECK(last == 1.0);
    CHECK(calls == (quick_for(device) ? 1 : 16));
    env.exhaustive().progress = nullptr;
    // Broken: log off by 2^-20 for inputs above 1 + 2^-12 (about 2^11 ulp there).
    env.sabotage("conform_math_exhaustive.cl", "r_[i] = log(a);",
                 "r_[i] = log(a) + (a > 1.000244140625f ? 0x1p-20f : 0.0f);");
    const Result broken = run_check(check, env);
    INFO(broken.detail);
    CHECK(broken.outcome == Outcome::fail);
    CHECK(broken.detail.find("of " + std::to_string(env.exhaustive().end - env.exhaustive().first) +
                             " inputs") != std::string::npos);
  }
}

TEST_CASE("every single-precision table entry fails when its results are 1 % off",
          "[conform][broken]") {
  // Broken: each entry's expression multiplied by 1.01f, all in one program (quick sizes),
  // on one device: the simulator where there is one (PoCL compiles 85 kernels slowly); the
  // judging is the host's, the same for every device. Only
  // lgamma, for which the spec gives no bound (only NaN and infinities are judged), may pass.
  std::vector<math::Function> broken = math::float_function_table();
  std::vector<std::string> expressions;
  for (const math::Function& f : broken)
    expressions.push_back(std::string("(") + f.expr + ") * 1.01f");
  for (std::size_t i = 0; i < broken.size(); ++i) broken[i].expr = expressions[i].c_str();
  std::vector<xgpu::Device> devices = xgpu::devices();
  for (const xgpu::Device& device : devices)
    if (device.info().implementation == "oclgrind") devices = {device};
  for (const xgpu::Device& device : {devices.at(0)}) {
    Env env(device, true);
    const xgpu::Program program = env.program(
        "conform_broken_table.cl", math::program_text(broken, "float", math::kFloatPrelude));
    for (const math::Function& f : broken) {
      INFO(device.describe() << " " << f.name);
      const Result result = math::check_function<float>(env, program, f);
      if (f.ulp == math::kAnyUlp)
        CHECK(result.outcome == Outcome::pass);
      else
        CHECK(result.outcome == Outcome::fail);
    }
  }
}

TEST_CASE("samples are exponent-uniform over the domain", "[conform][broken]") {
  // Uniform sampling of [1e-30, 1e30] (the lying sampler this replaced) puts 99.9 % of the
  // samples above 1e27; half of ours are exponent-uniform, a quarter uniform, a quarter bits.
  const std::vector<float> values = math::sample<float>(4096, 1e-30, 1e30, 7);
  std::size_t below_one = 0, above = 0;
  for (float v : values) below_one += v > 0 && v<1, above += v> 1e27f;
  CHECK(below_one > values.size() / 5);
  std::mt19937_64 random(1);
  std::size_t uniform_below_one = 0;
  std::uniform_real_distribution<double> uniform(1e-30, 1e30);
  for (int i = 0; i < 4096; ++i) uniform_below_one += uniform(random) < 1;
  CHECK(uniform_below_one == 0);
  // Every sample of a domain-only draw lies in the domain.
  for (float v : math::sample<float>(1024, 1e-3, 64, 9, true)) CHECK((v >= 1e-3f && v <= 64));
}

TEST_CASE("a known deviation excuses only its own check on its own implementation",
          "[conform][broken]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    Env env(device, true);
    const std::string implementation = device.info().implementation;
    // A failure of a check no deviation names stays a failure everywhere.
    CHECK(math::with_known_deviation(env, "float_sin", fail("x")).outcome == Outcome::fail);
    // Oclgrind's sinpi deviation is excused on Oclgrind only, and a pass stays a pass.
    const Outcome sinpi = math::with_known_deviation(env, "float_sinpi", fail("x")).outcome;
    CHECK(sinpi == (implementation == "oclgrind" ? Outcome::skip : Outcome::fail));
    CHECK(math::with_known_deviation(env, "float_sinpi", pass()).outcome == Outcome::pass);
  }
}

TEST_CASE("the references follow C99 Annex F and the OpenCL special cases", "[conform][broken]") {
  namespace ref = math::ref;
  const long double inf = INFINITY, nan = NAN;
  // pow: the host's powl is the reference of the special-case table.
  CHECK(powl(-1, inf) == 1);
  CHECK(powl(-1, -inf) == 1);
  CHECK(powl(1, nan) == 1);
  CHECK(powl(nan, 0) == 1);
  CHECK(std::isnan(powl(-2, 0.5L)));
  CHECK((powl(-0.0L, -3) == -inf));
  CHECK(powl(-0.0L, -2) == inf);
  CHECK(powl(0.5L, -inf) == inf);
  CHECK(powl(2, -inf) == 0);
  // powr, rootn, pown: OpenCL's own special cases.
  CHECK(std::isnan(ref::powr(-2, 2)));
  CHECK(std::isnan(ref::powr(0, 0)));
  CHECK(std::isnan(ref::powr(1, inf)));
  CHECK(ref::powr(0, -1) == inf);
  CHECK(ref::rootn(-8, 3) == Approx(-2));
  CHECK(std::isnan(ref::rootn(-8, 2)));
  CHECK(std::isnan(ref::rootn(8, 0)));
  CHECK((ref::rootn(-0.0L, -3) == -inf));
  CHECK(ref::pown(nan, 0) == 1);
  // The pi functions: exact zeros, +0 for cospi(n + 1/2), tanpi's signed poles.
  CHECK(ref::sinpi(1e6L) == 0);
  CHECK(ref::sinpi(0.5L) == 1);
  CHECK(ref::cospi(2.5L) == 0);
  CHECK(!std::signbit(ref::cospi(1.5L)));
  CHECK(ref::tanpi(0.5L) == inf);
  CHECK(ref::tanpi(1.5L) == -inf);
  CHECK(ref::sinpi(0x1.8p-1L) == Approx(std::sqrt(0.5L)));
  // Two-result helpers.
  CHECK(ref::remquo_quotient(7, 2) == 4);  // 7/2 = 3.5 rounds to even 4: low bits 4
  CHECK(ref::remquo_quotient(-7, 2) == -4);
  CHECK(ref::gamma_sign(-0.5L) == -1);
  CHECK(ref::gamma_sign(-1.5L) == 1);
  CHECK(ref::fract_fraction(-1e-30L) == 0x1.fffffep-1L);
  CHECK(ref::ilogb_value(0) == -inf);
  CHECK(ref::saturated_int(nan) == 0);
  CHECK(ref::saturated_int(-1e20L) == INT_MIN);
}
