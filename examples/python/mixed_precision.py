"""Mixed precision, fed: a linear model trained with float16 gradients, float32 master weights and
a dynamic loss scale (xgpu.amp.LossScaler), its batches made by a Python function on worker
threads and uploaded while the device computes (xgpu.Feeder).

    python examples/python/mixed_precision.py
"""

import numpy as np

import xgpu

rng = np.random.default_rng(0)
n, d, m, lr = 4096, 16, 256, 0.1  # samples, features, batch size, learning rate
true_w = rng.standard_normal(d).astype(np.float32)
features = rng.standard_normal((n, d)).astype(np.float32)
targets = features @ true_w


def batch(request):
    # Runs on a worker thread (with the GIL, only for this call): the batch's rows, then targets.
    s = request.samples
    return np.concatenate([features[s].ravel(), targets[s]])


w = xgpu.zeros((d, 1))  # float32 master weights
scaler = xgpu.amp.LossScaler()  # starts at 2^16: too large for these gradients in float16
skipped = 0
with xgpu.Feeder(batch, samples=n, batch_size=m, batch_bytes=m * (d + 1) * 4, workers=2,
                 shuffle=True, seed=1, epochs=5, drop_last=True) as feeder:
    for b in feeder:  # the stream already waits for the batch's upload
        flat = b.array(np.float32)
        x16 = flat[:m * d].reshape(m, d).astype(np.float16)  # converted on the device
        y = flat[m * d:].reshape(m, 1)
        # Forward: float16 inputs, float32 accumulation and output.
        residual = xgpu.matmul(x16, w.astype(np.float16), out_dtype=np.float32) - y
        # Backward in float16, of the scaled loss: small gradients survive, large ones overflow.
        scaled = scaler.scale(residual * (2 / m)).astype(np.float16).reshape(1, m)
        grad = xgpu.matmul(scaled, x16)
        scaler.unscale(grad)  # divides by the scale, notes inf/NaN: no host wait
        if scaler.step_ok():  # one flag read per step
            w -= grad.astype(np.float32).reshape(d, 1) * lr
        else:
            skipped += 1
        scaler.update()

error = float(np.abs(w.get().ravel() - true_w).max())
print(f"{len(feeder)} steps, {skipped} skipped while the scale came down to "
      f"{scaler.get_scale():g}; largest weight error {error:.1e}")
assert 0 < skipped < len(feeder) and error < 0.01, "did not converge"
print("mixed precision: OK")
