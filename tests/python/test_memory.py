"""Memory with torch.cuda's names: the statistics follow allocations exactly, empty_cache returns
cached blocks, a memory fraction makes an allocation raise OutOfMemoryError (also a MemoryError)
with the C++ text, and pinned memory gives asynchronous copies."""

from __future__ import annotations

import numpy as np
import pytest

import xgpu
from conftest import run_python


def test_statistics_follow_allocations(pocl2: int) -> None:
    xgpu.reset_peak_memory_stats(pocl2)
    before = xgpu.memory_allocated(pocl2)
    stats = xgpu.memory_stats(pocl2)
    assert set(stats) == {"allocated", "reserved", "peak_allocated", "peak_reserved",
                          "active_blocks", "num_allocs", "num_frees", "num_ooms", "num_retries",
                          "limit"}
    a = xgpu.empty(1000, np.float32, device=pocl2)
    b = xgpu.empty(3 << 20, np.uint8, device=pocl2)
    assert xgpu.memory_allocated(pocl2) == before + 4000 + (3 << 20)
    assert xgpu.memory_reserved(pocl2) >= xgpu.memory_allocated(pocl2)
    assert xgpu.max_memory_allocated(pocl2) >= before + 4000 + (3 << 20)
    peak = xgpu.max_memory_reserved(pocl2)
    del a, b
    assert xgpu.memory_allocated(pocl2) == before
    assert xgpu.memory_reserved(pocl2) >= 3 << 20  # cached, not returned
    xgpu.empty_cache()
    assert xgpu.memory_reserved(pocl2) < 3 << 20
    assert xgpu.max_memory_reserved(pocl2) == peak


def test_out_of_memory_raises_with_the_cpp_text() -> None:
    # In a process of its own: the limit is the device's for the process.
    out = run_python(
        "import xgpu, numpy as np\n"
        "xgpu.set_per_process_memory_fraction(0.001)\n"
        "total = xgpu.get_device_properties().total_memory\n"
        "try:\n"
        "    xgpu.empty(total // 100, np.uint8)\n"
        "except xgpu.OutOfMemoryError as e:\n"
        "    assert isinstance(e, MemoryError) and isinstance(e, xgpu.Error)\n"
        "    assert e.code == 'out_of_memory', e.code\n"
        "    print(e)\n"
        "print(xgpu.memory_stats()['num_ooms'])\n")
    assert out.returncode == 0, out.stderr
    message, ooms = out.stdout.strip().splitlines()
    assert "tried to allocate" in message and "limit" in message and "allocated by xgpu" in message
    assert ooms == "1"
    with pytest.raises(ValueError, match="fraction"):
        xgpu.set_per_process_memory_fraction(1.5)


def test_pinned_memory_and_non_blocking_copies(device: int) -> None:
    n = 4096 if xgpu.get_device_properties(device).implementation == "pocl" else 64
    pinned = xgpu.empty_pinned((n,), np.float32)
    assert pinned.shape == (n,) and pinned.dtype == np.float32
    assert xgpu.is_pinned(pinned) and xgpu.is_pinned(pinned[8:16])
    assert not xgpu.is_pinned(np.zeros(4, np.float32))
    pinned[:] = np.arange(n, dtype=np.float32)
    s = xgpu.Stream()
    with xgpu.stream(s):
        a = xgpu.asarray(pinned, non_blocking=True)
        # Queued, with an Event to wait for; from ordinary memory the copy has completed.
        assert a.set(pinned, non_blocking=True).recorded
        assert not a.set(pinned.copy(), non_blocking=True).recorded
        b = a * 2
        out = xgpu.empty_pinned(n, np.float32)
        b.get(out=out, non_blocking=True)
    s.synchronize()
    np.testing.assert_array_equal(out, 2 * np.arange(n, dtype=np.float32))
    part = xgpu.empty_pinned(8, np.float32)
    b[8:16].get(out=part, non_blocking=True)  # on the current stream, the default one
    xgpu.synchronize()
    np.testing.assert_array_equal(part, 2 * np.arange(8, 16, dtype=np.float32))
    empty = xgpu.empty_pinned((0, 3), np.int16)
    assert empty.shape == (0, 3)
