"""DLPack and host views: map() is the array's own memory on PoCL (zero-copy, the pointer shared
with NumPy) and a copy written back on Oclgrind; __dlpack__ exports kDLOpenCL on the device, and
kDLCPU when asked (dl_device=(1, 0)), refusing copy=False where a copy is needed; from_dlpack takes
NumPy (a copy) and the memory of a mapped array (that array, no copy)."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest

import xgpu


def address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def capsule_flags(capsule: object) -> int:
    """The flags of a versioned DLPack capsule (DLManagedTensorVersioned: version, manager_ctx,
    deleter, then flags)."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return ctypes.c_uint64.from_address(get(capsule, b"dltensor_versioned") + 24).value


IS_COPIED = 2


def test_map_is_zero_copy_on_pocl(pocl: int) -> None:
    a = xgpu.asarray(np.arange(64, dtype=np.float32))
    mapping = a.map()
    assert mapping.zero_copy
    with mapping as v:
        assert isinstance(v, np.ndarray) and v.shape == (64,) and v.dtype == np.float32
        w = np.from_dlpack(v)  # NumPy takes the view: the same pointer
        assert address(w) == address(v)
        w[:4] = -1
        back = xgpu.from_dlpack(v)  # the mapped memory is the array's: no copy
        assert back.shape == (64,)
        assert back._b.same_memory(a._b)
        inner = xgpu.from_dlpack(v[8:16])
        assert inner._b.same_memory(a[8:16]._b)
    assert a.get()[:5].tolist() == [-1, -1, -1, -1, 4]
    with pytest.raises(BufferError):
        xgpu.from_dlpack(np.zeros(3, np.float32), copy=False)


def test_map_is_a_copy_on_oclgrind(oclgrind: int) -> None:
    a = xgpu.asarray(np.arange(8, dtype=np.int32), device=oclgrind)
    mapping = a.map()
    assert not mapping.zero_copy
    with mapping as v:
        v[0] = 100
    assert a.get()[0] == 100
    with a.map(write=False) as v:
        v[1] = 100
    assert a.get()[1] == 1
    with pytest.raises(BufferError, match="needs a copy"):
        a.__dlpack__(dl_device=(1, 0), copy=False)
    assert capsule_flags(a.__dlpack__(dl_device=(1, 0), max_version=(1, 0))) & IS_COPIED
    host = np.from_dlpack(a, device="cpu")  # a copy, marked as one
    assert host.tolist() == [100, 1, 2, 3, 4, 5, 6, 7]


def test_dlpack_exports(pocl: int) -> None:
    a = xgpu.asarray(np.arange(10, dtype=np.float64))
    assert a.__dlpack_device__() == (4, pocl)  # kDLOpenCL
    capsule = a.__dlpack__(max_version=(1, 0))
    name = ctypes.pythonapi.PyCapsule_GetName
    name.restype, name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    assert name(capsule) == b"dltensor_versioned"
    assert name(a.__dlpack__()) == b"dltensor"
    with pytest.raises((BufferError, RuntimeError), match="Unsupported device"):
        np.from_dlpack(a)  # NumPy takes host memory only
    assert capsule_flags(a.__dlpack__(dl_device=(1, 0), max_version=(1, 0))) == 0  # no copy
    host = np.from_dlpack(a, device="cpu")  # dl_device=(1, 0): the mapped buffer
    np.testing.assert_array_equal(host, np.arange(10))
    host[0] = 42
    assert a[0] == 42
    with pytest.raises(BufferError, match="own device"):
        a.__dlpack__(dl_device=(2, 0))
    copied = xgpu.from_dlpack(np.arange(5, dtype=np.int16))
    assert copied.dtype == np.int16 and copied.get().tolist() == [0, 1, 2, 3, 4]
