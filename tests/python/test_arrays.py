"""Arrays: every dtype round-trips NumPy on PoCL and Oclgrind, the creation functions, views of
contiguous ranges (on the base-address alignment and off it), assignment, reshape, astype between
every pair of dtypes, and the errors of what is not supported."""

from __future__ import annotations

import numpy as np
import pytest

import xgpu
from conftest import small

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float16, np.float32, np.float64]


def sample(dtype: type, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    return rng.standard_normal(n).astype(dtype) * 100


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
def test_every_dtype_round_trips_numpy(device: int, dtype: type) -> None:
    host = sample(dtype, small(device, 1001)).reshape(-1)
    a = xgpu.asarray(host)
    assert a.dtype == np.dtype(dtype) and a.shape == host.shape and a.device == device
    np.testing.assert_array_equal(a.get(), host)
    two_d = xgpu.asarray(host[: (host.size // 7) * 7].reshape(7, -1))
    np.testing.assert_array_equal(two_d.numpy(), host[: (host.size // 7) * 7].reshape(7, -1))
    a.set(host[::-1])
    np.testing.assert_array_equal(np.asarray(a), host[::-1])


def test_creation_functions(device: int) -> None:
    np.testing.assert_array_equal(xgpu.zeros((2, 3)).get(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(xgpu.ones(4, xgpu.int32).get(), np.ones(4, np.int32))
    np.testing.assert_array_equal(xgpu.full(3, 2.5).get(), np.full(3, 2.5))
    assert xgpu.full(3, 7).dtype == np.int64  # as numpy.full
    np.testing.assert_array_equal(xgpu.arange(10).get(), np.arange(10))
    np.testing.assert_array_equal(xgpu.arange(1, 2, 0.25, dtype=np.float32).get(),
                                  np.arange(1, 2, 0.25, dtype=np.float32))
    e = xgpu.empty((0, 5), xgpu.float16)
    assert e.size == 0 and e.get().shape == (0, 5)
    assert xgpu.asarray(3.5).shape == () and float(xgpu.asarray(3.5)) == 3.5
    assert xgpu.zeros_like(xgpu.ones(3, xgpu.uint8)).get().tolist() == [0, 0, 0]
    same = xgpu.asarray([1.0, 2.0])
    assert xgpu.asarray(same) is same


def test_views_of_contiguous_ranges(device: int) -> None:
    host = np.arange(200, dtype=np.float32)
    a = xgpu.asarray(host)
    for key in (slice(32, 96), slice(1, 50), slice(-10, None), slice(None, 5), slice(7, 7)):
        view = a[key]
        np.testing.assert_array_equal(view.get(), host[key])
        assert view.device == a.device
    # A view is the same memory: writing it writes the array.
    a[1:4] = [-1, -2, -3]
    a[40:48] = 9
    a[100:110] = xgpu.full(10, 5.0, np.float32)
    host[1:4], host[40:48], host[100:110] = [-1, -2, -3], 9, 5
    np.testing.assert_array_equal(a.get(), host)
    assert a[3] == np.float32(-3) and a[-1] == np.float32(199)
    m = xgpu.asarray(host.reshape(20, 10))
    np.testing.assert_array_equal(m[3].get(), host.reshape(20, 10)[3])
    np.testing.assert_array_equal(m[2:5].get(), host.reshape(20, 10)[2:5])
    np.testing.assert_array_equal(m[4, 2:7].get(), host.reshape(20, 10)[4, 2:7])
    np.testing.assert_array_equal(m[5:9, :].get(), host.reshape(20, 10)[5:9, :])
    assert m[4, 3] == host.reshape(20, 10)[4, 3]
    # Views of views, and operations on views off the alignment (the library stages them).
    inner = a[1:150][10:20]
    np.testing.assert_array_equal(inner.get(), host[11:21])
    np.testing.assert_array_equal((a[1:41] + a[3:43]).get(), host[1:41] + host[3:43])
    assert float(a[5:105].sum()) == pytest.approx(float(host[5:105].sum()))


def test_what_slicing_does_not_take_raises(device: int) -> None:
    m = xgpu.zeros((4, 5))
    with pytest.raises(NotImplementedError, match="contiguous ranges only"):
        m[::2]
    with pytest.raises(NotImplementedError, match="contiguous range"):
        m[:, 1]
    with pytest.raises(NotImplementedError, match="contiguous range"):
        m[[0, 1]]
    with pytest.raises(IndexError, match="out of bounds"):
        m[4]
    with pytest.raises(IndexError, match="3 indices"):
        m[1, 2, 3]


def test_reshape_is_the_same_memory(device: int) -> None:
    a = xgpu.asarray(np.arange(12, dtype=np.int32))
    b = a.reshape(3, -1)
    assert b.shape == (3, 4)
    b[1] = 0
    assert a.get().tolist() == [0, 1, 2, 3, 0, 0, 0, 0, 8, 9, 10, 11]
    with pytest.raises(ValueError, match="cannot reshape"):
        a.reshape(5, -1)


@pytest.mark.parametrize("src", DTYPES, ids=lambda t: np.dtype(t).name)
def test_astype_between_every_pair(pocl: int, src: type) -> None:
    host = sample(src, 300, seed=3)
    if np.dtype(src).kind == "f":
        host = np.clip(host, -100, 100)  # every integer type holds the truncated values
    a = xgpu.asarray(host, device=pocl)
    positive = xgpu.asarray(np.abs(host), device=pocl)
    for dst in DTYPES:
        # Negative floats to unsigned integers are undefined in C: those take |host|.
        unsigned_from_float = np.dtype(dst).kind == "u" and np.dtype(src).kind == "f"
        with np.errstate(over="ignore"):  # large integers to float16: inf, as on the device
            expected = (np.abs(host) if unsigned_from_float else host).astype(dst)
        got = (positive if unsigned_from_float else a).astype(dst)
        assert got.dtype == np.dtype(dst)
        np.testing.assert_array_equal(got.get(), expected, err_msg=f"{np.dtype(src)} -> "
                                                                   f"{np.dtype(dst)}")


def test_astype_on_oclgrind(oclgrind: int) -> None:
    host = np.array([0.5, -1.5, 2.25, 0.0], np.float32)
    a = xgpu.asarray(host, device=oclgrind)
    np.testing.assert_array_equal(a.astype(np.int32).get(), host.astype(np.int32))
    np.testing.assert_array_equal(a.astype(np.float16).get(), host.astype(np.float16))
    np.testing.assert_array_equal(a.astype(bool).get(), host.astype(bool))


def test_unsupported_dtypes_raise() -> None:
    with pytest.raises(TypeError, match="complex128 are not supported"):
        xgpu.asarray(np.zeros(3, np.complex128))
    with pytest.raises(TypeError, match="not supported"):
        xgpu.empty(3, object)
    with pytest.raises(ValueError, match="negative dimension"):
        xgpu.empty((2, -1))
