// The core's side of <xgpu/extension.hpp>: what extension libraries may ask of a context, a
// queue and its backend module, checked here so that they never touch a module table.
// (The device traits are in util/device_traits.cpp.)
#include "xgpu/extension.hpp"

#include <initializer_list>
#include <map>
#include <mutex>

#include "internals.hpp"
#include "log.hpp"
#include "objects.hpp"
#include "queue_commands.hpp"

namespace xgpu::ext {
namespace {

// map_async hands HostAccess bits to the module as they are.
static_assert(host_read == XGPU_MAP_READ && host_write == XGPU_MAP_WRITE &&
              host_write_invalidate == XGPU_MAP_WRITE_INVALIDATE);

using detail::BufferCore;
using detail::ContextState;

ContextState& context_state(const Context& context) {
  return const_cast<ContextState&>(detail::state_of(detail::Internals::state(context), "Context"));
}

const ContextState& queue_context(const Queue& queue, const char* operation) {
  if (!queue)
    throw Error(Errc::invalid_handle,
                std::string(operation) + " on an empty Queue (default-constructed or moved-from)",
                operation);
  return context_state(queue.context());
}

// The checks of the queue's own operations: a buffer of the queue's context.
const ContextState& checked(const Queue& queue, const BufferCore& buffer, const char* operation) {
  const ContextState& context = queue_context(queue, operation);
  if (buffer.context == nullptr)
    throw Error(
        Errc::invalid_handle,
        std::string(operation) + ": the buffer is empty (default-constructed or moved-from)",
        operation);
  if (buffer.context != context.handle.get())
    throw Error(Errc::context_mismatch,
                std::string(operation) + ": the buffer belongs to another context than the queue's",
                operation);
  return context;
}

// `command`: static text naming the command, for the error of one that fails on the device;
// the queue keeps it among its recent commands (Queue::finish names it if it fails).
Event adopt(const Queue& queue, const ContextState& context, xgpu_event event,
            const char* command) {
  Event done = detail::Internals::event(
      detail::Handle<detail::ObjectKind::event>::adopt(&context.module(), event), command,
      context.record);
  detail::note_command(queue, done);
  return done;
}

xgpu_queue raw_queue(const Queue& queue) { return static_cast<xgpu_queue>(queue.raw()); }
xgpu_buffer raw_buffer(const BufferCore& buffer) {
  return static_cast<xgpu_buffer>(buffer.handle.get());
}

// Tells the caching allocator that a command on `queue` uses these buffers.
void note_pooled(const Queue& queue, std::initializer_list<const BufferCore*> buffers,
                 const detail::Module& module) {
  for (const BufferCore* buffer : buffers) {
    if (detail::touches_pool(*buffer)) buffer->allocation->note_use(&module, queue.raw());
  }
}

}  // namespace

std::shared_ptr<void> context_slot(const Context& context, const std::string& key,
                                   const std::function<std::shared_ptr<void>()>& make) {
  ContextState& state = context_state(context);
  std::lock_guard<std::mutex> lock(state.slots_mutex);
  std::shared_ptr<void>& slot = state.slots[key];
  if (!slot) slot = make();
  return slot;
}

namespace {

bool same_core(const BufferCore& x, const BufferCore& y) {
  if (x.bytes == 0 || y.bytes == 0) return false;
  if (x.allocation == nullptr || x.allocation != y.allocation)
    return x.handle.get() == y.handle.get() && x.offset == y.offset && x.bytes == y.bytes;
  return x.start == y.start && x.bytes == y.bytes;
}

}  // namespace

const void* context_key(const Context& context) { return &context_state(context); }

bool same_buffer(const UntypedBuffer& x, const UntypedBuffer& y) {
  return same_core(detail::Internals::core(x), detail::Internals::core(y));
}

bool overlap(const UntypedBuffer& ux, const UntypedBuffer& uy) {
  const BufferCore& x = detail::Internals::core(ux);
  const BufferCore& y = detail::Internals::core(uy);
  if (x.bytes == 0 || y.bytes == 0) return false;
  if (x.allocation == nullptr || x.allocation != y.allocation) return same_core(x, y);
  return x.start < y.start + y.bytes && y.start < x.start + x.bytes;
}

bool kernel_can_take(const UntypedBuffer& buffer) noexcept {
  return detail::Internals::core(buffer).offset == 0;
}

const void* backing_object(const UntypedBuffer& buffer) noexcept {
  return detail::Internals::core(buffer).handle.get();
}

bool belongs_to(const UntypedBuffer& untyped, const Context& context) {
  const BufferCore& buffer = detail::Internals::core(untyped);
  return buffer.context != nullptr && buffer.context == context_state(context).handle.get();
}

Event map_async(Queue& queue, const UntypedBuffer& untyped, std::size_t bytes, std::uint32_t access,
                void*& pointer) {
  const BufferCore& buffer = detail::Internals::core(untyped);
  constexpr const char* kOperation = "xgpu::ext::map_async";
  const ContextState& context = checked(queue, buffer, kOperation);
  if (bytes > buffer.bytes)
    throw Error(Errc::out_of_range,
                std::string(kOperation) + ": " + std::to_string(bytes) +
                    " bytes reach past the end of a buffer of " + std::to_string(buffer.bytes),
                kOperation);
  const detail::Module& module = context.module();
  pointer = nullptr;
  xgpu_event event = nullptr;
  detail::before_command(buffer, module, queue.raw());
  detail::check(module,
                module.table->buffer_map(raw_queue(queue), raw_buffer(buffer), access,
                                         buffer.offset, bytes, &pointer, nullptr, &event),
                kOperation, context.record);
  Event done = adopt(queue, context, event, kOperation);
  note_pooled(queue, {&buffer}, module);  // the pool waits for the map, as for a copy
  return done;
}

Event unmap_async(Queue& queue, const UntypedBuffer& untyped, void* pointer) {
  const BufferCore& buffer = detail::Internals::core(untyped);
  constexpr const char* kOperation = "xgpu::ext::unmap_async";
  const ContextState& context = checked(queue, buffer, kOperation);
  const detail::Module& module = context.module();
  xgpu_event event = nullptr;
  detail::before_command(buffer, module, queue.raw());
  detail::check(
      module,
      module.table->buffer_unmap(raw_queue(queue), raw_buffer(buffer), pointer, nullptr, &event),
      kOperation, context.record);
  Event done = adopt(queue, context, event, kOperation);
  note_pooled(queue, {&buffer}, module);  // the unmap writes the buffer back
  return done;
}

// A call with m == n == 0 makes blas_gemm open its library and enqueue nothing.
std::string vendor_gemm_missing(const Queue& queue) {
  const detail::Module& module = queue_context(queue, "xgpu::ext::vendor_gemm_missing").module();
  if (!module.has(&xgpu_backend_v1::blas_gemm))
    return "the '" + module.name + "' backend offers no vendor BLAS";
  static std::mutex mutex;
  static std::map<const detail::Module*, std::string> answers;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = answers.find(&module);
  if (found != answers.end()) return found->second;
  xgpu_gemm_v1 probe{};
  probe.struct_size = sizeof(probe);
  probe.precision = XGPU_PRECISION_F32;
  const xgpu_status status = module.table->blas_gemm(raw_queue(queue), &probe, nullptr, nullptr);
  std::string answer;
  if (status != XGPU_STATUS_SUCCESS)
    answer =
        "the '" + module.name + "' backend's vendor BLAS is unavailable: " + module.last_error();
  return answers.emplace(&module, std::move(answer)).first->second;
}

Event vendor_gemm(Queue& queue, const VendorGemm& call, const UntypedBuffer& untyped_a,
                  const UntypedBuffer& untyped_b, const UntypedBuffer& untyped_c) {
  const BufferCore& a = detail::Internals::core(untyped_a);
  const BufferCore& b = detail::Internals::core(untyped_b);
  const BufferCore& c = detail::Internals::core(untyped_c);
  constexpr const char* kOperation = "xgpu::gemm (vendor BLAS)";
  const ContextState& context = queue_context(queue, kOperation);
  for (const BufferCore* buffer : {&a, &b, &c}) checked(queue, *buffer, kOperation);
  const detail::Module& module = context.module();
  if (!module.has(&xgpu_backend_v1::blas_gemm))
    throw Error(Errc::unsupported, "the '" + module.name + "' backend offers no vendor BLAS",
                kOperation);
  xgpu_gemm_v1 raw{};
  raw.struct_size = sizeof(raw);
  raw.precision = call.precision == Precision::f32   ? XGPU_PRECISION_F32
                  : call.precision == Precision::f64 ? XGPU_PRECISION_F64
                                                     : XGPU_PRECISION_F16;
  raw.transpose_a = call.transpose_a ? 1 : 0;
  raw.transpose_b = call.transpose_b ? 1 : 0;
  raw.m = call.m;
  raw.n = call.n;
  raw.k = call.k;
  raw.alpha = call.alpha;
  raw.beta = call.beta;
  raw.a = raw_buffer(a);
  raw.b = raw_buffer(b);
  raw.c = raw_buffer(c);
  // The vendor BLAS takes element offsets: those of views that are no sub-buffers.
  const std::size_t element = call.precision == Precision::f64   ? 8
                              : call.precision == Precision::f32 ? 4
                                                                 : 2;
  raw.a_offset = a.offset / element;
  raw.b_offset = b.offset / element;
  raw.c_offset = c.offset / element;
  raw.lda = call.lda;
  raw.ldb = call.ldb;
  raw.ldc = call.ldc;
  xgpu_event event = nullptr;
  for (const BufferCore* buffer : {&a, &b, &c})
    detail::before_command(*buffer, module, queue.raw());
  const xgpu_status status = module.table->blas_gemm(raw_queue(queue), &raw, nullptr, &event);
  if (status == XGPU_STATUS_UNSUPPORTED)
    throw Error(Errc::unsupported,
                std::string("xgpu::gemm: the vendor BLAS cannot run it: ") + module.last_error(),
                "xgpu::gemm");
  detail::check(module, status, kOperation, context.record);
  Event done = adopt(queue, context, event, kOperation);
  // The caching allocator must not hand these blocks to a new user before the product ends.
  note_pooled(queue, {&a, &b, &c}, module);
  return done;
}

void log(LogLevel level, const std::string& logger, const std::string& message) {
  spdlog::logger& target = detail::logger(logger);
  switch (level) {
    case LogLevel::debug:
      target.debug("{}", message);
      break;
    case LogLevel::info:
      target.info("{}", message);
      break;
    case LogLevel::warn:
      target.warn("{}", message);
      break;
    case LogLevel::error:
      target.error("{}", message);
      break;
  }
}

}  // namespace xgpu::ext
