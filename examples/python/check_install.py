"""Checks an xgpu install: lists the devices with their names and memory, and runs a kernel on
the current one. The first program to run after `pip install .`.

    python examples/python/check_install.py
"""

import numpy as np

import xgpu

if not xgpu.is_available():
    raise SystemExit("xgpu sees no device: run `xgpu doctor` to see why")

for device in xgpu.devices():
    p = device.properties
    print(f"{device.index}: {p.name} ({p.backend}, {p.implementation}), "
          f"{p.total_memory / 2**30:.1f} GiB, {p.compute_units} compute units")
current = xgpu.current_device()
print(f"current device: {current} {xgpu.get_device_name(current)}")

program = xgpu.Program("""
__kernel void square(__global const float* x, __global float* y) {
  size_t i = get_global_id(0);
  y[i] = x[i] * x[i];
}
""", name="square.cl")
x = xgpu.asarray(np.arange(8, dtype=np.float32))
y = xgpu.empty_like(x)
program.kernel("square")(x.size, x, y)
assert (y.get() == np.arange(8) ** 2).all(), y.get()
print(f"memory allocated by xgpu: {xgpu.memory_allocated()} bytes")
print("check_install: OK")
