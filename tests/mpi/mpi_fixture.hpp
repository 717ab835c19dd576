// What the MPI tests share: this rank's Comm, device, context and queue (made once), the element
// types, and values whose reductions are exact in every type (small integers), so a result is
// compared bit for bit.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>
#include <xgpu/mpi.hpp>
#include <xgpu/xgpu.hpp>

#include "test_support.hpp"

namespace xgpu_mpi_test {

using xgpu::mpi::Comm;
using xgpu::mpi::Op;
using xgpu::mpi::Transport;

struct Rank {
  Comm comm;
  int rank = 0, size = 1;
  xgpu::Device device;
  xgpu::Context context;
  xgpu::Queue queue;
};

/// This rank, on the device select_device gives it.
inline Rank& me() {
  static Rank rank = [] {
    Rank r;
    r.comm = Comm::world();
    r.rank = r.comm.rank();
    r.size = r.comm.size();
    r.device = xgpu::mpi::select_device(r.comm);
    r.context = xgpu::Context(r.device);
    r.queue = r.context.queue();
    return r;
  }();
  return rank;
}

/// The chunk the collectives' tests cut messages into (set with Comm::with_chunk), small so
/// that chunk - 1 and chunk + 1 elements stay small.
inline constexpr std::size_t kChunkBytes = 4096;

inline constexpr Op kOps[] = {Op::sum, Op::min, Op::max, Op::prod};
inline constexpr Transport kTransports[] = {Transport::mapped, Transport::staged};

template <class T>
struct Type {
  using type = T;
};
/// Calls body(Type<T>{}) for every element type of the collectives.
template <class Body>
void for_each_type(Body&& body) {
  body(Type<float>{});
  body(Type<double>{});
  body(Type<xgpu::half>{});
  body(Type<std::int32_t>{});
  body(Type<std::int64_t>{});
  body(Type<std::uint32_t>{});
}

template <class T>
T from_double(double value) {
  if constexpr (std::is_same_v<T, xgpu::half>) {
    return xgpu::to_half(static_cast<float>(value));
  } else {
    return static_cast<T>(value);
  }
}

template <class T>
constexpr bool is_unsigned() {
  return std::is_same_v<T, std::uint32_t>;
}

/// Rank r's element i for a reduction with `op`: small integers whose reduction over four ranks
/// is exact in half (sums under 64, products under 32).
inline double value(Op op, std::size_t i, int r, bool non_negative) {
  switch (op) {
    case Op::sum:
      return double(i % 5 + r + 1);
    case Op::prod:
      return double(1 + (i + r) % 2);
    default: {
      const double v = double((i * 7 + std::size_t(r) * 3) % 11);
      return non_negative ? v : v - 5;
    }
  }
}

inline double combine(Op op, double a, double b) {
  switch (op) {
    case Op::sum:
      return a + b;
    case Op::prod:
      return a * b;
    case Op::min:
      return b < a ? b : a;
    case Op::max:
      return b > a ? b : a;
  }
  return 0;
}

/// Rank r's `count` values for `op`.
template <class T>
std::vector<T> values(Op op, std::size_t count, int r) {
  std::vector<T> out(count);
  for (std::size_t i = 0; i < count; ++i)
    out[i] = from_double<T>(value(op, i, r, is_unsigned<T>()));
  return out;
}

/// The reduction over `ranks` ranks of values(op, count, r).
template <class T>
std::vector<T> reduced(Op op, std::size_t count, int ranks) {
  std::vector<T> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    double acc = value(op, i, 0, is_unsigned<T>());
    for (int r = 1; r < ranks; ++r) acc = combine(op, acc, value(op, i, r, is_unsigned<T>()));
    out[i] = from_double<T>(acc);
  }
  return out;
}

/// A buffer holding `host`.
template <class T>
xgpu::Buffer<T> upload(const std::vector<T>& host) {
  xgpu::Buffer<T> buffer = me().context.alloc<T>(host.size());
  if (!host.empty()) me().queue.write(buffer, host);
  return buffer;
}

template <class T>
std::vector<T> download(const xgpu::Buffer<T>& buffer) {
  return me().queue.read(buffer);
}

/// Sizes in elements of T that a chunk of kChunkBytes cuts: 0, 1, odd, chunk - 1, chunk + 1.
template <class T>
std::vector<std::size_t> edge_sizes() {
  const std::size_t chunk = kChunkBytes / sizeof(T);
  return {0, 1, 1001, chunk - 1, chunk + 1};
}

template <class T>
std::string describe(const char* what, Op op, Transport transport, std::size_t count) {
  return std::string(what) + " of " + std::to_string(count) + " " +
         xgpu::mpi::to_string(xgpu::mpi::data_type_of<T>()) + " (" + xgpu::mpi::to_string(op) +
         ", " + xgpu::mpi::to_string(transport) + ") on rank " + std::to_string(me().rank) +
         " of " + std::to_string(me().size);
}

}  // namespace xgpu_mpi_test

namespace Catch {
template <>
struct StringMaker<xgpu::half> {
  static std::string convert(xgpu::half value) { return std::to_string(xgpu::to_float(value)); }
};
}  // namespace Catch
