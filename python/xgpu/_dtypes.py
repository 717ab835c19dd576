"""The element types of xgpu.Array, numbered as the extension numbers them
(python/src/common.hpp), and which operations take which."""

from __future__ import annotations

from typing import Any

import numpy as np

#: Every element type an Array may hold, in the extension's order.
DTYPES: tuple[np.dtype, ...] = tuple(np.dtype(t) for t in (
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
    np.uint64, np.float16, np.float32, np.float64))
_CODES = {dtype: code for code, dtype in enumerate(DTYPES)}

#: What the algorithms library computes on (arithmetic, reductions, scans, transposes).
ALGORITHM = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int32,
                                            np.uint32))
FLOATING = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))
SORTABLE = frozenset(np.dtype(t) for t in (np.float32, np.int32, np.uint32))
NAMES = ", ".join(str(d) for d in DTYPES)


def dtype(value: Any) -> np.dtype:
    """``value`` as one of DTYPES; TypeError naming the supported ones otherwise."""
    try:
        result = np.dtype(value)
    except TypeError:
        raise TypeError(f"xgpu: {value!r} is not a dtype; arrays hold {NAMES}") from None
    result = result.newbyteorder("=") if result.byteorder == ">" else result
    if result not in _CODES:
        raise TypeError(f"xgpu: arrays of {result} are not supported; arrays hold {NAMES}")
    return result


def code(value: Any) -> int:
    """The extension's number for a dtype."""
    return _CODES[dtype(value)]


def names(dtypes: frozenset[np.dtype]) -> str:
    return ", ".join(str(d) for d in DTYPES if d in dtypes)
