// The caching allocator: best-fit blocks of driver buffers, split on the way out, coalesced on
// the way back, never handed to a new user while a command that used them may still run.
#include "pool.hpp"

#include <algorithm>
#include <cstdio>

#include "../log.hpp"
#include "../module.hpp"
#include "../trace/hooks.hpp"
#include "allocation.hpp"
#include "test_hooks.hpp"
#include "xgpu/byte_size.hpp"
#include "xgpu/error.hpp"

namespace xgpu::detail {
namespace {

// What a sub-buffer inherits of its allocation's flags (HOST_VISIBLE is the parent's alone).
constexpr std::uint32_t kAccessFlags = XGPU_MEM_READ_ONLY | XGPU_MEM_WRITE_ONLY;

std::size_t round_up(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

// A command that failed is as finished as one that completed: neither touches memory again.
bool has_finished(const Handle<ObjectKind::event>& event) {
  const Module& module = *event.module();
  std::int32_t state = 0;
  const xgpu_status status =
      module.table->event_status(static_cast<xgpu_event>(event.get()), &state);
  return status != XGPU_STATUS_SUCCESS || state <= XGPU_EVENT_COMPLETE;
}

// Blocks of a kind never mix: a small request never splits a large segment, so slabs of
// short-lived small buffers do not pin the memory of large ones.
std::set<std::pair<std::size_t, Block*>>& free_set(std::set<std::pair<std::size_t, Block*>>& small,
                                                   std::set<std::pair<std::size_t, Block*>>& large,
                                                   const Block& block) {
  return block.segment->small ? small : large;
}

}  // namespace

Allocation::~Allocation() { pool->release(*this); }

void* Allocation::root(std::size_t& base) const noexcept {
  // A used block's segment and offset do not change while it is used.
  base = block != nullptr ? block->offset : 0;
  return block != nullptr ? block->segment->memory.get() : own.get();
}

void Allocation::note_use(const Module* module, void* queue) {
  if (first_queue_.load(std::memory_order_acquire) == queue) return;  // the common case
  std::lock_guard<std::mutex> lock(use_mutex);
  for (const auto& used : used_on) {
    if (used.get() == queue) return;  // a launch on a queue seen before
  }
  // Retained: the pool asks this queue for a marker when the buffer goes, and a program may
  // release its Queue first.
  used_on.push_back(Handle<ObjectKind::queue>::retain(module, queue));
  if (used_on.size() == 1) first_queue_.store(queue, std::memory_order_release);
}

std::vector<Handle<ObjectKind::queue>> Allocation::queues_in_use() {
  std::lock_guard<std::mutex> lock(use_mutex);
  return used_on;
}

std::vector<Handle<ObjectKind::queue>> Allocation::take_queues() {
  std::lock_guard<std::mutex> lock(use_mutex);
  first_queue_.store(nullptr, std::memory_order_relaxed);
  return std::move(used_on);
}

namespace {
thread_local const void* t_last_queue = nullptr;

// Drops the uses whose marker has completed; true when none is left.
bool all_finished(std::vector<QueueUse>& uses) {
  uses.erase(std::remove_if(uses.begin(), uses.end(),
                            [](const QueueUse& use) { return has_finished(use.marker); }),
             uses.end());
  return uses.empty();
}
}  // namespace

const void* last_queue_of_this_thread() noexcept { return t_last_queue; }
void set_last_queue_of_this_thread(const void* queue) noexcept { t_last_queue = queue; }

void Allocation::set_previous_uses(std::vector<QueueUse> uses) {
  std::lock_guard<std::mutex> lock(use_mutex);
  previous_ = std::move(uses);
  follows_previous_.store(!previous_.empty(), std::memory_order_release);
}

std::vector<QueueUse> Allocation::take_previous_uses() {
  std::lock_guard<std::mutex> lock(use_mutex);
  follows_previous_.store(false, std::memory_order_release);
  ordered_.clear();
  return std::move(previous_);
}

void Allocation::order_after_previous_user(const Module* module, void* queue) {
  std::lock_guard<std::mutex> lock(use_mutex);
  if (all_finished(previous_)) {
    follows_previous_.store(false, std::memory_order_release);
    ordered_.clear();
    return;
  }
  for (const auto& done : ordered_) {
    if (done.get() == queue) return;  // a barrier on this queue already orders it after them
  }
  std::vector<xgpu_event> others;
  for (const QueueUse& use : previous_) {
    if (use.queue.get() != queue) others.push_back(static_cast<xgpu_event>(use.marker.get()));
  }
  if (!others.empty()) {
    const xgpu_wait_v1 wait{others.data(), static_cast<std::uint32_t>(others.size())};
    const bool barrier = module->has(&xgpu_backend_v1::queue_barrier) &&
                         !cross_queue_barrier_disabled_for_test().load() &&
                         module->table->queue_barrier(static_cast<xgpu_queue>(queue), &wait,
                                                      nullptr) == XGPU_STATUS_SUCCESS;
    // Without a barrier the host waits: slower, as safe. (A marker that failed has finished.)
    if (!barrier) module->table->event_wait(others.data(), wait.count);
  }
  ordered_.push_back(Handle<ObjectKind::queue>::retain(module, queue));
}

void Allocation::wait_for_previous_user() {
  std::lock_guard<std::mutex> lock(use_mutex);
  for (const QueueUse& use : previous_) {
    auto raw = static_cast<xgpu_event>(use.marker.get());
    use.marker.module()->table->event_wait(&raw, 1);
  }
  previous_.clear();
  ordered_.clear();
  follows_previous_.store(false, std::memory_order_release);
}

// A module without queue_barrier (none that pools: it predates buffer_create_sub, but the entry
// may be NULL) gets the queue drained instead: no event.
Handle<ObjectKind::event> marker_of(const Handle<ObjectKind::queue>& queue) {
  const Module& module = *queue.module();
  const auto raw = static_cast<xgpu_queue>(queue.get());
  if (module.has(&xgpu_backend_v1::queue_barrier)) {
    xgpu_event event = nullptr;
    if (module.table->queue_barrier(raw, nullptr, &event) == XGPU_STATUS_SUCCESS &&
        event != nullptr) {
      // Submitted, so that polling it finds it complete even when nothing else flushes the
      // queue (OpenCL does not flush when an event's status is asked).
      module.table->queue_flush(raw);
      return Handle<ObjectKind::event>::adopt(&module, event);
    }
  }
  module.table->queue_finish(raw);  // a queue that cannot finish runs nothing any more
  return {};
}

MemoryPool::MemoryPool(const DeviceRecord* device, Handle<ObjectKind::context> context,
                       AllocatorKind kind, std::uint64_t limit)
    : device_(device), context_(std::move(context)), kind_(kind) {
  // Drivers that do not say get a page: any sub-buffer offset rule known is at most that.
  const std::uint64_t reported = device->info.base_address_alignment;
  alignment_ = std::max<std::size_t>(kMinBlock, reported != 0 ? reported : 4096);
  stats_.limit = limit;
}

MemoryPool::~MemoryPool() = default;

Handle<ObjectKind::buffer> MemoryPool::driver_buffer(std::size_t bytes, std::uint32_t flags,
                                                     xgpu_status& status) {
  const Module& module = *device_->module;
  xgpu_buffer raw = nullptr;
  status =
      module.table->buffer_create(static_cast<xgpu_context>(context_.get()), flags, bytes, &raw);
  if (status == XGPU_STATUS_SUCCESS) return Handle<ObjectKind::buffer>::adopt(&module, raw);
  // Only a lack of memory is worth returning the cache and retrying for; any other refusal
  // (a bad flag, a lost context) is the driver's error as it stands. The ABI passes native
  // statuses, so the names tell: CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES,
  // CL_OUT_OF_HOST_MEMORY (and CUDA's CUDA_ERROR_OUT_OF_MEMORY).
  const std::string name = module.status_name(status);
  if (name.find("OUT_OF") == std::string::npos &&
      name.find("ALLOCATION_FAILURE") == std::string::npos) {
    report_to_trace();
    throw_backend_error(module, status, "allocating " + format_bytes(bytes), device_);
  }
  return {};
}

BufferCore MemoryPool::allocate(std::size_t bytes, std::uint32_t flags) {
  BufferCore core;
  core.context = context_.get();
  core.device = device_;
  const Module& module = *device_->module;
  const bool pooled = caching() && (flags & XGPU_MEM_HOST_VISIBLE) == 0 &&
                      module.has(&xgpu_backend_v1::buffer_create_sub);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pooled) {
    xgpu_status status = XGPU_STATUS_SUCCESS;
    Handle<ObjectKind::buffer> memory;
    for (int attempt = 0; attempt < 2 && !memory; ++attempt) {
      if (attempt == 1) {  // free the cache, then once more
        ++stats_.num_retries;
        settle_pending(true);
        release_free_segments();
      }
      if (stats_.limit != 0 && stats_.reserved + bytes > stats_.limit) {
        on_limit_hit(bytes);
        continue;
      }
      memory = driver_buffer(bytes, flags, status);
    }
    if (!memory) out_of_memory(bytes, status);
    add_reserved(bytes);
    core.allocation =
        std::make_shared<Allocation>(shared_from_this(), nullptr, bytes, flags & kAccessFlags);
    core.allocation->own = memory;
    core.handle = std::move(memory);
    core.bytes = bytes;
    on_allocated(bytes);
    report_to_trace();
    return core;
  }

  const bool small = bytes <= kSmallRequest;
  const std::size_t rounded = round_up(std::max(bytes, kMinBlock), alignment_);
  if (!pending_.empty()) settle_pending(false);
  std::vector<QueueUse> previous;
  Block* block = nullptr;
  if (!pending_.empty()) {
    // Best fit among the free blocks and those this thread's queue freed (reuse at once).
    const auto& blocks = small ? free_small_ : free_large_;
    const auto free_fit = blocks.lower_bound({rounded, nullptr});
    const std::size_t largest = free_fit == blocks.end() ? 2 * rounded : free_fit->first;
    block = take_pending_of_queue(rounded, std::min(largest, 2 * rounded), small,
                                  last_queue_of_this_thread(), previous);
  }
  if (block == nullptr) block = take_block(rounded, small);
  if (block == nullptr) block = grow(bytes, rounded, small);
  block->state = Block::State::used;  // first: the piece split off must not merge back into it
  if (previous.empty()) split(*block, rounded, small);
  const std::uint32_t access = flags & kAccessFlags;
  if (!block->view || block->view_bytes != bytes || block->view_flags != access) {
    block->view = {};
    xgpu_buffer raw = nullptr;
    const xgpu_status status = module.table->buffer_create_sub(
        static_cast<xgpu_buffer>(block->segment->memory.get()), access, block->offset, bytes, &raw);
    if (status != XGPU_STATUS_SUCCESS) {
      if (previous.empty()) {
        make_free(*block);
      } else {  // the previous user's commands may still run: it stays pending
        block->state = Block::State::pending;
        block->pending_on = std::move(previous);
        pending_.push_back(block);
      }
      report_to_trace();  // grow() may have added a segment
      throw_backend_error(module, status, "allocating " + format_bytes(bytes) + " from the pool",
                          device_);
    }
    block->view = Handle<ObjectKind::buffer>::adopt(&module, raw);
    block->view_bytes = bytes;
    block->view_flags = access;
  }
  core.allocation = std::make_shared<Allocation>(shared_from_this(), block, bytes, access);
  if (!previous.empty()) core.allocation->set_previous_uses(std::move(previous));
  core.handle = block->view;
  core.bytes = bytes;
  on_allocated(bytes);
  report_to_trace();
  return core;
}

Block* MemoryPool::take_block(std::size_t rounded, bool small) {
  auto& blocks = small ? free_small_ : free_large_;
  auto found = blocks.lower_bound({rounded, nullptr});
  if (found == blocks.end()) return nullptr;
  Block* block = found->second;
  blocks.erase(found);
  return block;
}

// Reuse at once: a block freed while commands using it may still run goes at once to a thread
// whose last pooled command was on the one queue that used it; that queue runs in order, so its
// next commands come after the previous user's. Best fit, never split (the rest would be as
// busy), no larger than the best free block nor than twice the request, so that a small
// buffer does not pin a large block.
// Correctness never rests on the guess: the new buffer's commands on any other queue wait for
// the previous user's (Allocation::order_after_previous_user).
Block* MemoryPool::take_pending_of_queue(std::size_t rounded, std::size_t largest, bool small,
                                         const void* queue, std::vector<QueueUse>& uses) {
  if (queue == nullptr) return nullptr;
  auto best = pending_.end();
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    const Block& block = **it;
    if (block.segment->small != small || block.size < rounded || block.size > largest) continue;
    const bool only_that_queue =
        std::all_of(block.pending_on.begin(), block.pending_on.end(),
                    [&](const QueueUse& use) { return use.queue.get() == queue; });
    if (only_that_queue && (best == pending_.end() || block.size < (*best)->size)) best = it;
  }
  if (best == pending_.end()) return nullptr;
  Block* block = *best;
  pending_.erase(best);
  uses = std::move(block->pending_on);
  block->pending_on.clear();
  return block;
}

// A new segment: small requests share 2 MiB slabs; larger ones get one of their own rounded
// up to 2 MiB, which they may later share with smaller large requests through splitting.
// PyTorch also gives requests of 1 to 10 MiB shared 20 MiB segments; that saves driver calls
// in the first step only and left much of a segment unused in a small model's step
// (docs/memory.md). Under a limit that the segment would pass, or when the driver
// refuses it, the request's own size is tried; then the cache goes back to the driver and
// everything is tried once more.
Block* MemoryPool::grow(std::size_t request, std::size_t rounded, bool small) {
  std::size_t wanted = small ? kSmallSegment : round_up(rounded, kSmallSegment);
  const std::uint64_t largest = device_->info.max_allocation;
  if (largest != 0 && wanted > largest) wanted = std::max<std::size_t>(rounded, largest);
  xgpu_status status = XGPU_STATUS_SUCCESS;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (attempt == 1) {
      ++stats_.num_retries;
      settle_pending(true);
      release_free_segments();
      if (Block* freed = take_block(rounded, small)) return freed;
    }
    const std::size_t sizes[] = {wanted, rounded};
    for (std::size_t i = wanted == rounded ? 1 : 0; i < 2; ++i) {
      if (stats_.limit != 0 && stats_.reserved + sizes[i] > stats_.limit) {
        if (i == 1) on_limit_hit(request);
        continue;
      }
      if (Block* block = new_segment(sizes[i], small, status)) return block;
    }
  }
  out_of_memory(request, status);
}

Block* MemoryPool::new_segment(std::size_t segment_size, bool small, xgpu_status& status) {
  Handle<ObjectKind::buffer> memory = driver_buffer(segment_size, 0, status);
  if (!memory) return nullptr;
  auto segment = std::make_unique<Segment>();
  segment->memory = std::move(memory);
  segment->size = segment_size;
  segment->small = small;
  auto block = std::make_unique<Block>();
  block->segment = segment.get();
  block->size = segment_size;
  Block* raw = block.get();
  segment->blocks.emplace(0, std::move(block));
  segments_.push_back(std::move(segment));
  add_reserved(segment_size);
  return raw;
}

// Keeps what the request needs; the rest becomes a free block when it is worth keeping
// (any aligned piece of a slab; more than 1 MiB of a large segment, as PyTorch does, so that
// large segments do not crumble into pieces nobody asks for).
void MemoryPool::split(Block& block, std::size_t rounded, bool small) {
  const std::size_t rest = block.size - rounded;
  if (rest < (small ? alignment_ : kSmallRequest + 1)) return;
  auto piece = std::make_unique<Block>();
  piece->segment = block.segment;
  piece->offset = block.offset + rounded;
  piece->size = rest;
  block.size = rounded;
  Block* raw = piece.get();
  block.segment->blocks.emplace(raw->offset, std::move(piece));
  make_free(*raw);
}

void MemoryPool::make_free(Block& freed) {
  Block* block = &freed;
  block->state = Block::State::free;
  block->pending_on.clear();
  auto& blocks = block->segment->blocks;
  auto here = blocks.find(block->offset);
  auto next = std::next(here);
  if (next != blocks.end() && next->second->state == Block::State::free) {
    free_set(free_small_, free_large_, *next->second)
        .erase({next->second->size, next->second.get()});
    block->size += next->second->size;
    blocks.erase(next);
  }
  if (here != blocks.begin()) {
    auto previous = std::prev(here);
    Block* before = previous->second.get();
    if (before->state == Block::State::free) {
      free_set(free_small_, free_large_, *before).erase({before->size, before});
      before->size += block->size;
      blocks.erase(here);  // the merged block keeps the lower offset (and its cached view)
      block = before;
    }
  }
  free_set(free_small_, free_large_, *block).insert({block->size, block});
}

void MemoryPool::settle_pending(bool wait) {
  auto still = pending_.begin();
  for (Block* block : pending_) {
    if (wait) {
      for (const QueueUse& use : block->pending_on) {
        auto raw = static_cast<xgpu_event>(use.marker.get());
        device_->module->table->event_wait(&raw, 1);  // a failed command has finished too
      }
    }
    if (wait || all_finished(block->pending_on)) {
      make_free(*block);
    } else {
      *still++ = block;
    }
  }
  pending_.erase(still, pending_.end());
}

std::size_t MemoryPool::release_free_segments() {
  std::size_t released = 0;
  auto kept = segments_.begin();
  for (auto& segment : segments_) {
    const Block& only = *segment->blocks.begin()->second;
    if (segment->blocks.size() == 1 && only.state == Block::State::free) {
      free_set(free_small_, free_large_, only).erase({only.size, const_cast<Block*>(&only)});
      released += segment->size;
      stats_.reserved -= segment->size;
      segment.reset();
    } else {
      *kept++ = std::move(segment);
    }
  }
  segments_.erase(kept, segments_.end());
  return released;
}

void MemoryPool::release(Allocation& allocation) noexcept {
  try {
    std::vector<Handle<ObjectKind::queue>> queues = allocation.take_queues();
    if (allocation.block == nullptr) {
      // Its own driver buffer goes with the handle, which the driver keeps until its commands
      // are done: no marker needed.
      std::lock_guard<std::mutex> lock(mutex_);
      on_freed(allocation.bytes);
      stats_.reserved -= allocation.bytes;
      report_to_trace();
      return;
    }
    // What the block's previous user may still run counts too: the buffer may have gone
    // before its first command.
    std::vector<QueueUse> uses = allocation.take_previous_uses();
    // At exit the drivers may be gone (see handle.cpp): ask them nothing; no one allocates
    // again anyway.
    if (exit_has_begun()) {
      queues.clear();
      uses.clear();
    }
    for (auto& queue : queues) {
      if (Handle<ObjectKind::event> marker = marker_of(queue))
        uses.push_back({std::move(queue), std::move(marker)});
    }
    std::lock_guard<std::mutex> lock(mutex_);
    on_freed(allocation.bytes);
    Block& block = *allocation.block;
    if (!all_finished(uses)) {
      block.state = Block::State::pending;
      block.pending_on = std::move(uses);
      pending_.push_back(&block);
    } else {
      make_free(block);
    }
    report_to_trace();
  } catch (const std::exception& error) {
    // Out of host memory for the bookkeeping: the block stays used (leaked), never reused.
    std::fprintf(stderr, "xgpu: returning a block to the pool failed: %s\n", error.what());
  }
}

[[noreturn]] void MemoryPool::out_of_memory(std::size_t request, xgpu_status driver_status) {
  ++stats_.num_ooms;
  report_to_trace();  // the retry may have returned cached segments
  const DeviceInfo& info = device_->info;
  std::string text = "tried to allocate " + format_bytes(request) + " on " + info.name + ": " +
                     format_bytes(info.global_memory) + " total, limit " +
                     (stats_.limit != 0 ? format_bytes(stats_.limit) : std::string("none")) + ", " +
                     format_bytes(stats_.allocated) + " allocated by xgpu, " +
                     format_bytes(stats_.reserved - std::min(stats_.reserved, stats_.allocated)) +
                     " cached";
  if (driver_status != XGPU_STATUS_SUCCESS) {
    const Module& module = *device_->module;
    text += " (the driver refused: " + module.status_name(driver_status) + ")";
  }
  throw Error(Errc::out_of_memory, text, "Context::alloc");
}

MemoryStats MemoryPool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void MemoryPool::reset_peaks() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.peak_allocated = stats_.allocated;
  stats_.peak_reserved = stats_.reserved;
}

void MemoryPool::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pending_.empty()) settle_pending(false);
  release_free_segments();
  report_to_trace();
}

void MemoryPool::set_limit(std::uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.limit = bytes;
  if (bytes != 0 && stats_.reserved > bytes) {
    release_free_segments();
    report_to_trace();
  }
}

void MemoryPool::report_to_trace() const {
  if (trace::active()) trace::memory(device_, this, stats_.allocated, stats_.reserved);
}

void MemoryPool::on_allocated(std::size_t bytes) {
  stats_.allocated += bytes;
  stats_.peak_allocated = std::max(stats_.peak_allocated, stats_.allocated);
  ++stats_.active_blocks;
  ++stats_.num_allocs;
}

void MemoryPool::on_freed(std::size_t bytes) {
  stats_.allocated -= bytes;
  --stats_.active_blocks;
  ++stats_.num_frees;
}

void MemoryPool::on_limit_hit(std::size_t request) {
  // Nothing more to do yet: the hook where a trace records that the limit stopped a request.
  (void)request;
}

void MemoryPool::add_reserved(std::size_t bytes) {
  stats_.reserved += bytes;
  stats_.peak_reserved = std::max(stats_.peak_reserved, stats_.reserved);
}

}  // namespace xgpu::detail
