"""Devices with torch.cuda's names, and the settings that choose them (XGPU_DEVICE,
XGPU_VISIBLE_DEVICES) behaving as in C++."""

from __future__ import annotations

import dataclasses
import json

import pytest

import xgpu
from conftest import run_python


def test_the_run_sees_its_devices(pocl: int, pocl2: int, oclgrind: int) -> None:
    assert xgpu.is_available()
    assert xgpu.device_count() == len(xgpu.devices()) >= 3
    assert xgpu.devices()[pocl] == xgpu.Device(pocl)
    assert "pocl" in repr(xgpu.devices()[pocl])
    assert xgpu.get_device_name(oclgrind) == "Oclgrind Simulator"
    assert xgpu.get_device_name(pocl).startswith("pthread")


def test_properties_hold_every_field(pocl: int) -> None:
    p = xgpu.get_device_properties(pocl)
    assert p.total_memory == p.global_memory > 0
    assert p.implementation == "pocl" and p.backend == "opencl" and p.type == "cpu"
    assert p.compute_units > 0 and p.max_work_group_size > 0
    assert p.base_address_alignment == 128
    assert isinstance(p.extensions, tuple) and "cl_khr_fp64" in p.extensions
    assert p.fp64
    # The same as xgpu query --json says (the C++ DeviceInfo, field by field).
    fields = {f.name for f in dataclasses.fields(p)}
    assert {"name", "vendor", "driver_version", "local_memory", "max_allocation",
            "host_unified_memory", "uuid", "pci_bus_id", "vendor_extras"} <= fields
    assert xgpu.get_device_properties(xgpu.Device(pocl)) == p
    assert xgpu.get_device_properties("pocl") == p


def test_current_device_and_selection(pocl: int, oclgrind: int) -> None:
    assert xgpu.current_device() == pocl  # the default prefers a CPU to a simulator
    with xgpu.device("oclgrind") as d:
        assert d.index == oclgrind == xgpu.current_device()
        assert xgpu.empty(3).device == oclgrind
    assert xgpu.current_device() == pocl
    xgpu.set_device(oclgrind)
    try:
        assert xgpu.zeros(2).device == oclgrind
    finally:
        xgpu.set_device(pocl)


def test_mem_get_info(pocl: int) -> None:
    xgpu.empty_cache()
    free, total = xgpu.mem_get_info(pocl)
    assert total == xgpu.get_device_properties(pocl).total_memory
    before = free
    a = xgpu.empty(3 << 20, xgpu.uint8, device=pocl)  # a segment of its own
    free, _ = xgpu.mem_get_info(pocl)  # PoCL reports no free memory: total less reserved
    assert free <= before - a.nbytes
    assert free == total - xgpu.memory_reserved(pocl)


def test_bad_device_names_raise() -> None:
    with pytest.raises(xgpu.Error) as error:
        xgpu.get_device_name("nvidai")
    assert error.value.code == "invalid_selector" and "nvidai" in str(error.value)
    with pytest.raises(xgpu.Error) as error:
        xgpu.set_device("nvidia")
    assert error.value.code == "no_device"
    with pytest.raises(IndexError, match="no device 99"):
        xgpu.get_device_properties(99)
    with pytest.raises(TypeError, match="a device is"):
        xgpu.get_device_name(1.5)


def test_settings_behave_as_in_cpp(pocl2: int, oclgrind: int) -> None:
    code = ("import xgpu, json; print(json.dumps([xgpu.device_count(), xgpu.current_device(), "
            "xgpu.get_device_name(xgpu.current_device())]))")
    out = run_python(code, {"XGPU_DEVICE": "oclgrind"})
    assert out.returncode == 0, out.stderr
    count, current, name = json.loads(out.stdout)
    assert name == "Oclgrind Simulator" and count == xgpu.device_count()
    out = run_python(code, {"XGPU_VISIBLE_DEVICES": "pocl:1,oclgrind"})
    assert out.returncode == 0, out.stderr
    count, current, name = json.loads(out.stdout)
    assert count == 2 and name.startswith("pthread")
    out = run_python("import xgpu; xgpu.device_count()", {"XGPU_VISIBLE_DEVICES": "nvidai"})
    assert out.returncode != 0 and "xgpu.Error: " in out.stderr and "nvidai" in out.stderr
