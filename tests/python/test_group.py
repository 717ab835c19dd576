"""DeviceGroup over the two PoCL devices: scatter, gather, broadcast, all_reduce_sum, for_each
with kernels and array operations on each device's stream, and errors naming the device."""

from __future__ import annotations

import numpy as np
import pytest

import xgpu


def test_scatter_for_each_gather(pocl: int, pocl2: int) -> None:
    group = xgpu.DeviceGroup("pocl")
    assert group.size == 2 and [d.index for d in group.devices] == [pocl, pocl2]
    host = np.arange(10_001, dtype=np.float32)
    d = group.scatter(host)
    assert sum(d.slice(i)[1] for i in range(2)) == host.size
    program = group.build("__kernel void twice(__global float* x) "
                          "{ x[get_global_id(0)] *= 2.0f; }", name="twice.cl")

    def body(stream: xgpu.Stream, i: int, part: tuple[int, int]) -> None:
        assert xgpu.current_stream(group.devices[i]) is stream
        piece = d.part(i)
        program[i].kernel("twice")(part[1], piece)
        piece += 1  # an array operation on the device's stream

    group.for_each(d, body)
    np.testing.assert_array_equal(group.gather(d), 2 * host + 1)


def test_broadcast_and_all_reduce(pocl: int, pocl2: int) -> None:
    group = xgpu.DeviceGroup([pocl, pocl2])
    d = group.broadcast(np.arange(6, dtype=np.int32))
    assert d.replicated
    group.for_each(6, lambda stream, i, part: d.part(i).fill(i + 1))
    group.all_reduce_sum(d)
    for i in range(2):
        assert d.part(i).get().tolist() == [3] * 6


def test_errors_name_the_device(pocl: int, pocl2: int) -> None:
    group = xgpu.DeviceGroup("pocl")

    def body(stream: xgpu.Stream, i: int, part: tuple[int, int]) -> None:
        if i == 1:
            raise ValueError("device one fails")

    with pytest.raises(xgpu.Error, match="device one fails"):
        group.for_each(100, body)
    with pytest.raises(xgpu.Error) as error:
        xgpu.DeviceGroup("nvidia")
    assert error.value.code == "no_device"
    with pytest.raises(NotImplementedError, match="float16"):
        group.all_reduce_sum(group.broadcast(np.ones(3, np.float16)))
