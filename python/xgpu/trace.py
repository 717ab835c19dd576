"""A timeline of what xgpu did (docs/trace.md): ``xgpu.trace.start("trace.json")`` ...
``xgpu.trace.stop()``, and ``with xgpu.trace.range("step"):`` to name spans of host time. The
file opens in Perfetto (ui.perfetto.dev) and chrome://tracing. XGPU_TRACE=path does the same
from the environment."""

from __future__ import annotations

from typing import Any

from . import _xgpu


def start(path: str) -> None:
    """Starts writing a trace to ``path`` (a running one is stopped first)."""
    _xgpu.trace_start(str(path))


def stop() -> None:
    """Writes what is pending and closes the file; nothing when no trace runs."""
    _xgpu.trace_stop()


def flush() -> None:
    _xgpu.trace_flush()


def running() -> bool:
    return _xgpu.trace_running()


class range:  # noqa: A001 (torch.cuda.nvtx.range's place)
    """A named span of host time on this thread's track, for the ``with`` block."""

    def __init__(self, name: str) -> None:
        self._range = _xgpu.TraceRange(str(name))

    def __enter__(self) -> "range":
        self._range.begin()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._range.end()


__all__ = ["flush", "range", "running", "start", "stop"]
