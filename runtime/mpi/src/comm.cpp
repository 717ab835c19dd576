// Env (MPI's set-up and tear-down) and Comm (the ranks, and xgpu's private duplicate of them).
#include <xgpu/mpi/comm.hpp>

#include "comm_state.hpp"
#include "errors.hpp"
#include "settings.hpp"

namespace xgpu::mpi {
namespace {

std::mutex g_world_mutex;
std::shared_ptr<detail::CommState> g_world;

const detail::CommState& checked(const std::shared_ptr<detail::CommState>& state,
                                 const char* call) {
  if (!state) detail::fail(Errc::invalid_handle, "the Comm is empty (default-constructed)", call);
  return *state;
}

}  // namespace

Env::Env() { start(nullptr, nullptr); }
Env::Env(int& argc, char**& argv) { start(&argc, &argv); }

void Env::start(int* argc, char*** argv) {
  int initialised = 0;
  detail::check_mpi(MPI_Initialized(&initialised), "MPI_Initialized");
  if (initialised) {
    detail::check_mpi(MPI_Query_thread(&thread_level_), "MPI_Query_thread");
    return;
  }
  detail::check_mpi(MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &thread_level_),
                    "MPI_Init_thread");
  initialised_ = true;
}

Env::~Env() {
  detail::release_all();
  if (initialised_ && detail::mpi_running()) MPI_Finalize();
}

Comm::Comm(std::shared_ptr<detail::CommState> state) : state_(std::move(state)) {}

Comm Comm::world() {
  std::lock_guard<std::mutex> lock(g_world_mutex);
  if (!g_world || g_world->is_released()) g_world = detail::make_comm_state(MPI_COMM_WORLD, false);
  return Comm(g_world);
}

Comm Comm::node(const Comm& comm) {
  checked(comm.state_, "xgpu::mpi::Comm::node");
  detail::CommState& parent = *comm.state_;
  std::lock_guard<std::mutex> lock(parent.mutex);
  if (!parent.node) {
    MPI_Comm split = MPI_COMM_NULL;
    detail::check_mpi(
        MPI_Comm_split_type(parent.own, MPI_COMM_TYPE_SHARED, parent.rank, MPI_INFO_NULL, &split),
        "MPI_Comm_split_type");
    parent.node = detail::make_comm_state(split, true);
  }
  Comm node(parent.node);
  node.transport_ = comm.transport_;
  node.chunk_ = comm.chunk_;
  return node;
}

Comm Comm::from(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL)
    detail::fail(Errc::invalid_argument, "MPI_COMM_NULL is not a communicator",
                 "xgpu::mpi::Comm::from");
  return Comm(detail::make_comm_state(comm, false));
}

Comm Comm::from_fortran(MPI_Fint comm) { return from(MPI_Comm_f2c(comm)); }

int Comm::rank() const { return checked(state_, "xgpu::mpi::Comm::rank").rank; }
int Comm::size() const { return checked(state_, "xgpu::mpi::Comm::size").size; }
MPI_Comm Comm::native() const { return checked(state_, "xgpu::mpi::Comm::native").program; }

Comm Comm::with_transport(Transport transport) const {
  checked(state_, "xgpu::mpi::Comm::with_transport");
  Comm copy = *this;
  copy.transport_ = transport;
  return copy;
}

Comm Comm::with_chunk(std::size_t bytes) const {
  checked(state_, "xgpu::mpi::Comm::with_chunk");
  if (bytes == 0)
    detail::fail(Errc::invalid_argument, "a chunk of 0 bytes", "xgpu::mpi::Comm::with_chunk");
  Comm copy = *this;
  copy.chunk_ = bytes;
  return copy;
}

const std::shared_ptr<detail::CommState>& Comm::state() const { return state_; }

}  // namespace xgpu::mpi
