"""Shared set-up of the Python tests (run by tools/setup.sh test; see docs/python.md):

    OCL_ICD_VENDORS=build/tests/icd POCL_DEVICES="pthread pthread" XGPU_CACHE_DIR=<tmp> \\
        .venv/bin/python -m pytest tests/python

sees two PoCL devices and Oclgrind. Each test that needs one asks for the fixture: ``pocl``
(the first PoCL device), ``pocl2`` (the second), ``oclgrind``, or ``device`` (each of PoCL and
Oclgrind in turn; Oclgrind interprets every work-item, so sizes stay tiny there). A device the
run must have and lacks fails the test (XGPU_TEST_REQUIRE_PLATFORMS, as for the C++ tests);
otherwise it is skipped with the reason.

``--on SELECTOR`` runs the tests on that one device instead: ``pocl`` and ``device`` are it, and
the tests of the other devices are skipped (tools/setup.sh runs the device-generic files so under
the ``nvidia-h100`` profile, whose limits and GPU code paths run on PoCL)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import xgpu

ROOT = Path(__file__).resolve().parents[2]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--on", default=None, metavar="SELECTOR",
                     help="run the tests on this device only (e.g. profile)")


def _only(config: pytest.Config) -> int | None:
    selector = config.getoption("--on")
    return None if selector is None else xgpu.get_device_properties(selector).index


def _required() -> set[str]:
    return {p for p in os.environ.get("XGPU_TEST_REQUIRE_PLATFORMS", "").split(",") if p}


def _find(implementation: str, nth: int = 0) -> int:
    found = [d.index for d in xgpu.devices()
             if xgpu.get_device_properties(d).implementation == implementation]
    if len(found) > nth:
        return found[nth]
    why = f"no {'second ' if nth else ''}{implementation} device"
    if implementation in _required():
        pytest.fail(f"{why}, which XGPU_TEST_REQUIRE_PLATFORMS requires")
    pytest.skip(why)


@pytest.fixture
def pocl(request: pytest.FixtureRequest) -> int:
    """The first PoCL device (or --on's), current for the test."""
    only = _only(request.config)
    index = _find("pocl") if only is None else only
    with xgpu.device(index):
        yield index


@pytest.fixture
def pocl2(request: pytest.FixtureRequest) -> int:
    if _only(request.config) is not None:
        pytest.skip("--on runs one device")
    return _find("pocl", 1)


@pytest.fixture
def oclgrind(request: pytest.FixtureRequest) -> int:
    if _only(request.config) is not None:
        pytest.skip("--on runs one device")
    return _find("oclgrind")


@pytest.fixture(params=["pocl", "oclgrind"])
def device(request: pytest.FixtureRequest) -> int:
    """Each platform in turn (or --on's device once), current for the test."""
    only = _only(request.config)
    if only is not None and request.param != "pocl":
        pytest.skip("--on runs one device")
    index = _find(request.param) if only is None else only
    with xgpu.device(index):
        yield index


def alignment(device: int) -> int:
    return xgpu.get_device_properties(device).base_address_alignment


def small(device: int, wanted: int) -> int:
    """``wanted`` elements, or a few on Oclgrind (it interprets every work-item)."""
    oclgrind = xgpu.get_device_properties(device).implementation == "oclgrind"
    return min(wanted, 97) if oclgrind else wanted


def run_python(code: str, env: dict[str, str] | None = None,
               timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh interpreter of this environment; its output is returned."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout)
