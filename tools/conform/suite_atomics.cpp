// The atomics suite: every 32-bit global atomic gives the exact total when all work-items
// hit one counter, local atomics do within a work-group, and 64-bit atomics where the
// device has cl_khr_int64_base_atomics.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

// Each kernel: every work-item applies its operation to c[0]; `old` gets what it returned.
const char* const kSource = R"(
#define ID ((int)get_global_id(0))
#define BIT ((int)(1u << (ID % 32)))
#define OP(name, call) \
  kernel void op_##name(volatile global int* c, global int* old) { old[ID] = call; }
OP(add, atomic_add(c, 1))
OP(sub, atomic_sub(c, 2))
OP(xchg, atomic_xchg(c, ID + 1))
OP(min, atomic_min(c, ID * 7 - 50))
OP(max, atomic_max(c, ID * 7 - 50))
OP(inc, atomic_inc(c))
OP(dec, atomic_dec(c))
OP(and, atomic_and(c, ~BIT))
OP(or, atomic_or(c, BIT))
OP(xor, atomic_xor(c, BIT))
kernel void op_cmpxchg(volatile global int* c, global int* old) {
  int seen = *c, prior;
  while ((prior = atomic_cmpxchg(c, seen, seen + 3)) != seen) seen = prior;
  old[ID] = prior;
}
kernel void local_add(global int* sums) {
  local int total;
  if (get_local_id(0) == 0) total = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&total, (int)get_local_id(0) + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) sums[get_group_id(0)] = total;
}
)";

struct Op {
  const char* name;
  int initial;
  int (*expected)(int n);  ///< the counter's final value for n work-items
};

int xor_total(int n) {
  unsigned bits = 0;
  for (int i = 0; i < n; ++i) bits ^= 1u << (i % 32);
  return static_cast<int>(bits);
}

const Op kOps[] = {
    {"add", 5, [](int n) { return 5 + n; }},
    {"sub", 5, [](int n) { return 5 - 2 * n; }},
    {"xchg", 0, nullptr},  // checked as a permutation below
    {"min", 1000, [](int) { return -50; }},
    {"max", -1000, [](int n) { return (n - 1) * 7 - 50; }},
    {"inc", 10, [](int n) { return 10 + n; }},
    {"dec", 10, [](int n) { return 10 - n; }},
    {"and", -1, [](int n) { return n >= 32 ? 0 : static_cast<int>(~((1u << n) - 1u)); }},
    {"or", 0, [](int n) { return n >= 32 ? -1 : static_cast<int>((1u << n) - 1u); }},
    {"xor", 0, xor_total},
    {"cmpxchg", 1, [](int n) { return 1 + 3 * n; }},
};

Result global_op(Env& env, const Op& op) {
  const int n = static_cast<int>(env.size(1024, 96));
  Program program = env.program("conform_atomics.cl", kSource);
  Buffer<int> counter = env.context().alloc<int>(1), old = env.context().alloc<int>(n);
  env.queue().fill(counter, op.initial);
  env.queue().launch(program.kernel(std::string("op_") + op.name), Range{std::size_t(n)}, counter,
                     old);
  int final_value = 0;
  env.queue().read(counter, &final_value);
  std::vector<int> returned = env.queue().read(old);
  if (op.expected) {
    const int expected = op.expected(n);
    if (final_value != expected)
      return fail_expected(
          std::string("atomic_") + op.name + " by " + std::to_string(n) + " work-items", expected,
          final_value);
    return pass();
  }
  // xchg: the old values and the final value are exactly {initial, 1..n}.
  returned.push_back(final_value);
  std::sort(returned.begin(), returned.end());
  for (int i = 0; i <= n; ++i) {
    if (returned[i] != i)
      return fail_expected(
          "atomic_xchg: sorted old values and final value, position " + std::to_string(i), i,
          returned[i]);
  }
  return pass();
}

Result local_atomics(Env& env) {
  const std::size_t wg = std::min<std::size_t>(32, env.info().max_work_group_size);
  const std::size_t groups = env.size(8, 2);
  Buffer<int> sums = env.context().alloc<int>(groups);
  env.queue().launch(env.program("conform_atomics.cl", kSource).kernel("local_add"),
                     Range{wg * groups}, Range{wg}, sums);
  const std::vector<int> got = env.queue().read(sums);
  const int expected = static_cast<int>(wg * (wg + 1) / 2);
  for (std::size_t g = 0; g < groups; ++g) {
    if (got[g] != expected)
      return fail_expected("local atomic_add total of group " + std::to_string(g), expected,
                           got[g]);
  }
  return pass();
}

Result atomics64(Env& env) {
  const char* const text = R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void add64(volatile global long* c) { atom_add(c, 0x100000001L); }
)";
  const std::size_t n = env.size(512, 64);
  Buffer<std::int64_t> counter = env.context().alloc<std::int64_t>(1);
  env.queue().fill(counter, std::int64_t{0});
  env.queue().launch(env.program("conform_atomics64.cl", text).kernel("add64"), Range{n}, counter);
  std::int64_t got = 0;
  env.queue().read(counter, &got);
  const std::int64_t expected = static_cast<std::int64_t>(n) * 0x100000001LL;
  if (got != expected) return fail_expected("atom_add(long)", expected, got);
  return pass();
}

}  // namespace

void register_atomics(Registry& registry) {
  for (const Op& op : kOps) {
    registry.add("atomics", std::string("global_") + op.name, "",
                 [&op](Env& env) { return global_op(env, op); });
  }
  registry.add("atomics", "local_add", "", local_atomics);
  registry.add("atomics", "global_add_64bit", "cl_khr_int64_base_atomics", atomics64);
}

}  // namespace xgpu::conform
