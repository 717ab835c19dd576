// The new suites (integer, relational, conversions, vectors, printf, workgroups) shown to fail
// on broken input. Each sabotage below rebuilds one check's kernel with a deliberate mistake
// (Env::sabotage) and runs the check on every device (Oclgrind at quick sizes): it must fail,
// naming the built-in and its input, wherever the intact check runs; a skip for a missing
// capability (ctz on OpenCL C 1.2) is accepted, a skip for a known deviation is not (it would
// mean the deviation list hid the mistake). The workgroups checks skip on PoCL and Oclgrind (no
// non-uniform work-groups, no sub-groups), so their comparisons are fed the observations of a
// broken driver instead.
#include <catch2/catch.hpp>
#include <check.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <workgroups.hpp>

using namespace xgpu::conform;

namespace {

const Check& find_check(const std::string& name) {
  static const Registry registry = all_checks();
  for (const Check& check : registry.checks())
    if (check.suite + "/" + check.name == name) return check;
  FAIL("no check " << name);
  throw;
}

struct Patch {
  std::string from, to;
};

// A fresh Env for `device` (Oclgrind at quick sizes) with `patches` applied to `program`,
// kept while the same sabotage is checked on several checks.
Env& env_for(const xgpu::Device& device, const std::string& program,
             const std::vector<Patch>& patches) {
  // Never destroyed (as in test_conform.cpp): at exit the drivers may be torn down already.
  static auto& envs = *new std::map<std::size_t, std::unique_ptr<Env>>;
  static std::string sabotage;
  std::string key = program;
  for (const Patch& patch : patches) key += '\n' + patch.from + '\n' + patch.to;
  if (key != sabotage) envs.clear(), sabotage = key;
  auto& env = envs[device.index()];
  if (!env) {
    env = std::make_unique<Env>(device, device.info().implementation == "oclgrind");
    for (const Patch& patch : patches) env->sabotage(program, patch.from, patch.to);
  }
  return *env;
}
struct Expected {
  std::string check;   // suite/name
  std::string detail;  // what its failure must say
};

// Builds `program` with every patch (each breaks a different kernel, so one build, costly on
// PoCL, serves several checks) and runs each check on every device.
void expect_broken(const std::string& program, const std::vector<Patch>& patches,
                   const std::vector<Expected>& expectations) {
  for (const Expected& expected : expectations) {
    const Check& check = find_check(expected.check);
    int failed = 0;
    for (const xgpu::Device& device : xgpu::devices()) {
      Env& env = env_for(device, program, patches);
      const Result result = run_check(check, env);
      INFO(device.describe() << " " << expected.check << ": " << outcome_name(result.outcome)
                             << ": " << result.detail);
      if (result.outcome == Outcome::skip) {
        CHECK(result.detail.rfind("known deviation", 0) != 0);
        continue;
      }
      CHECK(result.outcome == Outcome::fail);
      CHECK(result.detail.find(expected.detail) != std::string::npos);
      ++failed;
    }
    CHECK(failed > 0);
  }
}

void expect_broken(const std::string& check, const std::string& program, const std::string& from,
                   const std::string& to, const std::string& detail) {
  expect_broken(program, {{from, to}}, {{check, detail}});
}

}  // namespace

TEST_CASE("integer checks fail on wrong built-ins", "[conform][broken]") {
  expect_broken(
      "conform_integer_builtins.cl",
      {// add_sat replaced by a wrapping add (in every type's kernel);
       {"o[2] = (ulong)add_sat(x, y);", "o[2] = (ulong)(T)(x + y);"},
       // mul24 on int replaced by mul_hi (the first ops24 kernel is int's).
       {"r[2 * i] = (ulong)mul24(a[i], b[i]);", "r[2 * i] = (ulong)mul_hi(a[i], b[i]);"}},
      {{"integer/int_builtins", "add_sat((int)"}, {"integer/mul24_mad24", "mul24((int)"}});
  // rotate turned into a right rotation.
  expect_broken("integer/uchar_builtins", "conform_integer_builtins.cl",
                "o[13] = (ulong)rotate(x, y);", "o[13] = (ulong)rotate(x, (T)-y);",
                "rotate((uchar)");
  // ctz counting from the wrong end (skips where the device has no OpenCL C 2.0).
  expect_broken("integer/ctz", "conform_integer_ctz.cl", "r[i] = (ulong)ctz(a[i]);",
                "r[i] = (ulong)clz(a[i]);", "ctz((char)");
}

TEST_CASE("relational checks fail on wrong answers", "[conform][broken]") {
  // isnan negated in the scalar kernel (its first occurrence).
  expect_broken("relational/float_scalar_and_float4", "conform_relational.cl", "o[9] = isnan(x);",
                "o[9] = !isnan(x);", "isnan(");
  // The float4 kernel answering 1 for true, the scalar rule, instead of -1.
  expect_broken("relational/float_scalar_and_float4", "conform_relational.cl",
                "global int4* o = r + 14 * i;\n  o[0] = isequal(x, y);",
                "global int4* o = r + 14 * i;\n  o[0] = -isequal(x, y);", "isequal(float4 ");
  // Vector select by c != 0 (the scalar rule) instead of each component's top bit.
  expect_broken("relational/select_bitselect_any_all", "conform_relational.cl",
                "o[0] = select(x, y, z);", "o[0] = z != 0 ? y : x;",
                "select(int4 a, int4 b, int4 c)");
}

TEST_CASE("conversion checks fail on wrong conversions", "[conform][broken]") {
  expect_broken("conform_conversions.cl",
                {// _sat dropped from convert_T_sat(float): NaN and out-of-range values wrap;
                 {"o[5] = (ulong)convert_##T##_sat(x);", "o[5] = (ulong)convert_##T(x);"},
                 // convert_float_rte rounding toward zero;
                 {"o[1] = convert_##F##_rte(x);", "o[1] = convert_##F##_rtz(x);"},
                 // convert_short_sat(integer) without _sat: wraps instead of clamping.
                 {"o[2] = (ulong)convert_short_sat(x);", "o[2] = (ulong)convert_short(x);"}},
                {{"conversions/float_to_integer", "convert_char_sat(float "},
                 {"conversions/integer_to_float", "convert_float_rte(int "},
                 {"conversions/integer_to_integer_sat", "convert_short_sat(ushort "}});
}

TEST_CASE("vector checks fail on wrong swizzles, loads and stores", "[conform][broken]") {
  // A reversed swizzle read forwards.
  expect_broken("vectors/swizzles_and_literals", "conform_vectors_swizzle.cl", "v.s3210", "v.s0123",
                "v.s3210 component 0");
  expect_broken("conform_vectors.cl",
                {// vstoren one element early: the misaligned store lands on the element before it;
                 {"vstore##N(v, 0, dst + i * (N + 1) + 1);", "vstore##N(v, 0, dst + i * (N + 1));"},
                 // float3 stored packed (3 elements) where a float3 array has 4-element storage;
                 {"wide[i] = v;", "vstore3(v, i, (global float*)wide);"},
                 // vector comparisons giving 1 (the scalar rule) instead of -1.
                 {"vstore##N(x < y, 5 * i, r);", "vstore##N(-(x < y), 5 * i, r);"}},
                {{"vectors/vload_vstore_misaligned", "vstore2 (float)(v, 0, p + 1)"},
                 {"vectors/float3_size_alignment", "float3 array element 1.x"},
                 {"vectors/componentwise_every_n", "float2 -3.250000 < -1.750000 component 1"}});
}

TEST_CASE("the printf check fails on a wrong format", "[conform][broken]") {
  // %x printed as %d.
  expect_broken("printf/formats_and_vectors", "conform_printf.cl", "x %x X %X", "x %d X %X",
                "missing line 'd -1 u 4000000000 x beef0000 X ABC'");
}

namespace {

// What a driver would record for a 2D launch; `enqueued_as_local` makes get_local_size
// answer get_enqueued_local_size in the last group (a driver ignoring the remainder).
std::vector<std::uint32_t> simulate_ids(const xgpu::Range& global, const xgpu::Range& local,
                                        bool enqueued_as_local) {
  std::vector<std::uint32_t> out;
  for (std::size_t y = 0; y < global.size[1]; ++y) {
    for (std::size_t x = 0; x < global.size[0]; ++x) {
      const std::size_t position[2] = {x, y};
      for (int d = 0; d < 2; ++d) {
        const std::size_t g = global.size[d], l = local.size[d], p = position[d];
        const std::size_t groups = (g + l - 1) / l;
        const bool last = p / l == groups - 1 && g % l;
        const std::size_t size = last && !enqueued_as_local ? g % l : l;
        for (std::size_t v : {p, p % l, p / l, size, l, groups})
          out.push_back(static_cast<std::uint32_t>(v));
      }
    }
  }
  return out;
}

// What a driver would record for sub-groups of `width` items; `whole_group_sum` makes
// sub_group_reduce_add sum the whole work-group.
std::vector<std::int32_t> simulate_sub_groups(std::size_t local, std::size_t width,
                                              const std::vector<std::int32_t>& x,
                                              bool whole_group_sum) {
  std::vector<std::int32_t> out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::size_t group = i / local * local, first = group + (i - group) / width * width;
    std::int32_t sum = 0;
    bool any = false, all = true;
    const std::size_t from = whole_group_sum ? group : first,
                      to = whole_group_sum ? group + local : first + width;
    for (std::size_t j = from; j < to; ++j) sum += x[j];
    for (std::size_t j = first; j < first + width; ++j)
      any = any || x[j] > 100, all = all && x[j] >= 0;
    for (std::size_t v : {width, width, local / width, (i - group) / width, (i - group) % width})
      out.push_back(static_cast<std::int32_t>(v));
    out.push_back(sum);
    out.push_back(x[first]);
    out.push_back(static_cast<std::int32_t>(any) | static_cast<std::int32_t>(all) << 1);
  }
  return out;
}

}  // namespace

TEST_CASE("the workgroups comparisons fail on a broken driver's observations",
          "[conform][broken]") {
  const xgpu::Range global{37, 10}, local{8, 4};
  CHECK(compare_non_uniform(global, local, simulate_ids(global, local, false)).outcome ==
        Outcome::pass);
  // get_local_size replaced by get_enqueued_local_size: the last group claims 8 items, not 5.
  const Result broken = compare_non_uniform(global, local, simulate_ids(global, local, true));
  CHECK(broken.outcome == Outcome::fail);
  CHECK(broken.detail ==
        "get_local_size(0) of item (32, 0) in a 37x10 launch of 8x4 "
        "work-groups: expected 5, got 8");

  std::vector<std::int32_t> x(128);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<std::int32_t>(i * 37 % 211) - 20;
  CHECK(compare_sub_groups(64, x, simulate_sub_groups(64, 16, x, false)).outcome == Outcome::pass);
  // sub_group_reduce_add summing the whole work-group.
  const Result wrong_sum = compare_sub_groups(64, x, simulate_sub_groups(64, 16, x, true));
  CHECK(wrong_sum.outcome == Outcome::fail);
  CHECK(wrong_sum.detail.rfind("sub_group_reduce_add in work-group 0 sub-group 0 item 0", 0) == 0);
  // A sub-group size that does not match the members seen.
  std::vector<std::int32_t> wrong_size = simulate_sub_groups(64, 16, x, false);
  wrong_size[kSubGroupSize] = 32;
  wrong_size[kMaxSubGroupSize] = 32;
  const Result size_result = compare_sub_groups(64, x, wrong_size);
  CHECK(size_result.outcome == Outcome::fail);
  CHECK(size_result.detail.find("get_sub_group_size") != std::string::npos);
}
