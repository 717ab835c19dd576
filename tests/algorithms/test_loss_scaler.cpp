// xgpu::LossScaler against a host model of GradScaler's rule over scripted runs of clean and
// overflowing steps (growth, backoff, skipped steps, growth that would overflow the scale),
// with gradients of float, half and bfloat16 in one step and the non-finite value at the
// first, a middle and the last element (the kernels' partial blocks); the defaults over 2000
// clean steps; one flag read back per step and one launch per buffer, counted in the trace;
// and the errors of misuse.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "test_support.hpp"

using xgpu::bfloat16;
using xgpu::half;
using xgpu::LossScaler;
using xgpu::LossScalerOptions;
using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::element_of;
using xgpu_test::is_pocl;
using xgpu_test::type_name;
using xgpu_test::value_of;

namespace {

/// GradScaler's update rule, written again from its definition (torch._amp_update_scale_).
struct Model {
  float scale;
  int tracker = 0;
  LossScalerOptions options;
  void update(bool found_inf) {
    if (found_inf) {
      scale *= options.backoff_factor;
      tracker = 0;
      return;
    }
    if (++tracker == options.growth_interval) {
      if (std::isfinite(scale * options.growth_factor)) scale *= options.growth_factor;
      tracker = 0;
    }
  }
};

/// A step of the script: clean, or one non-finite value at `index` of gradient `buffer`.
struct Step {
  int buffer = -1;  // -1: clean
  std::size_t index = 0;
  float value = 0;
};

/// A gradient of T: its scaled values as uploaded, and the buffer.
template <class T>
struct Grad {
  std::vector<T> host;
  xgpu::Buffer<T> device;
};

/// Fills a gradient with what a backward pass of the loss scaled by `scale` would give
/// (random values in [-1, 1) times the scale, stored as T), poisoned as the step says.
template <class T>
void make_gradient(xgpu::Context& context, xgpu::Queue& queue, Grad<T>& g, std::size_t n,
                   unsigned seed, float scale, const Step& step, int which) {
  g.host = xgpu_test::random_values<T>(n, seed, -1, 1);
  // Half holds up to 65504: its gradients stay below 1024 whatever the scale.
  const float magnitude = std::is_same_v<T, half> ? std::min(scale, 1024.0f) : scale;
  for (T& v : g.host) v = element_of<T>(value_of(v) * magnitude);
  if (step.buffer == which) g.host[step.index] = element_of<T>(step.value);
  if (g.device.size() != n) g.device = context.alloc<T>(n);
  queue.write(g.device, g.host);
}

/// Every element unscaled: the stored value times 1 / scale in float, rounded to T once;
/// a non-finite value stays non-finite.
template <class T>
void check_unscaled(xgpu::Queue& queue, const Grad<T>& g, float scale) {
  INFO(type_name<T>() << " gradient of " << g.host.size());
  const std::vector<T> got = queue.read(g.device);
  const float inv = static_cast<float>(1.0 / scale);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const float before = value_of(g.host[i]), after = value_of(got[i]);
    const bool good = std::isfinite(before) ? after == value_of(element_of<T>(before * inv))
                                            : !std::isfinite(after);
    if (!good && wrong++ < 3) FAIL_CHECK("[" << i << "] " << before << " became " << after);
  }
  CHECK(wrong == 0);
}

/// Runs `script` on one device with the scaler and the model side by side.
void run_script(const xgpu::Device& device, const LossScalerOptions& options,
                const std::vector<Step>& script, const std::size_t (&sizes)[3]) {
  xgpu::Context context(device);
  xgpu::Queue queue = context.queue();
  LossScaler scaler(options);
  Model model{options.init_scale, 0, options};
  Grad<float> g0;
  Grad<half> g1;
  Grad<bfloat16> g2;
  unsigned seed = 1;
  std::size_t skipped = 0;
  for (std::size_t s = 0; s < script.size(); ++s) {
    const Step& step = script[s];
    INFO("step " << s << (step.buffer < 0 ? " (clean)" : " (overflow)") << ", scale "
                 << model.scale);
    const float scale = scaler.get_scale();
    REQUIRE(scale == model.scale);
    CHECK(scaler.scale(3.0f) == 3.0f * model.scale);
    make_gradient(context, queue, g0, sizes[0], seed++, scale, step, 0);
    make_gradient(context, queue, g1, sizes[1], seed++, scale, step, 1);
    make_gradient(context, queue, g2, sizes[2], seed++, scale, step, 2);
    scaler.unscale(queue, g0.device, g1.device, g2.device);
    const bool ok = scaler.step_ok();
    CHECK(ok == (step.buffer < 0));
    CHECK(scaler.step_ok() == ok);  // asked again: the same answer
    skipped += !ok;
    check_unscaled(queue, g0, scale);
    check_unscaled(queue, g1, scale);
    check_unscaled(queue, g2, scale);
    scaler.update();
    model.update(!ok);
    CHECK(scaler.get_scale() == model.scale);
    CHECK(scaler.growth_tracker() == model.tracker);
  }
  std::size_t overflows = 0;
  for (const Step& step : script) overflows += step.buffer >= 0;
  CHECK(skipped == overflows);
}

}  // namespace

TEST_CASE("LossScaler: GradScaler's defaults, options and the disabled scaler", "[loss_scaler]") {
  const LossScaler scaler;
  CHECK(scaler.get_scale() == 65536.0f);
  CHECK(scaler.options().growth_factor == 2.0f);
  CHECK(scaler.options().backoff_factor == 0.5f);
  CHECK(scaler.options().growth_interval == 2000);
  CHECK(scaler.growth_tracker() == 0);
  CHECK(scaler.scale(0.5f) == 32768.0f);
  const auto refused = [](LossScalerOptions o, const char* name) {
    check_error(capture_error([&] { LossScaler bad(o); }), xgpu::Errc::invalid_argument,
                {"xgpu::LossScaler", name});
  };
  refused({0.0f}, "init_scale");
  refused({std::numeric_limits<float>::infinity()}, "init_scale");
  refused({1.0f, 1.0f}, "growth_factor");
  refused({1.0f, 2.0f, 1.0f}, "backoff_factor");
  refused({1.0f, 2.0f, 0.5f, 0}, "growth_interval");

  LossScalerOptions off;
  off.enabled = false;
  LossScaler disabled(off);
  CHECK(disabled.get_scale() == 1.0f);
  CHECK(disabled.scale(0.25f) == 0.25f);
  CHECK(disabled.step_ok());  // no unscale needed
  CHECK_NOTHROW(disabled.update());
}

TEST_CASE("LossScaler: a scripted run against the host model, every device", "[loss_scaler]") {
  LossScalerOptions options;
  options.init_scale = 1024.0f;
  options.growth_interval = 3;
  const float inf = std::numeric_limits<float>::infinity(), nan = std::nanf("");
  // Sizes with partial blocks of 16; the poisoned element at the start, middle and end.
  const std::size_t sizes[3] = {1003, 517, 33};
  const std::vector<Step> script{
      {},
      {},
      {},  // three clean steps: the scale grows
      {},
      {1, 516, inf},  // overflow in half's last element: back off, skip
      {},
      {},
      {0, 0, nan},  // NaN in float's first element, after two clean steps
      {},
      {},
      {},             // grows again
      {2, 17, -inf},  // bfloat16, a middle element
      {2, 32, nan},
      {0, 1002, inf},  // overflows in a row: the scale keeps halving
      {},
      {},
      {},
      {}};
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) { run_script(device, options, script, sizes); }
  }
}

TEST_CASE("LossScaler: a growth that would overflow keeps the scale", "[loss_scaler]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      LossScalerOptions options;
      options.init_scale = 0x1p127f;  // doubling it overflows float
      options.growth_interval = 2;
      const std::size_t sizes[3] = {5, 3, 1};
      run_script(device, options, {{}, {}, {}, {}, {1, 0, std::nanf("")}, {}, {}}, sizes);
    }
  }
}

TEST_CASE("LossScaler: a view at an odd offset is unscaled, its neighbours untouched",
          "[loss_scaler]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      LossScalerOptions options;
      options.init_scale = 4.0f;
      LossScaler scaler(options);
      auto grad = xgpu_test::upload(context, queue, std::vector<float>{8, 8, 8, 8, 8, 8, 8});
      scaler.unscale(queue, grad.view(1, 5));  // not on the base-address alignment
      CHECK(scaler.step_ok());
      CHECK(queue.read(grad) == std::vector<float>{8, 2, 2, 2, 2, 2, 8});
    }
  }
}

TEST_CASE("LossScaler: the defaults over 2000 clean steps (PoCL)", "[loss_scaler]") {
  xgpu_test::for_each_pocl_device([](const xgpu::Device& device) {
    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();
    LossScaler scaler;
    auto grad = context.alloc<float>(1);
    for (int step = 1; step <= 2000; ++step) {
      queue.fill(grad, 1.0f);
      scaler.unscale(queue, grad);
      REQUIRE(scaler.step_ok());
      scaler.update();
      if (step == 1999) {
        CHECK(scaler.get_scale() == 65536.0f);
        CHECK(scaler.growth_tracker() == 1999);
      }
    }
    CHECK(scaler.get_scale() == 131072.0f);
    CHECK(scaler.growth_tracker() == 0);
    queue.fill(grad, std::numeric_limits<float>::infinity());
    scaler.unscale(queue, grad);
    scaler.update();  // reads the flag itself
    CHECK(scaler.get_scale() == 65536.0f);
  });
}

TEST_CASE("LossScaler: one flag read per step, one launch per buffer", "[loss_scaler]") {
  xgpu_test::for_each_pocl_device([](const xgpu::Device& device) {
    xgpu::Context context(device);
    xgpu::Queue queue = context.queue();
    LossScaler scaler;
    std::vector<xgpu::Buffer<float>> grads;
    for (std::size_t n : {100, 1000, 10000, 7}) {
      grads.push_back(context.alloc<float>(n));
      queue.fill(grads.back(), 2.0f);
    }
    auto halves = context.alloc<half>(64);
    queue.fill(halves, xgpu::to_half(3.0f));
    // A warm-up step builds the kernels, outside the trace.
    scaler.unscale(queue, grads);
    scaler.unscale(queue, halves);
    scaler.update();
    queue.finish();

    const std::string path = (std::filesystem::temp_directory_path() /
                              ("xgpu-test-" + std::to_string(::getpid()) + "-scaler.json"))
                                 .string();
    xgpu::trace::start(path);
    scaler.unscale(queue, grads);
    scaler.unscale(queue, halves);
    CHECK(scaler.step_ok());
    scaler.update();
    xgpu::trace::stop();
    std::ifstream in(path);
    const nlohmann::json trace = nlohmann::json::parse(in);
    std::filesystem::remove(path);
    std::size_t launches = 0, reads = 0, fills = 0;
    for (const nlohmann::json& event : trace["traceEvents"]) {
      if (event.value("ph", "") != "X") continue;
      const std::string category = event.value("cat", "");
      launches += category == "launch" && event.value("name", "") == "xgpu_unscale";
      fills += category == "fill";
      reads += category == "copy" && event["args"].value("direction", "") == "device to host";
    }
    CHECK(launches == 5);  // one per buffer
    CHECK(fills == 1);     // the flag, reset once
    CHECK(reads == 1);     // the flag, read once
  });
}

TEST_CASE("LossScaler: scaling a loss buffer, and misuse", "[loss_scaler]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      LossScaler scaler;
      auto loss = xgpu_test::upload(context, queue, std::vector<float>{0.5f, -2.0f});
      scaler.scale(queue, loss);
      CHECK(queue.read(loss) == std::vector<float>{32768.0f, -131072.0f});
      auto halves = xgpu_test::upload(context, queue, std::vector<half>{xgpu::to_half(1e-3f)});
      scaler.scale(queue, halves);
      CHECK(queue.read(halves)[0] == xgpu::to_half(xgpu::to_float(xgpu::to_half(1e-3f)) * 65536));

      const auto mistake = [](auto&& action, std::vector<std::string> mentions) {
        check_error(capture_error(action), xgpu::Errc::invalid_argument, mentions);
      };
      mistake([&] { scaler.step_ok(); }, {"step_ok", "unscale"});
      mistake([&] { scaler.update(); }, {"update", "no inf checks"});
      auto grad = context.alloc<float>(8);
      queue.fill(grad, 1.0f);
      scaler.unscale(queue, grad);
      mistake([&] { scaler.unscale(queue, grad); }, {"already unscaled"});
      xgpu::Queue other = context.queue();
      mistake([&] { scaler.unscale(other, context.alloc<float>(4)); }, {"one queue"});
      mistake([&] { scaler.load_state(4.0f, 0); }, {"load_state", "step"});
      CHECK(scaler.step_ok());
      mistake([&] { scaler.unscale(queue, context.alloc<float>(4)); }, {"update()"});
      scaler.update();
      scaler.load_state(8.0f, 5);
      CHECK(scaler.get_scale() == 8.0f);
      CHECK(scaler.growth_tracker() == 5);
      mistake([&] { scaler.load_state(-1.0f, 0); }, {"scale"});
      mistake([&] { scaler.load_state(1.0f, -2); }, {"growth tracker"});
      // An empty queue.
      xgpu::Queue none;
      check_error(capture_error([&] { scaler.unscale(none, grad); }), xgpu::Errc::invalid_handle);
    }
  }
}
