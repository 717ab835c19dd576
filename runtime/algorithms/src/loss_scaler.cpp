// xgpu::LossScaler: GradScaler's state machine on the host, the unscale and the inf/NaN check
// on the device (kernels/loss_scaler.cl, one launch per buffer, all setting one flag that is
// read back once per step).
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <xgpu/algorithms/elementwise.hpp>
#include <xgpu/extension.hpp>
#include <xgpu/loss_scaler.hpp>

#include "support.hpp"

namespace xgpu {
namespace {

constexpr const char* kCall = "xgpu::LossScaler";

void check_options(const LossScalerOptions& o) {
  if (!(std::isfinite(o.init_scale) && o.init_scale > 0))
    detail::algo::invalid(kCall,
                          "init_scale must be finite and > 0, not " + std::to_string(o.init_scale));
  if (!(std::isfinite(o.growth_factor) && o.growth_factor > 1))
    detail::algo::invalid(
        kCall, "growth_factor must be finite and > 1, not " + std::to_string(o.growth_factor));
  if (!(o.backoff_factor > 0 && o.backoff_factor < 1))
    detail::algo::invalid(
        kCall, "backoff_factor must be in (0, 1), not " + std::to_string(o.backoff_factor));
  if (o.growth_interval <= 0)
    detail::algo::invalid(kCall,
                          "growth_interval must be > 0, not " + std::to_string(o.growth_interval));
}

/// One launch of xgpu_unscale over `grad`, in the element-wise operations' layout (16
/// elements per work-item on CPUs, 1 elsewhere; XGPU_ELEMENTWISE_SHAPE overrides).
template <class T>
void launch_unscale(Queue& queue, float inv_scale, const Buffer<T>& grad,
                    const Buffer<std::uint32_t>& found_inf) {
  namespace algo = detail::algo;
  const char* call = "xgpu::LossScaler::unscale";
  algo::require_type<T>(queue, call);
  algo::require_uint_size(grad.size(), call);
  if (grad.empty()) return;
  const std::size_t per_item =
      algo::layout_for(queue.device().info(), common::Setting::elementwise_shape, call) ==
              algo::Layout::cpu
          ? 16
          : 1;
  const Kernel kernel = algo::library_kernel(
      queue, "loss_scaler.cl", "xgpu_unscale",
      std::string(algo::Element<T>::options) + " -DXGPU_UNSCALE_W=" + std::to_string(per_item));
  const std::size_t group = algo::work_group_size(kernel);
  // A view no kernel takes is staged, unscaled, and copied back.
  const algo::Staged<T> staged(queue, grad, algo::Use::read_write);
  staged.finish(
      queue,
      queue.launch(kernel, Range{algo::round_up(algo::ceil_div(grad.size(), per_item), group)},
                   Range{group}, static_cast<unsigned>(grad.size()), inv_scale, staged.get(),
                   found_inf));
}

}  // namespace

struct LossScaler::State {
  LossScalerOptions options;
  float scale = 0;
  int tracker = 0;
  // The step in progress: its queue (empty before the first unscale), the buffers unscaled
  // in it, and the flag once read.
  Queue queue;
  std::set<const void*> unscaled;
  std::optional<bool> found_inf;
  // One 32-bit flag in the step queue's context, reused from step to step (reallocated when
  // a step runs in another context).
  Buffer<std::uint32_t> flag;

  bool in_step() const { return static_cast<bool>(queue); }

  bool read_flag() {
    if (!found_inf) {
      std::uint32_t value = 0;
      queue.read(flag, &value, 1);
      found_inf = value != 0;
    }
    return *found_inf;
  }
};

LossScaler::LossScaler(LossScalerOptions options) : state_(std::make_unique<State>()) {
  check_options(options);
  state_->options = options;
  state_->scale = options.init_scale;
}
LossScaler::~LossScaler() = default;
LossScaler::LossScaler(LossScaler&&) noexcept = default;
LossScaler& LossScaler::operator=(LossScaler&&) noexcept = default;

float LossScaler::get_scale() const { return state_->options.enabled ? state_->scale : 1.0f; }

float LossScaler::scale(float loss) const { return loss * get_scale(); }

template <class T>
Event LossScaler::scale(Queue& queue, const Buffer<T>& loss) const {
  if (!state_->options.enabled) return Event();
  return xgpu::scale(queue, state_->scale, loss);
}

template <class T>
void LossScaler::unscale_buffer(Queue& queue, const Buffer<T>& grad) {
  const char* call = "xgpu::LossScaler::unscale";
  detail::algo::require_queue(queue, call);
  if (!state_->options.enabled) return;
  State& s = *state_;
  if (s.found_inf)
    detail::algo::invalid(call,
                          "the step's flag was already read (step_ok()); call update() "
                          "before unscaling the next step's gradients");
  if (s.in_step() && s.queue.raw() != queue.raw())
    detail::algo::invalid(call,
                          "a step's gradients are unscaled on one queue; this step "
                          "began on another (its flag is reset and read there)");
  if (!grad.empty() && !s.unscaled.insert(ext::backing_object(grad.untyped())).second)
    detail::algo::invalid(call, "this buffer was already unscaled in this step");
  if (!s.in_step()) {
    if (s.flag.empty() || !ext::belongs_to(s.flag, queue.context()))
      s.flag = queue.context().alloc<std::uint32_t>(1);
    queue.fill(s.flag, 0u);
    s.queue = queue;
  }
  // PyTorch's reciprocal: in double, then rounded to float (exact for powers of two).
  const auto inv_scale = static_cast<float>(1.0 / static_cast<double>(s.scale));
  launch_unscale(queue, inv_scale, grad, s.flag);
}

void LossScaler::unscale(Queue& queue, const Buffer<float>& grad) { unscale_buffer(queue, grad); }
void LossScaler::unscale(Queue& queue, const Buffer<double>& grad) { unscale_buffer(queue, grad); }
void LossScaler::unscale(Queue& queue, const Buffer<half>& grad) { unscale_buffer(queue, grad); }
void LossScaler::unscale(Queue& queue, const Buffer<bfloat16>& grad) {
  unscale_buffer(queue, grad);
}

bool LossScaler::step_ok() {
  if (!state_->options.enabled) return true;
  if (!state_->in_step())
    detail::algo::invalid("xgpu::LossScaler::step_ok",
                          "no gradients were unscaled in this step (call unscale() first)");
  return !state_->read_flag();
}

void LossScaler::update() {
  if (!state_->options.enabled) return;
  State& s = *state_;
  if (!s.in_step())
    detail::algo::invalid("xgpu::LossScaler::update",
                          "no inf checks were recorded in this step (call unscale() first)");
  // GradScaler's update (torch._amp_update_scale_).
  if (s.read_flag()) {
    s.scale *= s.options.backoff_factor;
    s.tracker = 0;
  } else if (s.tracker + 1 == s.options.growth_interval) {
    const float grown = s.scale * s.options.growth_factor;
    if (std::isfinite(grown)) s.scale = grown;
    s.tracker = 0;
  } else {
    ++s.tracker;
  }
  s.queue = Queue();
  s.unscaled.clear();
  s.found_inf.reset();
}

int LossScaler::growth_tracker() const { return state_->tracker; }
const LossScalerOptions& LossScaler::options() const { return state_->options; }
bool LossScaler::is_enabled() const { return state_->options.enabled; }

void LossScaler::load_state(float scale, int growth_tracker) {
  const char* call = "xgpu::LossScaler::load_state";
  if (!(std::isfinite(scale) && scale > 0))
    detail::algo::invalid(call, "the scale must be finite and > 0, not " + std::to_string(scale));
  if (growth_tracker < 0)
    detail::algo::invalid(call,
                          "the growth tracker must be >= 0, not " + std::to_string(growth_tracker));
  if (state_->in_step()) detail::algo::invalid(call, "a step is in progress (call update() first)");
  state_->scale = scale;
  state_->tracker = growth_tracker;
}

template Event LossScaler::scale<float>(Queue&, const Buffer<float>&) const;
template Event LossScaler::scale<double>(Queue&, const Buffer<double>&) const;
template Event LossScaler::scale<half>(Queue&, const Buffer<half>&) const;
template Event LossScaler::scale<bfloat16>(Queue&, const Buffer<bfloat16>&) const;

}  // namespace xgpu
