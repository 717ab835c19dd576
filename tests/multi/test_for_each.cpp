// DeviceGroup::for_each and build on the group the CTest entry names: a split saxpy, the
// one error that names every failing device (the others still finish), and programs built
// per device.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "group_support.hpp"

using xgpu_test::group_under_test;

namespace {

std::vector<float> iota_floats(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t e = 0; e < n; ++e) v[e] = scale * static_cast<float>(e % 1000);
  return v;
}

}  // namespace

TEST_CASE("for_each runs a split saxpy on every device", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  const auto programs = group.build(xgpu_test::kSaxpySource);
  REQUIRE(programs.size() == group.size());
  for (std::size_t n : {std::size_t{1}, std::size_t{1001}}) {
    DYNAMIC_SECTION("n = " << n) {
      const auto x = iota_floats(n, 1.0f), y = iota_floats(n, 0.25f);
      auto dx = group.scatter(x);
      auto dy = group.scatter(y);
      std::vector<std::atomic<int>> calls(group.size());
      group.for_each(dx, [&](xgpu::Queue& queue, std::size_t i, xgpu::Slice s) {
        ++calls[i];
        CHECK(queue.device() == group[i].device);
        queue.submit(programs[i].kernel("saxpy"), xgpu::Range{s.count}, 2.0f, dx.buffer(i),
                     dy.buffer(i), static_cast<std::uint32_t>(s.count));
      });
      const auto result = group.gather(dy);
      std::size_t wrong = 0;
      for (std::size_t e = 0; e < n; ++e) wrong += result[e] != 2.0f * x[e] + y[e];
      CHECK(wrong == 0);
      // A device with an empty slice is not called; every other exactly once.
      for (std::size_t i = 0; i < group.size(); ++i) {
        CHECK(calls[i] == (dx.slice(i).count > 0 ? 1 : 0));
      }
    }
  }
}

TEST_CASE("for_each over n gives device i split(n)[i]", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  const std::size_t n = 3 * group.size() + 2;
  const auto expected = group.split(n);
  std::vector<xgpu::Slice> seen(group.size());
  group.for_each(n, [&](xgpu::Queue&, std::size_t i, xgpu::Slice s) { seen[i] = s; });
  for (std::size_t i = 0; i < group.size(); ++i) {
    CHECK(seen[i].offset == expected[i].offset);
    CHECK(seen[i].count == expected[i].count);
  }
}

TEST_CASE("for_each: one device fails, the others finish, the error names it", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  const std::size_t failing = group.size() - 1;
  const std::size_t n = 10 * group.size();
  std::vector<std::atomic<bool>> finished(group.size());
  const auto weights_before = group.weights();
  const xgpu::Error error = xgpu_test::capture_error([&] {
    group.for_each(n, [&](xgpu::Queue& queue, std::size_t i, xgpu::Slice) {
      if (i == failing) throw std::runtime_error("a failure made on purpose");
      // The others take a while, so an error thrown before they finish would be seen.
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      queue.finish();
      finished[i] = true;
    });
  });
  const std::string name = group[failing].device.describe();
  xgpu_test::check_error(
      error, error.code(),
      {"DeviceGroup::for_each", "device " + std::to_string(failing) + " (" + name,
       "a failure made on purpose"});
  CHECK(error.device() == name);
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (i != failing) CHECK(finished[i]);
  }
  // A failed call measures nothing.
  CHECK(group.weights() == weights_before);

  SECTION("an xgpu::Error keeps its code") {
    const xgpu::Error wrong_args = xgpu_test::capture_error([&] {
      const auto programs = group.build(xgpu_test::kSaxpySource);
      group.for_each(n, [&](xgpu::Queue& queue, std::size_t i, xgpu::Slice s) {
        queue.submit(programs[i].kernel("saxpy"), xgpu::Range{s.count}, 2.0f);  // 3 missing
      });
    });
    xgpu_test::check_error(wrong_args, xgpu::Errc::argument_count,
                           {"DeviceGroup::for_each", "device 0 ("});
  }

  SECTION("every failing device is named") {
    const xgpu::Error all = xgpu_test::capture_error([&] {
      group.for_each(n, [&](xgpu::Queue&, std::size_t i, xgpu::Slice) {
        throw std::runtime_error("failure " + std::to_string(i));
      });
    });
    for (std::size_t i = 0; i < group.size(); ++i) {
      CHECK_THAT(std::string(all.what()),
                 Catch::Matchers::Contains("device " + std::to_string(i) + " (" +
                                           group[i].device.describe() + "): failure " +
                                           std::to_string(i)));
    }
  }
}

TEST_CASE("build gives one program per device and names each device that fails", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  const auto programs = group.build(xgpu_test::kSaxpySource, "-DUNUSED=1");
  REQUIRE(programs.size() == group.size());
  for (std::size_t i = 0; i < group.size(); ++i)
    CHECK(static_cast<bool>(programs[i].kernel("saxpy")));
  const xgpu::Error error = xgpu_test::capture_error([&] {
    group.build(xgpu::Source{"broken.cl", "__kernel void f() { nonsense; }"});
  });
  std::vector<std::string> mentions{"DeviceGroup::build", "broken.cl"};
  for (std::size_t i = 0; i < group.size(); ++i) {
    mentions.push_back("device " + std::to_string(i) + " (" + group[i].device.describe());
  }
  xgpu_test::check_error(error, xgpu::Errc::build_failed, mentions);
}
