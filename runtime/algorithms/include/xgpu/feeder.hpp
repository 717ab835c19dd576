// xgpu::Feeder: input that keeps the device fed. Worker threads fill batches into a ring of
// pinned host buffers (Context::alloc_host) by calling the user's function; a queue of the
// feeder's own uploads each ready batch into a ring of device buffers while the compute queue
// works on the previous one; next() hands the compute queue the next batch, ordered after its
// upload on the device (no host wait when the batch is ready). PyTorch's DataLoader with
// num_workers, prefetch_factor, pin_memory, drop_last and a seeded shuffle, and DALI's
// prefetching, for xgpu queues.
//
//   xgpu::FeederOptions o;
//   o.samples = 60000; o.batch_size = 256; o.batch_bytes = 256 * 784 * sizeof(float);
//   o.shuffle = true; o.seed = 42;
//   xgpu::Feeder feeder(compute, o, [&](const xgpu::FeederRequest& r) {
//     float* out = static_cast<float*>(r.data);
//     for (std::size_t i = 0; i < r.count; ++i) load_image(r.samples[i], out + i * 784);
//     return r.count * 784 * sizeof(float);        // bytes written, at most r.capacity
//   });
//   while (auto batch = feeder.next()) {           // compute already waits for its upload
//     compute.launch(train, range, batch->as<float>(), ...);
//   }
//
// Memory: workers + prefetch pinned buffers and prefetch + 1 device buffers of batch_bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>
#include <xgpu/error.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {

/// What a Feeder does (DataLoader's names and defaults where it has them).
struct FeederOptions {
  std::size_t samples = 0;      ///< the data set's size (0: no batches)
  std::size_t batch_size = 1;   ///< samples per batch; > 0
  std::size_t batch_bytes = 0;  ///< the most bytes a batch takes (its buffers' size); > 0
  std::size_t workers = 2;      ///< threads calling the fill function; > 0
  std::size_t prefetch = 2;     ///< batches uploaded ahead of the one in use; > 0
  bool drop_last = false;       ///< drop a last batch of fewer than batch_size samples
  bool shuffle = false;         ///< samples in an order fixed by `seed` (a new one each epoch)
  std::uint64_t seed = 0;
  std::size_t epochs = 1;  ///< passes over the data set, one after another; > 0
};

/// One batch for the fill function to write. Calls for different batches run at once on the
/// worker threads, in any order; each batch is filled exactly once.
struct FeederRequest {
  std::size_t index = 0;                 ///< the batch's place in its epoch: 0, 1, ...
  std::size_t epoch = 0;                 ///< 0 .. epochs - 1
  const std::size_t* samples = nullptr;  ///< its samples' indices in the data set, in order
  std::size_t count = 0;                 ///< how many: batch_size, or fewer for a last batch
  void* data = nullptr;                  ///< pinned host memory to write the batch into
  std::size_t capacity = 0;              ///< its bytes (FeederOptions::batch_bytes)
};

/// Writes the batch's bytes to request.data and returns how many (0 .. capacity; 0 is a
/// batch of no bytes). What it throws reaches next() at that batch (Errc::user_function,
/// nested: std::rethrow_if_nested gives the original).
using FeederFill = std::function<std::size_t(const FeederRequest& request)>;

/// A batch on the device.
struct FeederBatch {
  std::size_t index = 0, epoch = 0;
  std::vector<std::size_t> samples;  ///< as the fill function saw them
  std::size_t bytes = 0;             ///< what the fill function wrote
  /// The device buffer (batch_bytes long; its first `bytes` are the batch). Yours until the
  /// call to next() after the one that returned it: commands you enqueue on the compute queue
  /// before that call may use it, later ones must not (the feeder uploads into it again).
  Buffer<unsigned char> data;
  /// The upload's completion (empty for a batch of no bytes). The compute queue already
  /// waits for it; another queue of the context may wait for it too. Its profile() has the
  /// upload's device times where the compute queue is profiled (the upload queue is then too).
  Event ready;
  /// `data` as elements of T; batch_bytes must be a multiple of sizeof(T)
  /// (Errc::invalid_argument otherwise).
  template <class T>
  Buffer<T> as() const {
    if (data.bytes() % sizeof(T) != 0)
      throw Error(Errc::invalid_argument,
                  "FeederBatch::as: the batch buffer's " + std::to_string(data.bytes()) +
                      " bytes are not a whole number of elements of " + std::to_string(sizeof(T)) +
                      " bytes",
                  "xgpu::FeederBatch::as");
    return ext::typed<T>(data.untyped());
  }
};

class XGPU_ALGORITHMS_API Feeder {
 public:
  /// Starts the workers and the uploader at once. `compute` is the queue that uses the
  /// batches (the uploads run on a new queue of its context). Errc::invalid_argument for an
  /// option out of range or an empty function; Errc::invalid_handle for an empty queue.
  Feeder(Queue compute, FeederOptions options, FeederFill fill);
  /// close().
  ~Feeder();
  Feeder(Feeder&&) noexcept;
  Feeder& operator=(Feeder&&) noexcept;
  Feeder(const Feeder&) = delete;
  Feeder& operator=(const Feeder&) = delete;

  /// The next batch in order (index 0, 1, ... of epoch 0, then epoch 1 ...), or nothing after
  /// the last. Its device buffer holds the batch once `ready` completes, and the compute
  /// queue waits for that (Queue::wait) before its later commands. Blocks only while the
  /// batch is still being filled or its upload enqueued. A batch whose fill threw (or
  /// returned more than its capacity, or whose upload failed) throws Errc::user_function
  /// here, naming the batch and epoch, with the exception nested; the batches before it are
  /// delivered first, and every later call throws the same. After close(): nothing.
  std::optional<FeederBatch> next();

  /// Stops the workers (each after the fill call it is in, if any), the uploader, and waits
  /// for the uploads in flight; joins every thread, also after a fill threw. Idempotent.
  void close();

  /// Batches per epoch: samples / batch_size, rounded up (down with drop_last).
  std::size_t batches_per_epoch() const;
  /// Every batch next() will deliver: batches_per_epoch() * epochs.
  std::size_t size() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace xgpu
