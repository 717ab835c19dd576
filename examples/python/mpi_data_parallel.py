"""The Python twin of examples/mpi_data_parallel.cpp: its linear model and its data (bit for bit:
the same generator and seeds), trained on N MPI ranks, one device each. The rows are sharded
across the ranks and the weights replicated; each step every rank computes the gradient and its
share of the loss on its own rows, all-reduces both as one message (xgpu.mpi.allreduce, the
C++ example's GradientBucket done by hand: one array holds both) and applies the same update.
At the end every rank must hold the same weights, bit for bit, and they and every step's loss
must match the same loop on the host in double (the C++ example's tolerances).

    mpirun -np 2 python examples/python/mpi_data_parallel.py [SELECTOR]

(as root: docs/mpi.md). The loss printed is the whole data set's, summed over the ranks; 1 and
2 ranks print the same loss to the rounding docs/mpi.md states.
"""

import sys

import numpy as np
from mpi4py import MPI

import xgpu
import xgpu.mpi

ROWS, INPUTS, OUTPUTS, STEPS, RATE = 1001, 32, 4, 20, 1.0  # odd rows: shards differ in size
TOLERANCE = 1e-5       # |weight - host weight|, as the C++ example
LOSS_TOLERANCE = 1e-5  # |loss - host loss| / host loss, as the C++ example


def random_floats(n, bound, seed):
    """std::uniform_real_distribution<float>(-bound, bound) over std::mt19937(seed) as
    libstdc++ computes it (one 32-bit draw per float), so the data are the C++ example's."""
    raw = np.random.RandomState(seed)._bit_generator.random_raw(n)
    unit = raw.astype(np.float32) / np.float32(2.0**32)
    unit = np.minimum(unit, np.nextafter(np.float32(1), np.float32(0)))
    return unit * np.float32(2 * bound) + np.float32(-bound)


def host_training(x, y):
    """The loop on the host in double: the final weights and every step's loss."""
    x, y = x.astype(np.float64), y.astype(np.float64)
    w, losses = np.zeros((INPUTS, OUTPUTS)), []
    for _ in range(STEPS):
        residual = x @ w - y
        losses.append(float((residual * residual).sum() / (2.0 * ROWS)))
        w -= RATE / ROWS * (x.T @ residual)
    return w, losses


world = MPI.COMM_WORLD
rank, ranks = world.rank, world.size
xgpu.set_device(xgpu.mpi.select_device(world, sys.argv[1] if len(sys.argv) > 1 else ""))

# The same data set on every rank: Y = X W_true (summed in float in the C++ order), which a
# linear model fits.
X = random_floats(ROWS * INPUTS, 1.0, 1).reshape(ROWS, INPUTS)
W_TRUE = random_floats(INPUTS * OUTPUTS, 1.0, 2).reshape(INPUTS, OUTPUTS)
Y = np.zeros((ROWS, OUTPUTS), np.float32)
for i in range(INPUTS):
    Y += X[:, i:i + 1] * W_TRUE[i]

# This rank's rows [first, first + rows).
first = ROWS * rank // ranks
rows = ROWS * (rank + 1) // ranks - first
xs = xgpu.asarray(X[first:first + rows])
xs_t = xs.T
ys = xgpu.asarray(Y[first:first + rows])
w = xgpu.zeros((INPUTS, OUTPUTS), np.float32)
# The gradient and the loss, side by side: one all-reduce a step.
packed = xgpu.empty(INPUTS * OUTPUTS + 1, np.float32)
gradient = packed[:INPUTS * OUTPUTS].reshape(INPUTS, OUTPUTS)
loss = packed[INPUTS * OUTPUTS:]
print(f"rank {rank} of {ranks}: {rows} rows on {xgpu.get_device_name(xgpu.current_device())}",
      flush=True)

losses = []
for step in range(STEPS):
    if rows > 0:
        residual = xs @ w - ys
        gradient[:] = xs_t @ residual
        flat = residual.ravel()
        loss.fill(xgpu.dot(flat, flat) / np.float32(2 * ROWS))
    else:
        packed.fill(0)
    xgpu.mpi.allreduce(packed)  # every rank now holds the whole data set's gradient and loss
    losses.append(float(loss.get()[0]))
    w -= gradient * np.float32(RATE / ROWS)

# The weights: the same on every rank, bit for bit, and the host's to TOLERANCE.
mine = w.get()
differs = world.allreduce(int(not np.array_equal(world.bcast(mine, root=0), mine)), op=MPI.SUM)
host_w, host_losses = host_training(X, Y)
weight_error = float(np.abs(mine - host_w).max())
loss_errors = [abs(a - b) / b for a, b in zip(losses, host_losses)]
wrong = int(not weight_error <= TOLERANCE) + sum(not e <= LOSS_TOLERANCE for e in loss_errors)
failed = world.allreduce(int(differs != 0 or wrong != 0), op=MPI.MAX)
if rank == 0:
    print(f"{STEPS} steps on {ranks} rank(s): loss from {losses[0]:.9g} to {losses[-1]:.9g} "
          f"(host: {host_losses[0]:.9g} to {host_losses[-1]:.9g}); {differs} rank(s) differ "
          f"from rank 0; largest weight error against the host {weight_error:.3g} (allowed "
          f"{TOLERANCE:g}), largest relative loss error {max(loss_errors):.3g} (allowed "
          f"{LOSS_TOLERANCE:g})")
    print(f"mpi_data_parallel.py: {'WRONG' if failed else 'OK'}")
sys.exit(1 if failed else 0)
