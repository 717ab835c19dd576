"""The trace, the kernel cache's counters, profiles, errors, lifetimes at exit, the examples in
examples/python/, and the package as installed (stubs, py.typed, libraries found without
LD_LIBRARY_PATH)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import xgpu
from conftest import ROOT, run_python


def test_trace_records_ranges_and_commands(tmp_path: Path, pocl: int) -> None:
    path = tmp_path / "trace.json"
    xgpu.trace.start(str(path))
    assert xgpu.trace.running()
    with xgpu.trace.range("step"):
        (xgpu.ones(100) * 3).sum()
    xgpu.trace.stop()
    assert not xgpu.trace.running()
    events = json.loads(path.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    names = {e.get("name") for e in events}
    assert "step" in names
    with pytest.raises(xgpu.Error) as error:
        xgpu.trace.start(str(tmp_path / "no" / "such" / "folder" / "t.json"))
    assert error.value.code == "invalid_argument"


def test_cache_stats_count() -> None:
    stats = xgpu.cache_stats()
    assert set(stats) == {"hits", "misses", "stores", "store_failures", "bad_entries", "healed",
                          "read_only_skips", "evictions"}
    before = xgpu.cache_stats()
    xgpu.Program("__kernel void k_stats(__global int* x) { x[0] = 5; }", name="stats.cl")
    after = xgpu.cache_stats()
    assert after["hits"] + after["misses"] == before["hits"] + before["misses"] + 1


def test_add_profile_gives_a_simulated_gpu() -> None:
    out = run_python(
        "import xgpu, numpy as np\n"
        "xgpu.add_profile('nvidia-h100')\n"
        "d = [d for d in xgpu.devices() if d.properties.backend == 'profile'][0]\n"
        "p = d.properties\n"
        "a = xgpu.asarray(np.arange(100, dtype=np.float32), device=d)\n"
        "print(p.name, p.type, float((a * 2).sum()), a.map().zero_copy)\n")
    assert out.returncode == 0, out.stderr
    assert "H100" in out.stdout and " gpu 9900.0 False" in out.stdout
    out = run_python("import xgpu\nxgpu.devices()\ntry:\n    xgpu.add_profile('nvidia-h100')\n"
                     "except xgpu.Error as e:\n    print(e.code)\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "invalid_argument"


def test_errors_carry_their_parts() -> None:
    with pytest.raises(xgpu.Error) as error:
        xgpu.Program("__kernel void k() { nope }", name="bad.cl")
    e = error.value
    assert isinstance(e, RuntimeError) and e.code == "build_failed"
    assert e.call and e.build_log and e.device
    assert issubclass(xgpu.OutOfMemoryError, MemoryError)


def test_objects_alive_at_exit_do_not_crash() -> None:
    out = run_python(
        "import xgpu, numpy as np, threading\n"
        "keep = [xgpu.ones(1000), xgpu.Stream(), xgpu.Event(), xgpu.empty_pinned(10)]\n"
        "s = xgpu.Stream()\n"
        "with xgpu.stream(s):\n"
        "    keep.append(xgpu.ones(8))  # holds its stream\n"
        "a = xgpu.ones(64); m = a.map(); view = m.__enter__()\n"
        "k = xgpu.Program('__kernel void f(__global float* x) { x[0] += 1; }').kernel('f')\n"
        "k(1, a)\n"
        "g = xgpu.DeviceGroup('pocl'); d = g.scatter(np.ones(100, np.float32))\n"
        "keep += [a, m, view, k, g, d, np.from_dlpack(xgpu.ones(8), device='cpu')]\n"
        "print('ok')\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
    assert "leaked" not in out.stderr, out.stderr  # nanobind's report of objects never freed


EXAMPLES = sorted((ROOT / "examples" / "python").glob("*.py"))
# The group of the PoCL devices: Oclgrind would only slow the example down.
ARGUMENTS = {"data_parallel.py": ["pocl"]}


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_examples_run(example: Path) -> None:
    out = subprocess.run([sys.executable, str(example), *ARGUMENTS.get(example.name, [])],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "OK" in out.stdout


def test_examples_exist() -> None:
    names = {p.name for p in EXAMPLES}
    assert {"check_install.py", "saxpy.py", "memory.py", "overlap.py",
            "data_parallel.py", "mixed_precision.py"} <= names


def test_the_installed_package_is_complete() -> None:
    package = Path(xgpu.__file__).parent
    assert (package / "py.typed").exists() and (package / "_xgpu.pyi").exists()
    assert list((package / "lib").glob("libxgpu.so*"))
    assert list((package / "lib" / "xgpu").glob("libxgpu-backend-opencl.so"))
    assert "LD_LIBRARY_PATH" not in os.environ or "xgpu" not in os.environ["LD_LIBRARY_PATH"]
    assert xgpu.__version__.count(".") == 2


def test_the_benchmark_runs(tmp_path: Path, pocl: int) -> None:
    """python -m xgpu.bench --quick: every case measured, no timing asserted (shared machines)."""
    report = tmp_path / "bench.json"
    out = subprocess.run([sys.executable, "-m", "xgpu.bench", "--quick", "--device", str(pocl),
                          "--json", str(report)], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    results = json.loads(report.read_text())["results"]
    assert len(results) == 10
    assert all(r["xgpu"] > 0 and r["baseline"] > 0 and r["ratio"] > 0 for r in results)
    assert {r["baseline_name"] for r in results} >= {"PyOpenCL", "NumPy", "pyopencl.array.sum",
                                                      "xgpu from C++"}
