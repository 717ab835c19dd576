// iallreduce, its Request and Event, and GradientBucket; then the set-up: Comm, select_device
// and the transport settings.
#include <chrono>
#include <thread>

#include "mpi_fixture.hpp"

namespace xgpu_mpi_test {
namespace {

namespace mpi = xgpu::mpi;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

TEST_CASE("iallreduce: every type, both transports", "[mpi][iallreduce]") {
  for_each_type([](auto type) {
    using T = typename decltype(type)::type;
    for (Transport transport : kTransports) {
      const std::size_t count = 3 * kChunkBytes / sizeof(T) + 1;
      INFO(describe<T>("iallreduce", Op::sum, transport, count));
      auto buffer = upload(values<T>(Op::sum, count, me().rank));
      mpi::Request request = mpi::iallreduce(
          me().queue, buffer, Op::sum, me().comm.with_transport(transport).with_chunk(kChunkBytes));
      request.wait();
      CHECK(request.test());
      CHECK(download(buffer) == reduced<T>(Op::sum, count, me().size));
    }
  });
}

TEST_CASE("iallreduce returns before the other ranks join; a queue waits on its Event",
          "[mpi][iallreduce]") {
  const std::size_t count = 100000;
  auto buffer = upload(values<float>(Op::sum, count, me().rank));
  // The last rank joins late: the others' calls must return at once all the same.
  const bool late = me().rank == me().size - 1 && me().size > 1;
  if (late) std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const auto start = Clock::now();
  mpi::Request request = mpi::iallreduce(me().queue, buffer, Op::sum, me().comm);
  const double call_seconds = seconds_since(start);
  if (me().size > 1 && !late) {
    CHECK(call_seconds < 0.2);
    CHECK_FALSE(request.test());
  }
  // Another queue of the context orders its read after the collective, without the host
  // waiting for the Request first.
  xgpu::Queue reader = me().context.queue();
  reader.wait(request);
  std::vector<float> result(count);
  reader.read_async(buffer, result.data()).wait();
  CHECK(result == reduced<float>(Op::sum, count, me().size));
  request.wait();
}

TEST_CASE("iallreduce: several in flight complete in order, with blocking calls between",
          "[mpi][iallreduce]") {
  std::vector<xgpu::Buffer<std::int32_t>> buffers;
  std::vector<mpi::Request> requests;
  for (int i = 0; i < 6; ++i) {
    buffers.push_back(upload(values<std::int32_t>(Op::max, 1000 + i, me().rank)));
    requests.push_back(mpi::iallreduce(me().queue, buffers.back(), Op::max, me().comm));
  }
  // A blocking collective after them runs after them on every rank.
  auto blocking = upload(values<std::int32_t>(Op::min, 50, me().rank));
  mpi::allreduce(me().queue, blocking, Op::min, me().comm);
  CHECK(download(blocking) == reduced<std::int32_t>(Op::min, 50, me().size));
  for (int i = 0; i < 6; ++i) {
    requests[i].wait();
    CHECK(download(buffers[i]) == reduced<std::int32_t>(Op::max, 1000 + i, me().size));
  }
}

TEST_CASE("GradientBucket: small gradients fused under the cap, a large one alone",
          "[mpi][bucket]") {
  // Sizes in floats; the cap is 1 KiB (256 floats), so several buckets start before wait(),
  // and 300 floats go alone.
  const std::vector<std::size_t> sizes = {10, 0, 100, 7, 200, 300, 1, 64, 255, 3};
  std::vector<xgpu::Buffer<float>> gradients;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    gradients.push_back(upload(values<float>(Op::sum, sizes[i] + i, me().rank)));
  mpi::GradientBucket bucket(me().queue, me().comm, Op::sum, 1024);
  for (const auto& gradient : gradients) bucket.add(gradient);
  CHECK(bucket.in_flight() >= 3);
  CHECK(bucket.pending_bytes() > 0);
  bucket.wait();
  CHECK(bucket.in_flight() == 0);
  CHECK(bucket.pending_bytes() == 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    INFO("gradient " << i);
    CHECK(download(gradients[i]) == reduced<float>(Op::sum, sizes[i] + i, me().size));
  }
  // Used again: the second round sums the first round's sums.
  for (const auto& gradient : gradients) bucket.add(gradient);
  bucket.wait();
  std::vector<float> twice = reduced<float>(Op::sum, sizes[2] + 2, me().size);
  for (float& v : twice) v *= static_cast<float>(me().size);
  CHECK(download(gradients[2]) == twice);
  // One element type per bucket.
  auto ints = upload(std::vector<std::int32_t>(4, 1));
  xgpu_test::check_error(xgpu_test::capture_error([&] { bucket.add(ints); }),
                         xgpu::Errc::invalid_argument, {"int32 gradient in a bucket of float"});
}

TEST_CASE("Comm: ranks, the program's communicator, the node", "[mpi][setup]") {
  int world_rank = -1, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  CHECK(me().comm.rank() == world_rank);
  CHECK(me().comm.size() == world_size);
  CHECK(me().comm.native() == MPI_COMM_WORLD);
  const Comm node = Comm::node(me().comm);
  CHECK(node.size() >= 1);
  CHECK(node.size() <= world_size);
  CHECK(node.rank() < node.size());
  // A Comm over the program's own communicator works as world() does.
  const Comm mine = Comm::from(MPI_COMM_WORLD);
  auto buffer = upload(values<std::uint32_t>(Op::prod, 9, me().rank));
  mpi::allreduce(me().queue, buffer, Op::prod, mine);
  CHECK(download(buffer) == reduced<std::uint32_t>(Op::prod, 9, me().size));
}

TEST_CASE("select_device: one device per node rank while there are enough", "[mpi][setup]") {
  // Two PoCL devices (POCL_DEVICES="pthread pthread"): node rank r takes device r mod 2.
  const std::vector<xgpu::Device> cpus = xgpu::select_all("cpu");
  REQUIRE(cpus.size() == 2);
  const Comm node = Comm::node(me().comm);
  CHECK(mpi::select_device(me().comm) == cpus[node.rank() % 2]);
  CHECK(mpi::select_device(me().comm, "pocl") == cpus[node.rank() % 2]);
  xgpu_test::check_error(xgpu_test::capture_error([&] { mpi::select_device(me().comm, "nvidia"); }),
                         xgpu::Errc::no_device, {"no device matches the selector 'nvidia'"});
}

// Run by its own CTest entry with XGPU_DEVICE=pocl:1 (read once per process).
TEST_CASE("select_device: XGPU_DEVICE wins over the node rank", "[.mpi_device_env]") {
  const std::vector<xgpu::Device> cpus = xgpu::select_all("cpu");
  REQUIRE(cpus.size() == 2);
  CHECK(mpi::select_device(me().comm) == cpus[1]);
}

TEST_CASE("transport_for: mapped for a CPU device, staged forced, nccl refused", "[mpi][setup]") {
  CHECK(mpi::transport_for(me().device) == Transport::mapped);
  CHECK(mpi::transport_for(me().device, Transport::staged) == Transport::staged);
  xgpu_test::check_error(
      xgpu_test::capture_error([&] { mpi::transport_for(me().device, Transport::nccl); }),
      xgpu::Errc::unsupported, {"nccl transport cannot serve", "not a cuda-module device"});
}

// Run by its own CTest entry with XGPU_MPI_TRANSPORT=staged (read once per process).
TEST_CASE("XGPU_MPI_TRANSPORT forces a transport", "[.mpi_forced]") {
  CHECK(mpi::transport_for(me().device) == Transport::staged);
  auto buffer = upload(values<float>(Op::sum, 5000, me().rank));
  mpi::allreduce(me().queue, buffer, Op::sum, me().comm);
  CHECK(download(buffer) == reduced<float>(Op::sum, 5000, me().size));
}

// Run by its own CTest entry with XGPU_MPI_TRANSPORT=bogus: every rank refuses, none hangs.
TEST_CASE("a bad XGPU_MPI_TRANSPORT is an error naming it", "[.mpi_bad_setting]") {
  auto buffer = upload(values<float>(Op::sum, 5, me().rank));
  xgpu_test::check_error(
      xgpu_test::capture_error([&] { mpi::allreduce(me().queue, buffer, Op::sum, me().comm); }),
      xgpu::Errc::invalid_argument, {"XGPU_MPI_TRANSPORT='bogus'", "auto, mapped, staged or nccl"});
}

}  // namespace
}  // namespace xgpu_mpi_test
