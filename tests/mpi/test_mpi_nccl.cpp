// The NCCL path on the fake libcuda (a "GPU" of host memory) and the fake libnccl
// (fake_libnccl.c), run by its own CTest entry with XGPU_CUDA_LIBRARY, XGPU_NCCL_LIBRARY and
// XGPU_DEVICE=cuda:0. What it proves: xgpu opens NCCL, makes one communicator per Comm from an
// id broadcast by rank 0, enqueues allreduce and iallreduce through it with NCCL's types and
// operations, and keeps the other collectives staged; not NCCL's own behaviour.
#include <dlfcn.h>

#include "mpi_fixture.hpp"

namespace xgpu_mpi_test {
namespace {

namespace mpi = xgpu::mpi;

long fake_calls() {
  const char* path = std::getenv("XGPU_NCCL_LIBRARY");
  REQUIRE(path != nullptr);
  void* library = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(library != nullptr);
  auto calls = reinterpret_cast<long (*)()>(dlsym(library, "fake_nccl_allreduce_calls"));
  REQUIRE(calls != nullptr);
  const long count = calls();
  dlclose(library);
  return count;
}

TEST_CASE("allreduce and iallreduce on a cuda device go through NCCL", "[.nccl_fake]") {
  REQUIRE(me().device.info().backend == "cuda");
  CHECK(mpi::transport_for(me().device) == Transport::nccl);
  auto floats = upload(values<float>(Op::sum, 1000, me().rank));
  mpi::allreduce(me().queue, floats, Op::sum, me().comm);
  CHECK(download(floats) == reduced<float>(Op::sum, 1000, me().size));
  const long after_first = fake_calls();
  CHECK(after_first == 1);

  auto ints = upload(values<std::int64_t>(Op::min, 777, me().rank));
  mpi::Request request = mpi::iallreduce(me().queue, ints, Op::min, me().comm);
  request.event().wait();
  request.wait();
  CHECK(download(ints) == reduced<std::int64_t>(Op::min, 777, me().size));
  CHECK(fake_calls() == after_first + 1);

  // broadcast is not NCCL's here: staged through pinned memory, no NCCL call.
  auto doubles = upload(values<double>(Op::max, 300, me().rank));
  mpi::broadcast(me().queue, doubles, me().size - 1, me().comm);
  CHECK(download(doubles) == values<double>(Op::max, 300, me().size - 1));
  CHECK(fake_calls() == after_first + 1);

  // A mismatch is still caught before NCCL is called.
  auto odd = upload(values<float>(Op::sum, me().rank == 0 ? 5 : 6, me().rank));
  xgpu_test::check_error(
      xgpu_test::capture_error([&] { mpi::allreduce(me().queue, odd, Op::sum, me().comm); }),
      xgpu::Errc::invalid_argument, {"element count"});
  CHECK(fake_calls() == after_first + 1);
}

}  // namespace
}  // namespace xgpu_mpi_test
