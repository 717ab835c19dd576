// The memory suite: host/device round trips of every scalar type and a struct at random
// sizes (0 and 1 included), fill, full and partial device copies, and map/unmap visibility.
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

struct Record {
  std::int32_t id;
  float weight;
  std::uint8_t tag[8];
};

template <class T>
T make_value(std::mt19937& random) {
  T value;
  unsigned char* bytes = reinterpret_cast<unsigned char*>(&value);
  for (std::size_t i = 0; i < sizeof(T); ++i) bytes[i] = static_cast<unsigned char>(random());
  return value;
}

// Every size from `sizes`: write random bytes, read them back, compare bytewise (so a NaN
// pattern in a float compares as the bits it is).
template <class T>
Result round_trip(Env& env) {
  std::mt19937 random(1234 + sizeof(T));
  std::vector<std::size_t> sizes = {0, 1, 3, 17};
  for (int i = 0; i < 3; ++i) sizes.push_back(1 + random() % env.size(4096, 512));
  for (std::size_t n : sizes) {
    std::vector<T> sent(n);
    for (T& value : sent) value = make_value<T>(random);
    Buffer<T> buffer = env.context().alloc<T>(n);
    env.queue().write(buffer, sent);
    std::vector<T> got = env.queue().read(buffer);
    if (got.size() != n) return fail_expected("read size", n, got.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (std::memcmp(&sent[i], &got[i], sizeof(T)) != 0)
        return fail_expected("size " + std::to_string(n) + ", element " + std::to_string(i),
                             "the bytes written", "different bytes");
    }
  }
  return pass();
}

Result fill(Env& env) {
  const std::size_t n = env.size(4000, 300);
  Buffer<std::uint32_t> buffer = env.context().alloc<std::uint32_t>(n);
  env.queue().fill(buffer, 0xdeadbeefu).wait();
  env.queue().fill(buffer, 7u, n / 3, n / 4).wait();
  const std::vector<std::uint32_t> got = env.queue().read(buffer);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t expected = (i >= n / 4 && i < n / 4 + n / 3) ? 7u : 0xdeadbeefu;
    if (got[i] != expected) return fail_expected("element " + std::to_string(i), expected, got[i]);
  }
  return pass();
}

Result copy(Env& env) {
  const std::size_t n = env.size(4000, 300);
  std::vector<int> source(n), target(n, -1);
  for (std::size_t i = 0; i < n; ++i) source[i] = static_cast<int>(i * 3 + 1);
  Buffer<int> a = env.context().alloc<int>(n), b = env.context().alloc<int>(n);
  env.queue().write(a, source);
  env.queue().write(b, target);
  env.queue().copy(a, b);
  std::vector<int> got = env.queue().read(b);
  if (got != source) return fail("full copy: expected the source, got different elements");
  // Partial: 10 elements from offset 5 to offset 20 of a fresh buffer.
  env.queue().write(b, target);
  env.queue().copy(a, b, 10, 5, 20);
  got = env.queue().read(b);
  for (std::size_t i = 0; i < n; ++i) {
    const int expected = (i >= 20 && i < 30) ? source[i - 15] : -1;
    if (got[i] != expected)
      return fail_expected("partial copy element " + std::to_string(i), expected, got[i]);
  }
  return pass();
}

Result map_visibility(Env& env) {
  const std::size_t n = env.size(1024, 128);
  for (bool host_visible : {false, true}) {
    const std::string kind = host_visible ? "host-visible buffer" : "buffer";
    Buffer<int> buffer = env.context().alloc<int>(n, Access::read_write, host_visible);
    std::vector<int> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<int>(i) - 5;
    env.queue().write(buffer, values);
    {
      Mapping<int> mapped = env.queue().map(buffer);
      for (std::size_t i = 0; i < n; ++i) {
        if (mapped[i] != values[i])
          return fail_expected(kind + ": mapped element " + std::to_string(i), values[i],
                               mapped[i]);
        mapped[i] = values[i] * 2;
      }
    }
    const std::vector<int> got = env.queue().read(buffer);
    for (std::size_t i = 0; i < n; ++i) {
      if (got[i] != values[i] * 2)
        return fail_expected(kind + ": element written through a mapping " + std::to_string(i),
                             values[i] * 2, got[i]);
    }
  }
  return pass();
}

}  // namespace

void register_memory(Registry& registry) {
  registry.add("memory", "round_trip_char", "", round_trip<std::int8_t>);
  registry.add("memory", "round_trip_uchar", "", round_trip<std::uint8_t>);
  registry.add("memory", "round_trip_short", "", round_trip<std::int16_t>);
  registry.add("memory", "round_trip_ushort", "", round_trip<std::uint16_t>);
  registry.add("memory", "round_trip_int", "", round_trip<std::int32_t>);
  registry.add("memory", "round_trip_uint", "", round_trip<std::uint32_t>);
  registry.add("memory", "round_trip_long", "", round_trip<std::int64_t>);
  registry.add("memory", "round_trip_ulong", "", round_trip<std::uint64_t>);
  registry.add("memory", "round_trip_float", "", round_trip<float>);
  registry.add("memory", "round_trip_double", "", round_trip<double>);
  registry.add("memory", "round_trip_struct", "", round_trip<Record>);
  registry.add("memory", "fill", "", fill);
  registry.add("memory", "copy_and_partial_copy", "", copy);
  registry.add("memory", "map_unmap_visibility", "", map_visibility);
}

}  // namespace xgpu::conform
