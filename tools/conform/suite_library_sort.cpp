// The library suite's sort checks: xgpu::sort of float keys (every bit pattern, so NaNs,
// infinities and both zeros, in IEEE total order) and xgpu::sort_by_key's stability with
// many equal keys, both against std::stable_sort on the host, compared bit for bit.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>
#include <xgpu/algorithms/sort.hpp>

#include "check.hpp"

namespace xgpu::conform {
namespace {

/// The unsigned image of a float's bits whose order is IEEE totalOrder.
std::uint32_t total_order(std::uint32_t bits) {
  return (bits & 0x80000000u) ? ~bits : bits ^ 0x80000000u;
}

std::vector<std::uint32_t> random_bits(std::size_t n, std::uint32_t seed, std::uint32_t mask) {
  std::mt19937 random(seed);
  std::vector<std::uint32_t> bits(n);
  for (std::uint32_t& value : bits) value = static_cast<std::uint32_t>(random()) & mask;
  return bits;
}

/// A context of the check's own: Oclgrind 21.10's uninitialized-memory check keeps the state
/// of a released buffer for the next buffer that reuses its slot in the same context, so the
/// sort's scratch buffers would be reported uninitialized after other checks' buffers.
struct Own {
  explicit Own(const Device& device) : context(device), queue(context.queue()) {}
  Context context;
  Queue queue;
};

/// The index of the first difference between two bit patterns, as a failure, or a pass.
Result compare(const std::string& what, const std::vector<std::uint32_t>& expected,
               const std::vector<std::uint32_t>& got) {
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (got[i] != expected[i])
      return fail_expected(what + " [" + std::to_string(i) + "] (bits)", expected[i], got[i]);
  return pass();
}

Result sort_floats(Env& env) {
  const std::size_t n = env.size(4001, 701);
  std::vector<std::uint32_t> bits = random_bits(n, 11, 0xffffffffu);
  // Make sure the specials are there: +-0, +-inf, NaNs of both signs.
  const std::uint32_t specials[] = {0x00000000u, 0x80000000u, 0x7f800000u,
                                    0xff800000u, 0x7fc00000u, 0xffc00001u};
  std::copy(std::begin(specials), std::end(specials), bits.begin() + 3);
  std::vector<float> keys(n);
  std::memcpy(keys.data(), bits.data(), n * sizeof(float));

  Own own(env.device());
  Buffer<float> buffer = own.context.alloc<float>(n);
  own.queue.write(buffer, keys);
  sort(own.queue, buffer);
  const std::vector<float> sorted = own.queue.read(buffer);
  std::vector<std::uint32_t> got(n);
  std::memcpy(got.data(), sorted.data(), n * sizeof(float));

  std::stable_sort(bits.begin(), bits.end(), [](std::uint32_t a, std::uint32_t b) {
    return total_order(a) < total_order(b);
  });
  return compare("xgpu::sort of " + std::to_string(n) + " floats", bits, got);
}

Result sort_by_key_stable(Env& env) {
  const std::size_t n = env.size(3001, 509);
  const std::vector<std::uint32_t> keys = random_bits(n, 12, 0x0f00000fu);  // 256 values
  std::vector<std::int32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<std::int32_t>(i);

  Own own(env.device());
  Buffer<std::uint32_t> key_buffer = own.context.alloc<std::uint32_t>(n);
  Buffer<std::int32_t> value_buffer = own.context.alloc<std::int32_t>(n);
  own.queue.write(key_buffer, keys);
  own.queue.write(value_buffer, values);
  sort_by_key(own.queue, key_buffer, value_buffer);
  const std::vector<std::uint32_t> got_keys = own.queue.read(key_buffer);
  const std::vector<std::int32_t> got_values = own.queue.read(value_buffer);

  std::stable_sort(values.begin(), values.end(),
                   [&](std::int32_t a, std::int32_t b) { return keys[a] < keys[b]; });
  std::vector<std::uint32_t> expected_keys(n), expected_values(n), got_value_bits(n);
  for (std::size_t i = 0; i < n; ++i) {
    expected_keys[i] = keys[values[i]];
    expected_values[i] = static_cast<std::uint32_t>(values[i]);
    got_value_bits[i] = static_cast<std::uint32_t>(got_values[i]);
  }
  Result result = compare("xgpu::sort_by_key keys", expected_keys, got_keys);
  if (result.outcome != Outcome::pass) return result;
  return compare("xgpu::sort_by_key values (equal keys must keep their order)", expected_values,
                 got_value_bits);
}

}  // namespace

void register_library_sort(Registry& registry) {
  registry.add("library", "sort_float_total_order", "", sort_floats);
  registry.add("library", "sort_by_key_stable", "", sort_by_key_stable);
}

}  // namespace xgpu::conform
