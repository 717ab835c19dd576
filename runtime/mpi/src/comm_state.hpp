// What a Comm shares between its copies: the program's communicator, xgpu's private duplicate,
// the job thread of its non-blocking collectives, their queues and its NCCL communicators.
#pragma once

#include <mpi.h>

#include <map>
#include <memory>
#include <mutex>
#include <xgpu/context.hpp>
#include <xgpu/queue.hpp>

#include "worker.hpp"

namespace xgpu::mpi::detail {

class NcclComms;  // nccl.hpp

struct CommState {
  CommState(MPI_Comm program_comm, bool owns_program_comm);
  ~CommState();
  CommState(const CommState&) = delete;
  CommState& operator=(const CommState&) = delete;

  /// Waits for the pending collectives, then frees the communicators (when MPI is still up).
  /// Env calls it before MPI_Finalize; later calls do nothing.
  void release();
  bool is_released() {
    std::lock_guard<std::mutex> lock(mutex);
    return released;
  }

  /// The queue of `context` that the non-blocking collectives run their copies on, so they do
  /// not wait behind the caller's later work. Made on first use.
  Queue work_queue(const Context& context);
  /// The queue of `context` that holds the gates of the non-blocking collectives' Events
  /// (host_gate.hpp), apart from the work so that a gate never waits behind its own work.
  Queue gate_queue(const Context& context);

  MPI_Comm program = MPI_COMM_NULL;  ///< what native() returns
  bool owns_program = false;         ///< made by xgpu (a node split): freed with the state
  MPI_Comm own = MPI_COMM_NULL;      ///< the private duplicate all of xgpu's traffic uses
  int rank = 0, size = 0;

  Worker worker;

  std::mutex mutex;  // guards what follows
  std::shared_ptr<CommState> node;
  std::map<const void*, Queue> work_queues, gate_queues;  ///< by ext::context_key
  std::shared_ptr<NcclComms> nccl;
  bool released = false;
};

/// Makes a state over `program_comm` (collective over it) and registers it for release_all().
std::shared_ptr<CommState> make_comm_state(MPI_Comm program_comm, bool owns_program_comm);
/// CommState::release() for every state alive; Env's destructor calls it before MPI_Finalize.
void release_all();
/// Whether MPI is initialised and not yet finalised.
bool mpi_running();

}  // namespace xgpu::mpi::detail
