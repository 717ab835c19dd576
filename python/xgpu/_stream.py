"""Streams and events, with torch.cuda's names: Stream, Event, current_stream, stream (a context
manager), synchronize. Every operation without ``stream=`` runs on the current stream of its
array's device; each device has a default stream until another is made current."""

from __future__ import annotations

from typing import Any, Optional

from . import _xgpu
from ._device import DeviceLike, index_of

Stream = _xgpu.Stream
Event = _xgpu.Event


def current_stream(device: DeviceLike = None) -> Stream:
    """The calling thread's current stream on ``device`` (default: the current device)."""
    return _xgpu.current_stream(index_of(device))


class stream:
    """``with xgpu.stream(s):`` makes ``s`` current on its device for the block (this thread)."""

    def __init__(self, s: Optional[Stream]) -> None:
        self._stream = s
        self._previous: list[Stream] = []

    def __enter__(self) -> Optional[Stream]:
        if self._stream is not None:
            self._previous.append(_xgpu.set_stream(self._stream))
        return self._stream

    def __exit__(self, *exc: Any) -> None:
        if self._stream is not None:
            _xgpu.set_stream(self._previous.pop())


def synchronize(device: DeviceLike = None) -> None:
    """Blocks until every stream of ``device`` (default: the current device) has finished."""
    _xgpu.synchronize(index_of(device))


__all__ = ["Event", "Stream", "current_stream", "stream", "synchronize"]
