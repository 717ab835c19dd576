"""Host views of arrays and DLPack to and from the host: Array.map() (the array's own memory
where the device shares host memory, else a copy written back), kDLCPU capsules, and
from_dlpack, which gives back the array whose open host view some memory is."""

from __future__ import annotations

import weakref
from typing import Any, Optional

import numpy as np

from . import _dtypes, _xgpu
from ._array import Array, Shape, asarray
from ._device import DeviceLike, index_of


class HostMapping:
    """The context manager of Array.map(); ``zero_copy`` says whether the NumPy array is the
    array's own memory."""

    def __init__(self, array: Array, write: bool) -> None:
        self._array, self._write, self._view = array, write, None

    @property
    def zero_copy(self) -> bool:
        return _xgpu.shares_host_memory(self._array._b)

    def __enter__(self) -> np.ndarray:
        self._view = _xgpu.map(self._array._b, self._write)
        _remember(self._view, self._array)
        return _typed(self._view, self._array)

    def __exit__(self, *exc: Any) -> None:
        self._view.close()


def _typed(view: Any, array: Array) -> np.ndarray:
    raw = view.bytes()
    return raw.view(array.dtype).reshape(array.shape) if array.size else np.empty(
        array.shape, array.dtype)


# Host views open now, by address, so that from_dlpack of their memory gives the array back.
_MAPPED: "weakref.WeakKeyDictionary[Any, tuple[Any, Shape]]" = weakref.WeakKeyDictionary()


def _remember(view: Any, array: Array) -> None:
    if view.zero_copy and array.size:
        _MAPPED[view] = (array._b, array.shape)


def mapped_array(host: np.ndarray) -> Optional[Array]:
    """The xgpu array whose zero-copy host view ``host`` lies in, as a view of the same
    elements; None when there is none."""
    address = host.__array_interface__["data"][0]
    for view, (buffer, _) in list(_MAPPED.items()):
        start = view.address
        if start <= address and address + host.nbytes <= start + view.nbytes:
            itemsize = _dtypes.by_code(buffer.dtype).itemsize
            if host.dtype != _dtypes.by_code(buffer.dtype) or (address - start) % itemsize:
                return None
            return Array(buffer.view((address - start) // itemsize, host.size), host.shape)
    return None


def cpu_capsule(array: Array, max_version: Optional[tuple[int, int]], copy: Optional[bool]) -> Any:
    """A kDLCPU capsule of the array (Array.__dlpack__(dl_device=(1, 0)))."""
    versioned = max_version is not None and max_version[0] >= 1
    shares = _xgpu.shares_host_memory(array._b)
    if copy is False and not shares:
        raise BufferError(f"xgpu: a CPU view of an array of device {array.device} needs a "
                          f"copy (the device does not share host memory), and copy=False")
    # Mapped until the consumer lets go (no copy where the device shares host memory),
    # else a copy flagged as one.
    view = _xgpu.map(array._b, False, bool(copy) or not shares)
    _remember(view, array)
    return _xgpu.host_capsule(view, list(array._shape), versioned)


def from_dlpack(obj: Any, device: DeviceLike = None, copy: Optional[bool] = None) -> Array:
    """An Array of what ``obj`` exports through DLPack (NumPy arrays and other host memory).
    Memory of an xgpu array's open host view (Array.map) gives that array back, no copy; other
    host memory is copied (``copy=False`` then raises BufferError)."""
    if isinstance(obj, Array):
        return obj.copy() if copy else obj
    host = obj if isinstance(obj, np.ndarray) else None
    if host is None:
        if not hasattr(obj, "__dlpack__"):
            raise TypeError(f"xgpu.from_dlpack: {type(obj).__name__} exports no DLPack")
        try:
            host = np.from_dlpack(obj)
        except (BufferError, RuntimeError) as error:
            raise BufferError(f"xgpu.from_dlpack takes host memory (kDLCPU); this object "
                              f"exports other memory ({error})") from error
    if copy is not True:
        found = mapped_array(host) if host.flags.c_contiguous else None
        if found is not None and (device is None or index_of(device) == found.device):
            return found
        if copy is False:
            raise BufferError("xgpu.from_dlpack: this memory is no xgpu array's; taking it "
                              "needs a copy, and copy=False")
    return asarray(host, device=device)


__all__ = ["HostMapping", "from_dlpack"]
