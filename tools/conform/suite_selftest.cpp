// The selftest suite: a check that is wrong on purpose (its host reference expects triple
// where the kernel doubles), never in all_checks(). The runner's tests and the hidden
// `xgpu conform --selftest-failure` use it to prove a failure is reported and fails the run.
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

Result wrong_reference(Env& env) {
  Program program =
      env.program("conform_broken.cl",
                  "kernel void twice(global int* x) { size_t i = get_global_id(0); x[i] *= 2; }\n");
  Buffer<int> data = env.context().alloc<int>(4);
  env.queue().fill(data, 5);
  env.queue().launch(program.kernel("twice"), Range{4}, data);
  const std::vector<int> got = env.queue().read(data);
  if (got[0] != 15) return fail_expected("x[0] after twice", 15, got[0]);  // wrong: 10 is right
  return pass();
}

}  // namespace

void register_selftest(Registry& registry) {
  registry.add("selftest", "wrong_reference", "", wrong_reference);
}

}  // namespace xgpu::conform
