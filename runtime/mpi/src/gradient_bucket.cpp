// GradientBucket (gradient_bucket.hpp): gradients copied side by side into one device buffer per
// bucket, which iallreduce reduces while the caller goes on; wait() copies the sums back.
#include <optional>
#include <utility>
#include <vector>
#include <xgpu/extension.hpp>
#include <xgpu/mpi/gradient_bucket.hpp>

#include "errors.hpp"

namespace xgpu::mpi {

namespace detail {

using Bytes = Buffer<std::uint8_t>;

struct Launched {
  Request request;
  Bytes fused;  // empty when a large gradient was reduced in place
  std::vector<std::pair<UntypedBuffer, std::size_t>> members;  // each gradient and its offset
};

struct BucketState {
  Queue queue;
  Comm comm;
  Op op = Op::sum;
  std::size_t cap = 0;
  std::optional<DataType> type;
  std::vector<UntypedBuffer> pending;
  std::size_t pending_bytes = 0;
  std::vector<Launched> launched;
};

}  // namespace detail

namespace {
constexpr const char* kName = "xgpu::mpi::GradientBucket";
}

GradientBucket::GradientBucket(Queue queue, Comm comm, Op op, std::size_t cap_bytes)
    : state_(std::make_unique<detail::BucketState>()) {
  if (cap_bytes == 0) detail::fail(Errc::invalid_argument, "a cap of 0 bytes", kName);
  if (!queue) detail::fail(Errc::invalid_handle, "the Queue is empty", kName);
  state_->queue = std::move(queue);
  state_->comm = std::move(comm);
  state_->op = op;
  state_->cap = cap_bytes;
}

GradientBucket::~GradientBucket() {
  if (!state_) return;
  // Wait for what is in flight (the buffers must outlive it); its errors have no one to go to.
  for (detail::Launched& launched : state_->launched) {
    try {
      launched.request.wait();
    } catch (...) {
    }
  }
}
GradientBucket::GradientBucket(GradientBucket&&) noexcept = default;
GradientBucket& GradientBucket::operator=(GradientBucket&&) noexcept = default;

void GradientBucket::add(const UntypedBuffer& gradient, DataType type) {
  detail::BucketState& s = *state_;
  if (s.type && *s.type != type) {
    detail::fail(Errc::invalid_argument,
                 std::string("a ") + to_string(type) + " gradient in a bucket of " +
                     to_string(*s.type) + " gradients (use one bucket per element type)",
                 kName);
  }
  if (gradient.bytes() == 0) return;
  if (!ext::belongs_to(gradient, s.queue.context()))
    detail::fail(Errc::context_mismatch, "a gradient of another context than the queue's", kName);
  s.type = type;
  if (gradient.bytes() >= s.cap) {
    flush();
    s.launched.push_back({iallreduce(s.queue, gradient, type, s.op, s.comm), {}, {}});
    return;
  }
  if (s.pending_bytes + gradient.bytes() > s.cap) flush();
  s.pending.push_back(gradient);
  s.pending_bytes += gradient.bytes();
  if (s.pending_bytes >= s.cap) flush();
}

void GradientBucket::flush() {
  detail::BucketState& s = *state_;
  if (s.pending.empty()) return;
  detail::Launched launched;
  launched.fused = s.queue.context().alloc<std::uint8_t>(s.pending_bytes);
  std::size_t offset = 0;
  for (const UntypedBuffer& gradient : s.pending) {
    s.queue.copy(ext::typed<std::uint8_t>(gradient), launched.fused, gradient.bytes(), 0, offset);
    launched.members.emplace_back(gradient, offset);
    offset += gradient.bytes();
  }
  s.pending.clear();
  s.pending_bytes = 0;
  launched.request = iallreduce(s.queue, launched.fused.untyped(), *s.type, s.op, s.comm);
  s.launched.push_back(std::move(launched));
}

void GradientBucket::wait() {
  flush();
  detail::BucketState& s = *state_;
  std::exception_ptr first_error;
  Event last;
  for (detail::Launched& launched : s.launched) {
    try {
      launched.request.wait();
    } catch (...) {
      if (!first_error) first_error = std::current_exception();
      continue;
    }
    for (const auto& [gradient, offset] : launched.members)
      last = s.queue.copy(launched.fused, ext::typed<std::uint8_t>(gradient), gradient.bytes(),
                          offset, 0);
  }
  s.launched.clear();
  last.wait();
  if (first_error) std::rethrow_exception(first_error);
}

std::size_t GradientBucket::pending_bytes() const { return state_->pending_bytes; }
std::size_t GradientBucket::in_flight() const { return state_->launched.size(); }

}  // namespace xgpu::mpi
