"""Mixed precision and feeding: xgpu.bfloat16 (ml_dtypes'), Array.astype through xgpu::cast against
a host reference written with integer arithmetic and against NumPy/ml_dtypes (every float16 and
bfloat16 value, every rounding boundary, overflow, subnormals, NaN), xgpu.amp.LossScaler against a
host model of GradScaler over scripted clean and overflowing steps, and xgpu.Feeder over a Python
function (order, once each, a raising function, close mid-way, empty batches, more workers than
cores, the GIL released while next() waits, exit without close)."""

from __future__ import annotations

import ctypes
import math
import os
import threading
import time

import ml_dtypes  # a test dependency (tools/setup.sh installs it): no skip without it
import numpy as np
import pytest

import xgpu
from conftest import run_python

BF16 = np.dtype(ml_dtypes.bfloat16)

# ---- The host reference: round a double to a 16-bit format with integers ----------------------

# precision (significand bits with the implicit one), smallest normal exponent, exponent bits
FORMATS = {"float16": (11, -14, 5), "bfloat16": (8, -126, 8)}


def reference_bits(x: float, fmt: str) -> int | None:
    """The bits of ``x`` rounded to nearest even in ``fmt`` (None for NaN), from its exact
    significand and exponent: no floating-point arithmetic rounds anything here."""
    p, emin, ebits = FORMATS[fmt]
    infinity = ((1 << ebits) - 1) << (p - 1)
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    if math.isnan(x):
        return None
    if math.isinf(x):
        return sign | infinity
    if x == 0:
        return sign
    m, e = math.frexp(abs(x))
    mant, exp = int(m * 2 ** 53), e - 53  # |x| = mant * 2^exp exactly
    q = max(mant.bit_length() - 1 + exp, emin) - (p - 1)  # the exponent of one last-place unit
    shift = q - exp
    if shift <= 0:
        k = mant << -shift
    else:
        k, rest, half = mant >> shift, mant & ((1 << shift) - 1), 1 << (shift - 1)
        if rest > half or (rest == half and k & 1):
            k += 1
    if k == 1 << p:  # rounded up into the next binade
        k, q = k >> 1, q + 1
    if k < 1 << (p - 1):  # subnormal (or rounded up to the smallest normal: the same bits)
        return sign | k
    biased = q + (p - 1) + ((1 << (ebits - 1)) - 1)
    if biased >= (1 << ebits) - 1:
        return sign | infinity
    return sign | (biased << (p - 1)) | (k - (1 << (p - 1)))


def boundaries(fmt: str, stride: int) -> np.ndarray:
    """Every ``stride``-th pair of neighbouring finite values of ``fmt``, both signs: the values,
    the exact midpoints (ties), and the float32 neighbours of each midpoint; plus the overflow
    thresholds and the subnormal range."""
    bits = np.arange(0, 0x7c00 if fmt == "float16" else 0x7f80, stride, dtype=np.uint16)
    lo = bits.view(np.float16).astype(np.float64) if fmt == "float16" else \
        (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    step = np.spacing(lo.astype(np.float16)) if fmt == "float16" else \
        2.0 ** (np.floor(np.log2(np.maximum(lo, 2.0 ** -126))) - 7)
    mid = (lo + step.astype(np.float64) / 2).astype(np.float32)  # exact in float32
    near = np.concatenate([lo.astype(np.float32), mid, np.nextafter(mid, np.float32(np.inf)),
                           np.nextafter(mid, np.float32(0))])
    edges = np.array([65504, 65519.996, 65520, 65536, 3.3895e38, 3.3961e38, 3.4e38, 6e-8, 3e-8,
                      2.9e-8, 1e-45, 9.2e-41, np.inf], np.float32)
    values = np.concatenate([near, edges])
    return np.concatenate([values, -values, np.array([np.nan, -np.nan], np.float32)])


def assert_bits(got: np.ndarray, source: np.ndarray, fmt: str) -> None:
    """``got`` (16-bit results) against the integer reference of each source value."""
    got_bits = got.view(np.uint16)
    wrong = []
    for x, g in zip(source.tolist(), got_bits.tolist()):
        want = reference_bits(x, fmt)
        nan = (g & 0x7fff) > (0x7c00 if fmt == "float16" else 0x7f80)
        if (want is None and not nan) or (want is not None and g != want):
            wrong.append(f"{x!r} -> {g:#06x}, want {'NaN' if want is None else hex(want)}")
    assert not wrong, f"{len(wrong)} wrong ({fmt}), e.g. {wrong[:5]}"


def test_host_reference_against_numpy_and_ml_dtypes() -> None:
    # The reference itself, checked on the edges where NumPy (float16) and ml_dtypes (bfloat16)
    # round correctly, so that a device agreeing with it agrees with them.
    for fmt, numpy_type in (("float16", np.float16), ("bfloat16", BF16)):
        values = boundaries(fmt, 61)
        with np.errstate(over="ignore"):
            expected = values.astype(numpy_type).view(np.uint16)
        for x, want in zip(values.tolist(), expected.tolist()):
            if not math.isnan(x):
                assert reference_bits(x, fmt) == want, (fmt, x)


# ---- Casts on the device --------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
def test_every_16bit_value_widens_exactly_and_comes_back(pocl: int, fmt: str) -> None:
    every = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    host = every.view(np.float16) if fmt == "float16" else every.view(BF16)
    a = xgpu.asarray(host)
    assert a.dtype == host.dtype
    wide = a.astype(np.float32).get()
    exact = host.astype(np.float32)  # exact in NumPy and ml_dtypes
    nan = np.isnan(exact)
    np.testing.assert_array_equal(wide[~nan].view(np.uint32), exact[~nan].view(np.uint32))
    assert np.isnan(wide[nan]).all()
    np.testing.assert_array_equal(a.astype(np.float64).get()[~nan], exact[~nan].astype(np.float64))
    back = a.astype(np.float32).astype(fmt).get().view(np.uint16)
    np.testing.assert_array_equal(back[~nan], every[~nan])  # -0.0 and both infinities included
    assert np.isnan(back.view(host.dtype).astype(np.float32)[nan]).all()


@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
def test_narrowing_rounds_to_nearest_even_on_every_boundary(device: int, fmt: str) -> None:
    oclgrind = xgpu.get_device_properties(device).implementation == "oclgrind"
    source = boundaries(fmt, 997 if oclgrind else 7)
    got = xgpu.asarray(source).astype(fmt).get()
    assert got.dtype == np.dtype(fmt if fmt == "float16" else BF16)
    assert_bits(got, source.astype(np.float64), fmt)
    with np.errstate(over="ignore"):  # and NumPy / ml_dtypes agree, NaN aside
        numpy_bits = source.astype(got.dtype).view(np.uint16)
    keep = ~np.isnan(source)
    np.testing.assert_array_equal(got.view(np.uint16)[keep], numpy_bits[keep])


@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
def test_float64_narrows_once(pocl: int, fmt: str) -> None:
    if not xgpu.get_device_properties(pocl).fp64:
        pytest.skip("no fp64")
    ties = boundaries(fmt, 13).astype(np.float64)
    # Just off each tie: through float32 these would become the tie and round to even.
    source = np.concatenate([np.nextafter(ties, np.inf), np.nextafter(ties, -np.inf)])
    source = source[np.isfinite(source)]
    got = xgpu.asarray(source).astype(fmt).get()
    assert_bits(got, source, fmt)


def test_bfloat16_and_integers(pocl: int) -> None:
    ints = np.array([0, 1, -1, 255, 2 ** 24 + 2 ** 16 + 1, -(2 ** 24 + 2 ** 16 + 1), 2 ** 31 - 1,
                     -2 ** 31, 12345677], np.int32)
    got = xgpu.asarray(ints).astype(BF16).get()
    assert_bits(got, ints.astype(np.float64), "bfloat16")  # once, as ml_dtypes rounds it
    np.testing.assert_array_equal(got.view(np.uint16), ints.astype(BF16).view(np.uint16))
    for wide in (np.array([2 ** 40 + 2 ** 32 + 1, -(2 ** 40 + 2 ** 32 + 1), 2 ** 63 - 1], np.int64),
                 np.array([2 ** 64 - 1, 2 ** 40 + 2 ** 32 + 1], np.uint64)):
        got = xgpu.asarray(wide).astype(BF16).get()
        np.testing.assert_array_equal(got.view(np.uint16), wide.astype(BF16).view(np.uint16))
    values = np.array([1.5, -2.75, 300.0, -0.5, 0.0], np.float32).astype(BF16)
    a = xgpu.asarray(values)
    np.testing.assert_array_equal(a.astype(np.int32).get(), values.astype(np.int32))
    np.testing.assert_array_equal(a.astype(bool).get(), values.astype(bool))
    np.testing.assert_array_equal(xgpu.asarray([True, False]).astype("bfloat16").get(),
                                  np.array([1, 0], BF16))


def test_astype_same_dtype_is_a_copy_and_bad_dtypes_are_named(pocl: int) -> None:
    a = xgpu.asarray(np.array([1, 2, 3], BF16))
    b = a.astype(xgpu.bfloat16)
    b[0] = 7
    assert a.get().tolist() == [1, 2, 3] and b.get().tolist() == [7, 2, 3]
    assert a.astype("bfloat16", copy=False) is a
    with pytest.raises(TypeError, match="complex64 are not supported"):
        a.astype(np.complex64)
    with pytest.raises(TypeError, match="'nonsense' is not a dtype"):
        a.astype("nonsense")


def test_bfloat16_arrays_compute_in_float(device: int) -> None:
    x = np.array([1.5, -2.0, 3.0078125, 100.0, 0.0], np.float32).astype(BF16)
    y = np.array([0.25, 3.0, 1.0, -99.5, 2.0], np.float32).astype(BF16)
    a, b = xgpu.asarray(x), xgpu.asarray(y)
    for got, want in ((a + b, x + y), (a * b, x * y), (a - b, x - y), (a * 3, x * BF16.type(3)),
                      (-a, -x), (abs(b), abs(y))):
        assert got.dtype == BF16
        np.testing.assert_array_equal(got.get().view(np.uint16), want.view(np.uint16))
    assert a.sum() == x.astype(np.float32).sum() and a.max() == 100 and a.argmin() == 1
    with np.errstate(over="ignore"):  # e^100: infinity in float32 and bfloat16 alike
        np.testing.assert_allclose(xgpu.exp(a).get().astype(np.float32),
                                   np.exp(x.astype(np.float32)), rtol=2 ** -8)
    full = xgpu.full(3, 1 + 2 ** -8 + 2 ** -30, "bfloat16")  # rounded once from the double
    assert full.get().view(np.uint16).tolist() == [0x3F81] * 3
    # float16 too: through float, 1 + 2^-11 + 2^-40 would be a tie and round down to 1.0
    just_above_tie = 1 + 2 ** -11 + 2 ** -40
    full16 = xgpu.full(3, just_above_tie, "float16")
    want16 = int(np.array(just_above_tie).astype(np.float16).view(np.uint16))
    assert want16 == 0x3C01 and full16.get().view(np.uint16).tolist() == [want16] * 3
    with pytest.raises(NotImplementedError, match="cumsum on bfloat16"):
        a.cumsum()


def test_mixed_precision_matmul(device: int) -> None:
    rng = np.random.default_rng(5)
    m, k, n = 9, 33, 7
    for dtype in (np.float16, BF16):
        a16 = rng.standard_normal((m, k)).astype(np.float32).astype(dtype)
        b16 = rng.standard_normal((k, n)).astype(np.float32).astype(dtype)
        exact = a16.astype(np.float64) @ b16.astype(np.float64)
        a, b = xgpu.asarray(a16), xgpu.asarray(b16)
        c = xgpu.matmul(a, b, out_dtype=np.float32)
        assert c.dtype == np.float32
        bound = (k + 3) * 2.0 ** -23 * (np.abs(a16.astype(np.float64)) @
                                         np.abs(b16.astype(np.float64)))
        assert (np.abs(c.get() - exact) <= bound).all()  # float accumulation, nothing in 16 bits
        if dtype is BF16:  # bfloat16 out: the float result rounded once
            np.testing.assert_array_equal((a @ b).get().view(np.uint16),
                                          c.get().astype(BF16).view(np.uint16))
    with pytest.raises(TypeError, match="out_dtype=float64"):
        xgpu.matmul(a, b, out_dtype=np.float64)


def test_bfloat16_kernel_argument_is_ushort(pocl: int) -> None:
    program = xgpu.Program("__kernel void twice(__global ushort* x) {\n"
                           "  uint i = get_global_id(0);\n"
                           "  x[i] = as_uint(2.0f * as_float((uint)x[i] << 16)) >> 16;\n}\n")
    a = xgpu.asarray(np.array([1.5, -3.0], BF16))
    program.kernel("twice")(2, a)
    assert a.get().tolist() == [3.0, -6.0]


def test_bfloat16_in_pinned_memory_groups_and_dlpack(pocl: int, pocl2: int) -> None:
    host = xgpu.empty_pinned((5,), xgpu.bfloat16)
    host[:] = [1, 2, 3, 4.5, -0.0]
    assert host.dtype == BF16 and xgpu.is_pinned(host)
    a = xgpu.asarray(host, non_blocking=True)
    a.stream.synchronize()
    assert a.get().view(np.uint16).tolist() == host.view(np.uint16).tolist()
    group = xgpu.DeviceGroup([pocl, pocl2])
    parts = group.scatter(np.arange(9).astype(BF16))
    assert parts.dtype == BF16 and group.gather(parts).tolist() == list(range(9))
    with pytest.raises(NotImplementedError, match="bfloat16"):
        group.all_reduce_sum(parts)
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    dtype = ctypes.c_uint32.from_address(get(a.__dlpack__(), b"dltensor") + 20).value
    assert (dtype & 0xff, (dtype >> 8) & 0xff, dtype >> 16) == (4, 16, 1)  # kDLBfloat, 16, 1


def test_bfloat16_without_ml_dtypes_names_the_fix() -> None:
    result = run_python(
        "import sys; sys.modules['ml_dtypes'] = None\n"
        "import numpy as np, xgpu\n"
        "xgpu.asarray(np.ones(3, np.float32)).astype(np.float16)\n"
        "for attempt in (lambda: xgpu.bfloat16, lambda: xgpu.empty(3, 'bfloat16')):\n"
        "    try:\n"
        "        attempt()\n"
        "    except ImportError as e:\n"
        "        print('ImportError:', e)\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("pip install ml_dtypes") == 2, result.stdout
    lazy = run_python("import sys, xgpu, numpy as np\n"
                      "(xgpu.asarray(np.ones(3)) * 2).sum()\n"
                      "print('ml_dtypes' in sys.modules)")
    assert lazy.stdout.strip() == "False", lazy.stdout + lazy.stderr  # import xgpu stays fast


# ---- xgpu.amp.LossScaler -----------------------------------------------------------------------

class HostScaler:
    """GradScaler's rule, written again on the host."""

    def __init__(self, scale: float, growth: float, backoff: float, interval: int) -> None:
        self.scale, self.growth, self.backoff, self.interval = scale, growth, backoff, interval
        self.tracker = 0

    def update(self, overflow: bool) -> None:
        if overflow:
            self.scale *= self.backoff
            self.tracker = 0
        else:
            self.tracker += 1
            if self.tracker == self.interval:
                self.scale *= self.growth
                self.tracker = 0


def test_loss_scaler_follows_gradscaler_over_a_scripted_run(device: int) -> None:
    scaler = xgpu.amp.LossScaler(init_scale=2.0 ** 4, growth_interval=3)
    model = HostScaler(2.0 ** 4, 2.0, 0.5, 3)
    raw = np.array([0.5, -0.25, 1.5, 3.0], np.float32)
    # clean x3 (growth), inf, clean x2, NaN in bfloat16, -inf in float16, clean x3 (growth)
    script = ["", "", "", "inf", "", "", "nan-bf16", "-inf-f16", "", "", ""]
    scales = []
    for step, bad in enumerate(script):
        assert scaler.get_scale() == model.scale and scaler.growth_tracker() == model.tracker
        scale = scaler.get_scale()
        assert scaler.scale(2.0) == 2.0 * scale
        grads = {t: raw * scale for t in (np.float32, np.float16, BF16)}
        if bad == "inf":
            grads[np.float32][1] = np.inf
        elif bad == "nan-bf16":
            grads[BF16][3] = np.nan
        elif bad == "-inf-f16":
            grads[np.float16][0] = -np.inf
        arrays = [xgpu.asarray(g.astype(t)) for t, g in grads.items()]
        scaler.unscale(*arrays)
        assert scaler.step_ok() == (bad == "")
        if bad == "":
            for arr in arrays:  # divided by the scale (a power of two: exact)
                np.testing.assert_array_equal(arr.get().astype(np.float32), raw)
        scaler.update()
        model.update(bad != "")
        scales.append(scaler.get_scale())
    assert scales == [16, 16, 32, 16, 16, 16, 8, 4, 4, 4, 8]
    assert scaler.get_scale() == model.scale and scaler.growth_tracker() == model.tracker


def test_loss_scaler_defaults_arrays_streams_and_errors(pocl: int) -> None:
    scaler = xgpu.amp.LossScaler()
    assert scaler.state_dict() == {"scale": 65536.0, "growth_factor": 2.0,
                                   "backoff_factor": 0.5, "growth_interval": 2000,
                                   "_growth_tracker": 0}
    loss = xgpu.asarray(np.array([0.5, 1.0], np.float16))
    scaled = scaler.scale(loss)
    assert scaled.get().tolist() == [32768, np.inf]  # 65536 overflows float16
    assert loss.get().tolist() == [0.5, 1.0]  # the loss itself untouched
    with pytest.raises(xgpu.Error, match="unscale"):
        scaler.step_ok()  # no unscale in this step
    stream = xgpu.Stream()
    g = xgpu.asarray(np.array([65536.0], np.float32))
    scaler.unscale(stream, g)
    with pytest.raises(xgpu.Error, match="already unscaled in this step"):
        scaler.unscale(g, stream=stream)
    with pytest.raises(TypeError, match="int32"):
        scaler.unscale(xgpu.asarray(np.array([1], np.int32)))
    assert scaler.step_ok() and g.get().tolist() == [1.0]
    scaler.update()
    assert scaler.growth_tracker() == 1
    other = xgpu.amp.LossScaler()
    other.load_state_dict(scaler.state_dict())
    assert other.growth_tracker() == 1
    with pytest.raises(xgpu.Error, match="init_scale"):
        xgpu.amp.LossScaler(init_scale=0)
    off = xgpu.amp.LossScaler(enabled=False)
    off.unscale(g)
    assert off.get_scale() == 1.0 and off.scale(3.0) == 3.0 and off.step_ok()
    assert g.get().tolist() == [1.0]


# ---- xgpu.Feeder ------------------------------------------------------------------------------

def rows(samples: np.ndarray) -> np.ndarray:
    """The batch a test's fill function makes: each sample's index, times 10, as float32."""
    return (samples * 10).astype(np.float32)


def test_feeder_delivers_every_batch_once_in_order(device: int) -> None:
    calls: dict[tuple[int, int], int] = {}
    lock = threading.Lock()

    def fill(r):
        with lock:
            calls[(r.epoch, r.index)] = calls.get((r.epoch, r.index), 0) + 1
        assert r.count == len(r.samples) and r.capacity == 40
        return rows(r.samples)

    with xgpu.Feeder(fill, samples=23, batch_size=10, batch_bytes=40, workers=3, prefetch=2,
                     shuffle=True, seed=7, epochs=2) as feeder:
        assert len(feeder) == 6 and feeder.batches_per_epoch == 3
        seen = []
        for batch in feeder:
            x = batch.array(np.float32)
            np.testing.assert_array_equal(x.get(), rows(batch.samples))
            assert batch.nbytes == 4 * len(batch.samples)
            seen.append((batch.epoch, batch.index, batch.samples.tolist()))
    assert [(e, i) for e, i, _ in seen] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert calls == {(e, i): 1 for e in range(2) for i in range(3)}
    for epoch in range(2):  # each epoch a permutation, of its own order
        order = sum((s for e, _, s in seen if e == epoch), [])
        assert sorted(order) == list(range(23))
    assert seen[0][2] + seen[1][2] != seen[3][2] + seen[4][2]
    again = xgpu.Feeder(lambda r: rows(r.samples), samples=23, batch_size=10, batch_bytes=40,
                        shuffle=True, seed=7, epochs=2)
    assert [b.samples.tolist() for b in again] == [s for _, _, s in seen]  # fixed by the seed
    again.close()
    dropped = xgpu.Feeder(lambda r: b"", samples=23, batch_size=10, batch_bytes=4, drop_last=True)
    assert len(dropped) == 2 and [len(b.samples) for b in dropped] == [10, 10]
    dropped.close()


def test_feeder_raises_the_functions_exception_at_its_batch(pocl: int) -> None:
    def fill(r):
        if r.index == 4:
            raise ValueError("no such file: shard-4")
        return rows(r.samples)

    feeder = xgpu.Feeder(fill, samples=8, batch_bytes=4, workers=3)
    got = [feeder.next().index for _ in range(4)]
    assert got == [0, 1, 2, 3]  # the batches before it come first
    with pytest.raises(ValueError, match="shard-4") as caught:
        feeder.next()
    assert "batch 4 of epoch 0" in " ".join(caught.value.__notes__)
    with pytest.raises(ValueError, match="shard-4"):
        feeder.next()  # and every later call
    feeder.close()
    for bad, error, message in ((lambda r: 5, TypeError, "returned int for batch 0"),
                                (lambda r: bytes(9), ValueError, "9 bytes .* more than batch_")):
        with xgpu.Feeder(bad, samples=1, batch_bytes=8) as f, pytest.raises(error, match=message):
            f.next()
    with pytest.raises(xgpu.Error, match="batch_bytes"):
        xgpu.Feeder(fill, samples=8, batch_bytes=0)
    with pytest.raises(TypeError, match="callable"):
        xgpu.Feeder(None, samples=8, batch_bytes=4)


def test_feeder_close_midway_stops_the_workers(pocl: int) -> None:
    calls = []
    feeder = xgpu.Feeder(lambda r: calls.append(r.index) or rows(r.samples), samples=1000,
                         batch_bytes=4, workers=2, prefetch=2)
    assert feeder.next().index == 0 and feeder.next().index == 1
    feeder.close()
    made = len(calls)
    assert made < 1000 and feeder.next() is None and list(feeder) == []
    time.sleep(0.1)
    assert len(calls) == made  # joined: nothing calls the function any more
    feeder.close()  # idempotent
    selfish = xgpu.Feeder(lambda r: selfish.close(), samples=3, batch_bytes=4, workers=1)
    with pytest.raises(RuntimeError, match="from its own fill function"):
        selfish.next()  # refused (it would join its own thread), raised as the fill's error
    selfish.close()


def test_feeder_empty_batches_and_more_workers_than_cores(pocl: int) -> None:
    workers = 4 * (os.cpu_count() or 1)
    with xgpu.Feeder(lambda r: b"" if r.index % 3 == 0 else rows(r.samples), samples=40,
                     batch_size=2, batch_bytes=8, workers=workers, prefetch=3) as feeder:
        batches = list(feeder)
    assert [b.index for b in batches] == list(range(20))
    for b in batches:
        assert b.nbytes == (0 if b.index % 3 == 0 else 8)
    assert batches[0].array(np.float32).size == 0
    with xgpu.Feeder(lambda r: rows(r.samples), samples=0, batch_bytes=4) as none:
        assert len(none) == 0 and none.next() is None


def test_feeder_waits_without_the_gil() -> None:
    # The fill function waits for a Python thread's event: were next() to hold the GIL while it
    # waits, that thread could not run and the worker could not even start the call (a hang:
    # hence a process of its own, with a timeout).
    result = run_python(
        "import threading, numpy as np, xgpu\n"
        "go = threading.Event()\n"
        "def fill(r):\n"
        "    return np.ones(1, np.float32) if go.wait(timeout=5) else b'timed out'\n"
        "threading.Timer(0.2, go.set).start()\n"
        "with xgpu.Feeder(fill, samples=1, batch_bytes=9, workers=1) as feeder:\n"
        "    print(feeder.next().nbytes)\n", timeout=30)
    assert result.stdout.strip() == "4", result.stdout + result.stderr


def test_feeder_left_open_does_not_hang_the_exit() -> None:
    result = run_python(
        "import numpy as np, time, xgpu\n"
        "def slow(r):\n"
        "    time.sleep(0.05)\n"
        "    return np.full(4, r.index, np.float32)\n"
        "busy = xgpu.Feeder(slow, samples=10000, batch_bytes=16, workers=4)\n"
        "busy.next()\n"
        "idle = xgpu.Feeder(slow, samples=100, batch_bytes=16)\n"
        "def cycle(r):\n"
        "    return own.stream and b''\n"  # the function refers to its own feeder
        "own = xgpu.Feeder(cycle, samples=5, batch_bytes=1)\n"
        "print('exiting')\n", timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == "exiting", result.stderr
    assert "leaked" not in result.stderr, result.stderr


def test_feeder_in_a_cycle_is_collected_and_stopped() -> None:
    # A class that holds its feeder, whose function is the class's method: a cycle through C++,
    # which the collector must see (and close the feeder when it breaks it). The workers collect
    # too, while they run the function.
    result = run_python(
        "import gc, time, weakref, xgpu\n"
        "calls = []\n"
        "class Loader:\n"
        "    def __init__(self):\n"
        "        self.feeder = xgpu.Feeder(self.load, samples=100000, batch_bytes=4)\n"
        "    def load(self, r):\n"
        "        calls.append(r.index)\n"
        "        gc.collect()\n"
        "        return b'1234'\n"
        "loader = Loader()\n"
        "loader.feeder.next()\n"
        "alive = weakref.ref(loader)\n"
        "del loader\n"
        "gc.collect()\n"
        "made = len(calls)\n"
        "time.sleep(0.2)\n"
        "print(alive() is None, len(calls) == made)\n", timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == "True True", \
        result.stdout + result.stderr
    assert "leaked" not in result.stderr, result.stderr
