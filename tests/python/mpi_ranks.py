"""One rank of xgpu.mpi's tests, started by test_mpi.py under mpirun (1, 2 and 3 ranks): every
collective on every dtype and op, sizes 0, 1 and odd, in place (views too), roots other than 0,
a communicator of the program's own, explicit streams, select_device, and the errors (sizes,
dtypes and ops that differ between ranks raise on every rank, then the communicator still
works). A failed check aborts the whole job (MPI.COMM_WORLD.Abort) so that no rank waits for
it; the last line of a rank that passed is "rank R of N: K checks passed"."""

from __future__ import annotations

import sys
import traceback
from typing import Callable

import numpy as np
from mpi4py import MPI

import xgpu
import xgpu.mpi as xm

WORLD = MPI.COMM_WORLD
RANK, SIZE = WORLD.rank, WORLD.size
SIZES = (0, 1, 1001)
checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def values(dtype: np.dtype, n: int, rank: int) -> np.ndarray:
    """Small integers (1 to 11), so that every op is exact in every dtype at up to 3 ranks."""
    return (((np.arange(n) * 7 + rank * 3) % 11) + 1).astype(dtype)


def every_rank(dtype: np.dtype, n: int) -> np.ndarray:
    return np.stack([values(dtype, n, r) for r in range(SIZE)])


REDUCE = {"sum": np.sum, "min": np.min, "max": np.max, "prod": np.prod}


def expected(op: str, dtype: np.dtype, n: int) -> np.ndarray:
    return REDUCE[op](every_rank(dtype, n), axis=0).astype(dtype)


def raises(kind: type, text: str, call: Callable[[], object]) -> None:
    try:
        call()
    except kind as error:
        check(text in str(error), f"{kind.__name__} says {text!r}: {error}")
        return
    raise AssertionError(f"no {kind.__name__} ({text!r})")


def test_select_device() -> None:
    device = xm.select_device()
    pocl = [d.index for d in xgpu.devices()
            if xgpu.get_device_properties(d).implementation == "pocl"]
    check(len(pocl) == 2, f"two PoCL devices (POCL_DEVICES): {pocl}")
    # One node: node rank r takes device r mod 2 (the CPUs, Oclgrind never by a type word).
    check(device.index == pocl[RANK % len(pocl)], f"rank {RANK} got {device}")
    xgpu.set_device(device)


def test_allreduce() -> None:
    for dtype in sorted(xm.DTYPES, key=str):
        for op in xm.OPS:
            for n in SIZES:
                a = xgpu.asarray(values(dtype, n, RANK))
                check(xm.allreduce(a, op) is a, "allreduce returns its array")
                check(np.array_equal(a.get(), expected(op, dtype, n)),
                      f"allreduce {op} of {n} {dtype}: {a.get()[:8]}")
    # In place on a view: only its range changes.
    a = xgpu.asarray(values(np.float32, 101, RANK))
    xm.allreduce(a[10:21], "max")
    want = values(np.float32, 101, RANK)
    want[10:21] = every_rank(np.float32, 101)[:, 10:21].max(axis=0)
    check(np.array_equal(a.get(), want), "allreduce of a view changes only the view")
    # More than one staged chunk when test_mpi.py forces the staged transport (64 KiB chunks).
    n = (1 << 16) + 3
    a = xgpu.asarray(values(np.float32, n, RANK))
    xm.allreduce(a)
    check(np.array_equal(a.get(), expected("sum", np.float32, n)), f"allreduce of {n} floats")


def test_reduce() -> None:
    root = SIZE - 1  # not 0 whenever there are 2 ranks or more
    for dtype in sorted(xm.DTYPES, key=str):
        for op in xm.OPS:
            for n in SIZES:
                a = xgpu.asarray(values(dtype, n, RANK))
                xm.reduce(a, op, root=root)
                want = expected(op, dtype, n) if RANK == root else values(dtype, n, RANK)
                check(np.array_equal(a.get(), want), f"reduce {op} of {n} {dtype} to {root}")


def test_broadcast() -> None:
    for root in sorted({0, SIZE - 1}):
        for dtype in sorted(xm.DTYPES, key=str):
            for n in SIZES:
                a = xgpu.asarray(values(dtype, n, RANK))
                check(xm.broadcast(a, root=root) is a, "broadcast returns its array")
                check(np.array_equal(a.get(), values(dtype, n, root)),
                      f"broadcast of {n} {dtype} from {root}")


def test_allgather() -> None:
    for dtype in sorted(xm.DTYPES, key=str):
        for n in SIZES:
            got = xm.allgather(xgpu.asarray(values(dtype, n, RANK).reshape(1, n)))
            check(got.shape == (SIZE, 1, n) and got.dtype == dtype, f"allgather's shape {got}")
            check(np.array_equal(got.get().reshape(SIZE, n), every_rank(dtype, n)),
                  f"allgather of {n} {dtype}")
    recv = xgpu.zeros(SIZE * 3, np.int32)
    check(xm.allgather(xgpu.asarray(values(np.int32, 3, RANK)), recv) is recv, "recv returned")
    check(np.array_equal(recv.get(), every_rank(np.int32, 3).ravel()), "allgather into recv")


def test_streams_and_comms() -> None:
    # An explicit stream of the device.
    s = xgpu.Stream()
    a = xgpu.asarray(values(np.float64, 9, RANK), stream=s)
    xm.allreduce(a, "sum", stream=s)
    check(np.array_equal(a.get(), expected("sum", np.float64, 9)), "allreduce on a stream")
    # A communicator of the program's own: the even and the odd ranks apart.
    half = WORLD.Split(RANK % 2, RANK)
    members = list(range(RANK % 2, SIZE, 2))
    for _ in range(2):  # the second call finds the first one's duplicate
        a = xgpu.asarray(values(np.int64, 5, RANK))
        xm.allreduce(a, comm=half)
        want = np.sum([values(np.int64, 5, r) for r in members], axis=0)
        check(np.array_equal(a.get(), want), f"allreduce over ranks {members}")
    check(sum(1 for ref, _ in xm._comms.values() if ref() is half) == 1,
          "one duplicate per communicator")
    half.Free()


def test_errors() -> None:
    a = xgpu.asarray(values(np.float32, 4, RANK))
    # Wrong everywhere: each rank names the mistake.
    raises(ValueError, "unknown op 'avg'; the ops are sum, min, max, prod",
           lambda: xm.allreduce(a, "avg"))
    raises(TypeError, "arrays of int8 are not supported",
           lambda: xm.allreduce(xgpu.zeros(3, np.int8)))
    raises(TypeError, "is an xgpu.Array, not ndarray", lambda: xm.broadcast(np.zeros(3)))
    raises(xgpu.Error, f"root {SIZE} is not a rank", lambda: xm.broadcast(a, root=SIZE))
    raises(TypeError, "recv holds int32, send float32",
           lambda: xm.allgather(a, xgpu.zeros(4 * SIZE, np.int32)))
    raises(TypeError, "comm is an mpi4py communicator", lambda: xm.allreduce(a, comm=0))
    if SIZE > 1:
        # Different on one rank: every rank raises (no hang), the odd one its own error.
        raises(xgpu.Error, "disagree on the element count",
               lambda: xm.allreduce(xgpu.zeros(3 + (RANK == 1), np.float32)))
        raises(xgpu.Error, "disagree on the element type",
               lambda: xm.allreduce(xgpu.zeros(3, np.float32 if RANK else np.int32)))
        raises(xgpu.Error, "disagree on the root",
               lambda: xm.broadcast(a, root=RANK % 2))
        if RANK == 1:
            raises(ValueError, "unknown op 'mean'", lambda: xm.allreduce(a, "mean"))
            raises(TypeError, "arrays of uint8", lambda: xm.reduce(xgpu.zeros(4, np.uint8)))
        else:
            raises(xgpu.Error, "rank 1 refused its arguments", lambda: xm.allreduce(a, "sum"))
            raises(xgpu.Error, "rank 1 refused its arguments", lambda: xm.reduce(a))
    # The communicator still works.
    b = xgpu.asarray(values(np.float32, 4, RANK))
    xm.allreduce(b)
    check(np.array_equal(b.get(), expected("sum", np.float32, 4)), "allreduce after errors")


def main() -> None:
    try:
        for test in (test_select_device, test_allreduce, test_reduce, test_broadcast,
                     test_allgather, test_streams_and_comms, test_errors):
            test()
    except BaseException:
        print(f"rank {RANK} of {SIZE} FAILED:\n{traceback.format_exc()}", flush=True)
        WORLD.Abort(1)
    print(f"rank {RANK} of {SIZE}: {checks} checks passed", flush=True)


if __name__ == "__main__":
    main()
    sys.exit(0)
