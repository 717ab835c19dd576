// Proof that library/softmax_rows can fail: softmax.cl's one-item-per-row kernel made to
// divide by a sum 2e-5 too large (about 170 float eps, over the check's bound of some
// tens of eps for these rows), on every device.
#include <catch2/catch.hpp>
#include <check.hpp>

using namespace xgpu::conform;

namespace {

const Check& library_check(const Registry& registry, const std::string& name) {
  for (const Check& check : registry.checks())
    if (check.suite == "library" && check.name == name) return check;
  throw std::logic_error("no check library/" + name);
}

}  // namespace

TEST_CASE("library/softmax_rows fails on a kernel whose row sum is off", "[conform][broken]") {
  const Registry registry = all_checks();
  const Check& check = library_check(registry, "softmax_rows");
  for (const xgpu::Device& device : xgpu::devices()) {
    INFO(device.describe());
    Env env(device, true);
    REQUIRE(run_check(check, env).outcome == Outcome::pass);
    // The per-item kernel's row sum, once compensated, made 20 ppm too large.
    env.sabotage("softmax.cl float", "  sum -= carry;\n", "  sum -= carry;\n  sum *= 1.00002f;\n");
    const Result broken = run_check(check, env);
    CHECK(broken.outcome == Outcome::fail);
    CHECK(broken.detail.find("xgpu_softmax_rows_item") != std::string::npos);
  }
}
