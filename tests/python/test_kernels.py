"""Kernels: Program and its kernels called with Python values converted by the parameter types,
xgpu.Local, vectors and structs, the named errors (argument count and type, build errors with
file:line and the log), ElementwiseKernel, and a cache hit in a second process."""

from __future__ import annotations

import json

import numpy as np
import pytest

import xgpu
from conftest import alignment, run_python, small

SAXPY = """
__kernel void saxpy(float a, __global const float* x, __global float* y, uint n) {
  uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
"""

MIXED = """
typedef struct { int base; float scale; } Params;
__kernel void mixed(Params p, float4 v, __global float* out, __local float* scratch,
                    double d, char c, ulong big) {
  scratch[get_local_id(0)] = p.scale * get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_global_id(0) == 0) {
    out[0] = p.base; out[1] = scratch[3]; out[2] = v.x + v.w; out[3] = (float)d;
    out[4] = c; out[5] = (float)(big >> 40);
  }
}
"""


def test_saxpy_with_python_numbers(device: int) -> None:
    n = small(device, 1 << 14)
    program = xgpu.Program(SAXPY, name="saxpy.cl")
    assert program.kernel_names == ["saxpy"] and program.device == device
    x, y = xgpu.asarray(np.arange(n, dtype=np.float32)), xgpu.ones(n)
    event = program.kernel("saxpy")(n, 2, x, y, n)  # 2 (an int) to the float a
    assert isinstance(event, xgpu.Event)
    event.synchronize()
    np.testing.assert_array_equal(y.get(), 2 * np.arange(n, dtype=np.float32) + 1)
    program.saxpy((n,), np.float64(0.5), x, y, np.int64(n), local_size=None)
    np.testing.assert_array_equal(y.get(), 2.5 * np.arange(n, dtype=np.float32) + 1)


def test_every_kind_of_argument(pocl: int) -> None:
    kernel = xgpu.Program(MIXED, name="mixed.cl").kernel("mixed")
    params = np.array([(7, 0.5)], dtype=[("base", np.int32), ("scale", np.float32)])[0]
    out = xgpu.zeros(6)
    kernel(8, params.tobytes(), (1, 2, 3, 4), out, xgpu.Local(np.float32, 8), 2.5, -3,
           3 << 40, local_size=8)
    assert out.get().tolist() == [7, 1.5, 5, 2.5, -3, 3]
    assert [p["name"] for p in kernel.parameters] == ["p", "v", "out", "scratch", "d", "c",
                                                      "big"]
    assert kernel.parameters[3]["space"] == "local" and kernel.parameters[1]["lanes"] == 4


def test_argument_errors_name_the_mistake(pocl: int) -> None:
    saxpy = xgpu.Program(SAXPY, name="saxpy.cl").kernel("saxpy")
    x = xgpu.zeros(4)
    with pytest.raises(xgpu.Error) as error:
        saxpy(4, 1.0, x, x)
    assert error.value.code == "argument_count" and "takes 4" in str(error.value)
    with pytest.raises(xgpu.Error) as error:
        saxpy(4, 1.0, x, xgpu.zeros(4, np.int32), 4)
    assert error.value.code == "argument_type" and "argument 2 (y)" in str(error.value)
    with pytest.raises(xgpu.Error) as error:
        saxpy(4, 1.0, x, x, -1)
    assert error.value.code == "argument_type" and "-1" in str(error.value)
    with pytest.raises(TypeError, match=r"argument 3 \(n\): expects uint, got float"):
        saxpy(4, 1.0, x, x, 4.5)
    with pytest.raises(TypeError, match=r"argument 1 \(x\): expects an xgpu.Array"):
        saxpy(4, 1.0, np.zeros(4, np.float32), x, 4)
    with pytest.raises(TypeError, match="no keyword 'locl_size'"):
        saxpy(4, 1.0, x, x, 4, locl_size=2)
    with pytest.raises(xgpu.Error) as error:
        saxpy(4, 1.0, x[1:], x, 3)  # a view off the 128-byte alignment
    assert f"base-address alignment ({alignment(pocl)} bytes)" in str(error.value)
    with pytest.raises(xgpu.Error) as error:
        saxpy((4, 4), 1.0, x, x, 4, local_size=(3,))
    assert error.value.code == "invalid_range"


def test_build_errors_carry_the_log(device: int) -> None:
    with pytest.raises(xgpu.Error) as error:
        xgpu.Program("__kernel void k(__global float* x) {\n  x[0] = undefined_thing;\n}\n",
                     name="broken.cl")
    assert error.value.code == "build_failed"
    assert "broken.cl:2" in str(error.value) and "undefined_thing" in error.value.build_log
    with pytest.raises(xgpu.Error) as error:
        xgpu.Program(SAXPY).kernel("saxpi")
    assert error.value.code == "unknown_kernel" and "saxpy" in str(error.value)


def test_elementwise_kernel(device: int) -> None:
    n = small(device, 5000)
    saxpy = xgpu.ElementwiseKernel("float a, float *x, float *y", "y[i] = a * x[i] + y[i]",
                                   name="saxpy_ew")
    x, y = xgpu.asarray(np.arange(n, dtype=np.float32)), xgpu.full(n, 1.0, np.float32)
    saxpy(3.0, x, y)
    np.testing.assert_array_equal(y.get(), 3 * np.arange(n, dtype=np.float32) + 1)
    square = xgpu.ElementwiseKernel(["int *v"], "v[i] = v[i] * v[i]")
    v = xgpu.asarray(np.arange(10, dtype=np.int32))
    square(v, range=5)
    assert v.get().tolist() == [0, 1, 4, 9, 16, 5, 6, 7, 8, 9]
    with pytest.raises(ValueError, match="no array argument"):
        xgpu.ElementwiseKernel("float a", "a = 1")


def test_a_second_process_hits_the_cache(tmp_path: object) -> None:
    if xgpu.get_device_properties().backend == "profile":
        pytest.skip("the profile module gives no program binaries to cache")
    code = (f"import xgpu, json; before = xgpu.cache_stats(); "
            f"xgpu.Program({SAXPY!r} + '// cache test', name='saxpy.cl'); "
            f"after = xgpu.cache_stats(); "
            f"print(json.dumps({{k: after[k] - before[k] for k in after}}))")
    env = {"XGPU_CACHE_DIR": str(tmp_path)}
    first = run_python(code, env)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["misses"] == 1
    second = run_python(code, env)
    assert second.returncode == 0, second.stderr
    counts = json.loads(second.stdout)
    assert counts["hits"] == 1 and counts["misses"] == 0
