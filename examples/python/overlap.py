"""Pinned memory and two streams: while one stream computes on a chunk, the other uploads the
next, and the results come back asynchronously into pinned memory.

    python examples/python/overlap.py
"""

import numpy as np

import xgpu

chunks, n = 8, 1 << 18
host_in = xgpu.empty_pinned((chunks, n), np.float32)
host_out = xgpu.empty_pinned((chunks, n), np.float32)
host_in[:] = np.random.default_rng(0).standard_normal((chunks, n), dtype=np.float32)
print(f"pinned memory: {xgpu.is_pinned(host_in)}")

streams = [xgpu.Stream(), xgpu.Stream()]
for c in range(chunks):
    s = streams[c % 2]
    with xgpu.stream(s):
        x = xgpu.asarray(host_in[c], non_blocking=True)  # queued: returns at once
        y = xgpu.sigmoid(x) * 2 - 1                      # computed after the upload, on s
        y.get(out=host_out[c], non_blocking=True)        # queued download
for s in streams:
    s.synchronize()

expected = 2 / (1 + np.exp(-host_in.astype(np.float64))) - 1
assert np.allclose(host_out, expected, atol=1e-5), "wrong result"
print("overlap: OK")
