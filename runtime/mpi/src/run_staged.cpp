// The staged transport (plan.hpp): two staging slots take turns. While MPI works on chunk i in
// one slot, the queue drains chunk i-1 from the other slot and then fills it with chunk i+1; the
// queue is in order, so a slot's fill never starts before its drain ends.
#include <xgpu/extension.hpp>

#include "plan.hpp"
#include "staging.hpp"

namespace xgpu::mpi::detail {
namespace {

using Bytes = Buffer<std::uint8_t>;

// One slot: its block, with area a at 0 and area b after it, and the last command enqueued
// on it (which, the queue being in order, ends after every earlier one).
struct Slot {
  Slot(const Context& context, std::size_t a_bytes, std::size_t b_bytes, bool pinned)
      : b_at((a_bytes + 63) / 64 * 64), staging(context, b_at + b_bytes, pinned) {}
  std::size_t b_at;
  Staging staging;
  Event last;
};

Event copy_piece(Queue& queue, Slot& slot, const Piece& piece, std::size_t area_at, bool fill) {
  const Bytes buffer = ext::typed<std::uint8_t>(*piece.buffer);
  const std::size_t host_at = area_at + piece.at;
  if (const HostBuffer<std::uint8_t>* host = slot.staging.host()) {
    return fill ? queue.read_async(buffer, *host, piece.bytes, piece.offset, host_at)
                : queue.write_async(buffer, *host, piece.bytes, piece.offset, host_at);
  }
  std::uint8_t* memory = slot.staging.data() + host_at;
  return fill ? queue.read_async(buffer, memory, piece.bytes, piece.offset)
              : queue.write_async(buffer, memory, piece.bytes, piece.offset);
}

// Enqueues the fills (or drains) of a chunk's areas into (from) a slot.
void enqueue(Queue& queue, Slot& slot, const Area& a, const Area& b, bool fill) {
  for (const Area* area : {&a, &b}) {
    const std::size_t at = area == &a ? 0 : slot.b_at;
    for (const Piece& piece : fill ? area->fill : area->drain) {
      if (piece.bytes) slot.last = copy_piece(queue, slot, piece, at, fill);
    }
  }
}

}  // namespace

void run_staged(Queue& queue, Plan& plan, bool pinned) {
  const std::size_t chunks = plan.chunks();
  if (chunks == 0) return;
  std::size_t a_bytes = 0, b_bytes = 0;
  Area a, b;
  for (std::size_t i = 0; i < chunks; ++i) {
    plan.areas(i, a, b);
    a_bytes = std::max(a_bytes, a.bytes);
    b_bytes = std::max(b_bytes, b.bytes);
  }
  const Context& context = queue.context();
  Slot slots[2] = {{context, a_bytes, b_bytes, pinned}, {context, a_bytes, b_bytes, pinned}};
  try {
    for (std::size_t i = 0; i < std::min<std::size_t>(chunks, 2); ++i) {
      plan.areas(i, a, b);
      enqueue(queue, slots[i], a, b, true);
    }
    queue.flush();
    for (std::size_t i = 0; i < chunks; ++i) {
      Slot& slot = slots[i % 2];
      slot.last.wait();  // chunk i is in the slot (and the slot's earlier drain is done)
      plan.areas(i, a, b);
      plan.communicate(i, slot.staging.data(), slot.staging.data() + slot.b_at);
      enqueue(queue, slot, a, b, false);
      if (i + 2 < chunks) {
        plan.areas(i + 2, a, b);
        enqueue(queue, slot, a, b, true);
      }
      queue.flush();
    }
    for (Slot& slot : slots) slot.last.wait();
  } catch (...) {
    // Ordinary staging memory goes back to the pool: no copy may still use it.
    try {
      queue.finish();
    } catch (...) {
    }
    throw;
  }
}

}  // namespace xgpu::mpi::detail
