"""The element types of xgpu.Array, numbered as the extension numbers them
(python/src/common.hpp), and which operations take which.

bfloat16 is NumPy's only through the ml_dtypes package (JAX's): it is imported the first time
bfloat16 is asked for, never by ``import xgpu`` (it takes a good half second), and a clear
ImportError names the fix where it is missing."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

#: Every element type an Array may hold, in the extension's order; bfloat16 (code 12) is
#: appended when ml_dtypes is loaded (by_code gives it).
DTYPES: list[np.dtype] = [np.dtype(t) for t in (
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
    np.uint64, np.float16, np.float32, np.float64)]
BFLOAT16_CODE = 12
_CODES = {dtype: code for code, dtype in enumerate(DTYPES)}

#: The element-wise operations and reductions (bfloat16 is added to it and to FLOATING when
#: loaded). LIBRARY: what every operation of the algorithms library takes (transposes, scans).
ALGORITHM: set[np.dtype] = {np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int32,
                                                  np.uint32)}
LIBRARY = frozenset(ALGORITHM)
FLOATING: set[np.dtype] = {np.dtype(t) for t in (np.float16, np.float32, np.float64)}
#: What xgpu::cast converts between and softmax takes (bfloat16 joins CAST when loaded).
CAST: set[np.dtype] = set(FLOATING)
SOFTMAX = frozenset(FLOATING)
SORTABLE = frozenset(np.dtype(t) for t in (np.float32, np.int32, np.uint32))

_BFLOAT16_MISSING = ("xgpu: bfloat16 arrays need the ml_dtypes package, which gives NumPy its "
                     "bfloat16 (NumPy has none): pip install ml_dtypes (or xgpu[bfloat16])")
_lock = threading.Lock()


def bfloat16() -> np.dtype:
    """ml_dtypes' bfloat16 dtype, registered as code 12 at the first call; ImportError naming
    the fix when ml_dtypes is not installed."""
    if len(DTYPES) > BFLOAT16_CODE:
        return DTYPES[BFLOAT16_CODE]
    try:
        import ml_dtypes
    except ImportError:
        raise ImportError(_BFLOAT16_MISSING) from None
    with _lock:
        if len(DTYPES) == BFLOAT16_CODE:
            result = np.dtype(ml_dtypes.bfloat16)
            for group in (ALGORITHM, FLOATING, CAST):
                group.add(result)
            _CODES[result] = BFLOAT16_CODE
            DTYPES.append(result)
    return DTYPES[BFLOAT16_CODE]


def by_code(code: int) -> np.dtype:
    """The dtype of the extension's code."""
    return DTYPES[code] if code < len(DTYPES) else bfloat16()


def _is_bfloat16(value: Any) -> bool:
    """"bfloat16", ml_dtypes.bfloat16 or its dtype (seen without importing ml_dtypes)."""
    if isinstance(value, str):
        return value == "bfloat16"
    kind = value.type if isinstance(value, np.dtype) else value
    return (isinstance(kind, type) and kind.__name__ == "bfloat16"
            and kind.__module__.startswith("ml_dtypes"))


def names(dtypes: Any = None) -> str:
    every = [str(d) for d in DTYPES]
    if len(every) == BFLOAT16_CODE:
        every.append("bfloat16")
    if dtypes is None:
        return ", ".join(every)
    return ", ".join(str(d) for d in DTYPES if d in dtypes)


def dtype(value: Any) -> np.dtype:
    """``value`` as one of DTYPES; TypeError naming the supported ones otherwise (ImportError
    for bfloat16 without ml_dtypes)."""
    if _is_bfloat16(value):
        return bfloat16()
    try:
        result = np.dtype(value)
    except TypeError:
        raise TypeError(f"xgpu: {value!r} is not a dtype; arrays hold {names()}") from None
    result = result.newbyteorder("=") if result.byteorder == ">" else result
    if result not in _CODES:
        raise TypeError(f"xgpu: arrays of {result} are not supported; arrays hold {names()}")
    return result


def code(value: Any) -> int:
    """The extension's number for a dtype."""
    return _CODES[dtype(value)]
