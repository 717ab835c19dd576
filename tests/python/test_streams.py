"""Streams and events with torch.cuda's names; the GIL released in blocking waits, builds and
copies; two Python threads launching at once."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import xgpu

SPIN = """
__kernel void spin(__global float* x, uint rounds) {
  float v = x[get_global_id(0)];
  for (uint r = 0; r < rounds; ++r) v = v * 0.999f + 0.001f;
  x[get_global_id(0)] = v;
}
"""


def test_streams_and_events(pocl: int) -> None:
    default = xgpu.current_stream()
    s = xgpu.Stream(pocl)
    assert s.device == pocl and s.profiling and s != default
    with xgpu.stream(s):
        assert xgpu.current_stream() is s
        a = xgpu.ones(1000)
        start = xgpu.Event(enable_timing=True)
        start.record()
        b = a + a
        end = s.record_event()
    assert xgpu.current_stream() is default
    end.synchronize()
    assert end.query() and s.query()
    assert 0 <= start.elapsed_time(end) < 60_000
    other = xgpu.Stream(pocl)
    other.wait_event(end)
    other.wait_stream(s)
    with xgpu.stream(other):
        c = b * 2
    xgpu.synchronize()
    np.testing.assert_array_equal(c.get(), np.full(1000, 4, np.float32))
    with pytest.raises(ValueError, match="two recorded events"):
        xgpu.Event().elapsed_time(end)
    assert xgpu.Event().query()


def test_blocking_waits_release_the_gil(pocl: int) -> None:
    spin = xgpu.Program(SPIN, name="spin.cl").kernel("spin")
    x = xgpu.zeros(64)
    s = xgpu.Stream(pocl)
    rounds = 20_000_000
    for _ in range(4):  # a launch long enough to tell, on a fast machine too
        ticks: list[float] = []
        done = threading.Event()

        def tick() -> None:
            while not done.is_set():
                ticks.append(time.perf_counter())
                time.sleep(0.001)

        spin(64, x, rounds, stream=s)
        thread = threading.Thread(target=tick)
        thread.start()
        started = time.perf_counter()
        s.synchronize()
        waited = time.perf_counter() - started
        done.set()
        thread.join()
        if waited > 0.05:
            break
        rounds *= 4
    assert waited > 0.05, "the launch was too short to tell"
    during = [t for t in ticks if started <= t <= started + waited]
    assert len(during) >= 3, "the other thread did not run while synchronize() waited"


def test_two_threads_launch_at_once(pocl: int) -> None:
    kernel = xgpu.Program(SPIN, name="spin.cl").kernel("spin")
    arrays = [xgpu.zeros(256, device=pocl) for _ in range(2)]
    errors: list[BaseException] = []

    def work(a: xgpu.Array) -> None:
        try:
            for _ in range(200):
                kernel(256, a, 1)
            (a + a).sum()
        except BaseException as error:  # noqa: BLE001 (reported below)
            errors.append(error)

    threads = [threading.Thread(target=work, args=(a,)) for a in arrays]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    expected = np.float32(0)
    for _ in range(200):
        expected = np.float32(expected * np.float32(0.999) + np.float32(0.001))
    for a in arrays:
        np.testing.assert_allclose(a.get(), np.full(256, expected), rtol=1e-5)


def test_an_array_dropped_while_a_kernel_writes_it(pocl: int) -> None:
    """Its memory goes to no one before the kernel ends, not even an array of another stream
    (the pool orders that stream after the kernel)."""
    spin = xgpu.Program(SPIN.replace("= v;", "= v * 0.0f + 7.0f;"),
                        name="spin7.cl").kernel("spin")
    n = 4096
    x = xgpu.zeros(n)
    spin(n, x, 200_000)  # a while, then writes 7 everywhere
    del x
    other = xgpu.Stream(pocl)
    with xgpu.stream(other):
        y = xgpu.zeros(n)  # may take x's block: after the kernel, then
    xgpu.synchronize()
    assert y.get().tolist() == [0.0] * n


def test_parts_outlive_their_group(pocl: int, pocl2: int) -> None:
    group = xgpu.DeviceGroup("pocl")
    d = group.scatter(np.arange(100, dtype=np.float32))
    part = d.part(1)
    offset, count = d.slice(1)
    del group, d
    np.testing.assert_array_equal(part.get(), np.arange(offset, offset + count, dtype=np.float32))
    assert (part * 2).sum() == 2 * np.arange(offset, offset + count).sum()
