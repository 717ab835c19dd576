"""Tests of the plotter, python -m xgpu.plot (docs/plots.md), run by tools/setup.sh test:

    .venv/bin/python -m pytest tests/plot

on reports recorded from real `xgpu bench --quick` runs on PoCL (data/: one device; two
devices, POCL_DEVICES="pthread pthread"; a run without the compute suite) and on the trace of
tests/cli/data. The pictures' points are read back from the SVG (svg_reader.py) and compared
with figures the tests work out from the JSON themselves. The tests of `xgpu bench --plot` and
`xgpu trace summary --timeline` run build/bin/xgpu (XGPU_TEST_XGPU names another)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
TRACES = ROOT / "tests" / "cli" / "data"


def plot(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`python -m xgpu.plot ARGS` in a process of its own, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "xgpu.plot", *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture(scope="session")
def xgpu_command() -> Path:
    path = Path(os.environ.get("XGPU_TEST_XGPU", ROOT / "build" / "bin" / "xgpu"))
    if not path.exists():
        pytest.fail(f"{path} is missing: build it first (tools/setup.sh), or set XGPU_TEST_XGPU")
    return path


@pytest.fixture(scope="session")
def drawn(tmp_path_factory: pytest.TempPathFactory):
    """Each recorded report drawn once, into a folder of its own: name -> (folder, result)."""
    cache: dict[str, tuple[Path, subprocess.CompletedProcess]] = {}

    def draw(*names: str) -> tuple[Path, subprocess.CompletedProcess]:
        key = "+".join(names)
        if key not in cache:
            folder = tmp_path_factory.mktemp(key.replace(".json", ""))
            cache[key] = folder, plot(*(DATA / n for n in names), "-o", folder)
        return cache[key]
    return draw
