// xgpu::gemm on every device and with every engine it has, against a double-precision host
// reference: sizes 0, 1, odd sizes around the kernel's tiles, the four transposes, general
// alpha and beta, beta == 0 over NaNs, k == 0 and alpha == 0, float, double and half, the
// automatic choice and XGPU_GEMM, and the errors.
//
// Engines: the kernel runs everywhere, in both of its shapes (XGPU_GEMM_SHAPE=gpu and cpu);
// host_blas where the device shares host memory; vendor_blas (CLBlast) on PoCL only and at
// small sizes, float only: CLBlast compiles a large program per precision at its first call
// (tens of seconds on PoCL), and Oclgrind would interpret those kernels far too slowly.
//
// Tolerance: the reference is exact enough (double); each element may differ from it by
// (k + 3) * eps * (|alpha| * sum_p |a_ip b_pj| + |beta c_ij|), eps the machine epsilon of
// the type computed in: k + 1 roundings of a dot product in any order, the scaling by alpha
// and beta and their sum (twice the classic gamma_k bound, for slack, as the conform check).
// For half, inputs are exact halves and products accumulate in float (eps of float), and
// the result is rounded to half once more: plus 2^-11 of its magnitude.
#include <cfloat>
#include <cmath>
#include <optional>
#include <string>
#include <vector>
#include <xgpu/algorithms.hpp>

#include "test_support.hpp"

using xgpu::GemmEngine;
using xgpu::half;
using xgpu::Transpose;
using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::element_of;
using xgpu_test::is_oclgrind;
using xgpu_test::is_pocl;
using xgpu_test::random_values;
using xgpu_test::type_name;
using xgpu_test::value_of;

namespace {

template <class T>
double epsilon() {
  return std::is_same_v<T, double> ? DBL_EPSILON : FLT_EPSILON;
}
/// One GEMM to run and check.
struct Case {
  std::size_t m, n, k;
  double alpha, beta;
  Transpose ta = Transpose::no, tb = Transpose::no;
};

std::string describe(const Case& c, GemmEngine engine, const char* type) {
  return std::string(type) + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
         std::to_string(c.k) + (c.ta == Transpose::yes ? " A^T" : "") +
         (c.tb == Transpose::yes ? " B^T" : "") + " alpha " + std::to_string(c.alpha) + " beta " +
         std::to_string(c.beta) + " engine " + xgpu::to_string(engine);
}

/// Runs the case on the queue and compares C element by element with the reference. With
/// beta == 0, C starts as NaN: none may leak. `row_stride` > 1 limits the reference to the
/// first rows and a stride of the others (for the large sizes).
template <class T>
void check_case(xgpu::Queue& queue, const Case& c, GemmEngine engine, std::size_t row_stride = 1) {
  INFO(describe(c, engine, type_name<T>()));
  const bool ta = c.ta == Transpose::yes, tb = c.tb == Transpose::yes;
  const std::vector<T> a = random_values<T>(c.m * c.k, 11, -1, 1),
                       b = random_values<T>(c.k * c.n, 12, -1, 1);
  std::vector<T> c0 = random_values<T>(c.m * c.n, 13, -1, 1);
  if (c.beta == 0) c0.assign(c0.size(), element_of<T>(std::nan("")));
  xgpu::Context context = queue.context();
  auto da = context.alloc<T>(a.size()), db = context.alloc<T>(b.size()),
       dc = context.alloc<T>(c0.size());
  if (!a.empty()) queue.write(da, a);
  if (!b.empty()) queue.write(db, b);
  if (!c0.empty()) queue.write(dc, c0);
  using S = xgpu::scalar_t<T>;
  xgpu::gemm<T>(queue, c.m, c.n, c.k, static_cast<S>(c.alpha), da, db, static_cast<S>(c.beta), dc,
                c.ta, c.tb, engine)
      .wait();
  queue.finish();  // host_blas returns an empty Event
  const std::vector<T> got = c0.empty() ? std::vector<T>() : queue.read(dc);
  const double eps = epsilon<T>();
  std::size_t failures = 0;
  for (std::size_t i = 0; i < c.m; i += (i < 8 ? 1 : row_stride)) {
    for (std::size_t j = 0; j < c.n; ++j) {
      double sum = 0, magnitude = 0;
      for (std::size_t p = 0; p < c.k; ++p) {
        const double x = value_of(a[ta ? p * c.m + i : i * c.k + p]);
        const double y = value_of(b[tb ? j * c.k + p : p * c.n + j]);
        sum += x * y;
        magnitude += std::fabs(x * y);
      }
      const double old = c.beta == 0 ? 0 : value_of(c0[i * c.n + j]);
      const double expected = c.alpha * sum + c.beta * old;
      double bound = (c.k + 3) * eps * (std::fabs(c.alpha) * magnitude + std::fabs(c.beta * old));
      if (std::is_same_v<T, half>) bound = bound * 1.001 + std::ldexp(std::fabs(expected), -11);
      const double value = value_of(got[i * c.n + j]);
      if (!(std::fabs(value - expected) <= bound) && failures++ < 3) {
        FAIL_CHECK("C[" << i << "][" << j << "] = " << value << ", expected " << expected
                        << " within " << bound);
      }
    }
  }
  CHECK(failures == 0);
}

/// Sizes and shapes every engine must get right. The kernel's tiles are 64 x 64 (gpu shape)
/// and 128 x 128 (cpu shape with AVX-512) with K tiles of 16 and 64: the odd sizes fall one
/// either side of them and leave partial vectors.
std::vector<Case> standard_cases(bool small) {
  std::vector<Case> cases{
      {1, 1, 1, 1.0, 0.0},
      {2, 3, 4, 1.5, -0.75},
      {37, 29, 41, 1.5, -0.75},
      {63, 65, 17, -2.0, 0.0},
      {65, 63, 15, 0.5, 1.0},
      {17, 19, 23, 1.0, 0.0, Transpose::yes},
      {17, 19, 23, 1.0, 0.5, Transpose::no, Transpose::yes},
      {23, 17, 19, 2.0, 0.0, Transpose::yes, Transpose::yes},
  };
  if (!small) {
    cases.push_back({129, 127, 65, 1.25, -1.0});
    cases.push_back({127, 129, 66, 1.0, 0.0, Transpose::yes, Transpose::yes});
  }
  return cases;
}

/// The engines to test on a device, with the reason for each one left out.
template <class T>
std::vector<GemmEngine> engines_to_test(xgpu::Queue& queue) {
  std::vector<GemmEngine> engines{GemmEngine::kernel};
  std::string why;
  if (xgpu::gemm_engine_available<T>(queue, GemmEngine::host_blas, &why))
    engines.push_back(GemmEngine::host_blas);
  else if (!std::is_same_v<T, half>)  // no host BLAS has half: not worth a warning
    WARN("host_blas not tested on " << queue.device().describe() << ": " << why);
  if (!is_pocl(queue.device()) || !std::is_same_v<T, float>) return engines;
  if (xgpu::gemm_engine_available<T>(queue, GemmEngine::vendor_blas, &why))
    engines.push_back(GemmEngine::vendor_blas);
  else
    WARN("vendor_blas not tested on " << queue.device().describe() << ": " << why);
  return engines;
}

/// Every engine the device has, on the standard cases. Each (type, shape, transposes) is a
/// program to compile (seconds on PoCL), so: float gets all four transposes, double and half
/// the untransposed and the doubly transposed; the kernel runs in the device's own shape,
/// and on Oclgrind, whose checks are the point of it (and whose compiles are quick), in the
/// other shape too.
template <class T>
void every_engine_and_shape(xgpu::Queue& queue) {
  const bool small = is_oclgrind(queue.device());
  std::vector<Case> cases = standard_cases(small);
  if (!std::is_same_v<T, float>) {
    std::vector<Case> kept;
    for (const Case& c : cases)
      if (c.ta == c.tb) kept.push_back(c);
    cases = kept;
  }
  // The kernel's shape is the CTest entry's (XGPU_GEMM_SHAPE, read once per process): the
  // device's own where unset; an entry of tests/CMakeLists.txt runs the CPU shape on Oclgrind
  // (which checks every access of both), and there only the kernel engine, which it changes.
  const bool shape_forced = xgpu_test::env("XGPU_GEMM_SHAPE").has_value();
  for (GemmEngine engine : engines_to_test<T>(queue)) {
    if (engine == GemmEngine::kernel) {
      INFO(xgpu_test::setting_note("XGPU_GEMM_SHAPE"));
      for (const Case& c : cases) check_case<T>(queue, c, engine);
    } else if (shape_forced) {
      continue;
    } else if (engine == GemmEngine::vendor_blas) {
      for (const Case& c : standard_cases(true)) check_case<T>(queue, c, engine);
    } else {
      for (const Case& c : cases) check_case<T>(queue, c, engine);
    }
  }
}

bool has_fp64(const xgpu::Device& device) { return device.info().fp64; }

}  // namespace

TEST_CASE("gemm of float: sizes, transposes, alpha and beta, every engine", "[gemm][shaped]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      every_engine_and_shape<float>(queue);
    }
  }
}

TEST_CASE("gemm of double", "[gemm][shaped]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      if (!has_fp64(device)) {
        check_error(capture_error([&] {
                      auto x = context.alloc<double>(4);
                      xgpu::gemm<double>(queue, 2, 2, 2, 1.0, x, x, 0.0, context.alloc<double>(4));
                    }),
                    xgpu::Errc::unsupported, {"double"});
        continue;
      }
      every_engine_and_shape<double>(queue);
    }
  }
}

TEST_CASE("gemm of half storage", "[gemm][shaped]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      every_engine_and_shape<half>(queue);
      // No host BLAS computes in half; the vendor one needs cl_khr_fp16.
      std::string why;
      CHECK_FALSE(xgpu::gemm_engine_available<half>(queue, GemmEngine::host_blas, &why));
      CHECK_THAT(why, Catch::Matchers::Contains("half"));
      if (!device.info().fp16) {
        CHECK_FALSE(xgpu::gemm_engine_available<half>(queue, GemmEngine::vendor_blas, &why));
        CHECK_THAT(why, Catch::Matchers::Contains("cl_khr_fp16"));
      }
      CHECK(xgpu::chosen_gemm_engine<half>(queue) == GemmEngine::kernel);
    }
  }
}

TEST_CASE("gemm with k == 0 or alpha == 0 scales C and reads neither A nor B", "[gemm]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const std::size_t m = 5, n = 7;
      const std::vector<float> c0 = random_values<float>(m * n, 3, -1, 1);
      auto c = context.alloc<float>(m * n);
      xgpu::Buffer<float> empty;
      // k == 0: A and B hold nothing; may even be empty handles.
      queue.write(c, c0);
      xgpu::gemm<float>(queue, m, n, 0, 2.0f, empty, empty, -0.5f, c).wait();
      std::vector<float> got = queue.read(c);
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == c0[i] * -0.5f);
      // beta == 0 writes zeros over NaNs.
      queue.fill(c, std::nanf(""));
      xgpu::gemm<float>(queue, m, n, 0, 2.0f, empty, empty, 0.0f, c).wait();
      got = queue.read(c);
      for (float v : got) CHECK(v == 0.0f);
      // alpha == 0 with NaNs in A and B: BLAS does not read them. beta == 1 leaves C.
      const std::size_t k = 3;
      auto a = context.alloc<float>(m * k), b = context.alloc<float>(k * n);
      queue.fill(a, std::nanf(""));
      queue.fill(b, std::nanf(""));
      queue.write(c, c0);
      for (GemmEngine engine : engines_to_test<float>(queue)) {
        INFO(xgpu::to_string(engine));
        xgpu::gemm<float>(queue, m, n, k, 0.0f, a, b, 1.0f, c, Transpose::no, Transpose::no,
                          engine);
        queue.finish();
        CHECK(queue.read(c) == c0);
      }
    }
  }
}

TEST_CASE("gemm with m or n == 0 enqueues nothing", "[gemm]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      auto b = context.alloc<float>(12);
      xgpu::Buffer<float> empty;
      CHECK_FALSE(xgpu::gemm<float>(queue, 0, 4, 3, 1.0f, empty, b, 0.0f, empty));
      CHECK_FALSE(xgpu::gemm<float>(queue, 4, 0, 3, 1.0f, b, empty, 0.0f, empty));
      CHECK_FALSE(xgpu::gemm<float>(queue, 0, 0, 0, 1.0f, empty, empty, 0.0f, empty, Transpose::yes,
                                    Transpose::yes, GemmEngine::kernel));
    }
  }
}

TEST_CASE("gemm with m or n == 0 still checks the engine asked for", "[gemm]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Buffer<half> empty_half;
      xgpu::Buffer<float> empty;
      // An explicit engine that cannot run the type: unsupported, whatever the sizes.
      check_error(capture_error([&] {
                    xgpu::gemm<half>(queue, 0, 4, 0, 1.0f, empty_half, empty_half, 0.0f, empty_half,
                                     Transpose::no, Transpose::no, GemmEngine::host_blas);
                  }),
                  xgpu::Errc::unsupported, {"host_blas", "half"});
      check_error(capture_error([&] {
                    xgpu::gemm<half>(queue, 4, 0, 0, 1.0f, empty_half, empty_half, 0.0f, empty_half,
                                     Transpose::no, Transpose::no, GemmEngine::host_blas);
                  }),
                  xgpu::Errc::unsupported, {"host_blas", "half"});
    }
  }
}

// GEMM is O(n^3): a buffer near max_allocation / 8 (128 MiB, n = 5800) would take minutes
// through the host reference. One large-ish size instead, on PoCL only, checked on a stride
// of rows: N = 512 with the automatic engine and with the kernel.
TEST_CASE("gemm at N = 512 on PoCL", "[gemm]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    if (!is_pocl(device)) continue;
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      const Case big{512, 512, 512, 1.0, 0.5};
      check_case<float>(queue, big, GemmEngine::automatic, 37);
      check_case<float>(queue, big, GemmEngine::kernel, 37);
      check_case<float>(queue, {509, 515, 511, 1.0, 0.0, Transpose::yes, Transpose::yes},
                        GemmEngine::kernel, 37);
    }
  }
}

TEST_CASE("gemm's automatic engine and XGPU_GEMM", "[gemm]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      REQUIRE_FALSE(xgpu_test::env("XGPU_GEMM"));  // the CTest entries unset it
      const GemmEngine chosen = xgpu::chosen_gemm_engine<float>(queue);
      CHECK(chosen != GemmEngine::automatic);
      if (is_oclgrind(device)) CHECK(chosen == GemmEngine::kernel);  // a simulator runs kernels
      // A CPU: a tuned host BLAS, else the kernel (CLBlast is slow on CPUs). Whether the
      // machine's OpenBLAS counts as tuned depends on its CPU (see host_blas_tuned()).
      if (is_pocl(device)) CHECK((chosen == GemmEngine::host_blas || chosen == GemmEngine::kernel));
      if (chosen == GemmEngine::host_blas)
        CHECK(xgpu::gemm_engine_available<float>(queue, GemmEngine::host_blas));
      CHECK(std::string(xgpu::to_string(GemmEngine::host_blas)) == "host_blas");
      CHECK(xgpu::gemm_engine_available<float>(queue, GemmEngine::kernel));
      CHECK(xgpu::gemm_engine_available<float>(queue, GemmEngine::automatic));
    }
  }
}

TEST_CASE("gemm errors: small buffers, aliasing, contexts, unavailable engines", "[gemm]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      auto a = context.alloc<float>(6), b = context.alloc<float>(12), c = context.alloc<float>(8);
      // 2 x 3 times 3 x 4 gives 2 x 4: each buffer one element short in turn.
      auto short_a = context.alloc<float>(5), short_b = context.alloc<float>(11),
           short_c = context.alloc<float>(7);
      check_error(capture_error([&] { xgpu::gemm<float>(queue, 2, 4, 3, 1, short_a, b, 0, c); }),
                  xgpu::Errc::invalid_argument, {"xgpu::gemm", "a (2 x 3)", "6", "5"});
      check_error(capture_error([&] { xgpu::gemm<float>(queue, 2, 4, 3, 1, a, short_b, 0, c); }),
                  xgpu::Errc::invalid_argument, {"b (3 x 4)", "12", "11"});
      check_error(capture_error([&] { xgpu::gemm<float>(queue, 2, 4, 3, 1, a, b, 0, short_c); }),
                  xgpu::Errc::invalid_argument, {"c (2 x 4)", "8", "7"});
      // Transposed: A is stored k x m = 3 x 2, B n x k = 4 x 3.
      check_error(capture_error([&] {
                    xgpu::gemm<float>(queue, 2, 4, 3, 1, short_a, b, 0, c, Transpose::yes);
                  }),
                  xgpu::Errc::invalid_argument, {"a (3 x 2)"});
      // Larger buffers are fine.
      queue.write(a, std::vector<float>(6, 1.0f));
      queue.write(b, std::vector<float>(12, 2.0f));
      CHECK_NOTHROW(xgpu::gemm<float>(queue, 2, 2, 3, 1, a, b, 0, c).wait());
      // C over an input.
      auto square = context.alloc<float>(16), other_square = context.alloc<float>(16);
      check_error(capture_error([&] {
                    xgpu::gemm<float>(queue, 4, 4, 4, 1, square, other_square, 0, square);
                  }),
                  xgpu::Errc::invalid_argument, {"c must not be the buffer of a or b"});
      check_error(capture_error([&] {
                    xgpu::gemm<float>(queue, 4, 4, 4, 1, other_square, square, 0, square);
                  }),
                  xgpu::Errc::invalid_argument, {"c must not be the buffer of a or b"});
      // A buffer of another context.
      xgpu::Context other(device);
      auto foreign = other.alloc<float>(12);
      check_error(capture_error([&] { xgpu::gemm<float>(queue, 2, 4, 3, 1, a, foreign, 0, c); }),
                  xgpu::Errc::context_mismatch, {"b"});
      // Sizes whose product overflows (k == 0: only C is needed).
      check_error(capture_error([&] {
                    xgpu::gemm<float>(queue, std::size_t(1) << 40, std::size_t(1) << 40, 0, 1, a, b,
                                      0, c);
                  }),
                  xgpu::Errc::invalid_argument, {"xgpu::gemm", "c has more elements"});
      // An engine asked for but unavailable.
      check_error(capture_error([&] {
                    auto h = context.alloc<half>(16);
                    xgpu::gemm<half>(queue, 4, 4, 4, 1, h, h, 0, context.alloc<half>(16),
                                     Transpose::no, Transpose::no, GemmEngine::host_blas);
                  }),
                  xgpu::Errc::unsupported, {"host_blas", "half"});
      // An empty queue.
      xgpu::Queue none;
      check_error(capture_error([&] { xgpu::gemm<float>(none, 2, 4, 3, 1, a, b, 0, c); }),
                  xgpu::Errc::invalid_handle);
    }
  }
}

namespace {

/// C = 1.5 A B + 0.5 C with one NaN in A (row 2) and one in B (column 4), every engine the
/// device has and both storage orders: C must be NaN exactly in row 2 and column 4 (a NaN
/// times a non-zero factor stays NaN; the other elements never meet one). An engine that
/// dropped NaNs (a max/min or a comparison in place of arithmetic, a skipped "zero" tile)
/// or spread them (a tile computed with a stale NaN) shows here.
template <class T>
void check_nan_propagation(xgpu::Queue& queue) {
  const std::size_t m = 9, n = 11, k = 13, nan_row = 2, nan_col = 4;
  xgpu::Context context = queue.context();
  using S = xgpu::scalar_t<T>;
  for (GemmEngine engine : engines_to_test<T>(queue)) {
    for (Transpose t : {Transpose::no, Transpose::yes}) {
      const bool transposed = t == Transpose::yes;
      INFO(type_name<T>() << " engine " << xgpu::to_string(engine)
                          << (transposed ? ", A and B transposed" : ""));
      std::vector<T> a = random_values<T>(m * k, 21, 0.25, 1),
                     b = random_values<T>(k * n, 22, 0.25, 1);
      const std::vector<T> c0 = random_values<T>(m * n, 23, -1, 1);
      a[transposed ? 5 * m + nan_row : nan_row * k + 5] = element_of<T>(std::nan(""));
      b[transposed ? nan_col * k + 7 : 7 * n + nan_col] = element_of<T>(std::nan(""));
      auto da = context.alloc<T>(a.size()), db = context.alloc<T>(b.size()),
           dc = context.alloc<T>(c0.size());
      queue.write(da, a);
      queue.write(db, b);
      queue.write(dc, c0);
      xgpu::gemm<T>(queue, m, n, k, static_cast<S>(1.5), da, db, static_cast<S>(0.5), dc, t, t,
                    engine);
      queue.finish();
      const std::vector<T> got = queue.read(dc);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
          const bool expected_nan = i == nan_row || j == nan_col;
          const double value = value_of(got[i * n + j]);
          if (std::isnan(value) != expected_nan && wrong++ < 3)
            FAIL_CHECK("C[" << i << "][" << j << "] = " << value << ", expected "
                            << (expected_nan ? "NaN" : "a number"));
        }
      }
      CHECK(wrong == 0);
    }
  }
}

}  // namespace

TEST_CASE("gemm with alpha != 0: a NaN in A or B gives NaN in exactly its row or column of C",
          "[gemm]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      check_nan_propagation<float>(queue);
      if (has_fp64(device)) check_nan_propagation<double>(queue);
      check_nan_propagation<half>(queue);
    }
  }
}

// XGPU_GEMM is read once per process: unit.icd.algorithms.gemm.engine_* set one engine each.
TEST_CASE("XGPU_GEMM forces gemm's engine", "[.env_gemm]") {
  const std::string value = xgpu_test::env("XGPU_GEMM").value_or("");
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe() << " XGPU_GEMM=" << value) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      if (value == "kernel") {
        CHECK(xgpu::chosen_gemm_engine<float>(queue) == GemmEngine::kernel);
        check_case<float>(queue, {9, 10, 11, 1.0, 0.0}, GemmEngine::automatic);
      } else if (value == "host_blas") {
        // Unavailable for half: the automatic choice stands (and a warning is logged).
        CHECK(xgpu::chosen_gemm_engine<half>(queue) == GemmEngine::kernel);
      } else {
        FAIL("no expectation for XGPU_GEMM='" << value << "'");
      }
    }
  }
}

// unit.icd.algorithms.bad_settings sets XGPU_GEMM=fastest and XGPU_GEMM_SHAPE=tpu (each read
// once per process).
TEST_CASE("gemm refuses an unknown XGPU_GEMM or XGPU_GEMM_SHAPE", "[.bad_settings]") {
  REQUIRE(xgpu_test::env("XGPU_GEMM") == std::string("fastest"));
  REQUIRE(xgpu_test::env("XGPU_GEMM_SHAPE") == std::string("tpu"));
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Buffer<float> empty;
      // A malformed XGPU_GEMM: invalid_argument, whatever the sizes.
      check_error(capture_error(
                      [&] { xgpu::gemm<float>(queue, 0, 4, 0, 1.0f, empty, empty, 0.0f, empty); }),
                  xgpu::Errc::invalid_argument, {"XGPU_GEMM", "fastest"});
      check_error(capture_error(
                      [&] { xgpu::gemm<float>(queue, 0, 0, 0, 1.0f, empty, empty, 0.0f, empty); }),
                  xgpu::Errc::invalid_argument, {"XGPU_GEMM", "fastest"});
      check_error(capture_error([&] { xgpu::chosen_gemm_engine<float>(queue); }),
                  xgpu::Errc::invalid_argument, {"XGPU_GEMM", "fastest"});
      // The kernel engine asked for by name reads its shape.
      auto x = context.alloc<float>(4);
      check_error(capture_error([&] {
                    xgpu::gemm<float>(queue, 2, 2, 2, 1, x, x, 0, context.alloc<float>(4),
                                      Transpose::no, Transpose::no, GemmEngine::kernel);
                  }),
                  xgpu::Errc::invalid_argument, {"XGPU_GEMM_SHAPE", "tpu"});
    }
  }
}

namespace {

/// The mixed-precision GEMM (In = half or bfloat16 in, float out) against the float GEMM of
/// the same inputs widened to float, on the same engine, and both against the double
/// reference: each within the float GEMM's bound, (k + 3) 2^-23 (|alpha| sum |a b| + |beta
/// c|) (the inputs widen exactly, so nothing else rounds), and the two within twice that of
/// each other. beta == 0 starts C as NaN: none may leak.
template <class In>
void check_mixed_case(xgpu::Queue& queue, const Case& c, GemmEngine engine) {
  INFO(describe(c, engine, type_name<In>()) << " (float C)");
  const bool ta = c.ta == Transpose::yes, tb = c.tb == Transpose::yes;
  const std::vector<In> a = random_values<In>(c.m * c.k, 31, -2, 2),
                        b = random_values<In>(c.k * c.n, 32, -2, 2);
  std::vector<float> c0 = random_values<float>(c.m * c.n, 33, -1, 1);
  if (c.beta == 0) c0.assign(c0.size(), std::nanf(""));
  std::vector<float> a_wide(a.size()), b_wide(b.size());
  for (std::size_t i = 0; i < a.size(); ++i) a_wide[i] = value_of(a[i]);
  for (std::size_t i = 0; i < b.size(); ++i) b_wide[i] = value_of(b[i]);
  xgpu::Context context = queue.context();
  auto da = xgpu_test::upload(context, queue, a), db = xgpu_test::upload(context, queue, b);
  auto fa = xgpu_test::upload(context, queue, a_wide),
       fb = xgpu_test::upload(context, queue, b_wide);
  auto mixed = xgpu_test::upload(context, queue, c0), plain = xgpu_test::upload(context, queue, c0);
  const auto alpha = static_cast<float>(c.alpha), beta = static_cast<float>(c.beta);
  xgpu::gemm<In, float>(queue, c.m, c.n, c.k, alpha, da, db, beta, mixed, c.ta, c.tb, engine);
  xgpu::gemm<float>(queue, c.m, c.n, c.k, alpha, fa, fb, beta, plain, c.ta, c.tb, engine);
  queue.finish();
  const std::vector<float> got = queue.read(mixed), baseline = queue.read(plain);
  std::size_t failures = 0;
  for (std::size_t i = 0; i < c.m; ++i) {
    for (std::size_t j = 0; j < c.n; ++j) {
      double sum = 0, magnitude = 0;
      for (std::size_t p = 0; p < c.k; ++p) {
        const double x = a_wide[ta ? p * c.m + i : i * c.k + p];
        const double y = b_wide[tb ? j * c.k + p : p * c.n + j];
        sum += x * y;
        magnitude += std::fabs(x * y);
      }
      const double old = c.beta == 0 ? 0 : c0[i * c.n + j];
      const double expected = c.alpha * sum + c.beta * old;
      const double bound = (c.k + 3) * double(FLT_EPSILON) *
                           (std::fabs(c.alpha) * magnitude + std::fabs(c.beta * old));
      const double value = got[i * c.n + j], float_value = baseline[i * c.n + j];
      if (!(std::fabs(value - expected) <= bound && std::fabs(value - float_value) <= 2 * bound) &&
          failures++ < 3) {
        FAIL_CHECK("C[" << i << "][" << j << "] = " << value << ", float GEMM " << float_value
                        << ", exact " << expected << ", bound " << bound);
      }
    }
  }
  CHECK(failures == 0);
}

/// Every engine the mixed form has on the device (float's). Each (input type, transposes) is
/// a kernel program to compile (seconds on PoCL), and the other engines convert and run
/// float's GEMM, tested in full above: so the kernel gets the standard cases untransposed and
/// doubly transposed (one of each transpose for half), the host BLAS (where the device
/// shares memory) and CLBlast (PoCL only, as for float) two cases each, for half.
template <class In>
void every_mixed_engine(xgpu::Queue& queue) {
  std::vector<Case> cases;
  for (const Case& c : standard_cases(is_oclgrind(queue.device())))
    if (c.ta == c.tb || std::is_same_v<In, half>) cases.push_back(c);
  for (const Case& c : cases) check_mixed_case<In>(queue, c, GemmEngine::kernel);
  if (!std::is_same_v<In, half>) return;
  const std::vector<Case> few{{37, 29, 41, 1.5, -0.75},
                              {17, 19, 23, 1.0, 0.0, Transpose::yes, Transpose::yes}};
  std::string why;
  for (GemmEngine engine : {GemmEngine::host_blas, GemmEngine::vendor_blas}) {
    if (engine == GemmEngine::vendor_blas && !is_pocl(queue.device())) continue;
    if (!xgpu::gemm_engine_available<In, float>(queue, engine, &why)) {
      WARN(xgpu::to_string(engine) << " not tested for half inputs: " << why);
      continue;
    }
    for (const Case& c : few) check_mixed_case<In>(queue, c, engine);
  }
}

}  // namespace

TEST_CASE("gemm of half and bfloat16 inputs into float C, every engine", "[gemm]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      every_mixed_engine<half>(queue);
      every_mixed_engine<xgpu::bfloat16>(queue);
      CHECK(xgpu::chosen_gemm_engine<half, float>(queue) == xgpu::chosen_gemm_engine<float>(queue));
      // k == 0 and alpha == 0 scale C alone; m == 0 enqueues nothing; C may not alias A.
      auto h = context.alloc<half>(32);  // 4 x 4 halves, or as floats a 4 x 4 C
      auto c = xgpu_test::upload(context, queue, std::vector<float>(16, 2.0f));
      queue.fill(h, xgpu::to_half(std::nanf("")));
      xgpu::gemm<half, float>(queue, 4, 4, 4, 0.0f, h, h, 0.5f, c);
      CHECK(queue.read(c) == std::vector<float>(16, 1.0f));
      CHECK_FALSE(static_cast<bool>(xgpu::gemm<half, float>(queue, 0, 4, 4, 1.0f, h, h, 0.0f, c)));
      check_error(capture_error([&] {
                    xgpu::gemm<half, float>(queue, 4, 4, 4, 1.0f, h, h, 0.0f,
                                            xgpu::ext::typed<float>(h.untyped()));
                  }),
                  xgpu::Errc::invalid_argument, {"c must not be the buffer of a or b"});
      check_error(capture_error([&] {
                    xgpu::gemm<half, float>(queue, 4, 4, 4, 1.0f, h, h, 0.0f,
                                            context.alloc<float>(15));
                  }),
                  xgpu::Errc::invalid_argument, {"c (4 x 4)", "16", "15"});
    }
  }
}
