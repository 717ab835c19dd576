"""Devices, with torch.cuda's names: is_available, device_count, devices, get_device_name,
get_device_properties, current_device, set_device, device (a context manager), mem_get_info.
A device is named by its index in devices(), a selector string ("gpu", "opencl:gpu:1",
"pocl", docs/selectors.md) or a Device; XGPU_DEVICE and XGPU_VISIBLE_DEVICES apply as in C++."""

from __future__ import annotations

import dataclasses
from typing import Any, Union

from . import _xgpu
from ._errors import Error


class Device:
    """One device of ``devices()``: its index, name and properties."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = int(index)

    @property
    def name(self) -> str:
        return get_device_name(self.index)

    @property
    def properties(self) -> "DeviceProperties":
        return get_device_properties(self.index)

    def __index__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other.index == self.index

    def __hash__(self) -> int:
        return hash(("xgpu.Device", self.index))

    def __repr__(self) -> str:
        return f"<xgpu.Device {_xgpu.describe(self.index)}>"


DeviceLike = Union[int, str, Device, None]


@dataclasses.dataclass(frozen=True)
class DeviceProperties:
    """Every field of the C++ ``xgpu::DeviceInfo``, and ``total_memory`` (torch's name for
    ``global_memory``). Sizes are in bytes."""

    index: int
    description: str
    backend: str
    platform_name: str
    platform_vendor: str
    platform_version: str
    name: str
    vendor: str
    vendor_id: int
    hardware_vendor: str
    implementation: str
    type: str
    device_version: str
    driver_version: str
    language_version: str
    global_memory: int
    max_allocation: int
    local_memory: int
    max_parameter_size: int
    max_constant_buffer_size: int
    base_address_alignment: int
    compute_units: int
    clock_mhz: int
    max_work_group_size: int
    max_work_item_sizes: tuple[int, int, int]
    work_group_multiple: int
    fp16: bool
    fp64: bool
    ecc: bool
    host_unified_memory: bool
    images: bool
    non_uniform_work_groups: bool
    extensions: tuple[str, ...]
    uuid: str
    pci_bus_id: str
    vendor_extras: dict[str, str]
    query_errors: dict[str, str]

    @property
    def total_memory(self) -> int:
        return self.global_memory

    @property
    def multi_processor_count(self) -> int:
        return self.compute_units


def index_of(device: DeviceLike) -> int:
    """The index in devices() of a device named any way; the current device for None."""
    if device is None:
        return _xgpu.current_device()
    if isinstance(device, str):
        return _xgpu.select(device)
    if isinstance(device, Device):
        return device.index
    try:
        index = device.__index__()
    except AttributeError:
        raise TypeError(f"xgpu: a device is an index, a selector string or an xgpu.Device, "
                        f"not {type(device).__name__}") from None
    count = _xgpu.device_count()
    if not 0 <= index < count:
        raise IndexError(f"xgpu: no device {index} (there are {count})")
    return index


def device_count() -> int:
    """How many devices xgpu sees (XGPU_VISIBLE_DEVICES applied)."""
    return _xgpu.device_count()


def is_available() -> bool:
    """Whether xgpu sees any device."""
    return device_count() > 0


def devices() -> list[Device]:
    """Every visible device, in xgpu's order (the indices every other call takes)."""
    return [Device(i) for i in range(device_count())]


def get_device_name(device: DeviceLike = None) -> str:
    return _xgpu.device_properties(index_of(device))["name"]


def get_device_properties(device: DeviceLike = None) -> DeviceProperties:
    p = _xgpu.device_properties(index_of(device))
    p["extensions"] = tuple(p["extensions"])
    p["max_work_item_sizes"] = tuple(p["max_work_item_sizes"])
    return DeviceProperties(**p)


def current_device() -> int:
    """The calling thread's device: set_device's, else XGPU_DEVICE's, else the best one (a GPU
    when there is one)."""
    return _xgpu.current_device()


def set_device(device: DeviceLike) -> None:
    _xgpu.set_device(index_of(device))


class device:
    """``with xgpu.device("opencl:gpu:1"):`` makes that device current for the block."""

    def __init__(self, device: DeviceLike) -> None:
        self._index = index_of(device)
        self._previous: list[int] = []

    def __enter__(self) -> Device:
        self._previous.append(_xgpu.current_device())
        _xgpu.set_device(self._index)
        return Device(self._index)

    def __exit__(self, *exc: Any) -> None:
        _xgpu.set_device(self._previous.pop())


def mem_get_info(device: DeviceLike = None) -> tuple[int, int]:
    """(free, total) bytes of the device's memory. Free is the driver's figure where it gives
    one (AMD); where it does not (NVIDIA's OpenCL, PoCL, Oclgrind) it is the total less what
    this process's xgpu contexts hold on the device (``memory_reserved``)."""
    index = index_of(device)
    total = _xgpu.device_properties(index)["global_memory"]
    free = _xgpu.free_memory(index)
    if free is None:
        free = max(0, total - _xgpu.memory_stats(index)["reserved"])
    return free, total


__all__ = ["Device", "DeviceProperties", "Error", "current_device", "device", "device_count",
           "devices", "get_device_name", "get_device_properties", "is_available",
           "mem_get_info", "set_device"]
