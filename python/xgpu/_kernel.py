"""Kernels: Program (OpenCL C built for a device through the shared kernel cache), its kernels
(called as ``k(global_size, *args, local_size=None, stream=None)``, returning an Event), Local
(work-group memory), and ElementwiseKernel (PyOpenCL's and CuPy's: one operation per element)."""

from __future__ import annotations

import re
import threading
from typing import Any, Iterable, Optional, Sequence, Union

from . import _dtypes, _xgpu
from ._device import DeviceLike, index_of
from ._stream import Stream

Kernel = _xgpu.Kernel


def Local(dtype: Any, count: int) -> Any:
    """Local (work-group) memory of ``count`` elements of ``dtype`` for one launch, for a
    ``local T*`` parameter."""
    if count < 0:
        raise ValueError(f"xgpu: local memory of {count} elements")
    return _xgpu.local(_dtypes.code(dtype), int(count))


def _options(options: Union[str, Iterable[str]]) -> str:
    return options if isinstance(options, str) else " ".join(options)


class Program:
    """OpenCL C built for one device (default: the current one), through the kernel cache
    shared by every process (a second process loads the binary instead of compiling). A build
    error raises xgpu.Error with code "build_failed", the driver's log in ``build_log`` and
    the mistake as ``name:line``. ``headers`` maps names to texts for ``#include "name"``."""

    def __init__(self, source: str, options: Union[str, Iterable[str]] = (),
                 name: str = "kernel.cl", device: DeviceLike = None,
                 headers: Optional[dict[str, str]] = None, *, stream: Optional[Stream] = None,
                 _built: Any = None) -> None:
        if _built is not None:
            self._program = _built
            return
        self._program = _xgpu.build(source, _options(options), name,
                                    list((headers or {}).items()),
                                    None if stream is not None else index_of(device), stream)

    def kernel(self, name: str) -> Kernel:
        """The kernel of that name; xgpu.Error (unknown_kernel) lists the program's kernels."""
        return self._program.kernel(name)

    def __getattr__(self, name: str) -> Kernel:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.kernel(name)

    @property
    def kernel_names(self) -> list[str]:
        return self._program.kernel_names

    @property
    def build_log(self) -> str:
        """The driver's log of the build (warnings; usually empty)."""
        return self._program.build_log

    @property
    def device(self) -> int:
        return self._program.device


_ARGUMENT = re.compile(r"^\s*(?P<type>[A-Za-z_][\w\s]*?)\s*(?P<pointer>\*?)\s*(?P<name>[A-Za-z_]\w*)\s*$")


class ElementwiseKernel:
    """One operation per element, as in PyOpenCL and CuPy::

        saxpy = xgpu.ElementwiseKernel("float a, float *x, float *y", "y[i] = a * x[i] + y[i]")
        saxpy(2.0, x, y)

    ``arguments`` are C declarations; a pointer is an array (global memory). ``operation`` is
    OpenCL C run for each index ``i`` (a ulong) below the size of the first array argument (or
    ``range=``). Built once per context, through the kernel cache."""

    def __init__(self, arguments: Union[str, Sequence[str]], operation: str,
                 name: str = "elementwise", preamble: str = "",
                 options: Union[str, Iterable[str]] = ()) -> None:
        parts = arguments.split(",") if isinstance(arguments, str) else list(arguments)
        declarations, self._arrays = [], []
        for position, part in enumerate(parts):
            match = _ARGUMENT.match(part)
            if match is None:
                raise ValueError(f"xgpu.ElementwiseKernel: cannot read the argument {part!r}")
            if match["pointer"]:
                declarations.append(f"__global {match['type']} *{match['name']}")
                self._arrays.append(position)
            else:
                declarations.append(f"{match['type']} {match['name']}")
        if not self._arrays:
            raise ValueError("xgpu.ElementwiseKernel: no array argument gives the size")
        self.name = name
        self._source = (f"{preamble}\n__kernel void {name}({', '.join(declarations)}, "
                        f"ulong xgpu_n) {{\n  ulong i = get_global_id(0);\n"
                        f"  if (i < xgpu_n) {{ {operation}; }}\n}}\n")
        self._options = _options(options)
        self._kernels: dict[Any, Kernel] = {}
        self._lock = threading.Lock()

    def _kernel_for(self, home: Stream) -> Kernel:
        # One build per context: the home stream's (the package's, or a DeviceGroup's).
        with self._lock:
            kernel = self._kernels.get(home.context_id)
        if kernel is None:
            program = _xgpu.build(self._source, self._options, f"{self.name}.cl", [], None, home)
            kernel = program.kernel(self.name)
            with self._lock:
                self._kernels[home.context_id] = kernel
        return kernel

    def __call__(self, *args: Any, range: Optional[int] = None,
                 stream: Optional[Stream] = None) -> Any:
        first = args[self._arrays[0]] if len(args) > self._arrays[0] else None
        home = getattr(first, "stream", None)
        if home is None:
            raise TypeError(f"xgpu.ElementwiseKernel: argument {self._arrays[0]} is an array "
                            f"parameter, got {type(first).__name__}")
        if range is None:
            range = first.size
        if range == 0:
            return _xgpu.Event()
        return self._kernel_for(home)(range, *args, range, stream=stream)


__all__ = ["ElementwiseKernel", "Kernel", "Local", "Program"]
