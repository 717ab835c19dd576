"""Data parallel over a DeviceGroup: a linear model's gradient computed on every device for its
shard of the rows, summed across devices (all_reduce_sum), and the same update applied to every
device's weights. The final weights must match the same loop on the host.

    python examples/python/data_parallel.py            every device
    python examples/python/data_parallel.py pocl       a selector
"""

import sys

import numpy as np

import xgpu

rows, inputs, steps, rate = 1001, 8, 10, 0.5
rng = np.random.default_rng(1)
X = rng.uniform(-1, 1, (rows, inputs)).astype(np.float32)
true_w = rng.uniform(-1, 1, inputs).astype(np.float32)
Y = X @ true_w

group = xgpu.DeviceGroup(sys.argv[1] if len(sys.argv) > 1 else "*")
print(f"{group.size} device(s): {', '.join(d.name for d in group.devices)}")
shards = group.split(rows)  # (offset, count) of the rows per device, by their speed
weights = group.broadcast(np.zeros(inputs, np.float32))   # a full copy on every device
gradient = group.broadcast(np.zeros(inputs, np.float32))
data = [None] * group.size  # device i's rows, uploaded at its first step


def shard_gradient(stream, i, part):
    # Runs on device i's thread with its stream current: arrays made here live on device i.
    if data[i] is None:
        o, c = shards[i]
        data[i] = xgpu.asarray(X[o:o + c]), xgpu.asarray(Y[o:o + c].reshape(-1, 1))
    x, y = data[i]
    if x.size == 0:
        gradient.part(i).fill(0)
        return
    residual = x @ weights.part(i).reshape(inputs, 1) - y
    gradient.part(i)[:] = (x.T @ residual).reshape(inputs) * (1.0 / rows)


def update(stream, i, part):
    w = weights.part(i)
    w -= gradient.part(i) * rate


for step in range(steps):
    group.for_each(gradient, shard_gradient)  # replicated: every device takes part
    group.all_reduce_sum(gradient)
    group.for_each(weights, update)

w_host = np.zeros(inputs, np.float64)
for step in range(steps):
    w_host -= rate * (X.astype(np.float64).T @ (X @ w_host - Y)) / rows
final = [weights.part(i).get() for i in range(group.size)]
for w in final:
    assert np.allclose(w, w_host, atol=1e-4), (w, w_host)
print(f"weights after {steps} steps: {np.round(final[0], 4)}")
print("data_parallel: OK")
