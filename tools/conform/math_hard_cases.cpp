// Hard cases of the math suites: the inputs where implementations go wrong (argument
// reduction, thresholds of overflow and underflow, cancellation near 1, the special-case
// tables of C99 Annex F that OpenCL C adopts), given as input triples (a, b, c).
#include <cmath>
#include <limits>
#include <random>

#include "math_check.hpp"

namespace xgpu::conform::math {
namespace {

template <class T>
using Cases = std::vector<std::array<T, 3>>;

template <class T>
void add(Cases<T>& cases, long double a, long double b = 0) {
  cases.push_back({static_cast<T>(a), static_cast<T>(b), T(0)});
}

// Each value and its neighbours 1, 2 and 3 ulp of T away on both sides.
template <class T>
void add_with_neighbours(Cases<T>& cases, T value, long double b = 0) {
  T up = value, down = value;
  add(cases, value, b);
  for (int k = 0; k < 3; ++k) {
    up = std::nextafter(up, std::numeric_limits<T>::infinity());
    down = std::nextafter(down, -std::numeric_limits<T>::infinity());
    add(cases, up, b);
    add(cases, down, b);
  }
}

template <class T>
Cases<T> log_near_one() {
  Cases<T> cases;
  T up = 1, down = 1;
  for (int k = 0; k < 64; ++k) {  // 1 +- k ulp: the result is tiny and must keep its digits
    up = std::nextafter(up, T(2));
    down = std::nextafter(down, T(0));
    add(cases, up);
    add(cases, down);
  }
  for (int e = 1; e < std::numeric_limits<T>::digits; e += 3) {  // 1 +- 2^-e
    add(cases, 1 + std::ldexp(1.0L, -e));
    add(cases, 1 - std::ldexp(1.0L, -e));
  }
  // log1p's counterpart: tiny arguments and -1 + k ulp (results near -infinity).
  for (int e = 1; e < 150; e += 7)
    add(cases, std::ldexp(1.0L, -e)), add(cases, -std::ldexp(1.0L, -e));
  add_with_neighbours<T>(cases, T(-1) + std::numeric_limits<T>::epsilon() / 2);
  return cases;
}

template <class T>
Cases<T> trig() {
  Cases<T> cases;
  const long double half_pi = 1.5707963267948966192313216916397514L;
  std::mt19937_64 random(2);
  std::uniform_int_distribution<long> multiple(1, 1L << 20);
  for (long k = 1; k <= 64; ++k) add_with_neighbours<T>(cases, static_cast<T>(k * half_pi));
  for (int i = 0; i < 256; ++i) {  // k * pi/2 rounded to T for k up to 2^20, both signs
    const T value = static_cast<T>(multiple(random) * half_pi);
    add_with_neighbours<T>(cases, (i & 1) ? -value : value);
  }
  std::uniform_real_distribution<double> exponent(5, 30);
  for (int i = 0; i < 512;
       ++i) {  // large values 1e5 .. 1e30, where reduction needs many bits of pi
    const T value = static_cast<T>(std::pow(10.0, exponent(random)));
    add(cases, (i & 1) ? -value : value);
  }
  add_with_neighbours<T>(cases, std::numeric_limits<T>::max());
  return cases;
}

// Near overflow and underflow of base^x: log_base of the largest value, of the smallest
// normal one and of the smallest subnormal one, each with its neighbours, and values between
// the last two (subnormal results).
template <class T>
Cases<T> exp_edges(long double base) {
  using L = std::numeric_limits<T>;
  Cases<T> cases;
  const auto log_base = [&](long double v) { return std::log(v) / std::log(base); };
  for (long double threshold :
       {log_base(L::max()), log_base(L::min()), log_base(L::denorm_min())}) {
    add_with_neighbours<T>(cases, static_cast<T>(threshold));
    for (int k = -32; k <= 32; ++k) add(cases, threshold + k * 0.01L);
  }
  std::mt19937_64 random(3);
  std::uniform_real_distribution<long double> subnormal(log_base(L::denorm_min()),
                                                        log_base(L::min()));
  for (int i = 0; i < 256; ++i) add(cases, subnormal(random));
  return cases;
}

// Every pair of special x and y: pow(+-0, y<0 odd/even/non-integer), pow(-1, +-inf) = 1,
// pow(1, NaN) = 1, pow(x, +-0) = 1, pow(-x, non-integer) = NaN, pow(+-inf, y),
// |x| < 1 and |x| > 1 with y = +-inf, odd and even integers too large for a fraction.
template <class T>
Cases<T> pow_table() {
  using L = std::numeric_limits<T>;
  const long double odd_big =
      std::ldexp(1.0L, L::digits - 1) + 1;  // the largest odd integer's scale
  const long double xs[] = {0,
                            -0.0L,
                            1,
                            -1,
                            0.5L,
                            -0.5L,
                            2,
                            -2,
                            3,
                            -3,
                            L::min(),
                            -L::min(),
                            L::denorm_min(),
                            -L::denorm_min(),
                            L::max(),
                            -L::max(),
                            L::infinity(),
                            -L::infinity(),
                            L::quiet_NaN(),
                            1 - L::epsilon() / 2,
                            1 + L::epsilon()};
  const long double ys[] = {0,
                            -0.0L,
                            1,
                            -1,
                            2,
                            -2,
                            3,
                            -3,
                            0.5L,
                            -0.5L,
                            1.5L,
                            -1.5L,
                            odd_big,
                            -odd_big,
                            2 * odd_big,
                            -2 * odd_big,
                            L::max(),
                            -L::max(),
                            L::infinity(),
                            -L::infinity(),
                            L::quiet_NaN(),
                            L::min(),
                            126,
                            -149};
  Cases<T> cases;
  for (long double x : xs)
    for (long double y : ys) add(cases, x, y);
  return cases;
}

template <class T>
Cases<T> sqrt_edges() {
  using L = std::numeric_limits<T>;
  Cases<T> cases;
  std::mt19937_64 random(4);
  std::uniform_int_distribution<int> root(1, 1 << 12);
  for (int i = 0; i < 128; ++i) {  // exact squares and the values around them
    const T r = static_cast<T>(root(random));
    add_with_neighbours<T>(cases, r * r);
  }
  for (int e = L::min_exponent - L::digits; e < L::max_exponent; e += 5) {
    add_with_neighbours<T>(cases, static_cast<T>(std::ldexp(1.0L, e)));
  }
  for (long double v : {-0.0L, 0.0L, -1.0L, -static_cast<long double>(L::denorm_min()),
                        static_cast<long double>(L::max()), static_cast<long double>(L::min())})
    add(cases, v);
  return cases;
}

template <class T>
Cases<T> divide_edges() {
  using L = std::numeric_limits<T>;
  const long double values[] = {0,
                                -0.0L,
                                1,
                                -1,
                                3,
                                0.1L,
                                L::min(),
                                -L::min(),
                                L::denorm_min(),
                                L::max(),
                                -L::max(),
                                L::infinity(),
                                -L::infinity(),
                                L::quiet_NaN(),
                                L::epsilon(),
                                1 - L::epsilon() / 2};
  Cases<T> cases;
  for (long double x : values)
    for (long double y : values) add(cases, x, y);
  std::mt19937_64 random(5);
  std::uniform_real_distribution<long double> mantissa(1, 2);
  for (int i = 0; i < 128; ++i) {  // quotients just below the smallest normal value (subnormal)
    add(cases, std::ldexp(mantissa(random), L::min_exponent - 1 - i % 8),
        mantissa(random) * (1 + i % 5));
    add(cases, mantissa(random), std::ldexp(mantissa(random), L::max_exponent - 1));
  }
  return cases;
}

}  // namespace

template <class T>
std::vector<std::array<T, 3>> hard_cases(Hard kind) {
  switch (kind) {
    case Hard::none:
      return {};
    case Hard::log_near_one:
      return log_near_one<T>();
    case Hard::trig:
      return trig<T>();
    case Hard::exp_e:
      return exp_edges<T>(2.718281828459045235360287471352662L);
    case Hard::exp_2:
      return exp_edges<T>(2);
    case Hard::exp_10:
      return exp_edges<T>(10);
    case Hard::pow_table:
      return pow_table<T>();
    case Hard::sqrt_edges:
      return sqrt_edges<T>();
    case Hard::divide_edges:
      return divide_edges<T>();
  }
  return {};
}

template std::vector<std::array<float, 3>> hard_cases<float>(Hard);
template std::vector<std::array<double, 3>> hard_cases<double>(Hard);

}  // namespace xgpu::conform::math
