"""xgpu.Feeder: batches made by a Python function on worker threads, uploaded from pinned memory
on a stream of their own while the compute stream works on the previous batch (the C++
xgpu::Feeder; PyTorch's DataLoader(num_workers, prefetch_factor, pin_memory, drop_last) and a
seeded shuffle)::

    images = np.load("train.npy")                       # (60000, 784) float32
    with xgpu.Feeder(lambda r: images[r.samples], samples=len(images), batch_size=256,
                     batch_bytes=256 * 784 * 4, workers=4, shuffle=True, seed=1) as feeder:
        for batch in feeder:                             # in order: index 0, 1, ...
            x = batch.array(np.float32, (-1, 784))       # on the device; the stream waits
            ...                                          # for its upload already

The workers hold the GIL only while they call the function (and copy what it returns into
pinned memory); next() waits without it. Feeders not closed are closed at interpreter exit."""

from __future__ import annotations

import atexit
import threading
import weakref
from typing import Any, Callable, Iterator, Optional

import numpy as np

from . import _dtypes, _xgpu
from ._array import Array, ShapeLike
from ._device import DeviceLike, index_of
from ._stream import Event, Stream

__all__ = ["Feeder", "FeederBatch"]

# Feeders not closed yet: closed by atexit, before the interpreter finalizes (its workers may
# then still take the GIL to finish the call they are in).
_OPEN: "weakref.WeakSet[Feeder]" = weakref.WeakSet()
_OPEN_LOCK = threading.Lock()


def _close_all() -> None:
    with _OPEN_LOCK:
        feeders = list(_OPEN)
    for feeder in feeders:
        feeder.close()


atexit.register(_close_all)


class FeederBatch:
    """One batch on the device: ``index`` (in its epoch), ``epoch``, ``samples`` (the sample
    indices the function was given), ``nbytes`` (what it returned), ``ready`` (the upload's
    Event; the feeder's stream already waits for it). The device memory is the feeder's: use
    it on the feeder's stream until the next call to next(), which may upload into it again
    (copy what you keep)."""

    __slots__ = ("_b", "index", "epoch", "samples", "nbytes", "ready")

    def __init__(self, batch: Any) -> None:
        self._b = batch
        self.index: int = batch.index
        self.epoch: int = batch.epoch
        self.samples: np.ndarray = batch.samples
        self.nbytes: int = batch.nbytes
        self.ready: Event = batch.ready

    def array(self, dtype: Any = np.uint8, shape: Optional[ShapeLike] = None) -> Array:
        """The batch's bytes as an Array of ``dtype`` (no copy), of ``shape`` (default 1-D; one
        dimension may be -1). ValueError when the bytes are not whole elements."""
        dt = _dtypes.dtype(dtype)
        flat = Array(self._b.buffer(_dtypes.code(dt)), (self.nbytes // dt.itemsize,))
        return flat if shape is None else flat.reshape(shape)

    def __repr__(self) -> str:
        return (f"xgpu.FeederBatch(index={self.index}, epoch={self.epoch}, "
                f"nbytes={self.nbytes}, samples={len(self.samples)})")


class Feeder:
    """Calls ``fill(request)`` on ``workers`` threads for every batch, each exactly once:
    ``request.index``, ``.epoch``, ``.samples`` (a NumPy int64 array of the batch's sample
    indices, in order), ``.count`` and ``.capacity`` (batch_bytes). It returns the batch as
    bytes-like data (bytes, a C-contiguous NumPy array) of at most batch_bytes bytes (0: an
    empty batch). Options as DataLoader's: ``samples`` (the data set's size), ``batch_size``,
    ``batch_bytes`` (the most bytes a batch takes), ``workers``, ``prefetch`` (batches
    uploaded ahead), ``drop_last``, ``shuffle`` with ``seed`` (a fixed order per seed, a new
    one each epoch), ``epochs``. ``stream``: the compute stream that uses the batches (default:
    the current stream of ``device``).

    Iterating (or next()) gives the batches in order. What ``fill`` raised for a batch is
    raised again by next() at that batch, its type kept, with a note naming the batch and
    epoch; the batches before it come first. close() (or the end of a ``with`` block) stops
    and joins every thread; idempotent. Option errors raise xgpu.Error naming the option."""

    def __init__(self, fill: Callable[[Any], Any], *, samples: int, batch_bytes: int,
                 batch_size: int = 1, workers: int = 2, prefetch: int = 2,
                 drop_last: bool = False, shuffle: bool = False, seed: int = 0,
                 epochs: int = 1, stream: Optional[Stream] = None,
                 device: DeviceLike = None) -> None:
        if not callable(fill):
            raise TypeError(f"xgpu.Feeder: fill must be callable, not {type(fill).__name__}")
        on = stream if stream is not None else _xgpu.current_stream(index_of(device))
        self._f = _xgpu.Feeder(fill, on, samples, batch_size, batch_bytes, workers, prefetch,
                               drop_last, shuffle, seed, epochs)
        self.stream: Stream = on
        with _OPEN_LOCK:
            _OPEN.add(self)

    def __len__(self) -> int:
        """Every batch the feeder delivers: batches per epoch times epochs."""
        return self._f.size()

    @property
    def batches_per_epoch(self) -> int:
        return self._f.batches_per_epoch()

    def next(self) -> Optional[FeederBatch]:
        """The next batch, or None after the last (or after close())."""
        batch = self._f.next()
        return None if batch is None else FeederBatch(batch)

    def __iter__(self) -> Iterator[FeederBatch]:
        return self

    def __next__(self) -> FeederBatch:
        batch = self.next()
        if batch is None:
            raise StopIteration
        return batch

    def close(self) -> None:
        """Stops the workers (each after the call it is in) and the uploads, joins every
        thread. Idempotent."""
        self._f.close()
        with _OPEN_LOCK:
            _OPEN.discard(self)

    def __enter__(self) -> "Feeder":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
