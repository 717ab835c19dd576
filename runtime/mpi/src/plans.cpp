// The collectives' plans (plans.hpp). A chunk covers elements [i k, min(count, (i + 1) k)) of a
// block of `count` elements, k being the agreed chunk in elements.
#include "plans.hpp"

#include <algorithm>
#include <climits>

#include "errors.hpp"
#include "mpi_types.hpp"

namespace xgpu::mpi::detail {
namespace {

// Chunks of `count` elements, `per_chunk` at a time.
struct Blocks {
  Blocks(std::size_t count, std::size_t per_chunk) : count(count), per_chunk(per_chunk) {}
  std::size_t chunks() const { return (count + per_chunk - 1) / per_chunk; }
  std::size_t first(std::size_t chunk) const { return chunk * per_chunk; }
  std::size_t length(std::size_t chunk) const {
    return chunk < chunks() ? std::min(per_chunk, count - first(chunk)) : 0;
  }
  std::size_t count, per_chunk;
};

class PlanBase : public Plan {
 public:
  PlanBase(const Where& where, std::size_t count, std::size_t limit)
      : where_(where),
        element_(size_of(where.type)),
        blocks_(count, chunk_elements(where.chunk_bytes, element_, limit)),
        type_(mpi_type(where.type)) {}
  std::size_t chunks() const override { return blocks_.chunks(); }

 protected:
  int length(std::size_t chunk) const { return static_cast<int>(blocks_.length(chunk)); }
  // Piece of `buffer` holding chunk `chunk` of the block starting at element `block`, placed at
  // element `at` of an area.
  Piece piece(const Core& buffer, std::size_t block, std::size_t chunk, std::size_t at) const {
    return {&buffer, (block + blocks_.first(chunk)) * element_, blocks_.length(chunk) * element_,
            at * element_};
  }
  std::size_t bytes(std::size_t chunk, std::size_t blocks = 1) const {
    return blocks * blocks_.length(chunk) * element_;
  }

  Where where_;
  std::size_t element_;
  Blocks blocks_;
  MPI_Datatype type_;
};

constexpr std::size_t kIntLimit = INT_MAX;

class AllreducePlan : public PlanBase {
 public:
  AllreducePlan(const Where& w, const Core& buffer, Op op)
      : PlanBase(w, buffer.bytes() / size_of(w.type), kIntLimit),
        buffer_(buffer),
        op_(mpi_op(w.type, op)) {}
  void areas(std::size_t i, Area& a, Area& b) const override {
    a.clear();
    b.clear();
    a.bytes = bytes(i);
    a.fill = a.drain = {piece(buffer_, 0, i, 0)};
  }
  void communicate(std::size_t i, void* a, void*) override {
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, a, length(i), type_, op_, where_.comm), "MPI_Allreduce");
  }

 private:
  const Core& buffer_;
  MPI_Op op_;
};

// The root receives into area b, apart from what it sends (area a): MPICH 4.0 (Debian 12's)
// crashes in MPI_Reduce with MPI_IN_PLACE at a root other than 0 (from about 1000 floats on),
// and out of place costs the staged transport no copy more.
class ReducePlan : public PlanBase {
 public:
  ReducePlan(const Where& w, const Core& buffer, Op op, int root)
      : PlanBase(w, buffer.bytes() / size_of(w.type), kIntLimit),
        buffer_(buffer),
        op_(mpi_op(w.type, op)),
        root_(root) {}
  void areas(std::size_t i, Area& a, Area& b) const override {
    a.clear();
    b.clear();
    a.bytes = bytes(i);
    a.fill = {piece(buffer_, 0, i, 0)};
    if (where_.rank == root_) {
      b.bytes = bytes(i);
      b.drain = {piece(buffer_, 0, i, 0)};
    }
  }
  void communicate(std::size_t i, void* a, void* b) override {
    check_mpi(MPI_Reduce(a, where_.rank == root_ ? b : nullptr, length(i), type_, op_, root_,
                         where_.comm),
              "MPI_Reduce");
  }

 private:
  const Core& buffer_;
  MPI_Op op_;
  int root_;
};

class BroadcastPlan : public PlanBase {
 public:
  BroadcastPlan(const Where& w, const Core& buffer, int root)
      : PlanBase(w, buffer.bytes() / size_of(w.type), kIntLimit), buffer_(buffer), root_(root) {}
  void areas(std::size_t i, Area& a, Area& b) const override {
    a.clear();
    b.clear();
    a.bytes = bytes(i);
    // The root sends its buffer, the others receive into theirs.
    if (where_.rank == root_) {
      a.fill.push_back(piece(buffer_, 0, i, 0));
    } else {
      a.drain.push_back(piece(buffer_, 0, i, 0));
    }
  }
  void communicate(std::size_t i, void* a, void*) override {
    check_mpi(MPI_Bcast(a, length(i), type_, root_, where_.comm), "MPI_Bcast");
  }

 private:
  const Core& buffer_;
  int root_;
};

// recv holds `size` blocks of send's count; a chunk's area b holds the chunk of every block.
class AllgatherPlan : public PlanBase {
 public:
  AllgatherPlan(const Where& w, const Core& send, const Core& recv)
      : PlanBase(w, send.bytes() / size_of(w.type), kIntLimit / std::max(w.size, 1)),
        send_(send),
        recv_(recv) {}
  void areas(std::size_t i, Area& a, Area& b) const override {
    a.clear();
    b.clear();
    a.bytes = bytes(i);
    a.fill = {piece(send_, 0, i, 0)};
    b.bytes = bytes(i, where_.size);
    for (int r = 0; r < where_.size; ++r)
      b.drain.push_back(piece(recv_, r * blocks_.count, i, r * blocks_.length(i)));
  }
  void communicate(std::size_t i, void* a, void* b) override {
    check_mpi(MPI_Allgather(a, length(i), type_, b, length(i), type_, where_.comm),
              "MPI_Allgather");
  }

 private:
  const Core& send_;
  const Core& recv_;
};

// send holds `size` blocks of recv's count; a chunk's area a holds the chunk of every block.
class ReduceScatterPlan : public PlanBase {
 public:
  ReduceScatterPlan(const Where& w, const Core& send, const Core& recv, Op op)
      : PlanBase(w, recv.bytes() / size_of(w.type), kIntLimit / std::max(w.size, 1)),
        send_(send),
        recv_(recv),
        op_(mpi_op(w.type, op)) {}
  void areas(std::size_t i, Area& a, Area& b) const override {
    a.clear();
    b.clear();
    a.bytes = bytes(i, where_.size);
    for (int r = 0; r < where_.size; ++r)
      a.fill.push_back(piece(send_, r * blocks_.count, i, r * blocks_.length(i)));
    b.bytes = bytes(i);
    b.drain = {piece(recv_, 0, i, 0)};
  }
  void communicate(std::size_t i, void* a, void* b) override {
    check_mpi(MPI_Reduce_scatter_block(a, b, length(i), type_, op_, where_.comm),
              "MPI_Reduce_scatter_block");
  }

 private:
  const Core& send_;
  const Core& recv_;
  MPI_Op op_;
};

// Chunk i sends the i-th chunk of send (when there is one) and receives the i-th of recv; the
// two directions may cut their messages differently (each pair agreed its own size).
class SendrecvPlan : public Plan {
 public:
  SendrecvPlan(const Where& w, const Core& send, int dest, const Core& recv, int source,
               const PairAgreement& pair)
      : where_(w),
        element_(size_of(w.type)),
        type_(mpi_type(w.type)),
        send_(send),
        recv_(recv),
        dest_(dest),
        source_(source),
        sends_(pair.send ? send.bytes() / element_ : 0,
               chunk_elements(pair.send_chunk, element_, kIntLimit)),
        recvs_(pair.recv ? recv.bytes() / element_ : 0,
               chunk_elements(pair.recv_chunk, element_, kIntLimit)) {}
  std::size_t chunks() const override { return std::max(sends_.chunks(), recvs_.chunks()); }
  void areas(std::size_t i, Area& a, Area& b) const override {
    a.clear();
    b.clear();
    a.bytes = sends_.length(i) * element_;
    if (a.bytes) a.fill = {{&send_, sends_.first(i) * element_, a.bytes, 0}};
    b.bytes = recvs_.length(i) * element_;
    if (b.bytes) b.drain = {{&recv_, recvs_.first(i) * element_, b.bytes, 0}};
  }
  void communicate(std::size_t i, void* a, void* b) override {
    MPI_Request requests[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (const auto n = static_cast<int>(recvs_.length(i)))
      check_mpi(MPI_Irecv(b, n, type_, source_, kPairTag, where_.comm, &requests[0]), "MPI_Irecv");
    if (const auto n = static_cast<int>(sends_.length(i)))
      check_mpi(MPI_Isend(a, n, type_, dest_, kPairTag, where_.comm, &requests[1]), "MPI_Isend");
    check_mpi(MPI_Waitall(2, requests, MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

 private:
  Where where_;
  std::size_t element_;
  MPI_Datatype type_;
  const Core& send_;
  const Core& recv_;
  int dest_, source_;
  Blocks sends_, recvs_;
};

}  // namespace

std::unique_ptr<Plan> allreduce_plan(const Where& where, const Core& buffer, Op op) {
  return std::make_unique<AllreducePlan>(where, buffer, op);
}
std::unique_ptr<Plan> reduce_plan(const Where& where, const Core& buffer, Op op, int root) {
  return std::make_unique<ReducePlan>(where, buffer, op, root);
}
std::unique_ptr<Plan> broadcast_plan(const Where& where, const Core& buffer, int root) {
  return std::make_unique<BroadcastPlan>(where, buffer, root);
}
std::unique_ptr<Plan> allgather_plan(const Where& where, const Core& send, const Core& recv) {
  return std::make_unique<AllgatherPlan>(where, send, recv);
}
std::unique_ptr<Plan> reduce_scatter_plan(const Where& where, const Core& send, const Core& recv,
                                          Op op) {
  return std::make_unique<ReduceScatterPlan>(where, send, recv, op);
}
std::unique_ptr<Plan> sendrecv_plan(const Where& where, const Core& send, int dest,
                                    const Core& recv, int source, const PairAgreement& pair) {
  return std::make_unique<SendrecvPlan>(where, send, dest, recv, source, pair);
}

}  // namespace xgpu::mpi::detail
