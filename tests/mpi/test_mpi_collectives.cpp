// The collectives on every element type and operation, at the sizes a chunk cuts (0, 1, odd,
// chunk - 1, chunk + 1) and one large one, through both transports, with roots other than 0.
// Each result is compared bit for bit with the reduction computed on the host.
#include "mpi_fixture.hpp"

namespace xgpu_mpi_test {
namespace {

namespace mpi = xgpu::mpi;

Comm comm_for(Transport transport, std::size_t chunk = kChunkBytes) {
  return me().comm.with_transport(transport).with_chunk(chunk);
}

int last_rank() { return me().size - 1; }

TEST_CASE("allreduce: every type, operation, edge size and transport", "[mpi][allreduce]") {
  for_each_type([](auto type) {
    using T = typename decltype(type)::type;
    for (Transport transport : kTransports) {
      for (Op op : kOps) {
        for (std::size_t count : edge_sizes<T>()) {
          INFO(describe<T>("allreduce", op, transport, count));
          auto buffer = upload(values<T>(op, count, me().rank));
          mpi::allreduce(me().queue, buffer, op, comm_for(transport));
          CHECK(download(buffer) == reduced<T>(op, count, me().size));
        }
      }
    }
  });
}

TEST_CASE("allreduce: 16 MiB through each transport, at its default chunk", "[mpi][allreduce]") {
  const std::size_t count = (std::size_t(16) << 20) / sizeof(float);
  for (Transport transport : kTransports) {
    INFO(describe<float>("allreduce", Op::sum, transport, count));
    auto buffer = upload(values<float>(Op::sum, count, me().rank));
    mpi::allreduce(me().queue, buffer, Op::sum, me().comm.with_transport(transport));
    CHECK(download(buffer) == reduced<float>(Op::sum, count, me().size));
  }
}

TEST_CASE("allreduce: ranks with different transports and chunks agree on one chunk",
          "[mpi][allreduce]") {
  const Transport transport = me().rank % 2 ? Transport::staged : Transport::mapped;
  const Comm comm = comm_for(transport, kChunkBytes * (me().rank + 1));
  const std::size_t count = 3 * kChunkBytes / sizeof(double) + 5;
  auto buffer = upload(values<double>(Op::max, count, me().rank));
  mpi::allreduce(me().queue, buffer, Op::max, comm);
  CHECK(download(buffer) == reduced<double>(Op::max, count, me().size));
}

TEST_CASE("reduce: every type and operation, in place at a root other than 0", "[mpi][reduce]") {
  for_each_type([](auto type) {
    using T = typename decltype(type)::type;
    for (Transport transport : kTransports) {
      for (Op op : kOps) {
        const std::size_t count = kChunkBytes / sizeof(T) + 1;
        INFO(describe<T>("reduce", op, transport, count));
        const std::vector<T> mine = values<T>(op, count, me().rank);
        auto buffer = upload(mine);
        mpi::reduce(me().queue, buffer, op, last_rank(), comm_for(transport));
        // The root holds the reduction; every other rank keeps its own values.
        CHECK(download(buffer) ==
              (me().rank == last_rank() ? reduced<T>(op, count, me().size) : mine));
      }
    }
  });
}

TEST_CASE("broadcast: every type and edge size, from the last rank and from rank 0",
          "[mpi][broadcast]") {
  for_each_type([](auto type) {
    using T = typename decltype(type)::type;
    for (Transport transport : kTransports) {
      for (int root : {last_rank(), 0}) {
        for (std::size_t count : edge_sizes<T>()) {
          INFO(describe<T>("broadcast", Op::sum, transport, count) << " from " << root);
          auto buffer = upload(values<T>(Op::sum, count, me().rank));
          mpi::broadcast(me().queue, buffer, root, comm_for(transport));
          CHECK(download(buffer) == values<T>(Op::sum, count, root));
        }
      }
    }
  });
}

TEST_CASE("allgather: every type and edge size", "[mpi][allgather]") {
  for_each_type([](auto type) {
    using T = typename decltype(type)::type;
    for (Transport transport : kTransports) {
      for (std::size_t count : edge_sizes<T>()) {
        INFO(describe<T>("allgather", Op::min, transport, count));
        auto send = upload(values<T>(Op::min, count, me().rank));
        auto recv = me().context.alloc<T>(count * me().size);
        mpi::allgather(me().queue, send, recv, comm_for(transport));
        std::vector<T> expected;
        for (int r = 0; r < me().size; ++r) {
          const std::vector<T> block = values<T>(Op::min, count, r);
          expected.insert(expected.end(), block.begin(), block.end());
        }
        CHECK(download(recv) == expected);
      }
    }
  });
}

TEST_CASE("reduce_scatter: every type and operation", "[mpi][reduce_scatter]") {
  for_each_type([](auto type) {
    using T = typename decltype(type)::type;
    for (Transport transport : kTransports) {
      for (Op op : kOps) {
        for (std::size_t count : {std::size_t(0), kChunkBytes / sizeof(T) + 1}) {
          INFO(describe<T>("reduce_scatter", op, transport, count));
          // Block b of rank r's send is values(op, size * count, r)'s elements [b count, ...).
          const std::size_t whole = count * me().size;
          auto send = upload(values<T>(op, whole, me().rank));
          auto recv = me().context.alloc<T>(count);
          mpi::reduce_scatter(me().queue, send, recv, op, comm_for(transport));
          const std::vector<T> all = reduced<T>(op, whole, me().size);
          CHECK(download(recv) == std::vector<T>(all.begin() + me().rank * count,
                                                 all.begin() + (me().rank + 1) * count));
        }
      }
    }
  });
}

TEST_CASE("reduce_scatter: 16 MiB in all", "[mpi][reduce_scatter]") {
  const std::size_t whole = (std::size_t(16) << 20) / sizeof(float) / me().size * me().size;
  const std::size_t count = whole / me().size;
  auto send = upload(values<float>(Op::sum, whole, me().rank));
  auto recv = me().context.alloc<float>(count);
  mpi::reduce_scatter(me().queue, send, recv, Op::sum, me().comm.with_transport(Transport::staged));
  const std::vector<float> all = reduced<float>(Op::sum, whole, me().size);
  CHECK(download(recv) ==
        std::vector<float>(all.begin() + me().rank * count, all.begin() + (me().rank + 1) * count));
}

TEST_CASE("sendrecv: a ring, every type and edge size", "[mpi][sendrecv]") {
  const int next = (me().rank + 1) % me().size;
  const int previous = (me().rank + me().size - 1) % me().size;
  for_each_type([&](auto type) {
    using T = typename decltype(type)::type;
    for (Transport transport : kTransports) {
      for (std::size_t count : edge_sizes<T>()) {
        INFO(describe<T>("sendrecv", Op::max, transport, count));
        auto send = upload(values<T>(Op::max, count, me().rank));
        auto recv = me().context.alloc<T>(count);
        mpi::sendrecv(me().queue, send, next, recv, previous, comm_for(transport), 7);
        CHECK(download(recv) == values<T>(Op::max, count, previous));
      }
    }
  });
}

TEST_CASE("sendrecv: MPI_PROC_NULL sends or receives nothing", "[mpi][sendrecv]") {
  auto send = upload(values<float>(Op::sum, 100, me().rank));
  auto recv = upload(std::vector<float>(100, -1.0f));
  mpi::sendrecv(me().queue, send, MPI_PROC_NULL, recv, MPI_PROC_NULL, me().comm);
  CHECK(download(recv) == std::vector<float>(100, -1.0f));
}

}  // namespace
}  // namespace xgpu_mpi_test
