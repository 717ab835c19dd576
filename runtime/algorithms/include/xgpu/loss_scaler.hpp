// xgpu::LossScaler: dynamic loss scaling for mixed-precision training, with the contract and
// defaults of PyTorch's torch.amp.GradScaler. Multiply the loss by the scale before the
// backward pass, so that small gradients survive in half; unscale the gradients (which also
// finds infinities and NaNs, on the device); skip the optimizer step when any were found;
// update the scale: halved after an overflow, doubled after 2000 clean steps in a row.
//
//   xgpu::LossScaler scaler;                        // 2^16, x2 every 2000 steps, x0.5
//   float loss = scaler.scale(raw_loss);            // or scaler.scale(queue, loss_buffer)
//   ... backward pass: gradients of the scaled loss into grad_w, grad_b ...
//   scaler.unscale(queue, grad_w, grad_b);          // one launch per buffer, no host wait
//   if (scaler.step_ok()) optimizer_step(...);      // reads one flag back for the step
//   scaler.update();
//
// Not thread-safe: one training loop drives one scaler (as in PyTorch). Move-only.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>
#include <xgpu/algorithms/types.hpp>
#include <xgpu/export.hpp>
#include <xgpu/queue.hpp>

namespace xgpu {

/// GradScaler's constructor arguments, with its defaults.
struct LossScalerOptions {
  float init_scale = 65536.0f;  ///< 2^16; finite and > 0
  float growth_factor = 2.0f;   ///< > 1
  float backoff_factor = 0.5f;  ///< in (0, 1)
  int growth_interval = 2000;   ///< clean steps in a row before the scale grows; > 0
  bool enabled = true;          ///< false: scale() and unscale() change nothing, steps are ok
};

class XGPU_ALGORITHMS_API LossScaler {
 public:
  /// Throws Errc::invalid_argument naming the option that is out of its range.
  explicit LossScaler(LossScalerOptions options = {});
  ~LossScaler();
  LossScaler(LossScaler&&) noexcept;
  LossScaler& operator=(LossScaler&&) noexcept;
  LossScaler(const LossScaler&) = delete;
  LossScaler& operator=(const LossScaler&) = delete;

  /// The current scale (1 when disabled, as GradScaler's get_scale()).
  float get_scale() const;
  /// loss * get_scale() (loss itself when disabled).
  float scale(float loss) const;
  /// loss[i] *= get_scale() in place on the device (xgpu::scale; nothing when disabled).
  /// T: float, double, half or bfloat16. Returns the launch's Event.
  template <class T>
  Event scale(Queue& queue, const Buffer<T>& loss) const;

  /// g[i] *= 1 / get_scale() for every element of each buffer (in float for half and
  /// bfloat16, rounded once when stored), and notes on the device whether any element was
  /// infinite or NaN before: one launch per buffer (plus a 4-byte fill at the step's first
  /// unscale), no host wait. Call it once per buffer and step, on one queue per step (the
  /// flag is reset and read there); several calls in a step add to the same flag. Types:
  /// float, double, half, bfloat16, mixed freely. Disabled: nothing happens.
  /// Errors (Errc::invalid_argument): a buffer unscaled twice in a step, a second queue in a
  /// step, unscale after step_ok() in the same step (call update() first).
  void unscale(Queue& queue, const Buffer<float>& grad);
  void unscale(Queue& queue, const Buffer<double>& grad);
  void unscale(Queue& queue, const Buffer<half>& grad);
  void unscale(Queue& queue, const Buffer<bfloat16>& grad);
  template <class T, class... More, class = std::enable_if_t<(sizeof...(More) > 0)>>
  void unscale(Queue& queue, const Buffer<T>& first, const Buffer<More>&... more) {
    unscale(queue, first);
    (unscale(queue, more), ...);
  }
  template <class T>
  void unscale(Queue& queue, const std::vector<Buffer<T>>& grads) {
    for (const Buffer<T>& grad : grads) unscale(queue, grad);
  }

  /// Whether this step's gradients are all finite: the optimizer step may run. Reads the
  /// device's flag the first time it is asked in a step (blocking until the unscales are
  /// done), then answers from memory. True when disabled. Errc::invalid_argument before any
  /// unscale() in the step.
  bool step_ok();

  /// Ends the step: after an overflow, scale *= backoff_factor and the clean-step count goes
  /// to 0; after a clean step the count grows, and on reaching growth_interval, scale *=
  /// growth_factor (kept only while finite) and the count goes to 0. Reads the flag if
  /// step_ok() did not. Errc::invalid_argument when no unscale() happened in the step
  /// ("no inf checks were recorded", as GradScaler). Nothing when disabled.
  void update();

  /// Clean steps in a row since the last growth or backoff (GradScaler's growth tracker).
  int growth_tracker() const;
  const LossScalerOptions& options() const;
  bool is_enabled() const;
  /// Restores a saved scale and growth tracker (GradScaler's load_state_dict), between
  /// steps. Errc::invalid_argument for a scale that is not finite and > 0, a negative count,
  /// or in the middle of a step.
  void load_state(float scale, int growth_tracker);

 private:
  struct State;
  template <class T>
  void unscale_buffer(Queue& queue, const Buffer<T>& grad);
  std::unique_ptr<State> state_;
};

}  // namespace xgpu
