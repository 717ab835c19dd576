"""The package's exceptions: every xgpu::Error of the C++ library arrives as one of these."""

from __future__ import annotations


class Error(RuntimeError):
    """An xgpu failure. ``str(e)`` is the C++ library's complete sentence naming the mistake.

    Attributes: ``code`` (the ``xgpu::Errc`` name: ``"argument_type"``, ``"build_failed"``,
    ``"out_of_memory"``, ...), ``call`` (the failing call), ``native_name`` (the driver's status,
    such as ``"CL_OUT_OF_RESOURCES"``), ``build_log`` and ``build_options`` (for a failed build:
    the driver's full log, with the source's ``file:line``), ``device``.
    """

    def __init__(self, message: str, code: str = "backend", call: str = "",
                 native_name: str = "", build_log: str = "", build_options: str = "",
                 device: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.call = call
        self.native_name = native_name
        self.build_log = build_log
        self.build_options = build_options
        self.device = device


class OutOfMemoryError(Error, MemoryError):
    """The device, or the memory limit, has no room: the message says what was asked and who
    holds what (torch.cuda.OutOfMemoryError's place)."""


# Tracebacks name them as users write them.
Error.__module__ = OutOfMemoryError.__module__ = "xgpu"
