// xgpu::mpi::Env, Comm and select_device: MPI's set-up, the ranks a collective runs over, and
// which device a rank uses. docs/mpi.md shows them in a program.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string_view>
#include <xgpu/device.hpp>
#include <xgpu/mpi/types.hpp>

namespace xgpu::mpi {
namespace detail {
struct CommState;
struct Internals;  // the library's own way in (runtime/mpi/src/internals.hpp)
}  // namespace detail

/// MPI's life in a program: initialises MPI asking for MPI_THREAD_MULTIPLE (iallreduce and
/// GradientBucket talk to MPI from a thread of their own) unless MPI is initialised already, and
/// finalises it when destroyed if it initialised it. Before finalising, it waits for every
/// pending collective of xgpu::mpi and frees xgpu's communicators. Make one in main, first.
class XGPU_MPI_API Env {
 public:
  Env();
  Env(int& argc, char**& argv);
  ~Env();
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  /// The thread support MPI gives (MPI_THREAD_SINGLE ... MPI_THREAD_MULTIPLE). Below
  /// MPI_THREAD_MULTIPLE, iallreduce runs at once on the calling thread (docs/mpi.md).
  int thread_level() const noexcept { return thread_level_; }
  /// Whether this Env initialised MPI, and so finalises it.
  bool initialised_mpi() const noexcept { return initialised_; }

 private:
  void start(int* argc, char*** argv);
  bool initialised_ = false;
  int thread_level_ = 0;
};

/// The ranks a collective runs over. xgpu keeps a private duplicate of the communicator for its
/// own messages, so they never meet the program's own MPI traffic. Copies share it; the
/// collectives of one Comm must be called in the same order on every rank (as MPI's), from one
/// thread at a time.
class XGPU_MPI_API Comm {
 public:
  Comm() = default;
  /// Every rank (MPI_COMM_WORLD). Made on the first call, which is collective: every rank must
  /// make it; later calls return the same Comm.
  static Comm world();
  /// The ranks of `comm` on this rank's node (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED). Made
  /// on the first call for a Comm, which is collective over it, then remembered.
  static Comm node(const Comm& comm = world());
  /// A Comm over a communicator of the program's own (collective over it: it is duplicated).
  /// The program keeps `comm` valid while the Comm lives.
  static Comm from(MPI_Comm comm);
  /// from() for a Fortran handle (mpi4py's Comm.py2f()).
  static Comm from_fortran(MPI_Fint comm);

  int rank() const;
  int size() const;
  /// The communicator this Comm stands for (MPI_COMM_WORLD for world()), for the program's
  /// own MPI calls; never the private duplicate.
  MPI_Comm native() const;

  /// The same ranks with the transport forced for this handle's calls. automatic (the default)
  /// leaves it to XGPU_MPI_TRANSPORT, which by default chooses per device (see Transport).
  Comm with_transport(Transport transport) const;
  /// The same ranks with another staging chunk (bytes, > 0) for this handle's calls; without it
  /// XGPU_MPI_CHUNK's (default 1 MiB). Ranks may differ: a collective uses the smallest.
  Comm with_chunk(std::size_t bytes) const;
  Transport transport() const noexcept { return transport_; }
  std::size_t chunk() const noexcept { return chunk_; }

  explicit operator bool() const noexcept { return static_cast<bool>(state_); }

 private:
  friend struct detail::Internals;
  const std::shared_ptr<detail::CommState>& state() const;
  explicit Comm(std::shared_ptr<detail::CommState> state);
  std::shared_ptr<detail::CommState> state_;
  Transport transport_ = Transport::automatic;
  std::size_t chunk_ = 0;
};

/// The device this rank uses. XGPU_DEVICE, when set, wins (as for xgpu::select()). Otherwise
/// the devices `selector` matches (empty: the GPUs, else the accelerators, else the CPUs),
/// each physical device once (two devices with the same UUID, else the same PCI bus id, are
/// one), are dealt to the ranks of `comm` on this node in node-rank order: node rank r takes
/// device r. With more ranks on a node than devices, rank r takes device r mod n, so devices
/// are shared, and a warning says so. Collective over `comm` (it makes Comm::node(comm)).
/// Throws no_device when the selector matches nothing.
XGPU_MPI_API Device select_device(const Comm& comm = Comm::world(), std::string_view selector = {});

/// The transport this rank's collectives on `device` use: `requested` when it is not
/// automatic, else XGPU_MPI_TRANSPORT's when it forces one, else nccl for a cuda-module device
/// when libnccl opens, mapped for a CPU device and staged otherwise. nccl serves allreduce and
/// iallreduce only, and only when every rank can use it; the other collectives, and every
/// collective where a rank cannot, go staged. Throws unsupported for nccl requested on a device
/// that cannot use it, naming why.
XGPU_MPI_API Transport transport_for(const Device& device,
                                     Transport requested = Transport::automatic);

}  // namespace xgpu::mpi
