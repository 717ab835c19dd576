"""Array operations against NumPy: + - * / (arrays and scalars, both sides, in place), the unary
math, whole-array reductions, matmul, .T, sort, cumsum and softmax, with property tests
(Hypothesis) over shapes, dtypes and values on PoCL and a few fixed cases on Oclgrind; and the
NotImplementedError of what the library does not compute."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import xgpu

ARITHMETIC = [np.float16, np.float32, np.float64, np.int32, np.uint32]
FLOATS = [np.float16, np.float32, np.float64]
PROPERTY = settings(max_examples=20, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=40)


def elements(dtype: type, low: float = -1000, high: float = 1000) -> st.SearchStrategy:
    if np.dtype(dtype).kind == "f":
        width = np.dtype(dtype).itemsize * 8
        return st.floats(low, high, width=width, allow_nan=False, allow_infinity=False)
    info = np.iinfo(dtype)
    return st.integers(max(info.min, int(low)), min(info.max, int(high)))


def arrays(dtype: type, shape: object = shapes, low: float = -1000,
           high: float = 1000) -> st.SearchStrategy:
    return hnp.arrays(dtype, shape, elements=elements(dtype, low, high))


def close(got: np.ndarray, expected: np.ndarray, dtype: type, ulps: float = 4) -> None:
    if np.dtype(dtype).kind == "f":
        eps = float(np.finfo(dtype).eps)
        np.testing.assert_allclose(got, expected, rtol=ulps * eps, atol=ulps * eps)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.usefixtures("pocl")
@PROPERTY
@given(data=st.data(), dtype=st.sampled_from(ARITHMETIC), op=st.sampled_from("+-*/"))
def test_arithmetic_matches_numpy(data: st.DataObject, dtype: type, op: str) -> None:
    x = data.draw(arrays(dtype, low=0 if op == "/" else -1000))
    y = data.draw(arrays(dtype, x.shape, low=1 if op == "/" else -1000))
    s = data.draw(elements(dtype, 1, 50))
    a, b = xgpu.asarray(x), xgpu.asarray(y)
    apply = {"+": lambda p, q: p + q, "-": lambda p, q: p - q, "*": lambda p, q: p * q,
             "/": lambda p, q: p / q}[op]
    with np.errstate(all="ignore"):
        for got, expected in ((apply(a, b), apply(x, y)), (apply(a, s), apply(x, s)),
                              (apply(s, b), apply(s, y))):
            assert got.dtype == expected.dtype
            close(got.get(), expected, expected.dtype, ulps=3 if op == "/" else 1)


@pytest.mark.usefixtures("pocl")
@PROPERTY
@given(data=st.data(), dtype=st.sampled_from(FLOATS),
       name=st.sampled_from(["exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs"]))
def test_unary_math_matches_numpy(data: st.DataObject, dtype: type, name: str) -> None:
    low = 2.0**-10 if name in ("log", "sqrt") else -10
    x = data.draw(arrays(dtype, low=low, high=10))
    reference = {"sigmoid": lambda v: 1 / (1 + np.exp(-v)), "relu": lambda v: np.maximum(v, 0)}
    expected = (reference[name] if name in reference else getattr(np, name))(x.astype(np.float64))
    got = getattr(xgpu, name)(xgpu.asarray(x)).get()
    assert got.dtype == np.dtype(dtype)
    close(got, expected.astype(dtype), dtype, ulps=8)


@pytest.mark.usefixtures("pocl")
@PROPERTY
@given(data=st.data(), dtype=st.sampled_from(ARITHMETIC))
def test_reductions_match_numpy(data: st.DataObject, dtype: type) -> None:
    bound = 1 if dtype is np.float16 else 100  # float16 sums of squares stay below 65504
    x = data.draw(arrays(dtype, low=-bound, high=bound))
    a = xgpu.asarray(x)
    assert a.max() == x.max() and a.min() == x.min()
    assert a.argmax() == x.argmax() and a.argmin() == x.argmin()
    wide = x.astype(np.float64)
    total = wide.sum() if np.dtype(dtype).kind == "f" else x.sum(dtype=np.int64)
    if np.dtype(dtype).kind == "u":
        total = total % 2**32  # uint32 sums wrap, as the C++ library's
    bound = 40 * float(np.finfo(dtype).eps) * np.abs(wide).sum() if np.dtype(dtype).kind == "f" \
        else 0
    if dtype is np.float16:
        bound += abs(float(total)) * 2**-11  # the sum, rounded to half at the end
    assert abs(float(a.sum()) - float(total)) <= bound
    if np.dtype(dtype).kind == "f":
        squares = (wide * wide).sum()
        flat = a.ravel()
        # Each product may underflow in the array's type (the float64 reference does not): up
        # to the smallest normal number each, where the device flushes subnormals to zero.
        underflow = x.size * float(np.finfo(dtype).tiny)
        assert abs(float(xgpu.dot(flat, flat)) - squares) <= 41 * float(np.finfo(dtype).eps) \
            * squares + (squares * 2**-11 if dtype is np.float16 else 0) + underflow
    else:
        flat = a.ravel()
        assert xgpu.dot(flat, flat) == (x.astype(np.int64) ** 2).sum().astype(dtype)


@pytest.mark.usefixtures("pocl")
@PROPERTY
@given(m=st.integers(1, 24), k=st.integers(1, 24), n=st.integers(1, 24),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_matmul_and_transpose_match_numpy(m: int, k: int, n: int, dtype: type) -> None:
    rng = np.random.default_rng(m * 10000 + k * 100 + n)
    x, y = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
    a, b = xgpu.asarray(x), xgpu.asarray(y)
    bound = (k + 3) * float(np.finfo(dtype).eps) * (np.abs(x) @ np.abs(y))
    assert np.all(np.abs((a @ b).get() - x @ y) <= bound)
    np.testing.assert_array_equal(a.T.get(), x.T)
    np.testing.assert_array_equal(xgpu.matmul(a, b).get(), (a @ b).get())


@pytest.mark.usefixtures("pocl")
@PROPERTY
@given(data=st.data(), dtype=st.sampled_from([np.float32, np.int32, np.uint32]))
def test_sort_and_cumsum_match_numpy(data: st.DataObject, dtype: type) -> None:
    x = data.draw(arrays(dtype, hnp.array_shapes(max_dims=1, max_side=3000)))
    a = xgpu.asarray(x)
    np.testing.assert_array_equal(xgpu.sort(a).get(), np.sort(x))
    a.sort()
    np.testing.assert_array_equal(a.get(), np.sort(x))
    c = xgpu.asarray(x).cumsum().get()
    if np.dtype(dtype).kind == "f":
        wide = np.cumsum(x.astype(np.float64))
        bound = (np.arange(x.size) + 64) * 2**-24 * np.cumsum(np.abs(x.astype(np.float64)))
        assert np.all(np.abs(c - wide) <= bound)
    else:
        np.testing.assert_array_equal(c, np.cumsum(x, dtype=dtype))


@pytest.mark.usefixtures("pocl")
@PROPERTY
@given(data=st.data(), dtype=st.sampled_from(FLOATS))
def test_softmax_matches_numpy(data: st.DataObject, dtype: type) -> None:
    x = data.draw(arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=2, max_side=50), -50, 50))
    wide = x.astype(np.float64)
    e = np.exp(wide - wide.max(axis=-1, keepdims=True))
    expected = e / e.sum(axis=-1, keepdims=True)
    got = xgpu.softmax(xgpu.asarray(x)).get()
    tolerance = 1e-2 if dtype is np.float16 else 1e-5
    np.testing.assert_allclose(got, expected, rtol=tolerance, atol=tolerance)


def test_fixed_cases_on_every_device(device: int) -> None:
    x = np.array([3.0, -1.5, 2.25, 0.5, -4.0], np.float32)
    a = xgpu.asarray(x)
    np.testing.assert_array_equal((a + a * 2 - 1).get(), x + x * 2 - 1)
    np.testing.assert_array_equal((-a).get(), -x)
    np.testing.assert_array_equal(abs(a).get(), np.abs(x))
    np.testing.assert_allclose(xgpu.exp(a).get(), np.exp(x), rtol=1e-6)
    assert a.sum() == np.float32(x.sum()) and a.argmax() == 0 and a.min() == np.float32(-4)
    assert a.norm() == pytest.approx(np.linalg.norm(x))
    np.testing.assert_array_equal(xgpu.sort(a).get(), np.sort(x))
    np.testing.assert_allclose(a.cumsum().get(), np.cumsum(x), rtol=1e-6)
    m = xgpu.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_allclose((m @ m.T).get(), np.arange(6.0).reshape(2, 3) @
                               np.arange(6.0).reshape(2, 3).T)
    np.testing.assert_allclose(xgpu.softmax(m).get().sum(axis=-1), [1, 1], rtol=1e-6)
    a += 1
    a *= xgpu.asarray(x)
    np.testing.assert_array_equal(a.get(), (x + 1) * x)


def test_promotion_follows_numpy(pocl: int) -> None:
    i = xgpu.asarray(np.array([1, 2, 3], np.int32))
    assert (i * 2).dtype == np.int32 and (i / 2).dtype == np.float64
    assert (i + 0.5).dtype == np.float64
    assert (xgpu.asarray(np.ones(3, np.float32)) + i).dtype == np.float64
    assert (i + np.arange(3, dtype=np.int32)).dtype == np.int32  # a NumPy operand is uploaded
    with pytest.raises(TypeError, match="in place"):
        i += 0.5


def test_what_the_library_does_not_compute_raises(pocl: int) -> None:
    i64 = xgpu.asarray(np.arange(4))  # int64
    with pytest.raises(NotImplementedError, match=r"\+ on int64 arrays is not supported; it "
                                                  r"takes int32, uint32, float16, float32"):
        i64 + i64
    with pytest.raises(NotImplementedError, match="exp on int32"):
        xgpu.exp(xgpu.asarray(np.arange(4, dtype=np.int32)))
    with pytest.raises(NotImplementedError, match="no broadcasting"):
        xgpu.ones(3) + xgpu.ones(4)
    with pytest.raises(NotImplementedError, match="whole array"):
        xgpu.ones((2, 2)).sum(axis=0)
    with pytest.raises(NotImplementedError, match="2-D"):
        xgpu.ones(3) @ xgpu.ones(3)
    with pytest.raises(NotImplementedError, match="sort on int64"):
        xgpu.sort(i64)
    with pytest.raises(NotImplementedError, match="last axis"):
        xgpu.softmax(xgpu.ones((2, 2)), axis=0)
    with pytest.raises(ValueError, match="empty"):
        xgpu.zeros(0).max()
    with pytest.raises(TypeError):
        xgpu.ones(3) + "text"
