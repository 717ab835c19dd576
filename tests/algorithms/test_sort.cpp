// xgpu::sort and xgpu::sort_by_key on every device, against std::stable_sort on the host:
// every key type at the required sizes, stability with many equal keys, ordered and
// degenerate inputs, inputs that leave some digits constant (skipped passes), IEEE total
// order of float specials, a sort near the device's allocation limit (PoCL), both layouts
// (XGPU_SORT_SHAPE=cpu|gpu) on every device, and errors.
// Results are compared bit for bit: a sort moves elements, it never computes new ones.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <xgpu/algorithms.hpp>

#include "for_tests.hpp"  // runtime/algorithms/src: what the library exports for tests
#include "test_support.hpp"

using xgpu_test::is_oclgrind;

namespace {

/// The unsigned image of a key whose order is the key's order (IEEE total order for floats).
std::uint32_t image(std::uint32_t key) { return key; }
std::uint32_t image(std::int32_t key) { return static_cast<std::uint32_t>(key) ^ 0x80000000u; }
std::uint32_t image(float key) {
  std::uint32_t bits;
  std::memcpy(&bits, &key, sizeof bits);
  return (bits & 0x80000000u) ? ~bits : bits ^ 0x80000000u;
}

template <class T>
std::uint32_t bits_of(T value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

template <class T>
T from_bits(std::uint32_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

/// Random elements whose bits, masked, vary: every bit pattern is a valid key, floats
/// included (NaNs, infinities, subnormals and both zeros all occur at full masks).
template <class T>
std::vector<T> random_elements(std::size_t n, std::uint32_t seed,
                               std::uint32_t mask = 0xffffffffu) {
  std::mt19937 random(seed);
  std::vector<T> values(n);
  for (T& value : values) value = from_bits<T>(static_cast<std::uint32_t>(random()) & mask);
  return values;
}

template <class T>
std::vector<std::uint32_t> all_bits(const std::vector<T>& values) {
  std::vector<std::uint32_t> bits(values.size());
  std::transform(values.begin(), values.end(), bits.begin(), bits_of<T>);
  return bits;
}

template <class K>
void stable_sort_host(std::vector<K>& keys) {
  std::stable_sort(keys.begin(), keys.end(), [](K a, K b) { return image(a) < image(b); });
}

/// A context and queue of their own for each sort checked: Oclgrind 21.10's uninitialized-
/// memory check keeps the shadow state of a released buffer for the next buffer that reuses
/// its slot in the same context, so a second sort's scratch buffers (written by kernels
/// before they are read) were reported uninitialized; the same sorts in fresh contexts are
/// clean.
struct Fresh {
  explicit Fresh(const xgpu::Device& device) : context(device), queue(context.queue()) {}
  xgpu::Context context;
  xgpu::Queue queue;
};

template <class K>
void check_sort(const xgpu::Device& device, const std::vector<K>& keys) {
  Fresh fresh(device);
  xgpu::Context& context = fresh.context;
  xgpu::Queue& queue = fresh.queue;
  INFO("xgpu::sort of " << keys.size() << " keys of " << sizeof(K) << " bytes"
                        << (std::is_same_v<K, float> ? " (float)" : ""));
  xgpu::Buffer<K> buffer = context.alloc<K>(keys.size());
  queue.write(buffer, keys);
  xgpu::sort(queue, buffer);
  std::vector<K> expected = keys;
  stable_sort_host(expected);
  CHECK(all_bits(queue.read(buffer)) == all_bits(expected));
}

/// sort_by_key against std::stable_sort of (key, value) pairs ordered by key only.
template <class K, class V>
void check_sort_by_key(const xgpu::Device& device, const std::vector<K>& keys,
                       const std::vector<V>& values) {
  Fresh fresh(device);
  xgpu::Context& context = fresh.context;
  xgpu::Queue& queue = fresh.queue;
  INFO("xgpu::sort_by_key of " << keys.size() << " keys");
  xgpu::Buffer<K> key_buffer = context.alloc<K>(keys.size());
  xgpu::Buffer<V> value_buffer = context.alloc<V>(values.size());
  queue.write(key_buffer, keys);
  queue.write(value_buffer, values);
  xgpu::sort_by_key(queue, key_buffer, value_buffer);
  std::vector<std::pair<K, V>> pairs(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) pairs[i] = {keys[i], values[i]};
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return image(a.first) < image(b.first); });
  std::vector<K> expected_keys(keys.size());
  std::vector<V> expected_values(keys.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    expected_keys[i] = pairs[i].first;
    expected_values[i] = pairs[i].second;
  }
  CHECK(all_bits(queue.read(key_buffer)) == all_bits(expected_keys));
  CHECK(all_bits(queue.read(value_buffer)) == all_bits(expected_values));
}

/// Values that name their position, so stability shows: i as V.
template <class V>
std::vector<V> positions(std::size_t n) {
  std::vector<V> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<V>(i);
  return values;
}

/// The required sizes: 0, 1, 2, a prime, the work-group size -/+ 1, and 2^20 + 3 (not on
/// Oclgrind, which interprets every work-item).
std::vector<std::size_t> required_sizes(const xgpu::Device& device) {
  const std::size_t group = xgpu::detail::sort_work_group_size(Fresh(device).queue);
  std::vector<std::size_t> sizes{0,         1,        2, is_oclgrind(device) ? 2999u : 104729u,
                                 group - 1, group + 1};
  if (!is_oclgrind(device)) sizes.push_back((std::size_t{1} << 20) + 3);
  return sizes;
}

}  // namespace

TEST_CASE("sort orders every key type at the required sizes", "[sort]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      for (std::size_t n : required_sizes(device)) {
        check_sort(device, random_elements<std::uint32_t>(n, 1));
        check_sort(device, random_elements<std::int32_t>(n, 2));
        check_sort(device, random_elements<float>(n, 3));
      }
    }
  }
}

TEST_CASE("sort_by_key is stable for every key and value type", "[sort]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      const std::size_t n = is_oclgrind(device) ? 2503 : 300007;
      // 16 distinct keys: thousands of equal keys each, spread over every work-item's chunk.
      // The mask keeps float keys among a few values of each sign (no NaN payload games).
      const std::uint32_t few = 0x8000000fu;
      auto keys_u = random_elements<std::uint32_t>(n, 4, few);
      auto keys_i = random_elements<std::int32_t>(n, 5, few);
      auto keys_f = random_elements<float>(n, 6, 0xc000000fu);
      check_sort_by_key(device, keys_u, positions<std::uint32_t>(n));
      check_sort_by_key(device, keys_u, positions<std::int32_t>(n));
      check_sort_by_key(device, keys_u, positions<float>(n));
      check_sort_by_key(device, keys_i, positions<std::uint32_t>(n));
      check_sort_by_key(device, keys_i, positions<std::int32_t>(n));
      check_sort_by_key(device, keys_i, positions<float>(n));
      check_sort_by_key(device, keys_f, positions<std::uint32_t>(n));
      check_sort_by_key(device, keys_f, positions<std::int32_t>(n));
      check_sort_by_key(device, keys_f, positions<float>(n));
      // Full-range keys, and the required small sizes.
      for (std::size_t size : required_sizes(device)) {
        check_sort_by_key(device, random_elements<float>(size, 7), positions<std::uint32_t>(size));
        check_sort_by_key(device, random_elements<std::int32_t>(size, 8),
                          positions<std::int32_t>(size));
      }
    }
  }
}

TEST_CASE("sort handles sorted, reversed and all-equal input", "[sort]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      const std::size_t n = is_oclgrind(device) ? 3001 : 250001;
      std::vector<std::int32_t> ascending(n);
      for (std::size_t i = 0; i < n; ++i) ascending[i] = static_cast<std::int32_t>(i) * 7 - 900000;
      std::vector<std::int32_t> descending(ascending.rbegin(), ascending.rend());
      check_sort(device, ascending);
      check_sort(device, descending);
      check_sort(device, std::vector<std::int32_t>(n, -7));
      check_sort_by_key(device, std::vector<float>(n, 2.5f), positions<float>(n));
      check_sort_by_key(device, descending, positions<std::uint32_t>(n));
    }
  }
}

TEST_CASE("sort skips digits that no key varies in", "[sort]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      const std::size_t n = is_oclgrind(device) ? 1500 : 100003;
      // Masks leave 1, 2 or 3 of the 4 byte-wide digits varying, in odd and even numbers
      // (the result then ends in the scratch buffer or at home), with high bits set too.
      for (std::uint32_t mask : {0x000000ffu, 0x0000ff00u, 0xff000000u, 0x00ffff00u, 0xff00ff00u,
                                 0x00ffffffu, 0xffff00ffu, 0u}) {
        INFO("mask " << mask);
        check_sort(device, random_elements<std::uint32_t>(n, mask, mask));
        std::vector<std::uint32_t> high = random_elements<std::uint32_t>(n, ~mask, mask);
        for (std::uint32_t& key : high) key |= 0x80000000u;
        check_sort_by_key(device, high, positions<std::int32_t>(n));
      }
    }
  }
}

TEST_CASE("sort orders float specials by IEEE total order", "[sort]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float denorm = std::numeric_limits<float>::denorm_min();
  // In total order: -NaN (any payload) < -inf < finite negatives < -0.0 < +0.0 < ... < +NaN.
  const std::vector<float> ordered{from_bits<float>(0xffc00001u),
                                   from_bits<float>(0xffc00000u),
                                   from_bits<float>(0xff800001u),
                                   -inf,
                                   -std::numeric_limits<float>::max(),
                                   -1.0f,
                                   -denorm,
                                   -0.0f,
                                   0.0f,
                                   denorm,
                                   std::numeric_limits<float>::min(),
                                   1.0f,
                                   std::numeric_limits<float>::max(),
                                   inf,
                                   from_bits<float>(0x7f800001u),
                                   from_bits<float>(0x7fc00000u),
                                   from_bits<float>(0x7fffffffu)};
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      std::vector<float> shuffled;
      for (int copy = 0; copy < 3; ++copy)
        shuffled.insert(shuffled.end(), ordered.begin(), ordered.end());
      std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(9));
      xgpu::Buffer<float> keys = context.alloc<float>(shuffled.size());
      queue.write(keys, shuffled);
      xgpu::sort(queue, keys);
      std::vector<float> expected;
      for (float value : ordered) expected.insert(expected.end(), 3, value);
      CHECK(all_bits(queue.read(keys)) == all_bits(expected));
      check_sort_by_key(device, shuffled, positions<std::int32_t>(shuffled.size()));
    }
  }
}

TEST_CASE("sort near the allocation limit", "[sort]") {
  // Seconds of work: on the first PoCL device only (a second one is the same driver).
  const std::vector<xgpu::Device> all = xgpu::devices();
  const auto first_pocl = std::find_if(all.begin(), all.end(), xgpu_test::is_pocl);
  REQUIRE(first_pocl != all.end());
  {
    const xgpu::Device& device = *first_pocl;
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      // Keys of large_bytes(), at most 128 MiB (what the brief of this test names
      // for PoCL: a 4 GiB allocation limit would mean 128M keys, minutes on 2 cores), in a
      // quarter of the distinct values so that equal keys abound. Checked in linear time:
      // sort_by_key with positions as values must give ascending keys, each the original key
      // at its value's position, values a permutation ascending among equal keys; then sort
      // alone must give the same keys.
      const std::size_t bytes =
          std::min<std::size_t>(xgpu_test::large_bytes(device), std::size_t{128} << 20);
      const std::size_t n = bytes / sizeof(std::uint32_t) - 5;
      const std::vector<std::uint32_t> keys = random_elements<std::uint32_t>(n, 10, 0xfffffffcu);
      xgpu::Buffer<std::uint32_t> key_buffer = context.alloc<std::uint32_t>(n);
      xgpu::Buffer<std::uint32_t> value_buffer = context.alloc<std::uint32_t>(n);
      queue.write(key_buffer, keys);
      queue.write(value_buffer, positions<std::uint32_t>(n));
      xgpu::sort_by_key(queue, key_buffer, value_buffer);
      const std::vector<std::uint32_t> sorted = queue.read(key_buffer);
      const std::vector<std::uint32_t> from = queue.read(value_buffer);
      std::vector<bool> seen(n, false);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const bool valid = from[i] < n && !seen[from[i]] && keys[from[i]] == sorted[i] &&
                           (i == 0 || sorted[i - 1] < sorted[i] ||
                            (sorted[i - 1] == sorted[i] && from[i - 1] < from[i]));
        if (valid) seen[from[i]] = true;
        wrong += !valid;
      }
      CHECK(wrong == 0);
      queue.write(key_buffer, keys);
      xgpu::sort(queue, key_buffer);
      CHECK(queue.read(key_buffer) == sorted);
    }
  }
}

TEST_CASE("sort of 0 or 1 elements enqueues nothing", "[sort]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      for (std::size_t n : {0, 1}) {
        xgpu::Buffer<float> keys = context.alloc<float>(n);
        xgpu::Buffer<std::int32_t> values = context.alloc<std::int32_t>(n);
        if (n == 1) {
          queue.write(keys, std::vector<float>{-3.5f});
          queue.write(values, std::vector<std::int32_t>{42});
        }
        CHECK_FALSE(xgpu::sort(queue, keys));
        CHECK_FALSE(xgpu::sort_by_key(queue, keys, values));
        if (n == 1) {
          CHECK(queue.read(keys) == std::vector<float>{-3.5f});
          CHECK(queue.read(values) == std::vector<std::int32_t>{42});
        }
      }
    }
  }
}

TEST_CASE("sort rejects mismatched sizes and empty queues", "[sort]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Buffer<std::uint32_t> keys = context.alloc<std::uint32_t>(10);
      xgpu::Buffer<float> values = context.alloc<float>(9);
      xgpu_test::check_error(
          xgpu_test::capture_error([&] { xgpu::sort_by_key(queue, keys, values); }),
          xgpu::Errc::invalid_argument, {"xgpu::sort_by_key", "values", "9", "10"});
      // Even when there is nothing to sort.
      xgpu::Buffer<float> none = context.alloc<float>(0);
      xgpu::Buffer<float> one = context.alloc<float>(1);
      xgpu_test::check_error(xgpu_test::capture_error([&] { xgpu::sort_by_key(queue, none, one); }),
                             xgpu::Errc::invalid_argument, {"xgpu::sort_by_key"});
      xgpu::Queue empty;
      xgpu_test::check_error(xgpu_test::capture_error([&] { xgpu::sort(empty, keys); }),
                             xgpu::Errc::invalid_handle, {"xgpu::sort"});
    }
  }
}

TEST_CASE("sort in both layouts on every device", "[sort][shaped]") {
  // The CPU layout (a chunk per work-item) and the GPU layout (striped tiles of 4 keys per
  // item, a range of tiles per group) on every device: sizes over many groups with partial
  // last tiles, tile boundaries, equal keys (stability), ordered and reversed input, constant
  // digits. The layout is the CTest entry's (XGPU_SORT_SHAPE, read once per process): the
  // entries of tests/CMakeLists.txt run this case in each layout on each device. Oclgrind
  // checks every access of both at small sizes: in its own GPU layout the other tests run
  // it, so this one adds the CPU layout only (unit.icd.algorithms.sort.cpu_layout).
  for (const xgpu::Device& device : xgpu::devices()) {
    const std::string shape = xgpu_test::layout_in_effect("XGPU_SORT_SHAPE", device);
    if (is_oclgrind(device) && shape == "gpu") continue;
    DYNAMIC_SECTION(device.describe()) {
      {
        INFO("XGPU_SORT_SHAPE: " << shape << " layout");
        const bool small = is_oclgrind(device);
        const std::size_t group = xgpu::detail::sort_work_group_size(Fresh(device).queue);
        std::vector<std::size_t> sizes{2, group + 1, 4 * group - 1, 4 * group + 1,
                                       small ? 2999u : 104729u};
        if (!small) sizes.push_back((std::size_t{1} << 20) + 3);
        if (!small && shape == "cpu") {
          // The CPU layout gives each item (one per group) at least 8,192 keys, at most 4
          // items per compute unit, and writes 16-key lines: sizes around item boundaries and
          // off the lines, so that runs start and end inside a line and items share lines.
          for (std::size_t extra : {8191u, 8193u, 3u * 8192u + 17u, 8u * 8192u - 1u,
                                    8u * 8192u + 15u, 9u * 8192u + 1u, 64u * 8192u + 9u})
            sizes.push_back(extra);
        }
        for (std::size_t n : sizes) {
          check_sort(device, random_elements<std::uint32_t>(n, 11));
          check_sort(device, random_elements<float>(n, 12));
          check_sort_by_key(device, random_elements<std::int32_t>(n, 13, 0x8000000fu),
                            positions<std::uint32_t>(n));
        }
        const std::size_t n = small ? 1501 : 250001;
        std::vector<std::int32_t> ascending(n);
        for (std::size_t i = 0; i < n; ++i)
          ascending[i] = static_cast<std::int32_t>(i) * 7 - 900000;
        check_sort(device, ascending);
        check_sort_by_key(device, std::vector<std::int32_t>(ascending.rbegin(), ascending.rend()),
                          positions<float>(n));
        check_sort_by_key(device, std::vector<float>(n, 2.5f), positions<std::int32_t>(n));
        for (std::uint32_t mask : {0x0000ff00u, 0xff00ff00u})  // 1 and 2 varying digits
          check_sort_by_key(device, random_elements<std::uint32_t>(n, mask, mask),
                            positions<std::uint32_t>(n));
      }
    }
  }
}

// unit.icd.algorithms.bad_settings sets XGPU_SORT_SHAPE=gpus (read once per process).
TEST_CASE("sort refuses an unknown XGPU_SORT_SHAPE", "[.bad_settings]") {
  REQUIRE(xgpu_test::env("XGPU_SORT_SHAPE") == std::string("gpus"));
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue();
      xgpu::Buffer<std::uint32_t> keys = context.alloc<std::uint32_t>(10);
      queue.write(keys, std::vector<std::uint32_t>(10, 1));
      xgpu_test::check_error(xgpu_test::capture_error([&] { xgpu::sort(queue, keys); }),
                             xgpu::Errc::invalid_argument, {"XGPU_SORT_SHAPE", "gpus"});
    }
  }
}
