"""xgpu.Array: a C-contiguous array in one device's memory, with its creation functions
(asarray, empty, zeros, ones, full, arange), copies to and from NumPy and slicing of contiguous
ranges (views: no copy). Host views and DLPack are in _host.py, the arithmetic in _ops.py."""

from __future__ import annotations

import math
from typing import Any, Iterator, Optional, Sequence, Union

import numpy as np

from . import _dtypes, _xgpu
from ._device import DeviceLike, index_of
from ._stream import Event, Stream

Shape = tuple[int, ...]
ShapeLike = Union[int, Sequence[int]]

_CPU = (1, 0)  # DLPack's kDLCPU, device 0


def _shape(shape: ShapeLike) -> Shape:
    dims = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    result = tuple(int(d) for d in dims)
    if any(d < 0 for d in result):
        raise ValueError(f"xgpu: negative dimension in shape {result}")
    return result


def _size(shape: Shape) -> int:
    return math.prod(shape)


def _bytes(host: np.ndarray) -> np.ndarray:
    """A C-contiguous array's memory as a flat uint8 array (no copy): what the extension moves."""
    return host.reshape(-1).view(np.uint8)


class Array:
    """A C-contiguous array of one dtype in one device's memory. Operations run on the algorithms
    library in the current stream of the array's device; what is not supported raises
    NotImplementedError saying what is."""

    __slots__ = ("_b", "_shape", "__weakref__")
    # NumPy defers its operators to ours (ndarray + Array uploads the ndarray).
    __array_priority__ = 1000
    __array_ufunc__ = None

    def __init__(self, buffer: Any, shape: Shape) -> None:
        self._b = buffer
        self._shape = shape

    # ---- What it is ----------------------------------------------------------------------

    @property
    def shape(self) -> Shape:
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        return _dtypes.by_code(self._b.dtype)

    @property
    def size(self) -> int:
        return _size(self._shape)

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def device(self) -> int:
        """The device's index in xgpu.devices()."""
        return self._b.device

    @property
    def stream(self) -> Stream:
        """The stream the array was made on (operations use the current stream)."""
        return self._b.stream

    def __len__(self) -> int:
        if not self._shape:
            raise TypeError("xgpu: len() of a 0-d array")
        return self._shape[0]

    def __repr__(self) -> str:
        if self.size <= 1000:
            data = np.array2string(self.get(), separator=", ")
            return f"xgpu.Array({data}, dtype={self.dtype}, device={self.device})"
        return f"xgpu.Array(shape={self._shape}, dtype={self.dtype}, device={self.device})"

    # ---- Copies to and from the host ---------------------------------------------------------

    def get(self, out: Optional[np.ndarray] = None, non_blocking: bool = False,
            stream: Optional[Stream] = None) -> np.ndarray:
        """The elements as a NumPy array (into ``out`` when given: C-contiguous, this dtype and
        size). With ``non_blocking`` and ``out`` from empty_pinned, the copy is queued and this
        returns at once: synchronize the stream before reading ``out``."""
        if out is None:
            out = np.empty(self._shape, self.dtype)
        elif (not isinstance(out, np.ndarray) or not out.flags.c_contiguous
              or out.dtype != self.dtype or out.size != self.size):
            raise ValueError(f"xgpu: Array.get(out=) takes a C-contiguous NumPy array of "
                             f"{self.size} {self.dtype} elements")
        if self.size:
            _xgpu.read(self._b, _bytes(out), 0, non_blocking, stream)
        return out

    def numpy(self) -> np.ndarray:
        return self.get()

    def set(self, host: Any, non_blocking: bool = False,
            stream: Optional[Stream] = None) -> Event:
        """Copies ``host`` (anything NumPy takes, of this size) into the array. From pinned
        memory with ``non_blocking`` the copy is queued and the returned Event completes with
        it; otherwise it has completed on return."""
        data = np.asarray(host)
        if data.size != self.size:
            raise ValueError(f"xgpu: Array.set of {data.size} elements into {self.size}")
        data = np.asarray(data, dtype=self.dtype, order="C")
        if not self.size:
            return Event()
        return _xgpu.write(self._b, _bytes(data), 0, non_blocking, stream)

    def __array__(self, dtype: Any = None, copy: Optional[bool] = None) -> np.ndarray:
        if copy is False:
            raise ValueError("xgpu: an Array becomes a NumPy array only by a copy (or use map())")
        host = self.get()
        return host if dtype is None else host.astype(dtype)

    # ---- Shapes and views ------------------------------------------------------------------

    def reshape(self, *shape: Any) -> "Array":
        """The same memory in another shape (one dimension may be -1)."""
        dims = list(shape[0]) if len(shape) == 1 and not isinstance(shape[0], int) else list(shape)
        if dims.count(-1) > 1:
            raise ValueError("xgpu: only one dimension may be -1")
        known = math.prod(d for d in dims if d != -1)
        if -1 in dims:
            if known == 0 or self.size % known:
                raise ValueError(f"xgpu: cannot reshape {self._shape} into {tuple(shape)}")
            dims[dims.index(-1)] = self.size // known
        new = _shape(dims)
        if _size(new) != self.size:
            raise ValueError(f"xgpu: cannot reshape {self._shape} into {new}")
        return Array(self._b, new)

    def ravel(self) -> "Array":
        return self.reshape(-1)

    def _range(self, offset: int, count: int, shape: Shape) -> "Array":
        return Array(self._b.view(offset, count), shape)

    def __getitem__(self, key: Any) -> Any:
        offset, count, shape, scalar = self._locate(key)
        view = self._range(offset, count, shape)
        return view.get()[()] if scalar else view

    def __setitem__(self, key: Any, value: Any) -> None:
        offset, count, shape, _ = self._locate(key)
        target = self._range(offset, count, shape)
        if isinstance(value, Array):
            if value.size != target.size:
                raise ValueError(f"xgpu: cannot assign {value.shape} to {target.shape}")
            source = value if value.dtype == target.dtype else value.astype(target.dtype)
            _xgpu.copy(source._b, target._b, target.size)
        elif np.ndim(value) == 0:
            target.fill(value)
        else:
            target.set(np.broadcast_to(np.asarray(value, dtype=target.dtype), target.shape))

    def _locate(self, key: Any) -> tuple[int, int, Shape, bool]:
        """Where ``self[key]`` is: (first element, count, shape, whether it is one scalar).
        Only contiguous ranges: leading integers, then one slice of step 1, then whole axes."""
        keys = key if isinstance(key, tuple) else (key,)
        if any(k is Ellipsis for k in keys):
            at = keys.index(Ellipsis)
            keys = keys[:at] + (slice(None),) * (self.ndim - len(keys) + 1) + keys[at + 1:]
        if len(keys) > self.ndim:
            raise IndexError(f"xgpu: {len(keys)} indices for a {self.ndim}-d array")
        offset, shape, axis, sliced = 0, list(self._shape), 0, False
        for k in keys:
            inner = _size(tuple(shape[1:]))
            if isinstance(k, (int, np.integer)) and not sliced:
                n = shape[0]
                i = int(k) + n if k < 0 else int(k)
                if not 0 <= i < n:
                    raise IndexError(f"xgpu: index {int(k)} is out of bounds for axis {axis} "
                                     f"of size {n}")
                offset += i * inner
                shape.pop(0)
            elif isinstance(k, slice) and not sliced:
                start, stop, step = k.indices(shape[0])
                if step != 1:
                    raise NotImplementedError("xgpu: slices take contiguous ranges only (step 1)")
                offset += start * inner
                shape[0] = max(0, stop - start)
                sliced = True
                axis += 1
                continue
            elif isinstance(k, slice) and k == slice(None):
                axis += 1
                continue
            else:
                raise NotImplementedError(
                    f"xgpu: index {k!r} does not select a contiguous range; arrays take "
                    f"integers, then one slice of step 1, then whole axes (':')")
            axis += 1
        result = tuple(shape)
        return offset, _size(result), result, not result and not sliced

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        if self.size != 1:
            raise ValueError("xgpu: the truth value of an array of more than one element is "
                             "ambiguous")
        return bool(self.get().reshape(()))

    def __float__(self) -> float:
        return float(self.get().reshape(()))

    def __int__(self) -> int:
        return int(self.get().reshape(()))

    # ---- Copies and conversions on the device --------------------------------------------

    def copy(self) -> "Array":
        out = empty(self._shape, self.dtype, stream=self.stream)
        if self.size:
            _xgpu.copy(self._b, out._b, self.size)
        return out

    def astype(self, dtype: Any, copy: bool = True) -> "Array":
        """The elements converted to ``dtype`` on the device, as NumPy's astype does: between
        float16, bfloat16, float32 and float64 by xgpu::cast (rounded once to nearest even,
        overflow to +-inf, NaN kept); floats to integers truncate; to bool: nonzero. The same
        dtype gives a copy (``copy=False``: the array itself). TypeError naming a dtype arrays
        do not hold."""
        target = _dtypes.dtype(dtype)
        if target == self.dtype:
            return self.copy() if copy else self
        from ._convert import convert
        return convert(self, target)

    def fill(self, value: Any) -> None:
        if self.size:
            _xgpu.fill(self._b, value)

    # ---- Host views and DLPack -----------------------------------------------------------

    def map(self, write: bool = True) -> "_host.HostMapping":
        """``with a.map() as v:`` gives ``v``, a NumPy array of the elements: the array's own
        memory where the device shares host memory (PoCL, CPUs: no copy), elsewhere a copy
        written back when the block ends (unless ``write=False``). Launch no kernel on the
        array inside the block."""
        return _host.HostMapping(self, write)

    def __dlpack_device__(self) -> tuple[int, int]:
        """(kDLCUDA, ordinal) on the cuda module; (kDLOpenCL, device index) on opencl."""
        return tuple(_xgpu.dlpack_device(self._b))

    def __dlpack__(self, *, stream: Any = None, max_version: Optional[tuple[int, int]] = None,
                   dl_device: Optional[tuple[int, int]] = None,
                   copy: Optional[bool] = None) -> Any:
        versioned = max_version is not None and max_version[0] >= 1
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            if tuple(dl_device) != _CPU:
                raise BufferError(f"xgpu: an array exports to its own device "
                                  f"{self.__dlpack_device__()} or to the CPU (1, 0), "
                                  f"not {tuple(dl_device)}")
            return _host.cpu_capsule(self, max_version, copy)
        source = self.copy() if copy else self
        if stream != -1:
            source.stream.synchronize()  # the consumer may read at once, on any stream
        return _xgpu.dlpack(source._b, list(self._shape), versioned)

    # The arithmetic, reductions and linear algebra: _ops.py adds them below.


# ---- Creation ------------------------------------------------------------------------------

def empty(shape: ShapeLike, dtype: Any = np.float32, device: DeviceLike = None, *,
          stream: Optional[Stream] = None) -> Array:
    """An array of uninitialised elements on ``device`` (default: the current one), or on
    ``stream``'s device and context."""
    dims = _shape(shape)
    dt = _dtypes.dtype(dtype)
    buffer = _xgpu.empty(_size(dims), _dtypes.code(dt), stream,
                         None if stream is not None else index_of(device))
    return Array(buffer, dims)


def full(shape: ShapeLike, fill_value: Any, dtype: Any = None, device: DeviceLike = None, *,
         stream: Optional[Stream] = None) -> Array:
    dt = np.asarray(fill_value).dtype if dtype is None else dtype
    out = empty(shape, dt, device, stream=stream)
    out.fill(fill_value)
    return out


def zeros(shape: ShapeLike, dtype: Any = np.float32, device: DeviceLike = None, *,
          stream: Optional[Stream] = None) -> Array:
    return full(shape, 0, dtype, device, stream=stream)


def ones(shape: ShapeLike, dtype: Any = np.float32, device: DeviceLike = None, *,
         stream: Optional[Stream] = None) -> Array:
    return full(shape, 1, dtype, device, stream=stream)


def empty_like(a: Array, dtype: Any = None) -> Array:
    return empty(a.shape, a.dtype if dtype is None else dtype, stream=a.stream)


def zeros_like(a: Array, dtype: Any = None) -> Array:
    return full(a.shape, 0, a.dtype if dtype is None else dtype, stream=a.stream)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None,
           device: DeviceLike = None) -> Array:
    """As numpy.arange (computed on the host, then copied)."""
    host = np.arange(start, stop, step) if stop is not None else np.arange(start)
    return asarray(host if dtype is None else host.astype(dtype), device=device)


def asarray(obj: Any, dtype: Any = None, device: DeviceLike = None, non_blocking: bool = False,
            *, stream: Optional[Stream] = None) -> Array:
    """``obj`` (an Array, a NumPy array, anything NumPy takes) as an Array on ``device``
    (default: an Array's own device, else the current one). An Array already there and of that
    dtype is returned as it is. From pinned memory (empty_pinned) with ``non_blocking`` the copy
    is queued on the stream and this returns at once."""
    if isinstance(obj, Array):
        result = obj
        if device is not None and index_of(device) != obj.device:
            result = empty(obj.shape, obj.dtype, device)
            _xgpu.copy(obj._b, result._b, obj.size)
        return result if dtype is None else result.astype(dtype, copy=False)
    dt = _dtypes.dtype(dtype) if dtype is not None else _dtypes.dtype(np.asarray(obj).dtype)
    host = np.asarray(obj, dtype=dt, order="C")  # ascontiguousarray would make 0-d 1-d
    out = empty(host.shape, dt, device, stream=stream)
    if out.size:
        _xgpu.write(out._b, _bytes(host), 0, non_blocking, stream)
    return out


from . import _host, _ops  # noqa: E402  (host views and DLPack; the operators of Array)

__all__ = ["Array", "arange", "asarray", "empty", "empty_like", "full", "ones", "zeros",
           "zeros_like"]
