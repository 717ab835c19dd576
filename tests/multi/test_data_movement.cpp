// DeviceGroup's data movement on the group the CTest entry names (two PoCL devices, PoCL
// and Oclgrind, or one device): scatter/gather round trips at awkward sizes, broadcast and
// all_reduce_sum. Each device's buffer is also read on its own, so that a scatter and a
// gather wrong in the same way cannot pass together.
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "group_support.hpp"

using xgpu_test::group_under_test;

namespace {

// The elements device i holds, read through its own queue.
template <class T>
std::vector<T> read_part(const xgpu::DeviceGroup& group, const xgpu::Distributed<T>& d,
                         std::size_t i) {
  std::vector<T> host(d.buffer(i).size());
  if (!host.empty()) group[i].queue.read(d.buffer(i), host.data(), host.size());
  return host;
}

}  // namespace

TEST_CASE("scatter and gather round trip at sizes 0, 1, fewer than the devices and odd",
          "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  const std::size_t devices = group.size();
  std::vector<std::size_t> sizes{0, 1, devices + 1, 1001, 4099};
  if (devices > 1) sizes.push_back(devices - 1);  // some device gets nothing
  for (std::size_t n : sizes) {
    DYNAMIC_SECTION("n = " << n) {
      std::vector<std::int32_t> host(n);
      for (std::size_t e = 0; e < n; ++e) host[e] = static_cast<std::int32_t>(e * 7 + 3);
      xgpu::Distributed<std::int32_t> d = group.scatter(host);
      CHECK(d.size() == n);
      CHECK(d.parts() == devices);
      CHECK_FALSE(d.replicated());
      std::size_t next = 0;
      for (std::size_t i = 0; i < devices; ++i) {
        const xgpu::Slice slice = d.slice(i);
        CHECK(slice.offset == next);
        next = slice.offset + slice.count;
        REQUIRE(d.buffer(i).size() == slice.count);
        const std::vector<std::int32_t> expected(host.begin() + slice.offset,
                                                 host.begin() + slice.offset + slice.count);
        CHECK(read_part(group, d, i) == expected);
      }
      CHECK(next == n);
      std::vector<std::int32_t> back(n, -1);
      group.gather(d, back.data());
      CHECK(back == host);
      CHECK(group.gather(d) == host);
    }
  }
}

TEST_CASE("alloc gives each device its split slice and copies nothing", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  const std::size_t n = 2 * group.size() + 1;
  xgpu::Distributed<float> d = group.alloc<float>(n);
  const auto slices = group.split(n);
  REQUIRE(d.parts() == group.size());
  for (std::size_t i = 0; i < group.size(); ++i) {
    CHECK(d.slice(i).offset == slices[i].offset);
    CHECK(d.slice(i).count == slices[i].count);
    CHECK(d.buffer(i).size() == slices[i].count);
  }
}

TEST_CASE("broadcast puts a full copy on every device", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{777}}) {
    DYNAMIC_SECTION("n = " << n) {
      std::vector<float> host(n);
      for (std::size_t e = 0; e < n; ++e) host[e] = 0.5f * static_cast<float>(e) - 3.0f;
      xgpu::Distributed<float> d = group.broadcast(host);
      CHECK(d.replicated());
      CHECK(d.size() == n);
      for (std::size_t i = 0; i < group.size(); ++i) {
        CHECK(d.slice(i).offset == 0);
        CHECK(d.slice(i).count == n);
        CHECK(read_part(group, d, i) == host);
      }
      CHECK(group.gather(d) == host);
    }
  }
}

TEST_CASE("scatter, broadcast and gather from and to a device buffer copy device to device",
          "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  // The whole lives on the last member's device (for a group of one: in another context of
  // it), so every slice but the last member's crosses devices.
  const xgpu::Device home = group[group.size() - 1].device;
  xgpu::Context context(home);
  xgpu::Queue queue = context.queue();
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, group.size() + 1, std::size_t{4099}}) {
    DYNAMIC_SECTION("n = " << n) {
      std::vector<std::int32_t> host(n);
      for (std::size_t e = 0; e < n; ++e) host[e] = static_cast<std::int32_t>(e * 5 + 1);
      xgpu::Buffer<std::int32_t> whole = context.alloc<std::int32_t>(n);
      if (n > 0) queue.write_async(whole, host.data());  // pending: the copies order after it

      xgpu::Distributed<std::int32_t> d = group.scatter(whole);
      CHECK(d.size() == n);
      CHECK_FALSE(d.replicated());
      for (std::size_t i = 0; i < group.size(); ++i) {
        const xgpu::Slice slice = d.slice(i);
        const std::vector<std::int32_t> expected(host.begin() + slice.offset,
                                                 host.begin() + slice.offset + slice.count);
        CHECK(read_part(group, d, i) == expected);
      }
      xgpu::Distributed<std::int32_t> r = group.broadcast(whole);
      CHECK(r.replicated());
      for (std::size_t i = 0; i < group.size(); ++i) CHECK(read_part(group, r, i) == host);

      xgpu::Buffer<std::int32_t> back = context.alloc<std::int32_t>(n);
      if (n > 0) queue.fill(back, -1);
      group.gather(d, queue, back);
      CHECK(queue.read(back) == host);
      if (n > 0) queue.fill(back, -1);
      group.gather(r, queue, back);
      CHECK(queue.read(back) == host);
    }
  }
}

TEST_CASE("all_reduce_sum of integers is exact, wrapping like the integer type", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  const std::size_t n = 1003;
  xgpu::Distributed<std::int32_t> d = group.broadcast(std::vector<std::int32_t>(n, 0));
  // Device i holds values of its own, some near the type's limits so the sum wraps.
  std::vector<std::uint32_t> expected(n, 0);
  for (std::size_t i = 0; i < group.size(); ++i) {
    std::vector<std::int32_t> part(n);
    for (std::size_t e = 0; e < n; ++e) {
      part[e] = e % 3 == 0 ? INT32_MAX - static_cast<std::int32_t>(e)
                           : static_cast<std::int32_t>(e * (i + 1)) - 500;
      expected[e] += static_cast<std::uint32_t>(part[e]);
    }
    group[i].queue.write(d.buffer(i), part);
  }
  group.all_reduce_sum(d);
  for (std::size_t i = 0; i < group.size(); ++i) {
    const std::vector<std::int32_t> got = read_part(group, d, i);
    std::size_t wrong = 0;
    for (std::size_t e = 0; e < n; ++e) wrong += static_cast<std::uint32_t>(got[e]) != expected[e];
    INFO("device " << i);
    CHECK(wrong == 0);
  }

  SECTION("64-bit unsigned") {
    std::vector<std::uint64_t> base(5, 0);
    xgpu::Distributed<std::uint64_t> big = group.broadcast(base);
    for (std::size_t i = 0; i < group.size(); ++i) {
      group[i].queue.write(big.buffer(i), std::vector<std::uint64_t>(5, (1ull << 62) + i));
    }
    group.all_reduce_sum(big);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < group.size(); ++i) sum += (1ull << 62) + i;
    for (std::size_t i = 0; i < group.size(); ++i) {
      CHECK(read_part(group, big, i) == std::vector<std::uint64_t>(5, sum));
    }
  }
}

namespace {

// The documented bound (docs/multi-device.md): summed in double in device order, rounded
// once to T: |result - exact| <= u * |exact| + k * 2^-53 * sum |x_i|, u = 2^-24 for float
// (the one rounding) and 0 for double.
template <class T>
void check_float_all_reduce(const xgpu::DeviceGroup& group) {
  const std::size_t n = 2049, k = group.size();
  xgpu::Distributed<T> d = group.broadcast(std::vector<T>(n, T(0)));
  std::vector<long double> exact(n, 0), magnitude(n, 0);
  for (std::size_t i = 0; i < k; ++i) {
    std::vector<T> part = xgpu_test::random_values<T>(n, static_cast<unsigned>(i + 11), -1, 1);
    // Magnitudes far apart, so a sum rounded at every step would lose the small ones.
    for (std::size_t e = 0; e < n; ++e) {
      part[e] *= static_cast<T>(std::ldexp(1.0, static_cast<int>((e + 5 * i) % 40) - 20));
      exact[e] += part[e];
      magnitude[e] += std::fabs(static_cast<long double>(part[e]));
    }
    group[i].queue.write(d.buffer(i), part);
  }
  group.all_reduce_sum(d);
  const long double unit = std::is_same_v<T, float> ? std::ldexp(1.0L, -24) : 0.0L;
  const long double per_add = std::ldexp(1.0L, -53);
  for (std::size_t i = 0; i < k; ++i) {
    const std::vector<T> got = read_part(group, d, i);
    std::size_t outside = 0;
    for (std::size_t e = 0; e < n; ++e) {
      const long double bound =
          unit * std::fabs(exact[e]) + static_cast<long double>(k) * per_add * magnitude[e];
      if (std::fabs(static_cast<long double>(got[e]) - exact[e]) > bound) ++outside;
    }
    INFO("device " << i << ": elements outside the bound");
    CHECK(outside == 0);
  }
}

}  // namespace

TEST_CASE("all_reduce_sum of floating point is within the documented bound", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  SECTION("float") { check_float_all_reduce<float>(group); }
  SECTION("double") { check_float_all_reduce<double>(group); }
}

TEST_CASE("split follows the weights by largest remainder", "[multi]") {
  xgpu::DeviceGroup group = group_under_test();
  const std::size_t k = group.size();
  const auto fresh = group.weights();
  REQUIRE(fresh.size() == k);
  for (double w : fresh) CHECK(w == Approx(1.0 / static_cast<double>(k)));

  std::vector<double> raw(k);
  for (std::size_t i = 0; i < k; ++i) raw[i] = static_cast<double>(i + 1);  // 1 : 2 : ...
  group.set_weights(raw);
  const double total = static_cast<double>(k * (k + 1) / 2);
  const auto weights = group.weights();
  for (std::size_t i = 0; i < k; ++i) CHECK(weights[i] == Approx(raw[i] / total));
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{10}, std::size_t{1000003}}) {
    const auto slices = group.split(n);
    REQUIRE(slices.size() == k);
    std::size_t next = 0;
    for (std::size_t i = 0; i < k; ++i) {
      INFO("n = " << n << ", device " << i);
      CHECK(slices[i].offset == next);
      next += slices[i].count;
      // Largest remainder: every count is its quota rounded down or up.
      const double quota = static_cast<double>(n) * raw[i] / total;
      CHECK(static_cast<double>(slices[i].count) >= std::floor(quota));
      CHECK(static_cast<double>(slices[i].count) <= std::ceil(quota));
    }
    CHECK(next == n);
  }
  if (k == 2) {  // 1 : 2 of 10 is 3.33 : 6.67, so the leftover element goes to device 1
    const auto slices = group.split(10);
    CHECK(slices[0].count == 3);
    CHECK(slices[1].count == 7);
  }
  // A zero weight gives a device nothing.
  std::vector<double> only_last(k, 0.0);
  only_last.back() = 1;
  group.set_weights(only_last);
  CHECK(group.split(99).back().count == 99);
  group.adapt_weights();
  for (double w : group.weights()) CHECK(w == Approx(1.0 / static_cast<double>(k)));
}
