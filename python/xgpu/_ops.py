"""What xgpu.Array computes, each on the algorithms library in the current stream: + - * /
(array and array of one shape, array and scalar, with NumPy's type promotion), abs, exp, log,
sqrt, tanh, sigmoid, relu, whole-array reductions (sum, min, max, argmin, argmax, dot, norm),
matmul and .T (2-D), sort, cumsum and softmax along the last axis. What the library does not
compute raises NotImplementedError saying what it does."""

from __future__ import annotations

import builtins
from typing import Any, Callable, Optional

import numpy as np

from . import _dtypes, _xgpu
from ._array import Array, asarray, empty, full

_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def _require(name: str, dtype: np.dtype, allowed: Any) -> None:
    if dtype not in allowed:
        raise NotImplementedError(f"xgpu: {name} on {dtype} arrays is not supported; it takes "
                                  f"{_dtypes.names(allowed)}")


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (bool, int, float, np.generic)) and np.ndim(value) == 0


def _operand(value: Any, like: Array) -> Optional[Array]:
    if isinstance(value, Array):
        return value
    if isinstance(value, (np.ndarray, list, tuple)):
        return asarray(value, device=like.device)
    return None


def _as(a: Array, dtype: np.dtype) -> Array:
    return a if a.dtype == dtype else a.astype(dtype)


def _binary(op: str, a: Any, b: Any, out: Optional[Array] = None) -> Any:
    """a op b, for an Array and an Array or a scalar, either side."""
    left = a if isinstance(a, Array) else None
    like = left if left is not None else b
    if _is_scalar(a) or _is_scalar(b):
        scalar = b if _is_scalar(b) else a
        dtype = np.result_type(like.dtype, scalar)
    else:
        x, y = _operand(a, like), _operand(b, like)
        if x is None or y is None:
            return NotImplemented
        if x.shape != y.shape:
            raise NotImplementedError(f"xgpu: {_SYMBOLS[op]} of arrays of shapes {x.shape} and "
                                      f"{y.shape}: both need one shape (no broadcasting)")
        dtype = np.result_type(x.dtype, y.dtype)
    if op == "div" and dtype.kind in "biu":
        dtype = np.dtype(np.float64)  # true division, as NumPy's
    _require(_SYMBOLS[op], dtype, _dtypes.ALGORITHM)
    if _is_scalar(a) or _is_scalar(b):
        filled = full(like.shape, a if _is_scalar(a) else b, dtype, stream=like.stream)
        x = filled if _is_scalar(a) else _as(like, dtype)
        y = filled if _is_scalar(b) else _as(like, dtype)
    else:
        x, y = _as(x, dtype), _as(y, dtype)
    if out is None:
        out = empty(like.shape, dtype, stream=like.stream)
    elif out.dtype != dtype:
        raise TypeError(f"xgpu: the result of {_SYMBOLS[op]} is {dtype}, which cannot be stored "
                        f"in the {out.dtype} array in place")
    if out.size:
        _xgpu.binary(op, x._b, y._b, out._b)
    return out


def _unary(name: str, a: Array, allowed: Any) -> Array:
    _require(name, a.dtype, allowed)
    out = empty(a.shape, a.dtype, stream=a.stream)
    if a.size:
        _xgpu.unary(name, a._b, out._b)
    return out


def _negative(a: Array) -> Array:
    _require("-", a.dtype, _dtypes.ALGORITHM)
    if a.dtype in _dtypes.FLOATING:  # -1 * x flips the sign bit exactly, also of 0 and NaN
        out = a.copy()
        if a.size:
            _xgpu.scale(out._b, -1.0)
        return out
    return _binary("sub", 0, a)  # integers wrap, as NumPy's


def exp(a: Array) -> Array:
    return _unary("exp", a, _dtypes.FLOATING)


def log(a: Array) -> Array:
    return _unary("log", a, _dtypes.FLOATING)


def sqrt(a: Array) -> Array:
    return _unary("sqrt", a, _dtypes.FLOATING)


def tanh(a: Array) -> Array:
    return _unary("tanh", a, _dtypes.FLOATING)


def sigmoid(a: Array) -> Array:
    """1 / (1 + exp(-a))."""
    return _unary("sigmoid", a, _dtypes.FLOATING)


def relu(a: Array) -> Array:
    """max(a, 0); NaN stays NaN."""
    return _unary("relu", a, _dtypes.ALGORITHM)


def abs(a: Array) -> Array:  # noqa: A001 (xgpu.abs, as numpy.abs)
    return _unary("abs", a, _dtypes.ALGORITHM)


# ---- Reductions over the whole array -------------------------------------------------------

def _whole(name: str, a: Array, axis: Any) -> None:
    if axis is not None and not (a.ndim == 1 and axis in (0, -1)):
        raise NotImplementedError(f"xgpu: {name} reduces the whole array only (axis=None)")


def _reduce(kind: str, a: Array, axis: Any, allowed: Any = _dtypes.ALGORITHM) -> Any:
    _whole(kind, a, axis)
    _require(kind, a.dtype, allowed)
    if a.size == 0 and kind != "sum":
        raise ValueError(f"xgpu: {kind} of an empty array, which has no "
                         f"{'largest' if 'max' in kind else 'smallest'} element")
    value = _xgpu.reduce(kind, a._b)
    return np.intp(value) if kind.startswith("arg") else a.dtype.type(value)


def sum(a: Array, axis: Any = None) -> Any:  # noqa: A001
    """The sum of every element, of the array's dtype (integers wrap modulo 2^32, where NumPy
    widens int32 to int64)."""
    return _reduce("sum", a, axis)


def min(a: Array, axis: Any = None) -> Any:  # noqa: A001
    return _reduce("min", a, axis)


def max(a: Array, axis: Any = None) -> Any:  # noqa: A001
    return _reduce("max", a, axis)


def argmin(a: Array, axis: Any = None) -> Any:
    return _reduce("argmin", a, axis)


def argmax(a: Array, axis: Any = None) -> Any:
    return _reduce("argmax", a, axis)


def norm(a: Array) -> Any:
    """The Euclidean norm of every element (overflow-safe)."""
    return _reduce("norm", a, None, _dtypes.FLOATING)


def dot(a: Array, b: Array) -> Any:
    """1-D by 1-D: the inner product (a scalar); 2-D by 2-D: matmul."""
    if a.ndim == 2 and b.ndim == 2:
        return matmul(a, b)
    if a.ndim != 1 or b.ndim != 1 or a.shape != b.shape:
        raise NotImplementedError(f"xgpu: dot takes two 1-D arrays of one length or two 2-D "
                                  f"arrays, not {a.shape} and {b.shape}")
    dtype = np.result_type(a.dtype, b.dtype)
    _require("dot", dtype, _dtypes.ALGORITHM)
    return dtype.type(_xgpu.dot(_as(a, dtype)._b, _as(b, dtype)._b))


# ---- Matrices, sorts, scans, softmax -----------------------------------------------------

def matmul(a: Array, b: Array, out_dtype: Any = None) -> Array:
    """The product of two 2-D arrays (the GEMM engines of the algorithms library), of their
    promoted dtype, or of ``out_dtype``: float32 from float16 or bfloat16 inputs is the mixed-
    precision GEMM (16-bit inputs, every product and sum in float). bfloat16 inputs and output
    compute that in float and round each element once."""
    if not isinstance(b, Array) or a.ndim != 2 or b.ndim != 2:
        raise NotImplementedError("xgpu: matmul takes two 2-D arrays")
    (m, k), (k2, n) = a.shape, b.shape
    if k != k2:
        raise ValueError(f"xgpu: matmul of {a.shape} and {b.shape}: inner dimensions differ")
    dtype = np.result_type(a.dtype, b.dtype)
    _require("matmul", dtype, _dtypes.FLOATING)
    result = dtype if out_dtype is None else _dtypes.dtype(out_dtype)
    sixteen = dtype.itemsize == 2
    if result != dtype and not (sixteen and result == np.float32):
        raise TypeError(f"xgpu: matmul of {dtype} arrays gives {dtype}, or float32 from float16 "
                        f"or bfloat16; not out_dtype={result}")
    bfloat16 = dtype.name == "bfloat16"  # no GEMM of bfloat16 into bfloat16: through float32
    out = empty((m, n), np.float32 if bfloat16 else result, stream=a.stream)
    if out.size:
        _xgpu.gemm(m, n, k, _as(a, dtype)._b, _as(b, dtype)._b, out._b)
    return out if out.dtype == result else out.astype(result)


def transpose(a: Array) -> Array:
    """A 2-D array's transpose, as a new array (arrays are C-contiguous); 0-d and 1-D arrays
    are their own."""
    if a.ndim < 2:
        return a
    if a.ndim > 2:
        raise NotImplementedError("xgpu: transposes take 2-D arrays")
    _require("transpose", a.dtype, _dtypes.LIBRARY)
    rows, cols = a.shape
    out = empty((cols, rows), a.dtype, stream=a.stream)
    if out.size:
        _xgpu.matrix_op("transpose", a._b, out._b, rows, cols)
    return out


def sort(a: Array) -> Array:
    """A sorted copy of a 1-D array (stable; floats in IEEE totalOrder: NaNs last)."""
    out = a.copy()
    _sort_in_place(out)
    return out


def _sort_in_place(a: Array) -> None:
    if a.ndim != 1:
        raise NotImplementedError("xgpu: sort takes 1-D arrays")
    _require("sort", a.dtype, _dtypes.SORTABLE)
    if a.size > 1:
        _xgpu.sort(a._b)


def cumsum(a: Array, axis: Any = None) -> Array:
    """The running sum of the elements in order (flattened), of the array's dtype."""
    _whole("cumsum", a, axis)
    _require("cumsum", a.dtype, _dtypes.LIBRARY)
    out = empty((a.size,), a.dtype, stream=a.stream)
    if a.size:
        _xgpu.cumsum(a._b, out._b)
    return out


def softmax(a: Array, axis: int = -1) -> Array:
    """exp(a - max) / sum(exp(a - max)) along the last axis."""
    if a.ndim == 0 or axis not in (-1, a.ndim - 1):
        raise NotImplementedError("xgpu: softmax runs along the last axis only")
    _require("softmax", a.dtype, _dtypes.SOFTMAX)
    out = empty(a.shape, a.dtype, stream=a.stream)
    cols = a.shape[-1]
    if a.size:
        _xgpu.matrix_op("softmax", a._b, out._b, a.size // cols, cols)
    return out


# ---- Array's operators and methods ---------------------------------------------------------

def _operator(op: str, reflected: bool = False) -> Callable[[Array, Any], Any]:
    if reflected:
        return lambda self, other: _binary(op, other, self)
    return lambda self, other: _binary(op, self, other)


def _in_place(op: str) -> Callable[[Array, Any], Any]:
    def apply(self: Array, other: Any) -> Any:
        result = _binary(op, self, other, out=self)
        return self if result is not NotImplemented else result
    return apply


for _name, _op in (("add", "add"), ("sub", "sub"), ("mul", "mul"), ("truediv", "div")):
    setattr(Array, f"__{_name}__", _operator(_op))
    setattr(Array, f"__r{_name}__", _operator(_op, reflected=True))
    setattr(Array, f"__i{_name}__", _in_place(_op))

Array.__neg__ = _negative
Array.__pos__ = lambda self: self
Array.__abs__ = abs
Array.__matmul__ = matmul
Array.__rmatmul__ = lambda self, other: matmul(asarray(other, device=self.device), self)
Array.T = property(transpose)
Array.sum = sum
Array.min = min
Array.max = max
Array.argmin = argmin
Array.argmax = argmax
Array.dot = dot
Array.norm = norm
Array.cumsum = cumsum
Array.sort = _sort_in_place
Array.softmax = softmax
Array.transpose = transpose

__all__ = ["abs", "argmax", "argmin", "cumsum", "dot", "exp", "log", "matmul", "max", "min",
           "norm", "relu", "sigmoid", "softmax", "sort", "sqrt", "sum", "tanh", "transpose"]
del builtins
