"""xgpu.mpi: collectives across the ranks of an MPI job on xgpu arrays, through libxgpu-mpi
(docs/mpi.md), on mpi4py's communicators::

    from mpi4py import MPI
    import xgpu, xgpu.mpi
    xgpu.set_device(xgpu.mpi.select_device())   # node rank r takes device r
    grads = xgpu.asarray(...)
    xgpu.mpi.allreduce(grads)                   # in place: the sum over the ranks

Every call is collective over ``comm`` (default ``MPI.COMM_WORLD``; the first call with another
communicator is collective over it too: xgpu duplicates it) and runs in the order of the
array's stream (the current stream of its device, or ``stream=``), returning once the result
is in the array. Before any data moves the ranks compare what each was called with: different
sizes, dtypes, ops or roots, or an argument refused on any rank, raise on every rank (xgpu.Error
naming the difference; the refusing rank raises its own TypeError or ValueError) instead of
hanging. The bytes move through libxgpu-mpi's transports (mapped or staged, docs/mpi.md), never
through NumPy copies.

Needs mpi4py (``pip install 'xgpu[mpi]'``) on the MPI that libxgpu-mpi was built with, and an
xgpu built where CMake found MPI (the extension xgpu._mpi)."""

from __future__ import annotations

import atexit
import operator
import weakref
from typing import Any, Callable, Optional

import numpy as np

try:
    from mpi4py import MPI
except ImportError as error:
    raise ImportError(
        "xgpu.mpi needs mpi4py: pip install 'xgpu[mpi]' (or pip install mpi4py), on the MPI "
        "xgpu was built with (docs/mpi.md, \"Python\")") from error

try:
    from . import _mpi
except ImportError as error:
    raise ImportError(
        "xgpu.mpi: this xgpu was built without MPI, so it has no xgpu._mpi extension. Install "
        "an MPI (on Debian: apt-get install libopenmpi-dev openmpi-bin) and reinstall xgpu "
        "from source; CMake then builds libxgpu-mpi and the extension") from error

from . import _dtypes
from ._array import Array, empty
from ._device import Device
from ._errors import Error
from ._stream import Stream


def _same_library() -> None:
    """libxgpu-mpi and mpi4py must use one MPI library: two in one process cannot talk."""
    ours, theirs = (v.rstrip("\0").strip() for v in (_mpi.library_version(),
                                                     MPI.Get_library_version()))
    if ours != theirs:
        raise ImportError(
            f"xgpu.mpi: mpi4py runs another MPI library than libxgpu-mpi was built with "
            f"(mpi4py: {theirs.splitlines()[0]!r}; xgpu: {ours.splitlines()[0]!r}). Install "
            f"mpi4py for xgpu's MPI (pip install --no-binary mpi4py mpi4py, with that MPI's "
            f"mpicc first on PATH) or build xgpu against mpi4py's")


_same_library()

#: The reductions, by the names libxgpu-mpi gives them: sum, min, max, prod.
OPS: tuple[str, ...] = tuple(_mpi.ops())
#: The dtypes the collectives take.
DTYPES: frozenset[np.dtype] = frozenset(_dtypes.DTYPES[code] for code in _mpi.dtype_codes())

# libxgpu-mpi's Comm of each mpi4py communicator used so far (made once: it duplicates),
# by id() of the mpi4py object, which is weakly referenced (mpi4py's are unhashable).
_comms: dict[int, tuple[weakref.ref, Any]] = {}


def _comm(comm: Any) -> Any:
    if not isinstance(comm, MPI.Comm):
        raise TypeError(f"xgpu.mpi: comm is an mpi4py communicator (such as MPI.COMM_WORLD), "
                        f"not {type(comm).__name__}")
    if comm == MPI.COMM_NULL:
        raise ValueError("xgpu.mpi: comm is MPI.COMM_NULL (this rank is in no communicator)")
    if not isinstance(comm, MPI.Intracomm):
        raise TypeError(f"xgpu.mpi: the collectives take an intracommunicator, not "
                        f"{type(comm).__name__}")
    if not MPI.Is_initialized() or MPI.Is_finalized():
        raise Error("xgpu.mpi: MPI is not running (mpi4py initialises it at import unless "
                    "mpi4py.rc.initialize is False; call MPI.Init_thread() then)",
                    code="invalid_argument")
    if comm == MPI.COMM_WORLD:
        return _mpi.Comm.world()
    key = id(comm)
    known = _comms.get(key)
    if known is not None and known[0]() is comm:
        return known[1]
    made = _mpi.Comm.from_fortran(comm.py2f())
    _comms[key] = (weakref.ref(comm, lambda _, key=key: _comms.pop(key, None)), made)
    return made


def _array_problem(call: str, array: Any, what: str = "the array") -> Optional[Exception]:
    if not isinstance(array, Array):
        return TypeError(f"xgpu.mpi.{call}: {what} is an xgpu.Array, not {type(array).__name__} "
                         f"(mpi4py's own calls take host arrays)")
    if array.dtype not in DTYPES:
        return TypeError(f"xgpu.mpi.{call}: arrays of {array.dtype} are not supported; the "
                         f"collectives take {_dtypes.names(DTYPES)}")
    return None


def _stream_problem(call: str, stream: Any) -> Optional[Exception]:
    if stream is None or isinstance(stream, Stream):
        return None
    return TypeError(f"xgpu.mpi.{call}: stream is an xgpu.Stream or None, not "
                     f"{type(stream).__name__}")


def _op_code(call: str, op: Any) -> tuple[int, Optional[Exception]]:
    if isinstance(op, str) and op in OPS:
        return OPS.index(op), None
    return -1, ValueError(f"xgpu.mpi.{call}: unknown op {op!r}; the ops are {', '.join(OPS)}")


def _root(call: str, root: Any) -> tuple[int, Optional[Exception]]:
    try:
        return operator.index(root), None
    except TypeError:
        return 0, TypeError(f"xgpu.mpi.{call}: root is a rank (an int), not "
                            f"{type(root).__name__}")


def _refuse(join: Callable[[], None], problem: Exception) -> None:
    """This rank's arguments are wrong: it still joins the collective, refusing (libxgpu-mpi's
    agreement: every rank then raises instead of waiting for this one), and raises its own
    error, which names the mistake."""
    try:
        join()
    except Error:
        pass
    raise problem


def allreduce(array: Array, op: str = "sum", comm: Any = MPI.COMM_WORLD, *,
              stream: Optional[Stream] = None) -> Array:
    """Every rank's ``array`` becomes, in place, the reduction (``op``: sum, min, max, prod)
    of all of them; same size and dtype on every rank. Returns ``array``."""
    c = _comm(comm)
    code, problem = _op_code("allreduce", op)
    problem = (_array_problem("allreduce", array) or _stream_problem("allreduce", stream)
               or problem)
    if problem is not None:
        _refuse(lambda: _mpi.allreduce(None, None, 0, c), problem)
    _mpi.allreduce(array._b, array._b.stream_for(stream), code, c)
    return array


def reduce(array: Array, op: str = "sum", root: int = 0, comm: Any = MPI.COMM_WORLD, *,
           stream: Optional[Stream] = None) -> Array:
    """The reduction of every rank's ``array`` lands, in place, in ``root``'s; the other ranks'
    arrays are left as they were. Returns ``array``."""
    c = _comm(comm)
    code, problem = _op_code("reduce", op)
    at, root_problem = _root("reduce", root)
    problem = (_array_problem("reduce", array) or _stream_problem("reduce", stream) or problem
               or root_problem)
    if problem is not None:
        _refuse(lambda: _mpi.reduce(None, None, 0, 0, c), problem)
    _mpi.reduce(array._b, array._b.stream_for(stream), code, at, c)
    return array


def broadcast(array: Array, root: int = 0, comm: Any = MPI.COMM_WORLD, *,
              stream: Optional[Stream] = None) -> Array:
    """``root``'s ``array`` is copied into every other rank's. Returns ``array``."""
    c = _comm(comm)
    at, problem = _root("broadcast", root)
    problem = (_array_problem("broadcast", array) or _stream_problem("broadcast", stream)
               or problem)
    if problem is not None:
        _refuse(lambda: _mpi.broadcast(None, None, 0, c), problem)
    _mpi.broadcast(array._b, array._b.stream_for(stream), at, c)
    return array


def allgather(send: Array, recv: Optional[Array] = None, comm: Any = MPI.COMM_WORLD, *,
              stream: Optional[Stream] = None) -> Array:
    """Every rank's ``send``, stacked in rank order: ``recv`` (made when None, of shape
    ``(comm.size,) + send.shape`` on send's device; when given, of send's dtype and comm.size
    times its size) holds rank r's ``send`` in its block r. Returns ``recv``."""
    c = _comm(comm)
    problem = _array_problem("allgather", send, "send") or _stream_problem("allgather", stream)
    if problem is None and recv is not None:
        problem = _array_problem("allgather", recv, "recv")
        if problem is None and recv.dtype != send.dtype:
            problem = TypeError(f"xgpu.mpi.allgather: recv holds {recv.dtype}, send "
                                f"{send.dtype}: they need one dtype")
    if problem is not None:
        _refuse(lambda: _mpi.allgather(None, None, None, c), problem)
    on = send._b.stream_for(stream)
    if recv is None:
        recv = empty((c.size,) + send.shape, send.dtype, stream=on)
    _mpi.allgather(send._b, recv._b, on, c)
    return recv


def select_device(comm: Any = MPI.COMM_WORLD, selector: str = "") -> Device:
    """The device this rank should use: ``XGPU_DEVICE`` when set, else the devices ``selector``
    matches (empty: the GPUs, else the accelerators, else the CPUs), one per rank of this node
    in node-rank order (shared round-robin, with a warning, when there are fewer). Collective
    over ``comm``. Make it current with ``xgpu.set_device(...)``."""
    if not isinstance(selector, str):
        raise TypeError(f"xgpu.mpi.select_device: selector is a string, not "
                        f"{type(selector).__name__}")
    return Device(_mpi.select_device(_comm(comm), selector))


def _release() -> None:
    # Before mpi4py finalises MPI: waits for xgpu's pending collectives and frees its
    # duplicates of the communicators (as xgpu::mpi::Env does in a C++ program).
    if MPI.Is_initialized() and not MPI.Is_finalized():
        _mpi.release()
    _comms.clear()


atexit.register(_release)

__all__ = ["DTYPES", "OPS", "allgather", "allreduce", "broadcast", "reduce", "select_device"]
