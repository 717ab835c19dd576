// Every operation of the algorithms library on views (Buffer::view) against host references:
// views on the device's base-address alignment (sub-buffers, taken by the kernels as they are)
// and views one element in (staged through a scratch buffer), with the elements around each
// view left untouched, and partial overlaps refused by name. Each case carries its area's tag,
// so it runs in that area's entries (PoCL, Oclgrind, two PoCL devices, the direct allocator).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <xgpu/algorithms.hpp>
#include <xgpu/extension.hpp>

#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::random_values;
using xgpu_test::upload;

namespace {

// The two kinds of view: on the alignment (a sub-buffer; a page where the driver does not say,
// as the core assumes) and one element in (staged).
template <class T>
std::size_t aligned_offset(const xgpu::Device& device) {
  const std::size_t alignment = device.info().base_address_alignment;
  return (alignment != 0 ? alignment : 4096) / sizeof(T);
}

// Runs check(offset) for a view at each of the two kinds of offset, each in its own section.
template <class T, class Check>
void for_each_view_offset(const xgpu::Device& device, Check&& check) {
  const std::size_t offsets[] = {aligned_offset<T>(device), 1};
  for (std::size_t offset : offsets) {
    DYNAMIC_SECTION("view at element " << offset) { check(offset); }
  }
}

// Runs body(context, queue, device) on every device, a section per device.
template <class Body>
void on_every_device(Body&& body) {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      body(context, queue, device);
    }
  }
}

}  // namespace

TEST_CASE("element-wise operations on views", "[elementwise]") {
  on_every_device([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    for_each_view_offset<float>(device, [&](std::size_t offset) {
      const std::size_t n = 300, total = n + offset + 5;
      const std::vector<float> a = random_values<float>(total, 1),
                               b = random_values<float>(total, 2);
      xgpu::Buffer<float> da = upload(context, queue, a), db = upload(context, queue, b);
      xgpu::Buffer<float> out = context.alloc<float>(total);
      xgpu::fill(queue, out, -3.0f);
      xgpu::add(queue, da.view(offset, n), db.view(offset, n), out.view(offset, n));
      std::vector<float> expected(total, -3.0f);
      for (std::size_t i = offset; i < offset + n; ++i) expected[i] = a[i] + b[i];
      CHECK(queue.read(out) == expected);

      // Out over an input (the same view), and a scalar operation on a view.
      xgpu::mul(queue, da.view(offset, n), db.view(offset, n), da.view(offset, n));
      xgpu::scale(queue, 2.0f, da.view(offset, n));
      std::vector<float> product = a;
      for (std::size_t i = offset; i < offset + n; ++i) product[i] = 2.0f * (a[i] * b[i]);
      CHECK(queue.read(da) == product);
      xgpu::exp(queue, db.view(offset, n), out.view(offset, n));
      const std::vector<float> got = queue.read(out);
      for (std::size_t i = offset; i < offset + n; ++i)
        CHECK(std::fabs(got[i] - std::exp(b[i])) <= 1e-6f * std::exp(b[i]));
      CHECK(got[offset - 1] == -3.0f);
      CHECK(got[offset + n] == -3.0f);

      // Views of one buffer that overlap in part: the result would depend on the schedule.
      check_error(capture_error([&] {
                    xgpu::add(queue, da.view(0, n), db.view(0, n), da.view(offset + 1, n));
                  }),
                  xgpu::Errc::invalid_argument, {"xgpu::add", "overlap in part"});
    });
  });
}

TEST_CASE("reductions of views", "[reduce]") {
  on_every_device([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    for_each_view_offset<std::int32_t>(device, [&](std::size_t offset) {
      const std::size_t n = 1000, total = n + offset + 7;
      std::vector<std::int32_t> x = random_values<std::int32_t>(total, 3, -1000, 1000);
      // The extremes of the whole buffer lie outside the view: a view that read them is wrong.
      x[offset - 1] = 5000;
      x[offset + n] = -5000;
      xgpu::Buffer<std::int32_t> dx = upload(context, queue, x);
      const xgpu::Buffer<std::int32_t> view = dx.view(offset, n);
      const auto first = x.begin() + static_cast<std::ptrdiff_t>(offset);
      CHECK(xgpu::sum(queue, view) == std::accumulate(first, first + n, 0));
      CHECK(xgpu::max(queue, view) == *std::max_element(first, first + n));
      CHECK(xgpu::argmin(queue, view) ==
            static_cast<std::size_t>(std::min_element(first, first + n) - first));
      CHECK(xgpu::dot(queue, view, view) ==
            std::inner_product(first, first + n, first, std::int32_t{0}));
    });
    for_each_view_offset<float>(device, [&](std::size_t offset) {
      std::vector<float> x(offset + 100, 100.0f);
      std::fill(x.begin() + static_cast<std::ptrdiff_t>(offset), x.end(), 3.0f);
      xgpu::Buffer<float> dx = upload(context, queue, x);
      CHECK(xgpu::norm2(queue, dx.view(offset)) == Approx(30.0f));
    });
  });
}

TEST_CASE("scans of views, in place and out of place", "[scan]") {
  on_every_device([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    for_each_view_offset<std::uint32_t>(device, [&](std::size_t offset) {
      const std::size_t n = 777, total = n + offset + 3;
      const std::vector<std::uint32_t> x = random_values<std::uint32_t>(total, 4, 0, 100);
      xgpu::Buffer<std::uint32_t> dx = upload(context, queue, x);
      xgpu::Buffer<std::uint32_t> out = context.alloc<std::uint32_t>(total);
      xgpu::fill(queue, out, 7u);
      xgpu::exclusive_scan(queue, dx.view(offset, n), out.view(offset, n), 10u);
      std::vector<std::uint32_t> expected(total, 7u);
      std::uint32_t running = 10;
      for (std::size_t i = offset; i < offset + n; ++i) {
        expected[i] = running;
        running += x[i];
      }
      CHECK(queue.read(out) == expected);
      xgpu::inclusive_scan(queue, dx.view(offset, n), dx.view(offset, n));
      std::vector<std::uint32_t> in_place = x;
      std::partial_sum(x.begin() + static_cast<std::ptrdiff_t>(offset),
                       x.begin() + static_cast<std::ptrdiff_t>(offset + n),
                       in_place.begin() + static_cast<std::ptrdiff_t>(offset));
      CHECK(queue.read(dx) == in_place);
    });
  });
}

TEST_CASE("sorts of views leave the rest of the buffer alone", "[sort]") {
  on_every_device([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    for_each_view_offset<float>(device, [&](std::size_t offset) {
      const std::size_t n = 500, total = n + offset + 9;
      const std::vector<float> keys = random_values<float>(total, 5);
      std::vector<std::uint32_t> values(total);
      std::iota(values.begin(), values.end(), 0u);
      xgpu::Buffer<float> dk = upload(context, queue, keys);
      xgpu::Buffer<std::uint32_t> dv = upload(context, queue, values);
      xgpu::sort_by_key(queue, dk.view(offset, n), dv.view(offset, n));
      const std::vector<float> sorted_keys = queue.read(dk);
      const std::vector<std::uint32_t> sorted_values = queue.read(dv);
      std::vector<float> expected = keys;
      std::sort(expected.begin() + static_cast<std::ptrdiff_t>(offset),
                expected.begin() + static_cast<std::ptrdiff_t>(offset + n));
      CHECK(sorted_keys == expected);
      std::size_t misplaced = 0;
      for (std::size_t i = 0; i < total; ++i) misplaced += keys[sorted_values[i]] != sorted_keys[i];
      CHECK(misplaced == 0);
      CHECK(sorted_values[offset - 1] == offset - 1);
      CHECK(sorted_values[offset + n] == offset + n);
    });
  });
}

TEST_CASE("GEMM on views", "[gemm]") {
  on_every_device([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    for_each_view_offset<float>(device, [&](std::size_t offset) {
      const std::size_t m = 5, k = 7, n = 6;
      const std::vector<float> a = random_values<float>(offset + m * k, 6);
      const std::vector<float> b = random_values<float>(offset + k * n, 7);
      xgpu::Buffer<float> da = upload(context, queue, a), db = upload(context, queue, b);
      xgpu::Buffer<float> dc = context.alloc<float>(offset + m * n + 1);
      xgpu::fill(queue, dc, 9.0f);
      xgpu::gemm<float>(queue, m, n, k, 1.0f, da.view(offset), db.view(offset), 0.0f,
                        dc.view(offset, m * n));
      const std::vector<float> c = queue.read(dc);
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          double exact = 0;
          for (std::size_t p = 0; p < k; ++p)
            exact += double(a[offset + i * k + p]) * double(b[offset + p * n + j]);
          CHECK(c[offset + i * n + j] == Approx(exact).margin(1e-5));
        }
      }
      CHECK(c[offset - 1] == 9.0f);
      CHECK(c.back() == 9.0f);
      check_error(capture_error([&] {
                    xgpu::gemm<float>(queue, m, n, k, 1.0f, da.view(0, m * k), db, 0.0f,
                                      da.view(offset, m * n));
                  }),
                  xgpu::Errc::invalid_argument, {"xgpu::gemm", "overlap"});
    });
  });
}

TEST_CASE("transposes of views", "[transpose]") {
  on_every_device([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    for_each_view_offset<float>(device, [&](std::size_t offset) {
      const std::size_t m = 5, k = 7;
      const std::vector<float> a = random_values<float>(offset + m * k, 6);
      xgpu::Buffer<float> da = upload(context, queue, a);
      xgpu::Buffer<float> dt = context.alloc<float>(offset + m * k);
      xgpu::transpose(queue, da.view(offset), dt.view(offset), m, k);
      const std::vector<float> t = queue.read(dt);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < m; ++i)
        for (std::size_t j = 0; j < k; ++j) wrong += t[offset + j * m + i] != a[offset + i * k + j];
      CHECK(wrong == 0);
      check_error(capture_error(
                      [&] { xgpu::transpose(queue, da.view(0, m * k), da.view(1, m * k), m, k); }),
                  xgpu::Errc::invalid_argument, {"xgpu::transpose", "overlapping"});
    });
  });
}

TEST_CASE("softmax of views, in place", "[softmax]") {
  on_every_device([](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
    for_each_view_offset<float>(device, [&](std::size_t offset) {
      const std::size_t k = 7, n = 6;
      const std::vector<float> b = random_values<float>(offset + k * n, 7);
      xgpu::Buffer<float> db = upload(context, queue, b);
      // each row sums to 1 and follows its inputs' order; the element before is untouched
      xgpu::softmax_rows(queue, db.view(offset), db.view(offset), k, n);
      const std::vector<float> s = queue.read(db);
      CHECK(s[offset - 1] == b[offset - 1]);
      for (std::size_t r = 0; r < k; ++r) {
        double row = 0;
        for (std::size_t j = 0; j < n; ++j) row += s[offset + r * n + j];
        CHECK(row == Approx(1.0).epsilon(1e-5));
        CHECK((s[offset + r * n] < s[offset + r * n + 1]) ==
              (b[offset + r * n] < b[offset + r * n + 1]));
      }
    });
  });
}
