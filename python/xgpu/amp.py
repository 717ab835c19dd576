"""Mixed precision: xgpu.amp.LossScaler, PyTorch's torch.amp.GradScaler for xgpu arrays, over
the C++ xgpu::LossScaler (the scale, the check for infinities and NaNs on the device, the one
flag read per step and the update are all its own)::

    scaler = xgpu.amp.LossScaler()                  # 2^16, x2 every 2000 clean steps, x0.5
    loss = scaler.scale(raw_loss)                   # a number, or an Array (a scaled copy)
    ... gradients of the scaled loss into grad_w, grad_b (float16, bfloat16 or float32) ...
    scaler.unscale(grad_w, grad_b)                  # one launch each on the stream, no wait
    if scaler.step_ok():                            # reads one flag back for the step
        optimizer_step(grad_w, grad_b)
    scaler.update()
"""

from __future__ import annotations

from typing import Any, Optional

from . import _xgpu
from ._array import Array
from ._stream import Stream

__all__ = ["LossScaler"]


class LossScaler:
    """GradScaler's contract and defaults. Not thread-safe: one training loop drives one scaler.
    Options out of range raise xgpu.Error naming the option."""

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        self._s = _xgpu.LossScaler(init_scale, growth_factor, backoff_factor, growth_interval,
                                   enabled)

    def get_scale(self) -> float:
        """The current scale (1.0 when disabled)."""
        return self._s.get_scale()

    def is_enabled(self) -> bool:
        return self._s.is_enabled()

    def scale(self, loss: Any) -> Any:
        """``loss * get_scale()``: a float for a number; for an Array, a new Array of its dtype
        scaled on the device (the loss itself is left as it is, as GradScaler's)."""
        if isinstance(loss, Array):
            out = loss.copy()
            if out.size:
                self._s.scale_array(out._b)
            return out
        return self._s.scale_value(float(loss))

    def unscale(self, *grads: Any, stream: Optional[Stream] = None) -> None:
        """Divides every element of each gradient array by the scale in place and notes on the
        device whether any was infinite or NaN: one launch per array, no host wait. Arrays of
        float16, bfloat16, float32 and float64, mixed freely; ``unscale(stream, *grads)`` or
        ``stream=`` names the stream (default: the current stream of the first array's device).
        One stream per step; an array unscaled twice in a step, or unscale after step_ok() in
        the same step, raises xgpu.Error (call update() first)."""
        if grads and isinstance(grads[0], Stream):
            if stream is not None:
                raise TypeError("xgpu.amp.LossScaler.unscale: a stream given twice")
            stream, grads = grads[0], grads[1:]
        for grad in grads:
            if not isinstance(grad, Array):
                raise TypeError(f"xgpu.amp.LossScaler.unscale takes xgpu arrays, not "
                                f"{type(grad).__name__}")
        self._s.unscale([grad._b for grad in grads], stream)

    def step_ok(self) -> bool:
        """Whether this step's gradients are all finite, so that the optimizer step may run.
        The first ask in a step waits for the unscales and reads the flag; later asks answer
        from memory. xgpu.Error before any unscale() in the step."""
        return self._s.step_ok()

    def update(self) -> None:
        """Ends the step: after an overflow the scale is multiplied by backoff_factor, after
        growth_interval clean steps in a row by growth_factor. xgpu.Error when no unscale()
        happened in the step."""
        self._s.update()

    def growth_tracker(self) -> int:
        """Clean steps in a row since the scale last changed."""
        return self._s.growth_tracker()

    def state_dict(self) -> dict[str, Any]:
        """As GradScaler's: the scale, the options and the growth tracker (empty when
        disabled)."""
        if not self.is_enabled():
            return {}
        _, growth, backoff, interval, _ = self._s.options()
        return {"scale": self.get_scale(), "growth_factor": growth,
                "backoff_factor": backoff, "growth_interval": interval,
                "_growth_tracker": self.growth_tracker()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restores the scale and growth tracker of state_dict() between steps (the options are
        the constructor's)."""
        if not state:
            raise ValueError("xgpu.amp.LossScaler.load_state_dict: an empty state (saved by a "
                             "disabled scaler)")
        self._s.load_state(float(state["scale"]), int(state["_growth_tracker"]))
