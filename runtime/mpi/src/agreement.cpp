// The ranks' agreement before a collective (agreement.hpp). Every field travels as x and -x in
// one MPI_Allreduce with MPI_MAX, which gives both its largest and its smallest value.
#include "agreement.hpp"

#include <mpi.h>

#include <array>
#include <string>

#include "comm_state.hpp"
#include "errors.hpp"

namespace xgpu::mpi::detail {
namespace {

enum Field { kKind, kType, kOp, kCount, kRoot, kFailedRank, kChunk, kNccl, kFields };

std::string value_name(Field field, std::int64_t value) {
  switch (field) {
    case kKind:
      return to_string(static_cast<Kind>(value));
    case kType:
      return to_string(static_cast<DataType>(value));
    case kOp:
      return value < 0 ? "none" : to_string(static_cast<Op>(value));
    default:
      return std::to_string(value);
  }
}

[[noreturn]] void disagree(const Call& call, Field field, std::int64_t low, std::int64_t high,
                           std::int64_t here) {
  static const char* const kWhat[] = {"called different collectives at the same point",
                                      "disagree on the element type", "disagree on the operation",
                                      "disagree on the element count", "disagree on the root"};
  fail(Errc::invalid_argument,
       std::string("the ranks ") + kWhat[field] + " (" + value_name(field, low) +
           " on some ranks, " + value_name(field, high) + " on others; " + value_name(field, here) +
           " here); no data moved",
       call.name);
}

std::int64_t clamp_chunk(std::size_t bytes) {
  return bytes > static_cast<std::size_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(bytes);
}

}  // namespace

const char* to_string(Kind kind) {
  switch (kind) {
    case Kind::allreduce:
      return "allreduce";
    case Kind::reduce:
      return "reduce";
    case Kind::broadcast:
      return "broadcast";
    case Kind::allgather:
      return "allgather";
    case Kind::reduce_scatter:
      return "reduce_scatter";
  }
  return "an unknown collective";
}

Agreement agree(const CommState& comm, const Call& call, std::exception_ptr local_failure) {
  std::array<std::int64_t, kFields> mine{};
  mine[kKind] = static_cast<std::int64_t>(call.kind);
  mine[kType] = static_cast<std::int64_t>(call.type);
  mine[kOp] = call.op;
  mine[kCount] = static_cast<std::int64_t>(call.count);
  mine[kRoot] = call.root;
  mine[kFailedRank] = local_failure ? comm.rank : comm.size;
  mine[kChunk] = clamp_chunk(call.chunk_bytes);
  mine[kNccl] = call.nccl ? 1 : 0;
  std::array<std::int64_t, 2 * kFields> both{};
  for (int i = 0; i < kFields; ++i) {
    both[i] = mine[i];
    both[kFields + i] = -mine[i];
  }
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, both.data(), 2 * kFields, MPI_INT64_T, MPI_MAX, comm.own),
            "MPI_Allreduce (the ranks' agreement)");
  auto high = [&](Field f) { return both[f]; };
  auto low = [&](Field f) { return -both[kFields + f]; };

  if (local_failure) std::rethrow_exception(local_failure);
  if (low(kFailedRank) < comm.size) {
    fail(Errc::invalid_argument,
         "rank " + std::to_string(low(kFailedRank)) +
             " refused its arguments (its own error says why); no data moved",
         call.name);
  }
  for (Field field : {kKind, kType, kCount, kOp, kRoot})
    if (low(field) != high(field)) disagree(call, field, low(field), high(field), mine[field]);
  Agreement agreement;
  agreement.chunk_bytes = static_cast<std::size_t>(low(kChunk));
  agreement.nccl = low(kNccl) == 1;
  return agreement;
}

PairAgreement agree_pair(const CommState& comm, const char* name, int dest, int source, int tag,
                         DataType type, std::uint64_t send_count, std::uint64_t recv_count,
                         std::size_t chunk_bytes, std::exception_ptr local_failure) {
  enum { kAccepted, kHeaderType, kHeaderCount, kHeaderChunk, kHeaderTag, kHeader };
  const std::int64_t ok = local_failure ? 0 : 1;
  std::array<std::int64_t, kHeader> header{ok, static_cast<std::int64_t>(type),
                                           static_cast<std::int64_t>(send_count),
                                           clamp_chunk(chunk_bytes), tag};
  std::array<std::int64_t, kHeader> theirs{};
  check_mpi(MPI_Sendrecv(header.data(), kHeader, MPI_INT64_T, dest, kPairTag, theirs.data(),
                         kHeader, MPI_INT64_T, source, kPairTag, comm.own, MPI_STATUS_IGNORE),
            "MPI_Sendrecv (sendrecv's header)");

  // What this rank makes of the source's header, told back to the source.
  std::string refusal;
  if (source != MPI_PROC_NULL) {
    if (!theirs[kAccepted]) {
      refusal =
          "rank " + std::to_string(source) + " refused its arguments (its own error says why)";
    } else if (theirs[kHeaderTag] != tag) {
      refusal = "rank " + std::to_string(source) + " sends with tag " +
                std::to_string(theirs[kHeaderTag]) + ", this rank receives tag " +
                std::to_string(tag);
    } else if (theirs[kHeaderType] != header[kHeaderType]) {
      refusal = "rank " + std::to_string(source) + " sends " +
                to_string(static_cast<DataType>(theirs[kHeaderType])) + ", this rank receives " +
                to_string(type);
    } else if (static_cast<std::uint64_t>(theirs[kHeaderCount]) != recv_count) {
      refusal = "rank " + std::to_string(source) + " sends " +
                std::to_string(theirs[kHeaderCount]) + " elements, this rank receives " +
                std::to_string(recv_count);
    }
  }
  const bool accept = source != MPI_PROC_NULL && ok && refusal.empty();
  std::array<std::int64_t, 2> verdict{accept ? 1 : 0, clamp_chunk(chunk_bytes)};
  std::array<std::int64_t, 2> dest_verdict{};
  check_mpi(MPI_Sendrecv(verdict.data(), 2, MPI_INT64_T, source, kPairTag, dest_verdict.data(), 2,
                         MPI_INT64_T, dest, kPairTag, comm.own, MPI_STATUS_IGNORE),
            "MPI_Sendrecv (sendrecv's verdict)");

  if (local_failure) std::rethrow_exception(local_failure);  // no data flows either way
  PairAgreement agreement;
  // A refused direction moves nothing; the other still does (its partner waits for it), and
  // the refusal is thrown after it.
  try {
    if (!refusal.empty()) fail(Errc::invalid_argument, refusal + "; nothing was received", name);
    if (dest != MPI_PROC_NULL && !dest_verdict[0]) {
      fail(Errc::invalid_argument,
           "rank " + std::to_string(dest) +
               " refused what this rank sends (its own error says why); nothing was sent",
           name);
    }
  } catch (...) {
    agreement.failure = std::current_exception();
  }
  agreement.send = dest != MPI_PROC_NULL && dest_verdict[0];
  agreement.recv = accept;
  const auto local_chunk = static_cast<std::int64_t>(clamp_chunk(chunk_bytes));
  agreement.send_chunk = static_cast<std::size_t>(std::min(local_chunk, dest_verdict[1]));
  agreement.recv_chunk = static_cast<std::size_t>(std::min(local_chunk, theirs[kHeaderChunk]));
  return agreement;
}

}  // namespace xgpu::mpi::detail
