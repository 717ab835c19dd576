"""Array.astype on the device. Between the floating types (float16, bfloat16, float32, float64):
xgpu::cast, rounded once to nearest even. Every other pair: one kernel here for every pair of
element types, built once per context through the kernel cache. Conversions follow C's (and
NumPy's): floats to integers truncate, integers to floats round to nearest even (to bfloat16
once, as ml_dtypes does: to float rounded to odd, then to bfloat16), anything to bool is
"nonzero". float16 is read and written with vload_half/vstore_half_rte, which need no fp16
support; bfloat16 as its bits (ushort); float64 needs a device with fp64."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from . import _dtypes, _xgpu

# OpenCL C's name for each element type as stored (bool as uchar, float16 as half).
_C_TYPES = {
    "bool": "uchar", "int8": "char", "uint8": "uchar", "int16": "short", "uint16": "ushort",
    "int32": "int", "uint32": "uint", "int64": "long", "uint64": "ulong", "float16": "half",
    "float32": "float", "float64": "double", "bfloat16": "ushort",
}
_FLOATING = ("float16", "float32", "float64", "bfloat16")  # converted by xgpu::cast

_lock = threading.Lock()
_kernels: dict[int, Any] = {}


def _store(dst: str, value: str, src: str) -> str:
    if dst == "bool":
        return f"((__global uchar*)dst)[i] = (uchar)({value} != 0);"
    if dst == "float16":
        # From double as from float: one rounding to half, as NumPy's.
        wide = value if src in ("float16", "float32", "float64") else f"(float)({value})"
        return f"vstore_half_rte({wide}, i, (__global half*)dst);"
    if dst == "bfloat16":
        # From an integer (or bool): to float toward zero, the lowest bit set when that was
        # inexact (round to odd), then to nearest even in the top 16 bits: rounded once.
        return (f"{{ float f = convert_float_rtz({value}); uint b = as_uint(f); "
                f"if (({_C_TYPES[src]})f != {value}) b |= 1u; ((__global ushort*)dst)[i] = "
                f"(ushort)((b + 0x7fffu + ((b >> 16) & 1u)) >> 16); }}")
    return f"((__global {_C_TYPES[dst]}*)dst)[i] = ({_C_TYPES[dst]})({value});"


def source(fp64: bool) -> str:
    """One kernel for every pair: both arrays as bytes, the types as the extension's codes
    (python/src/common.hpp), a switch on each (uniform across the launch). Without fp64 the
    float64 cases are left out."""
    names = [n for n in _C_TYPES if fp64 or n != "float64"]
    codes = {name: code for code, name in enumerate(_C_TYPES)}
    lines = ["#pragma OPENCL EXTENSION cl_khr_fp64 : enable" if fp64 else "",
             "__kernel void xgpu_astype(__global const uchar* src, __global uchar* dst,",
             "                          uint src_code, uint dst_code, ulong n) {",
             "  ulong i = get_global_id(0);",
             "  if (i >= n) return;",
             "  switch (src_code) {"]
    for src in names:
        load = ("vload_half(i, (__global const half*)src)" if src == "float16"
                else "as_float((uint)((__global const ushort*)src)[i] << 16)"
                if src == "bfloat16" else f"((__global const {_C_TYPES[src]}*)src)[i]")
        value_type = "float" if src in ("float16", "bfloat16") else _C_TYPES[src]
        lines.append(f"    case {codes[src]}: {{")
        lines.append(f"      {value_type} v = {load};")
        lines.append("      switch (dst_code) {")
        for dst in names:
            if not (src in _FLOATING and dst in _FLOATING):
                lines.append(f"        case {codes[dst]}: {_store(dst, 'v', src)} break;")
        lines += ["      }", "      break;", "    }"]
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def _kernel(stream: Any) -> Any:
    with _lock:
        kernel = _kernels.get(stream.context_id)
    if kernel is None:
        fp64 = _xgpu.device_properties(stream.device)["fp64"]
        program = _xgpu.build(source(fp64), "", "astype.cl", [], None, stream)
        kernel = program.kernel("xgpu_astype")
        with _lock:
            _kernels[stream.context_id] = kernel
    return kernel


def convert(a: Any, dtype: np.dtype) -> Any:
    from ._array import empty
    if "float64" in (str(a.dtype), str(dtype)) and \
            not _xgpu.device_properties(a.stream.device)["fp64"]:
        raise NotImplementedError(f"xgpu: astype from {a.dtype} to {dtype} needs float64, "
                                  f"which device {a.device} lacks (no cl_khr_fp64)")
    out = empty(a.shape, dtype, stream=a.stream)
    if a.size and a.dtype.name in _FLOATING and dtype.name in _FLOATING:
        _xgpu.cast(a._b, out._b)
    elif a.size:
        # A view off the base-address alignment is no buffer a kernel takes: copy it first.
        source_buffer = a._b if a._b.kernel_can_take() else a.copy()._b
        _kernel(a.stream)(a.size, source_buffer.as_bytes(), out._b.as_bytes(),
                          _dtypes.code(a.dtype), _dtypes.code(dtype), a.size)
    return out
