"""Memory, with torch.cuda's names: what the package's context on a device holds
(memory_allocated, memory_reserved and their peaks, memory_stats), empty_cache,
set_per_process_memory_fraction, and pinned host memory (empty_pinned) for asynchronous copies.
Out of memory raises xgpu.OutOfMemoryError with the C++ library's text."""

from __future__ import annotations

from typing import Any, Sequence, Union

import numpy as np

from . import _dtypes, _xgpu
from ._device import DeviceLike, index_of


def memory_stats(device: DeviceLike = None) -> dict[str, int]:
    """Every field of the C++ ``xgpu::MemoryStats``: allocated, reserved, peak_allocated,
    peak_reserved, active_blocks, num_allocs, num_frees, num_ooms, num_retries, limit."""
    return _xgpu.memory_stats(index_of(device))


def memory_allocated(device: DeviceLike = None) -> int:
    """Bytes of the live arrays (as asked for) on the device."""
    return memory_stats(device)["allocated"]


def max_memory_allocated(device: DeviceLike = None) -> int:
    return memory_stats(device)["peak_allocated"]


def memory_reserved(device: DeviceLike = None) -> int:
    """Bytes the driver holds for the package on the device: live arrays and cached blocks."""
    return memory_stats(device)["reserved"]


def max_memory_reserved(device: DeviceLike = None) -> int:
    return memory_stats(device)["peak_reserved"]


def reset_peak_memory_stats(device: DeviceLike = None) -> None:
    _xgpu.reset_peak_memory_stats(index_of(device))


def empty_cache() -> None:
    """Returns every cached block no array uses to the driver, on every device."""
    _xgpu.empty_cache()


def set_per_process_memory_fraction(fraction: float, device: DeviceLike = None) -> None:
    """Caps what the package may reserve on the device at ``fraction`` of its memory (0 < f
    <= 1); beyond it allocations raise OutOfMemoryError. XGPU_MEMORY_LIMIT sets it at start."""
    if not 0 < fraction <= 1:
        raise ValueError(f"xgpu: a memory fraction is in (0, 1], not {fraction}")
    index = index_of(device)
    total = _xgpu.device_properties(index)["global_memory"]
    _xgpu.set_memory_limit(int(total * fraction), index)


def empty_pinned(shape: Union[int, Sequence[int]], dtype: Any = np.float32,
                 device: DeviceLike = None) -> np.ndarray:
    """A NumPy array in pinned (page-locked) host memory, where the driver offers it: the source
    or destination of ``asarray(x, non_blocking=True)`` and ``a.get(out=x, non_blocking=True)``,
    which then do not block. ``is_pinned`` says whether the driver gave page-locked memory."""
    dt = _dtypes.dtype(dtype)
    shape = (int(shape),) if np.isscalar(shape) else tuple(int(s) for s in shape)
    count = int(np.prod(shape, dtype=np.int64))
    raw = _xgpu.empty_pinned(count, _dtypes.code(dt), index_of(device))
    return raw.view(dt).reshape(shape)


def is_pinned(host: np.ndarray) -> bool:
    """Whether ``host`` lies in page-locked memory from empty_pinned."""
    # As bytes: nanobind takes no array of a dtype DLPack lacks (ml_dtypes' bfloat16).
    return (isinstance(host, np.ndarray) and host.flags.c_contiguous
            and _xgpu.is_pinned(host.reshape(-1).view(np.uint8)))


__all__ = ["empty_cache", "empty_pinned", "is_pinned", "max_memory_allocated",
           "max_memory_reserved", "memory_allocated", "memory_reserved", "memory_stats",
           "reset_peak_memory_stats", "set_per_process_memory_fraction"]
