// The mapped transport (plan.hpp): every buffer of the plan is mapped whole, once, for the whole
// collective; MPI then works on the mapping in place, one chunk at a time.
#include <cstring>
#include <map>
#include <xgpu/extension.hpp>

#include "plan.hpp"

namespace xgpu::mpi::detail {
namespace {

struct Mapped {
  const xgpu::UntypedBuffer* buffer = nullptr;
  std::uint32_t access = 0;
  void* pointer = nullptr;
};

// Unmaps every mapped buffer when the collective ends, also when it throws.
class Mappings {
 public:
  explicit Mappings(Queue& queue) : queue_(queue) {}
  ~Mappings() {
    try {
      unmap(true);
    } catch (...) {  // an unmap failing while another error unwinds: that error wins
    }
  }
  std::map<const void*, Mapped>& buffers() { return buffers_; }
  void map() {
    std::vector<Event> events;
    for (auto& [handle, m] : buffers_) {
      events.push_back(ext::map_async(queue_, *m.buffer, m.buffer->bytes(), m.access, m.pointer));
    }
    mapped_ = true;
    for (const Event& e : events) e.wait();
  }
  // `wait`: for the unmaps to complete. Without it they are only enqueued: every later command
  // of the queue runs after them, which is all a collective promises (a round trip to the
  // device less).
  void unmap(bool wait) {
    if (!mapped_) return;
    mapped_ = false;
    std::vector<Event> events;
    for (auto& [handle, m] : buffers_)
      if (m.pointer) events.push_back(ext::unmap_async(queue_, *m.buffer, m.pointer));
    if (!wait) {
      queue_.flush();
      return;
    }
    for (const Event& e : events) e.wait();
  }

 private:
  Queue& queue_;
  std::map<const void*, Mapped> buffers_;
  bool mapped_ = false;
};

void note(std::map<const void*, Mapped>& buffers, const Piece& piece, std::uint32_t access) {
  if (piece.bytes == 0) return;
  Mapped& m = buffers[ext::backing_object(*piece.buffer)];
  m.buffer = piece.buffer;
  m.access |= access;
}

// The mapped memory an area can be handed as: all its pieces are of one buffer, each at the
// same distance from its place in the area. nullptr when it cannot.
unsigned char* direct_pointer(const Area& area, std::map<const void*, Mapped>& buffers) {
  const Piece* first = nullptr;
  for (const auto* list : {&area.fill, &area.drain}) {
    for (const Piece& piece : *list) {
      if (piece.bytes == 0) continue;
      if (first == nullptr) first = &piece;
      if (ext::backing_object(*piece.buffer) != ext::backing_object(*first->buffer) ||
          piece.offset < piece.at || piece.offset - piece.at != first->offset - first->at)
        return nullptr;
    }
  }
  if (first == nullptr) return nullptr;
  const std::size_t base = first->offset - first->at;
  if (base + area.bytes > first->buffer->bytes()) return nullptr;
  return static_cast<unsigned char*>(buffers[ext::backing_object(*first->buffer)].pointer) + base;
}

}  // namespace

void run_mapped(Queue& queue, Plan& plan, bool direct) {
  const std::size_t chunks = plan.chunks();
  if (chunks == 0) return;
  Mappings mappings(queue);
  Area a, b;
  for (std::size_t i = 0; i < chunks; ++i) {
    plan.areas(i, a, b);
    for (const Area* area : {&a, &b}) {
      for (const Piece& piece : area->fill) note(mappings.buffers(), piece, ext::host_read);
      for (const Piece& piece : area->drain) note(mappings.buffers(), piece, ext::host_write);
    }
  }
  mappings.map();
  std::vector<unsigned char> scratch_a, scratch_b;
  for (std::size_t i = 0; i < chunks; ++i) {
    plan.areas(i, a, b);
    unsigned char* pointers[2] = {nullptr, nullptr};
    bool copied[2] = {false, false};
    Area* areas[2] = {&a, &b};
    std::vector<unsigned char>* scratch[2] = {&scratch_a, &scratch_b};
    for (int k = 0; k < 2; ++k) {
      if (areas[k]->bytes == 0) continue;
      pointers[k] = direct ? direct_pointer(*areas[k], mappings.buffers()) : nullptr;
      // MPI's send and receive memory may not overlap: b goes through scratch memory then.
      if (k == 1 && pointers[1] && pointers[0] && pointers[1] < pointers[0] + a.bytes &&
          pointers[0] < pointers[1] + b.bytes)
        pointers[1] = nullptr;
      if (pointers[k]) continue;
      scratch[k]->resize(areas[k]->bytes);
      pointers[k] = scratch[k]->data();
      copied[k] = true;
      for (const Piece& piece : areas[k]->fill) {
        const auto* from = static_cast<const unsigned char*>(
            mappings.buffers()[ext::backing_object(*piece.buffer)].pointer);
        if (piece.bytes) std::memcpy(pointers[k] + piece.at, from + piece.offset, piece.bytes);
      }
    }
    plan.communicate(i, pointers[0], pointers[1]);
    for (int k = 0; k < 2; ++k) {
      if (!copied[k]) continue;
      for (const Piece& piece : areas[k]->drain) {
        auto* to = static_cast<unsigned char*>(
            mappings.buffers()[ext::backing_object(*piece.buffer)].pointer);
        if (piece.bytes) std::memcpy(to + piece.offset, pointers[k] + piece.at, piece.bytes);
      }
    }
  }
  mappings.unmap(false);
}

std::size_t chunk_elements(std::size_t chunk_bytes, std::size_t element_size, std::size_t limit) {
  std::size_t elements = chunk_bytes / element_size;
  if (elements == 0) elements = 1;
  return elements < limit ? elements : limit;
}

}  // namespace xgpu::mpi::detail
