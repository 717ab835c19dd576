"""saxpy: y = a*x + y, three ways: a kernel of your own, an ElementwiseKernel, and arrays.

    python examples/python/saxpy.py
    XGPU_DEVICE=gpu python examples/python/saxpy.py
"""

import numpy as np

import xgpu

SAXPY = """
__kernel void saxpy(float a, __global const float* x, __global float* y, uint n) {
  uint i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
"""

n = 1 << 16
a = 2.0
x = xgpu.asarray(np.arange(n, dtype=np.float32))
y = xgpu.ones(n, np.float32)

# 1. OpenCL C, built for the current device (through the kernel cache), its arguments checked
#    and converted by the kernel's parameter types: a to float, n to uint.
kernel = xgpu.Program(SAXPY, name="saxpy.cl").kernel("saxpy")
kernel(n, a, x, y, n)

# 2. The same as one operation per element.
saxpy = xgpu.ElementwiseKernel("float a, float *x, float *y", "y[i] = a * x[i] + y[i]")
saxpy(a, x, y)

# 3. Arrays: each operator runs on the algorithms library.
y = a * x + y

expected = 3 * a * np.arange(n, dtype=np.float32) + 1
assert np.allclose(y.get(), expected), "wrong result"
print(f"saxpy on {xgpu.get_device_name()}: OK")
