// CommState: the communicators of a Comm, and the registry that lets Env release every one of
// them before MPI_Finalize (a communicator freed after it is an error; one never freed leaks).
#include "comm_state.hpp"

#include <algorithm>
#include <vector>
#include <xgpu/extension.hpp>

#include "errors.hpp"
#include "nccl.hpp"

namespace xgpu::mpi::detail {
namespace {

std::mutex g_registry_mutex;
std::vector<std::weak_ptr<CommState>> g_registry;

}  // namespace

bool mpi_running() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}

CommState::CommState(MPI_Comm program_comm, bool owns_program_comm)
    : program(program_comm), owns_program(owns_program_comm) {
  if (!mpi_running()) {
    fail(Errc::invalid_argument,
         "MPI is not initialised (make an xgpu::mpi::Env first, or call MPI_Init_thread)",
         "xgpu::mpi::Comm");
  }
  check_mpi(MPI_Comm_dup(program_comm, &own), "MPI_Comm_dup");
  check_mpi(MPI_Comm_set_errhandler(own, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  check_mpi(MPI_Comm_rank(own, &rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(own, &size), "MPI_Comm_size");
}

CommState::~CommState() { release(); }

void CommState::release() {
  worker.stop();
  std::shared_ptr<NcclComms> nccl_comms;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (released) return;
    released = true;
    nccl_comms = std::move(nccl);
    work_queues.clear();
    gate_queues.clear();
    node.reset();
  }
  nccl_comms.reset();  // NCCL's communicators go before the MPI one their ids came through
  if (!mpi_running()) return;
  if (own != MPI_COMM_NULL) MPI_Comm_free(&own);
  if (owns_program && program != MPI_COMM_NULL) MPI_Comm_free(&program);
}

namespace {

Queue queue_of(std::map<const void*, Queue>& queues, const Context& context) {
  auto [at, added] = queues.try_emplace(ext::context_key(context));
  if (added) at->second = context.queue();
  return at->second;
}

}  // namespace

Queue CommState::work_queue(const Context& context) {
  std::lock_guard<std::mutex> lock(mutex);
  return queue_of(work_queues, context);
}

Queue CommState::gate_queue(const Context& context) {
  std::lock_guard<std::mutex> lock(mutex);
  return queue_of(gate_queues, context);
}

std::shared_ptr<CommState> make_comm_state(MPI_Comm program_comm, bool owns_program_comm) {
  auto state = std::make_shared<CommState>(program_comm, owns_program_comm);
  std::lock_guard<std::mutex> lock(g_registry_mutex);
  g_registry.erase(std::remove_if(g_registry.begin(), g_registry.end(),
                                  [](const std::weak_ptr<CommState>& s) { return s.expired(); }),
                   g_registry.end());
  g_registry.push_back(state);
  return state;
}

void release_all() {
  std::vector<std::shared_ptr<CommState>> alive;
  {
    std::lock_guard<std::mutex> lock(g_registry_mutex);
    for (const auto& weak : g_registry)
      if (auto state = weak.lock()) alive.push_back(std::move(state));
    g_registry.clear();
  }
  // Node communicators first: each is split from its parent's private duplicate.
  for (auto it = alive.rbegin(); it != alive.rend(); ++it) (*it)->release();
}

}  // namespace xgpu::mpi::detail
