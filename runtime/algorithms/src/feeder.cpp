// xgpu::Feeder: worker threads fill a ring of pinned host slots, one uploader thread copies
// each filled slot, in order, into a ring of device slots on a queue of its own, and next()
// hands the batches out in order. One mutex and one condition variable order the three.
//
// Positions: batch p of the whole run (epoch p / per_epoch). Position p uses host slot
// p % host_slots and device slot p % device_slots.
// - A worker may fill p once the upload of p - host_slots (the slot's last batch) has been
//   enqueued; it then waits on the host for that copy to finish before writing.
// - The uploader may upload p once p is filled and device slot p % device_slots is released:
//   next() releases a batch's slot when it hands out the following batch, by a marker on the
//   compute queue, which the upload queue waits for on the device.
// - next() hands out p once its upload is enqueued, and makes the compute queue wait for it.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>
#include <utility>
#include <xgpu/feeder.hpp>
#include <xgpu/host_buffer.hpp>

#include "support.hpp"
#include "xgpu/common/exception_text.hpp"

namespace xgpu {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr const char* kCall = "xgpu::Feeder";

void check_options(const FeederOptions& o) {
  const auto positive = [](std::size_t value, const char* name) {
    if (value == 0) detail::algo::invalid(kCall, std::string(name) + " must be > 0");
  };
  positive(o.batch_size, "batch_size");
  positive(o.batch_bytes, "batch_bytes");
  positive(o.workers, "workers");
  positive(o.prefetch, "prefetch");
  positive(o.epochs, "epochs");
}

/// SplitMix64: a fixed generator, so that an order depends on the seed alone, not on the
/// standard library (std::shuffle's and the distributions' algorithms are unspecified).
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The samples of an epoch in order: 0 .. n - 1, or shuffled (Fisher-Yates) by a generator
/// seeded from `seed` and the epoch, so that each epoch has its own order.
std::vector<std::size_t> epoch_order(std::size_t n, bool shuffle, std::uint64_t seed,
                                     std::size_t epoch) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (!shuffle) return order;
  std::uint64_t state = seed ^ (0xD1B54A32D192ED03ull * (epoch + 1));
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[next_random(state) % i]);
  return order;
}

}  // namespace

struct Feeder::State {
  FeederOptions options;
  FeederFill fill;
  Queue compute, upload;
  std::size_t per_epoch = 0, total = 0;
  std::vector<HostBuffer<unsigned char>> host;
  std::vector<Buffer<unsigned char>> device;

  /// A host slot: the batch a worker filled into it, until the uploader takes it.
  struct HostSlot {
    std::size_t position = kNone;  ///< the batch it holds once filled
    std::size_t bytes = 0;
    std::vector<std::size_t> samples;
    Event upload;  ///< the copy out of it (a worker waits for it before filling it again)
  };
  /// A device slot: the batch uploaded into it, as next() hands it out.
  struct DeviceSlot {
    std::size_t bytes = 0;
    std::vector<std::size_t> samples;
    Event ready;    ///< its upload
    Event release;  ///< the compute queue's marker after its last use (empty: free)
  };

  std::mutex mutex;
  std::condition_variable changed;
  bool closing = false, closed = false;
  std::size_t next_fill = 0;      ///< the next position a worker takes
  std::size_t uploaded = 0;       ///< positions whose upload is enqueued
  std::size_t released = 0;       ///< positions whose device slot next() released
  std::size_t consumed = 0;       ///< positions next() returned
  std::size_t failed_at = kNone;  ///< the first position whose fill or upload failed
  std::exception_ptr failure;     ///< and what it threw
  const char* failed_in = "";     ///< "the fill function", "the upload"
  std::vector<HostSlot> host_slots;
  std::vector<DeviceSlot> device_slots;
  std::map<std::size_t, std::vector<std::size_t>> orders;  ///< shuffled epochs in use
  std::vector<std::thread> threads;

  std::size_t last_position() const { return std::min(total, failed_at); }

  void fail(std::size_t position, std::exception_ptr error, const char* where) {
    if (position < failed_at) {
      failed_at = position;
      failure = std::move(error);
      failed_in = where;
    }
  }

  /// The samples of position p (under the mutex).
  std::vector<std::size_t> samples_of(std::size_t p) {
    const std::size_t epoch = p / per_epoch, first = (p % per_epoch) * options.batch_size;
    const std::size_t count = std::min(options.batch_size, options.samples - first);
    std::vector<std::size_t> samples(count);
    if (!options.shuffle) {
      std::iota(samples.begin(), samples.end(), first);
      return samples;
    }
    // Epochs no batch still needs (every position below `consumed` is handed out) go.
    orders.erase(orders.begin(), orders.lower_bound(consumed / per_epoch));
    auto found = orders.find(epoch);
    if (found == orders.end())
      found = orders.emplace(epoch, epoch_order(options.samples, true, options.seed, epoch)).first;
    std::copy_n(found->second.begin() + first, count, samples.begin());
    return samples;
  }

  void work() {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [&] {
        return closing || next_fill >= last_position() || next_fill < host.size() ||
               uploaded > next_fill - host.size();
      });
      if (closing || next_fill >= last_position()) return;
      const std::size_t p = next_fill++;
      HostSlot& slot = host_slots[p % host.size()];
      const Event previous = slot.upload;
      std::vector<std::size_t> samples = samples_of(p);
      lock.unlock();
      std::size_t bytes = 0;
      std::exception_ptr error;
      try {
        if (previous) previous.wait();  // the copy out of this slot has finished
        FeederRequest request;
        request.index = p % per_epoch;
        request.epoch = p / per_epoch;
        request.samples = samples.data();
        request.count = samples.size();
        request.data = host[p % host.size()].data();
        request.capacity = options.batch_bytes;
        bytes = fill(request);
        if (bytes > options.batch_bytes)
          throw Error(Errc::invalid_argument,
                      "the fill function returned " + std::to_string(bytes) +
                          " bytes, more than the batch's " + std::to_string(options.batch_bytes),
                      kCall);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      slot.position = p;
      slot.bytes = bytes;
      slot.samples = std::move(samples);
      if (error) fail(p, error, "the fill function");
      changed.notify_all();
    }
  }

  void upload_in_order() {
    std::unique_lock<std::mutex> lock(mutex);
    for (std::size_t p = 0;; ++p) {
      HostSlot& slot = host_slots[p % host.size()];
      DeviceSlot& target = device_slots[p % device.size()];
      changed.wait(lock, [&] {
        return closing || p >= last_position() ||
               (slot.position == p && (p < device.size() || released > p - device.size()));
      });
      if (closing || p >= last_position()) return;
      const Event release = target.release;
      const std::size_t bytes = slot.bytes;
      lock.unlock();
      Event copied;
      std::exception_ptr error;
      try {
        // The compute queue's commands on the slot's last batch come first, on the device.
        if (release) upload.wait(release);
        if (bytes > 0)
          copied = upload.write_async(device[p % device.size()], host[p % host.size()], bytes);
        upload.flush();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      if (error) {
        fail(p, error, "the upload");
        changed.notify_all();
        return;
      }
      target.bytes = bytes;
      target.samples = std::move(slot.samples);
      target.ready = copied;
      target.release = Event();
      slot.upload = copied;
      uploaded = p + 1;
      changed.notify_all();
    }
  }
};

Feeder::Feeder(Queue compute, FeederOptions options, FeederFill fill)
    : state_(std::make_unique<State>()) {
  detail::algo::require_queue(compute, "xgpu::Feeder");
  check_options(options);
  if (!fill) detail::algo::invalid(kCall, "the fill function is empty");
  State& s = *state_;
  s.options = options;
  s.fill = std::move(fill);
  s.per_epoch = options.drop_last ? options.samples / options.batch_size
                                  : detail::algo::ceil_div(options.samples, options.batch_size);
  s.total = s.per_epoch * options.epochs;
  s.compute = std::move(compute);
  // Profiled as the compute queue is, so a profiling caller can time the uploads (`ready`).
  s.upload = s.compute.context().queue(QueueOptions{s.compute.profiling()});
  Context context = s.compute.context();
  const std::size_t host_count = options.workers + options.prefetch;
  for (std::size_t i = 0; i < host_count; ++i)
    s.host.push_back(context.alloc_host<unsigned char>(options.batch_bytes));
  for (std::size_t i = 0; i < options.prefetch + 1; ++i)
    s.device.push_back(context.alloc<unsigned char>(options.batch_bytes));
  s.host_slots.resize(host_count);
  s.device_slots.resize(options.prefetch + 1);
  if (s.total == 0) return;
  try {
    s.threads.emplace_back([&s] { s.upload_in_order(); });
    for (std::size_t i = 0; i < options.workers; ++i) s.threads.emplace_back([&s] { s.work(); });
  } catch (...) {
    close();  // a thread that did not start: join those that did
    throw;
  }
}

Feeder::~Feeder() {
  if (state_) close();
}
Feeder::Feeder(Feeder&&) noexcept = default;
Feeder& Feeder::operator=(Feeder&& other) noexcept {
  if (this != &other) {
    if (state_) close();
    state_ = std::move(other.state_);
  }
  return *this;
}

std::optional<FeederBatch> Feeder::next() {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mutex);
  if (s.closing) return std::nullopt;
  const std::size_t c = s.consumed;
  if (c >= s.last_position() && s.failed_at != c) return std::nullopt;
  // The previous batch is the caller's no more: its slot may take a new upload once the
  // compute queue's commands so far have run.
  if (c > 0 && s.released < c) {
    s.device_slots[(c - 1) % s.device.size()].release = s.compute.marker();
    s.released = c;
    s.changed.notify_all();
  }
  s.changed.wait(lock, [&] { return s.closing || s.uploaded > c || s.failed_at == c; });
  if (s.closing) return std::nullopt;
  if (s.uploaded <= c) {  // the fill (or the upload) of this batch failed
    const std::size_t epoch = c / s.per_epoch, index = c % s.per_epoch;
    const std::exception_ptr failure = s.failure;
    const std::string where = s.failed_in;
    lock.unlock();
    try {
      std::rethrow_exception(failure);
    } catch (...) {
      std::throw_with_nested(Error(
          Errc::user_function,
          "xgpu::Feeder::next: " + where + " failed for batch " + std::to_string(index) +
              " of epoch " + std::to_string(epoch) + ": " + xgpu::common::exception_text(failure),
          "xgpu::Feeder::next"));
    }
  }
  const State::DeviceSlot& slot = s.device_slots[c % s.device.size()];
  FeederBatch batch;
  batch.index = c % s.per_epoch;
  batch.epoch = c / s.per_epoch;
  batch.samples = slot.samples;
  batch.bytes = slot.bytes;
  batch.data = s.device[c % s.device.size()];
  batch.ready = slot.ready;
  s.consumed = c + 1;
  lock.unlock();
  if (batch.ready) s.compute.wait(batch.ready);
  return batch;
}

void Feeder::close() {
  State& s = *state_;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.closed) return;
    s.closing = true;
    s.changed.notify_all();
  }
  for (std::thread& thread : s.threads) thread.join();
  s.threads.clear();
  try {
    s.upload.finish();  // the copies out of the host slots, before those are freed
  } catch (const std::exception& e) {
    ext::log(ext::LogLevel::error, "feeder",
             std::string("finishing the uploads at close failed: ") + e.what());
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  s.closed = true;
}

std::size_t Feeder::batches_per_epoch() const { return state_->per_epoch; }
std::size_t Feeder::size() const { return state_->total; }

}  // namespace xgpu
