// Before a collective moves data, the ranks agree that they were called alike: one small
// MPI_Allreduce compares what each was called with and whether each accepted its arguments, so a
// mistake on any rank is an error on every rank, never a hang or mixed data. sendrecv's pairs
// agree through two small messages each way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <xgpu/mpi/types.hpp>

namespace xgpu::mpi::detail {

struct CommState;

enum class Kind : std::int64_t { allreduce = 1, reduce, broadcast, allgather, reduce_scatter };
const char* to_string(Kind kind);

/// What one rank was called with, and what it can do.
struct Call {
  const char* name = "";  ///< "xgpu::mpi::allreduce", for the errors
  Kind kind = Kind::allreduce;
  DataType type = DataType::f32;
  std::int64_t op = -1;                ///< the Op, or -1 for a collective without one
  std::uint64_t count = 0;             ///< the element count every rank must agree on
  std::int64_t root = -1;              ///< or -1
  std::size_t chunk_bytes = SIZE_MAX;  ///< the largest MPI message this rank wants
  bool nccl = false;                   ///< this rank can run the collective through NCCL
};

/// What the ranks settled on.
struct Agreement {
  std::size_t chunk_bytes = SIZE_MAX;  ///< the smallest any rank wants
  bool nccl = false;                   ///< every rank can use NCCL
};

/// Compares `call` across the ranks of `comm`. Throws on every rank when any rank's
/// `local_failure` is set (that rank rethrows its own error, the others name it) or the calls
/// differ (naming the field, the two values seen and this rank's).
Agreement agree(const CommState& comm, const Call& call, std::exception_ptr local_failure);

/// sendrecv's agreement with its two partners.
struct PairAgreement {
  bool send = false, recv = false;             ///< whether data goes to dest, comes from source
  std::size_t send_chunk = 0, recv_chunk = 0;  ///< message sizes in bytes each way
  std::exception_ptr failure;  ///< a refusal, to throw once the accepted direction has moved
};
/// Exchanges a header (accepted, type, count, chunk, tag) with `dest` and `source`, and a
/// verdict back. Both ends of a pair that disagree get `failure` (the caller moves the accepted
/// direction first, which the other partner waits for); `local_failure` is rethrown after the
/// partners are told (then nothing moves either way). dest or source may be MPI_PROC_NULL.
/// `send_count`, `recv_count` in elements.
PairAgreement agree_pair(const CommState& comm, const char* name, int dest, int source, int tag,
                         DataType type, std::uint64_t send_count, std::uint64_t recv_count,
                         std::size_t chunk_bytes, std::exception_ptr local_failure);

/// The internal tag of sendrecv's messages on the private communicator.
inline constexpr int kPairTag = 0;

}  // namespace xgpu::mpi::detail
