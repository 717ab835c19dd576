// iallreduce and its Request. The MPI calls run on the Comm's job thread, the device copies on
// the Comm's work queue (after the caller's queue reaches the call), and the Request's Event is
// a HostGate completed when the result is in the buffer. On NCCL the allreduce is enqueued on
// the caller's queue itself and the Event is a marker after it.
#include <condition_variable>
#include <mutex>
#include <optional>
#include <xgpu/mpi/collectives.hpp>

#include "collective_run.hpp"
#include "comm_state.hpp"
#include "host_gate.hpp"
#include "internals.hpp"
#include "nccl.hpp"

namespace xgpu::mpi {

namespace detail {

struct RequestState {
  std::mutex mutex;
  std::condition_variable finished_cv;
  bool finished = false;  // the host's part is over
  std::exception_ptr error;
  Event event;
  bool has_event = false;       // `event` completes with the collective
  bool device_pending = false;  // the collective still runs on the device after `finished` (NCCL)

  void finish(std::exception_ptr failure) {
    std::lock_guard<std::mutex> lock(mutex);
    finished = true;
    error = std::move(failure);
    finished_cv.notify_all();
  }
};

}  // namespace detail

void Request::wait() const {
  if (!state_) return;
  {
    std::unique_lock<std::mutex> lock(state_->mutex);
    state_->finished_cv.wait(lock, [&] { return state_->finished; });
    if (state_->error) std::rethrow_exception(state_->error);
  }
  if (state_->device_pending) state_->event.wait();
}

bool Request::test() const {
  if (!state_) return true;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (!state_->finished) return false;
    if (state_->error) return true;
  }
  return !state_->device_pending || state_->event.status() == EventStatus::complete;
}

const Event& Request::event() const {
  static const Event kComplete;
  if (!state_) return kComplete;
  if (!state_->has_event) wait();  // no event the host can complete: the collective is over
  return state_->event;
}

Request iallreduce(Queue& queue, const UntypedBuffer& buffer, DataType type, Op op,
                   const Comm& comm) {
  constexpr const char* kName = "xgpu::mpi::iallreduce";
  detail::CommState& state = detail::state_of(comm, kName);
  const detail::Prepared prepared = detail::prepare_allreduce(queue, comm, buffer, type, op, kName);
  auto request = std::make_shared<detail::RequestState>();

  // Failures of the steps made on this thread go into the Request too, as the job's do.
  std::optional<detail::Agreement> agreed;
  try {
    // NCCL: the agreement here (it decides whether NCCL serves), then the allreduce on the
    // caller's stream.
    if (prepared.call.nccl) {
      state.worker.drain();
      agreed = detail::agree(state, prepared.call, prepared.local_failure);
      if (agreed->nccl) {
        detail::nccl_allreduce(queue, buffer, type, op, state);
        request->event = queue.marker();
        request->has_event = request->device_pending = true;
        request->finish(nullptr);
        return detail::Internals::request(request);
      }
    }
    int thread_level = MPI_THREAD_SINGLE;
    MPI_Query_thread(&thread_level);
    if (prepared.local_failure || thread_level < MPI_THREAD_MULTIPLE) {
      // No job thread: without MPI_THREAD_MULTIPLE it may not call MPI beside the program's
      // own thread; with a refused argument there is only the agreement to make, which throws.
      state.worker.drain();
      if (!agreed) agreed = detail::agree(state, prepared.call, prepared.local_failure);
      auto plan = detail::allreduce_plan(detail::where_of(state, type, *agreed), buffer, op);
      detail::execute(queue, *plan, prepared.transport);
      request->finish(nullptr);
      return detail::Internals::request(request);
    }
  } catch (...) {
    request->finish(std::current_exception());
    return detail::Internals::request(request);
  }

  // A failure setting the job up is this rank's refusal, shown to the others by the agreement.
  Event ready;
  Queue work;
  detail::HostGate gate;
  std::exception_ptr setup_failure;
  try {
    ready = queue.marker();
    work = state.work_queue(queue.context());
    Queue gates = state.gate_queue(queue.context());
    gate = detail::HostGate::open(gates);
  } catch (...) {
    setup_failure = std::current_exception();
  }
  request->event = gate.event();
  request->has_event = static_cast<bool>(gate);
  // The job holds the state by pointer: the state's end waits for its jobs (CommState::release),
  // and a job holding the last reference would end the state on its own thread.
  state.worker.submit([request, gate, ready, work, buffer, type, op, prepared, agreed,
                       setup_failure, comm_state = &state]() mutable {
    std::exception_ptr error = setup_failure;
    try {
      const detail::Agreement settled =
          agreed ? *agreed : detail::agree(*comm_state, prepared.call, setup_failure);
      if (error) std::rethrow_exception(error);
      work.wait(ready);
      auto plan = detail::allreduce_plan(detail::where_of(*comm_state, type, settled), buffer, op);
      detail::execute(work, *plan, prepared.transport);
    } catch (...) {
      error = std::current_exception();
    }
    gate.complete(!error);
    request->finish(error);
  });
  return detail::Internals::request(request);
}

}  // namespace xgpu::mpi
