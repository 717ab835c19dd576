"""xgpu from Python: devices, arrays, kernels, memory and streams on every vendor's GPU and on
CPUs, in the shape torch.cuda and CuPy users know (docs/python.md)::

    import xgpu, numpy as np
    xgpu.is_available(); xgpu.device_count(); xgpu.get_device_name(0)
    x = xgpu.asarray(np.arange(10, dtype=np.float32)); (x * 2 + x).sum(); x.get()
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _xgpu
from ._errors import Error, OutOfMemoryError

_xgpu.set_error_types(Error, OutOfMemoryError)

from . import _dtypes, amp, trace  # noqa: E402
from ._array import (Array, arange, asarray, empty, empty_like, full,  # noqa: E402
                     ones, zeros, zeros_like)
from ._device import (Device, DeviceProperties, current_device, device,  # noqa: E402
                      device_count, devices, get_device_name, get_device_properties,
                      is_available, mem_get_info, set_device)
from ._feeder import Feeder, FeederBatch  # noqa: E402
from ._group import DeviceGroup, Distributed  # noqa: E402
from ._host import from_dlpack  # noqa: E402
from ._kernel import ElementwiseKernel, Kernel, Local, Program  # noqa: E402
from ._memory import (empty_cache, empty_pinned, is_pinned, max_memory_allocated,  # noqa: E402
                      max_memory_reserved, memory_allocated, memory_reserved, memory_stats,
                      reset_peak_memory_stats, set_per_process_memory_fraction)
from ._ops import (abs, argmax, argmin, cumsum, dot, exp, log, matmul, max, min,  # noqa: E402
                   norm, relu, sigmoid, softmax, sort, sqrt, sum, tanh, transpose)
from ._stream import Event, Stream, current_stream, stream, synchronize  # noqa: E402

__version__: str = _xgpu.version()

# NumPy's scalar types, under the names arrays take.
bool_ = np.bool_
int8, uint8, int16, uint16 = np.int8, np.uint8, np.int16, np.uint16
int32, uint32, int64, uint64 = np.int32, np.uint32, np.int64, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64


def __getattr__(name: str) -> Any:
    # xgpu.bfloat16 is ml_dtypes.bfloat16, imported at the first use (it takes half a second),
    # with an ImportError naming the fix where it is missing (_dtypes.py).
    if name == "bfloat16":
        return _dtypes.bfloat16().type
    raise AttributeError(f"module 'xgpu' has no attribute {name!r}")


def cache_stats() -> dict[str, int]:
    """What the shared kernel cache did in this process: hits, misses, stores, store_failures,
    bad_entries, healed, read_only_skips, evictions (only growing: compare two snapshots)."""
    return _xgpu.cache_stats()


def add_profile(profile: str, backing: str = "") -> None:
    """Adds a simulated device from a profile (a shipped name such as "nvidia-h100", or a file of
    ``xgpu query --json``) backed by the device ``backing`` selects among the opencl module's;
    before anything lists devices (docs/profiles.md)."""
    _xgpu.add_profile(profile, backing)


__all__ = [name for name in dir() if not name.startswith("_") and name not in
           ("annotations", "Any", "np")]
