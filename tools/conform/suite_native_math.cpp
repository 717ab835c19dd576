// The math suite's checks that single-precision division and sqrt built with
// -cl-fp32-correctly-rounded-divide-sqrt are correctly rounded (0 ulp: bit-identical to the
// host's IEEE float operations). They read CL_DEVICE_SINGLE_FP_CONFIG through xgpu's OpenCL
// interop (xgpu/opencl.hpp) because xgpu's DeviceInfo does not say whether the device offers
// that option; shared plumbing in native.hpp.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "math_check.hpp"
#include "native.hpp"

namespace xgpu::conform {
namespace {

using namespace native;

static_assert(std::numeric_limits<float>::is_iec559, "the host reference needs IEEE floats");

const char* const kRoundedSource = R"(
kernel void cr_divide(global const float* a, global const float* b, global float* r) {
  size_t i = get_global_id(0);
  r[i] = a[i] / b[i];
}
kernel void cr_sqrt(global const float* a, global const float* unused, global float* r) {
  size_t i = get_global_id(0);
  r[i] = sqrt(a[i]);
}
)";

bool identical(float a, float b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  std::uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return x == y;
}

float from_bits(std::uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

// Edge values, then random bit patterns (every class), subnormals, normal values of every
// exponent, and values near the bottom of the normal range (subnormal quotients).
std::vector<float> rounded_inputs(std::size_t count, std::uint32_t seed) {
  using L = std::numeric_limits<float>;
  std::vector<float> values = {0.0f,
                               -0.0f,
                               1.0f,
                               -1.0f,
                               2.0f,
                               3.0f,
                               7.0f,
                               0.1f,
                               1.0f / 3.0f,
                               L::denorm_min(),
                               -L::denorm_min(),
                               L::min(),
                               -L::min(),
                               L::min() / 2,
                               L::min() * 0.75f,
                               L::max(),
                               -L::max(),
                               L::infinity(),
                               -L::infinity(),
                               L::quiet_NaN(),
                               1e-30f,
                               1e30f,
                               16777215.0f,
                               std::nextafter(1.0f, 2.0f),
                               std::nextafter(1.0f, 0.0f)};
  std::mt19937 random(seed);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t bits = random();
    switch (i % 4) {
      case 0:
        values.push_back(from_bits(bits));
        break;
      case 1:  // subnormal
        values.push_back(from_bits(bits & 0x807FFFFFu));
        break;
      case 2:  // a finite normal value of any exponent
        values.push_back(from_bits((bits & 0x807FFFFFu) | ((1 + bits % 254) << 23)));
        break;
      default:  // near the bottom of the normal range
        values.push_back(std::ldexp(1.0f + (bits & 0xFFFF) / 65536.0f, -126 + int(bits >> 28)));
        break;
    }
  }
  return values;
}

float flushed(float value) { return math::flushed(value); }

// Runs kernel `name` on (a, b) and compares with `reference`. Without CL_FP_DENORM a device
// may flush subnormal inputs and results to zero (of the same sign).
template <class Reference>
Result check_rounded(Env& env, const char* name, const char* expression, std::vector<float> a,
                     std::vector<float> b, Reference reference, bool denormals) {
  const Program program = env.program("conform_native_rounded.cl", kRoundedSource,
                                      "-cl-fp32-correctly-rounded-divide-sqrt");
  const std::size_t n = a.size();
  Buffer<float> da = env.context().alloc<float>(n), db = env.context().alloc<float>(n),
                dr = env.context().alloc<float>(n);
  env.queue().write(da, a);
  env.queue().write(db, b);
  env.queue().launch(program.kernel(name), Range{n}, da, db, dr);
  const std::vector<float> r = env.queue().read(dr);
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < n; ++i) {
    bool right = identical(r[i], reference(a[i], b[i]));
    if (!right && !denormals)
      right = identical(r[i], flushed(reference(a[i], b[i]))) ||
              identical(r[i], flushed(reference(flushed(a[i]), flushed(b[i]))));
    if (!right && wrong++ == 0) first = i;
  }
  if (wrong == 0) return pass();
  const float expected = reference(a[first], b[first]);
  const double error = math::ulp_error<float>(r[first], static_cast<long double>(expected));
  char text[480];
  std::snprintf(text, sizeof text,
                "%s with -cl-fp32-correctly-rounded-divide-sqrt: %zu of %zu results not "
                "correctly rounded%s; first: a=%.9g (%a), b=%.9g (%a): expected %.9g (%a), got "
                "%.9g (%a), error %.3g ulp > bound 0 ulp",
                expression, wrong, n, denormals ? "" : " (subnormals may flush)", double(a[first]),
                double(a[first]), double(b[first]), double(b[first]), double(expected),
                double(expected), double(r[first]), double(r[first]), error);
  return fail(text);
}

// The device's single-precision configuration, or a skip reason in `why`.
cl_device_fp_config single_fp_config(Env& env, std::string& why) {
  if (!on_opencl(env)) {
    why = kNeedsOpenCL;
    return 0;
  }
  cl_device_fp_config config = 0;
  const cl_int error = clGetDeviceInfo(opencl::device(env.device()), CL_DEVICE_SINGLE_FP_CONFIG,
                                       sizeof config, &config, nullptr);
  if (error != CL_SUCCESS)
    throw std::runtime_error("CL_DEVICE_SINGLE_FP_CONFIG: " + status_name(error));
  if (!(config & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT))
    why =
        "needs CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT in CL_DEVICE_SINGLE_FP_CONFIG (the device "
        "offers no -cl-fp32-correctly-rounded-divide-sqrt)";
  return config;
}

Result rounded_divide(Env& env) {
  std::string why;
  const cl_device_fp_config config = single_fp_config(env, why);
  if (!why.empty()) return skip(why);
  const std::size_t count = env.size(4096, 512);
  std::vector<float> a = rounded_inputs(count, 1), b = rounded_inputs(count, 2);
  // Every pair of edge values too (they lead both lists).
  const std::size_t edges = rounded_inputs(0, 0).size();
  for (std::size_t i = 0; i < edges; ++i) {
    for (std::size_t j = 0; j < edges; ++j) {
      a.push_back(a[i]);
      b.push_back(b[j]);
    }
  }
  return check_rounded(
      env, "cr_divide", "a / b", a, b, [](float x, float y) { return x / y; },
      (config & CL_FP_DENORM) != 0);
}

Result rounded_sqrt(Env& env) {
  std::string why;
  const cl_device_fp_config config = single_fp_config(env, why);
  if (!why.empty()) return skip(why);
  std::vector<float> a = rounded_inputs(env.size(4096, 512), 4);
  // Half the random values made positive: negative ones all give NaN.
  for (std::size_t i = 0; i < a.size(); i += 2) a[i] = std::fabs(a[i]);
  const std::vector<float> unused(a.size(), 0.0f);
  return check_rounded(
      env, "cr_sqrt", "sqrt(a)", a, unused, [](float x, float) { return std::sqrt(x); },
      (config & CL_FP_DENORM) != 0);
}

}  // namespace

void register_native_math(Registry& registry) {
  registry.add("math", "float_divide_correctly_rounded", "", rounded_divide);
  registry.add("math", "float_sqrt_correctly_rounded", "", rounded_sqrt);
}

}  // namespace xgpu::conform
