// Mistakes across ranks: every rank of a collective throws, naming the mistake, instead of
// hanging or mixing data (main's watchdog fails a hang), and the Comm works again afterwards.
// [mismatch] needs two ranks or more; [mpi_errors] runs on any number.
#include "mpi_fixture.hpp"

namespace xgpu_mpi_test {
namespace {

namespace mpi = xgpu::mpi;
using xgpu::Errc;
using xgpu_test::capture_error;
using xgpu_test::check_error;

// After a failed collective the Comm still works: a correct allreduce succeeds on every rank.
void check_comm_still_works() {
  auto buffer = upload(values<float>(Op::sum, 33, me().rank));
  mpi::allreduce(me().queue, buffer, Op::sum, me().comm);
  CHECK(download(buffer) == reduced<float>(Op::sum, 33, me().size));
}

std::string rank_text(int rank) { return "rank " + std::to_string(rank); }

TEST_CASE("ranks with different counts: an error on every rank", "[mpi][mismatch]") {
  REQUIRE(me().size >= 2);
  for (Transport transport : kTransports) {
    auto buffer = upload(values<float>(Op::sum, me().rank == 0 ? 11 : 10, me().rank));
    const xgpu::Error e = capture_error(
        [&] { mpi::allreduce(me().queue, buffer, Op::sum, me().comm.with_transport(transport)); });
    check_error(e, Errc::invalid_argument,
                {"xgpu::mpi::allreduce", "element count", "10 on some ranks, 11 on others"});
    check_comm_still_works();
  }
}

TEST_CASE("ranks with different element types: an error on every rank", "[mpi][mismatch]") {
  REQUIRE(me().size >= 2);
  auto floats = upload(values<float>(Op::max, 10, me().rank));
  auto ints = upload(values<std::int32_t>(Op::max, 10, me().rank));
  const xgpu::Error e = capture_error([&] {
    if (me().rank == 0) {
      mpi::allreduce(me().queue, floats, Op::max, me().comm);
    } else {
      mpi::allreduce(me().queue, ints, Op::max, me().comm);
    }
  });
  check_error(e, Errc::invalid_argument, {"element type", "float", "int32"});
  check_comm_still_works();
}

TEST_CASE("ranks with different operations or roots: an error on every rank", "[mpi][mismatch]") {
  REQUIRE(me().size >= 2);
  auto buffer = upload(values<double>(Op::min, 10, me().rank));
  check_error(capture_error([&] {
                mpi::allreduce(me().queue, buffer, me().rank == 0 ? Op::min : Op::max, me().comm);
              }),
              Errc::invalid_argument, {"operation", "min", "max"});
  check_error(
      capture_error([&] { mpi::broadcast(me().queue, buffer, me().rank == 0 ? 0 : 1, me().comm); }),
      Errc::invalid_argument, {"xgpu::mpi::broadcast", "root"});
  check_comm_still_works();
}

TEST_CASE("ranks calling different collectives: an error on every rank", "[mpi][mismatch]") {
  REQUIRE(me().size >= 2);
  auto buffer = upload(values<float>(Op::sum, 10, me().rank));
  const xgpu::Error e = capture_error([&] {
    if (me().rank == 0) {
      mpi::broadcast(me().queue, buffer, 0, me().comm);
    } else {
      mpi::allreduce(me().queue, buffer, Op::sum, me().comm);
    }
  });
  check_error(e, Errc::invalid_argument, {"different collectives", "allreduce", "broadcast"});
  check_comm_still_works();
}

TEST_CASE("a rank refusing its arguments: its own error there, an error naming it elsewhere",
          "[mpi][mismatch]") {
  REQUIRE(me().size >= 2);
  const int last = me().size - 1;
  // The last rank's recv is one element short.
  auto send = upload(values<float>(Op::sum, 10, me().rank));
  auto recv = me().context.alloc<float>(10 * me().size - (me().rank == last ? 1 : 0));
  const xgpu::Error e = capture_error([&] { mpi::allgather(me().queue, send, recv, me().comm); });
  if (me().rank == last) {
    check_error(e, Errc::invalid_argument, {"recv holds", "must hold"});
  } else {
    check_error(e, Errc::invalid_argument, {rank_text(last) + " refused its arguments"});
  }
  // Rank 0's buffer belongs to another context of the same device.
  xgpu::Context other(me().device);
  auto foreign = other.alloc<float>(10);
  auto mine = upload(values<float>(Op::sum, 10, me().rank));
  const xgpu::Error f = capture_error(
      [&] { mpi::allreduce(me().queue, me().rank == 0 ? foreign : mine, Op::sum, me().comm); });
  if (me().rank == 0) {
    check_error(f, Errc::context_mismatch, {"another context"});
  } else {
    check_error(f, Errc::invalid_argument, {"rank 0 refused"});
  }
  check_comm_still_works();
}

TEST_CASE("sendrecv with a count its source does not send: both ends of that pair throw",
          "[mpi][mismatch]") {
  REQUIRE(me().size >= 2);
  const int next = (me().rank + 1) % me().size;
  const int previous = (me().rank + me().size - 1) % me().size;
  // Rank 0 expects one element more than its previous rank sends.
  auto send = upload(values<float>(Op::sum, 10, me().rank));
  auto recv = upload(std::vector<float>(me().rank == 0 ? 11 : 10, -1.0f));
  auto exchange = [&] { mpi::sendrecv(me().queue, send, next, recv, previous, me().comm); };
  if (me().rank == 0) {
    check_error(capture_error(exchange), Errc::invalid_argument,
                {rank_text(previous) + " sends 10 elements, this rank receives 11"});
    CHECK(download(recv) == std::vector<float>(11, -1.0f));
  } else if (me().rank == me().size - 1) {  // rank 0's previous
    check_error(capture_error(exchange), Errc::invalid_argument,
                {"rank 0 refused what this rank sends"});
  } else {
    exchange();
    CHECK(download(recv) == values<float>(Op::sum, 10, previous));
  }
  check_comm_still_works();
}

TEST_CASE("an iallreduce the ranks disagree on fails its Request on every rank",
          "[mpi][mismatch]") {
  REQUIRE(me().size >= 2);
  const std::vector<float> mine = values<float>(Op::sum, me().rank == 0 ? 7 : 8, me().rank);
  auto buffer = upload(mine);
  mpi::Request request = mpi::iallreduce(me().queue, buffer, Op::sum, me().comm);
  // A queue waiting on its Event does not wait forever: the Event completes with the failure.
  xgpu::Queue waiter = me().context.queue();
  waiter.wait(request);
  waiter.finish();
  check_error(capture_error([&] { request.wait(); }), Errc::invalid_argument, {"element count"});
  CHECK(request.test());
  CHECK(download(buffer) == mine);
  check_comm_still_works();
}

TEST_CASE("bad arguments on every rank", "[mpi][mpi_errors]") {
  auto buffer = upload(values<float>(Op::sum, 10, me().rank));
  check_error(
      capture_error([&] { mpi::reduce(me().queue, buffer, Op::sum, me().size, me().comm); }),
      Errc::invalid_argument, {"root " + std::to_string(me().size), "not a rank"});
  auto eleven = upload(values<float>(Op::sum, 11, me().rank));
  check_error(capture_error([&] {
                mpi::allreduce(me().queue, eleven.untyped(), mpi::DataType::f64, Op::sum,
                               me().comm);
              }),
              Errc::invalid_argument, {"44 bytes", "not a whole number of double"});
  check_error(capture_error([&] { mpi::allgather(me().queue, buffer, buffer, me().comm); }),
              Errc::invalid_argument,
              me().size == 1 ? std::vector<std::string>{"same buffer"}
                             : std::vector<std::string>{"must hold"});
  check_error(capture_error([&] {
                mpi::sendrecv(me().queue, buffer, me().size + 3, buffer, MPI_PROC_NULL, me().comm);
              }),
              Errc::invalid_argument, {"dest " + std::to_string(me().size + 3)});
  xgpu::Queue empty;
  check_error(capture_error([&] { mpi::allreduce(empty, buffer, Op::sum, me().comm); }),
              Errc::invalid_handle, {"Queue is empty"});
  check_error(capture_error([&] { mpi::allreduce(me().queue, buffer, Op::sum, Comm()); }),
              Errc::invalid_handle, {"Comm is empty"});
  check_error(capture_error([&] { (void)me().comm.with_chunk(0); }), Errc::invalid_argument,
              {"0 bytes"});
  check_error(capture_error([&] { mpi::GradientBucket(me().queue, me().comm, Op::sum, 0); }),
              Errc::invalid_argument, {"cap of 0"});
  check_comm_still_works();
}

}  // namespace
}  // namespace xgpu_mpi_test

namespace xgpu_mpi_test {
namespace {

// Run by mpi.watchdog only: rank 0 waits in a barrier no other rank joins, so main's watchdog
// must end the run.
TEST_CASE("a hang", "[.mpi_hang]") {
  if (me().rank == 0) MPI_Barrier(MPI_COMM_WORLD);
  SUCCEED("rank " << me().rank << " did not wait");
}

}  // namespace
}  // namespace xgpu_mpi_test
