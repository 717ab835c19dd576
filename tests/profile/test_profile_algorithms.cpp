// The algorithms library on a GPU profile (tests/profile/data/gpu-like.json: a discrete GPU,
// 1024 work-items per group, 48 KiB of local memory, warp 32) backed by PoCL: it takes its
// GPU paths (the device is a GPU to it, not a CPU; the GEMM engine is not the host's; the
// work-group sizes follow the profile) and gives the results PoCL gives directly, including
// a scan and a sum above 2^24 elements. Run by unit.profile.algorithms.
#include <xgpu/algorithms.hpp>
#include <xgpu/extension.hpp>

#include "for_tests.hpp"  // runtime/algorithms/src: what the library exports for tests
#include "test_support.hpp"

namespace {

using xgpu_test::random_values;

struct Side {
  explicit Side(const xgpu::Device& device) : context(device), queue(context.queue()) {}
  template <class T>
  xgpu::Buffer<T> upload(const std::vector<T>& host) {
    return xgpu_test::upload(context, queue, host);
  }
  template <class T>
  std::vector<T> download(const xgpu::Buffer<T>& buffer, std::size_t n) {
    std::vector<T> host(n);
    queue.read(buffer, host.data());
    return host;
  }
  xgpu::Context context;
  xgpu::Queue queue;
};

Side& profile() {
  static Side side(xgpu::select("profile:0"));
  return side;
}
Side& pocl() {
  static Side side(xgpu::select("pocl"));
  return side;
}

template <class T, class Run>
std::vector<T> on(Side& side, const std::vector<T>& input, std::size_t out_size, Run run) {
  xgpu::Buffer<T> in = side.upload(input);
  xgpu::Buffer<T> out = side.context.alloc<T>(out_size);
  run(side.queue, in, out);
  return side.download(out, out_size);
}

void check_close(const std::vector<float>& a, const std::vector<float>& b, float tolerance) {
  REQUIRE(a.size() == b.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    bad += std::abs(a[i] - b[i]) > tolerance * std::max(1.0f, std::abs(b[i]));
  CHECK(bad == 0);
}

TEST_CASE("profile: the algorithms take their GPU paths", "[.profile_algorithms]") {
  const xgpu::DeviceInfo& info = profile().queue.device().info();
  REQUIRE(info.backend == "profile");
  CHECK(xgpu::ext::is_gpu(info));
  CHECK_FALSE(xgpu::ext::is_cpu(info));
  CHECK_FALSE(xgpu::ext::shares_host_memory(info));
  // The host BLAS serves only devices sharing the host's memory; PoCL itself gets it when
  // its OpenBLAS is tuned, the profile never.
  CHECK(xgpu::chosen_gemm_engine<float>(profile().queue) != xgpu::GemmEngine::host_blas);
  // Work-group sizes follow the profile's 1024 and warp of 32.
  const std::size_t reduce_group = xgpu::detail::reduce_work_group_size<float>(profile().queue);
  CHECK(reduce_group <= 1024);
  CHECK(reduce_group % 32 == 0);
  CHECK(xgpu::detail::sort_work_group_size(profile().queue) <= 1024);
}

TEST_CASE("profile: the algorithms give PoCL's results", "[.profile_algorithms]") {
  SECTION("inclusive scan of int32, up to above 2^24") {
    for (std::size_t n : {std::size_t{1000}, std::size_t{100003}, (std::size_t{1} << 24) + 7}) {
      INFO("n = " << n);
      const auto input = random_values<std::int32_t>(n, 11, -1000, 1000);
      auto run = [](xgpu::Queue& q, auto& in, auto& out) { xgpu::inclusive_scan(q, in, out); };
      CHECK(on(profile(), input, n, run) == on(pocl(), input, n, run));
    }
  }
  SECTION("sum of int32 above 2^24") {
    const std::size_t n = (std::size_t{1} << 24) + 3;
    const auto input = random_values<std::int32_t>(n, 12, -100, 100);
    CHECK(xgpu::sum(profile().queue, profile().upload(input)) ==
          xgpu::sum(pocl().queue, pocl().upload(input)));
  }
  SECTION("transpose") {
    const std::size_t rows = 513, cols = 1025;
    const auto input = random_values<std::int32_t>(rows * cols, 13);
    auto run = [&](xgpu::Queue& q, auto& in, auto& out) {
      xgpu::transpose(q, in, out, rows, cols);
    };
    CHECK(on(profile(), input, rows * cols, run) == on(pocl(), input, rows * cols, run));
  }
  SECTION("softmax rows") {
    const std::size_t rows = 67, cols = 3000;
    const auto input = random_values<float>(rows * cols, 14, -5.0, 5.0);
    auto run = [&](xgpu::Queue& q, auto& in, auto& out) {
      xgpu::softmax_rows(q, in, out, rows, cols);
    };
    check_close(on(profile(), input, rows * cols, run), on(pocl(), input, rows * cols, run), 1e-5f);
  }
  SECTION("sort of uint32") {
    const std::size_t n = 300001;
    const auto input = random_values<std::uint32_t>(n, 15);
    auto sorted = [&](Side& side) {
      xgpu::Buffer<std::uint32_t> keys = side.upload(input);
      xgpu::sort(side.queue, keys);
      return side.download(keys, n);
    };
    CHECK(sorted(profile()) == sorted(pocl()));
  }
  SECTION("gemm of float") {
    const std::size_t m = 130, n = 70, k = 90;
    const auto a = random_values<float>(m * k, 16);
    const auto b = random_values<float>(k * n, 17);
    auto product = [&](Side& side) {
      xgpu::Buffer<float> da = side.upload(a), db = side.upload(b);
      xgpu::Buffer<float> dc = side.context.alloc<float>(m * n);
      xgpu::gemm<float>(side.queue, m, n, k, 1.0f, da, db, 0.0f, dc);
      return side.download(dc, m * n);
    };
    check_close(product(profile()), product(pocl()), 1e-4f);
  }
}

}  // namespace
