// The seam every "can this check fail?" test uses: Env::sabotage replaces text in a check's
// kernel, and a sabotage that no longer matches the kernel is an error, not a silent pass.
// Each suite's own proofs are in test_broken_<suite>.cpp, tagged [broken].
#include <catch2/catch.hpp>
#include <check.hpp>

using namespace xgpu::conform;

TEST_CASE("a sabotaged kernel is built as patched, and a stale sabotage throws",
          "[conform][broken]") {
  Registry registry;
  register_selftest(registry);  // selftest/wrong_reference expects 15 where the kernel gives 10
  const Check& check = registry.checks().at(0);
  Env env(xgpu::devices().at(0), true);
  // Tripling instead of doubling makes the wrong reference right: proof the patch took.
  CHECK(run_check(check, env).outcome == Outcome::fail);
  env.sabotage("conform_broken.cl", "x[i] *= 2", "x[i] *= 3");
  CHECK(run_check(check, env).outcome == Outcome::pass);
  env.sabotage("conform_broken.cl", "no such text", "");
  const Result stale = run_check(check, env);
  CHECK(stale.outcome == Outcome::fail);
  CHECK(stale.detail.find("'no such text' is not in the program") != std::string::npos);
}
