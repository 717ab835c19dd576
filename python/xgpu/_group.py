"""xgpu.DeviceGroup: several devices (of any vendors and platforms) used as one, over the C++
xgpu::DeviceGroup: scatter, broadcast, gather, all_reduce_sum, for_each, build. Each device has a
context and stream of the group's own; inside for_each, the device's stream is current on its
thread, so arrays made there and operations on the parts run on it."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from . import _dtypes, _xgpu
from ._array import Array
from ._device import Device, DeviceLike, index_of
from ._kernel import Program
from ._stream import Stream


class Distributed:
    """An array split across a group's devices (scatter: slices of the flattened array) or
    copied to each (broadcast). ``part(i)`` is device i's piece as an Array."""

    def __init__(self, handle: Any, shape: tuple[int, ...]) -> None:
        self._d = handle
        self.shape = shape

    @property
    def dtype(self) -> np.dtype:
        return _dtypes.by_code(self._d.dtype)

    @property
    def size(self) -> int:
        return self._d.size

    @property
    def replicated(self) -> bool:
        return self._d.replicated

    def part(self, device: int) -> Array:
        """Device ``device``'s piece (its slice, or the whole for a broadcast), as an Array."""
        count = self._d.slice(device)[1]
        return Array(self._d.part(device), (count,))

    def slice(self, device: int) -> tuple[int, int]:
        """(offset, count) of device ``device``'s piece in the flattened whole."""
        return tuple(self._d.slice(device))


class DeviceGroup:
    """Every device ``selector`` matches (default "*": all), or the devices listed."""

    def __init__(self, selector: Union[str, Sequence[DeviceLike]] = "*") -> None:
        if isinstance(selector, str):
            self._g = _xgpu.new_group(selector)
        else:
            self._g = _xgpu.new_group_of([index_of(d) for d in selector])

    def __len__(self) -> int:
        return self._g.size

    @property
    def size(self) -> int:
        return self._g.size

    @property
    def devices(self) -> list[Device]:
        return [Device(i) for i in self._g.devices]

    @property
    def streams(self) -> list[Stream]:
        """Device i's stream (of the group's own context)."""
        return list(self._g.streams)

    def split(self, n: int) -> list[tuple[int, int]]:
        """(offset, count) per device covering [0, n), in proportion to the weights."""
        return [tuple(s) for s in self._g.split(n)]

    def weights(self) -> list[float]:
        return list(self._g.weights())

    def set_weights(self, weights: Sequence[float]) -> None:
        self._g.set_weights([float(w) for w in weights])

    def adapt_weights(self) -> None:
        self._g.adapt_weights()

    def scatter(self, host: Any, dtype: Any = None) -> Distributed:
        """The flattened ``host`` split across the devices, copied concurrently."""
        return self._spread(host, dtype, _xgpu.group_scatter)

    def broadcast(self, host: Any, dtype: Any = None) -> Distributed:
        """A full copy of ``host`` on every device."""
        return self._spread(host, dtype, _xgpu.group_broadcast)

    def _spread(self, host: Any, dtype: Any, how: Callable[..., Any]) -> Distributed:
        dt = _dtypes.dtype(np.asarray(host).dtype if dtype is None else dtype)
        data = np.ascontiguousarray(host, dtype=dt)
        return Distributed(how(self._g, data.reshape(-1).view(np.uint8), _dtypes.code(dt)),
                           data.shape)

    def gather(self, d: Distributed, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The whole back on the host (a broadcast one from device 0)."""
        if out is None:
            out = np.empty(d.shape, d.dtype)
        if out.dtype != d.dtype or not out.flags.c_contiguous:
            raise ValueError(f"xgpu: DeviceGroup.gather(out=) takes a C-contiguous {d.dtype} "
                             f"array")
        _xgpu.group_gather(d._d, out.reshape(-1).view(np.uint8))
        return out

    def all_reduce_sum(self, d: Distributed) -> None:
        """Every device ends with the element-wise sum of all devices' pieces (host-staged:
        floating point summed in double and rounded once; integers wrap)."""
        _xgpu.group_all_reduce_sum(d._d)

    def for_each(self, over: Union[int, Distributed],
                 body: Callable[[Stream, int, tuple[int, int]], Any]) -> None:
        """Runs ``body(stream, i, (offset, count))`` for every device i with a non-empty share
        of ``over`` (a size, split by the weights, or a Distributed's slices), each on its own
        thread with its stream current, then waits for every stream. An exception in a body
        fails that device; one xgpu.Error names each failing device."""
        handle = over._d if isinstance(over, Distributed) else int(over)
        _xgpu.group_for_each(self._g, handle, body)

    def build(self, source: str, options: Union[str, Sequence[str]] = (),
              name: str = "kernel.cl") -> list[Program]:
        """The program built for every device (concurrently, through the kernel cache)."""
        text = options if isinstance(options, str) else " ".join(options)
        return [Program("", _built=p) for p in _xgpu.group_build(self._g, source, text, name)]


__all__ = ["DeviceGroup", "Distributed"]
