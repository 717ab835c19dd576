"""xgpu.mpi (docs/mpi.md, "Python"): mpi_ranks.py under mpirun at 1, 2 and 3 ranks, and at 2
with the staged transport forced; examples/python/mpi_data_parallel.py at 1 and 2 ranks, which
must train to the same loss; what ``import xgpu.mpi`` says without mpi4py, without the extension
or on another MPI. Every mpirun runs under a watchdog (timeout 120 s), so a hang fails, as root
too (Open MPI's two variables) and with more ranks than cores (--oversubscribe), on two PoCL
devices with a PoCL cache per rank (tests/mpi/per_rank.sh), as the C++ MPI tests.

This process never imports mpi4py (that would initialise MPI here): the ranks are children."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_python

ROOT = Path(__file__).resolve().parents[2]
RANKS = Path(__file__).with_name("mpi_ranks.py")
EXAMPLE = ROOT / "examples" / "python" / "mpi_data_parallel.py"
WATCHDOG_S = 120
# What each rank's environment must not inherit: the tests choose devices and transports.
CHOSEN = ("XGPU_DEVICE", "XGPU_VISIBLE_DEVICES", "XGPU_MPI_TRANSPORT", "XGPU_MPI_CHUNK",
          "XGPU_PROFILE")


def _mpirun() -> str:
    mpirun = shutil.which("mpirun") or shutil.which("mpiexec")
    if mpirun is None:
        pytest.skip("no mpirun: MPI is not installed, so xgpu has no xgpu.mpi")
    # With MPI here, the package must have been built with it and mpi4py must be installed.
    if importlib.util.find_spec("xgpu._mpi") is None:
        pytest.fail("mpirun is installed but xgpu has no xgpu._mpi: rebuild the package")
    if importlib.util.find_spec("mpi4py") is None:
        pytest.fail("mpi4py is not installed (tools/setup.sh installs it)")
    return mpirun


@functools.cache
def _mpirun_flags(mpirun: str) -> tuple[str, ...]:
    version = subprocess.run([mpirun, "--version"], capture_output=True, text=True).stdout
    # Open MPI's: more ranks than cores. MPICH's mpiexec needs nothing and knows no such flag.
    return ("--oversubscribe",) if re.search("Open MPI|OpenRTE", version) else ()


@pytest.fixture(scope="module")
def pocl_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pocl")


def run_ranks(ranks: int, script: Path, pocl_cache: Path, *args: str,
              **env: str) -> subprocess.CompletedProcess:
    mpirun = _mpirun()
    environment = {k: v for k, v in os.environ.items() if k not in CHOSEN}
    environment.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                       POCL_DEVICES="pthread pthread", XGPU_TEST_POCL_CACHE=str(pocl_cache),
                       **env)
    command = ["timeout", "-k", "5", str(WATCHDOG_S), mpirun, "-np", str(ranks),
               *_mpirun_flags(mpirun), "sh", str(ROOT / "tests" / "mpi" / "per_rank.sh"),
               sys.executable, str(script), *args]
    done = subprocess.run(command, env=environment, capture_output=True, text=True)
    assert done.returncode not in (124, 137), f"the watchdog ended a hang:\n{done.stdout}"
    return done


@pytest.mark.parametrize("ranks", [1, 2, 3])
def test_collectives(ranks: int, pocl_cache: Path) -> None:
    done = run_ranks(ranks, RANKS, pocl_cache)
    assert done.returncode == 0, done.stdout + done.stderr
    passed = dict(re.findall(rf"rank (\d+) of {ranks}: (\d+) checks passed", done.stdout))
    assert sorted(passed) == [str(r) for r in range(ranks)], done.stdout
    assert len(set(passed.values())) == 1 and int(passed["0"]) > 300, passed


def test_collectives_staged(pocl_cache: Path) -> None:
    """The staged transport forced, in 64 KiB chunks: the large case takes several."""
    done = run_ranks(2, RANKS, pocl_cache, XGPU_MPI_TRANSPORT="staged", XGPU_MPI_CHUNK="64K")
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(re.findall(r"rank \d of 2: \d+ checks passed", done.stdout)) == 2, done.stdout


def _final_loss(ranks: int, pocl_cache: Path) -> float:
    done = run_ranks(ranks, EXAMPLE, pocl_cache)
    assert done.returncode == 0 and "mpi_data_parallel.py: OK" in done.stdout, \
        done.stdout + done.stderr
    found = re.search(rf"20 steps on {ranks} rank\(s\): loss from \S+ to (\S+) ", done.stdout)
    assert found, done.stdout
    return float(found.group(1))


def test_example_trains_to_the_same_loss(pocl_cache: Path) -> None:
    """docs/mpi.md: the losses of 1 and 2 ranks agree to 2e-5 relative."""
    one, two = _final_loss(1, pocl_cache), _final_loss(2, pocl_cache)
    assert abs(one - two) <= 2e-5 * one, (one, two)


def _import(prelude: str) -> subprocess.CompletedProcess:
    return run_python(f"{prelude}\nimport xgpu.mpi", timeout=60)


def test_import_without_mpi4py() -> None:
    done = _import("import sys; sys.modules['mpi4py'] = None")
    assert done.returncode != 0
    assert "ImportError: xgpu.mpi needs mpi4py: pip install 'xgpu[mpi]'" in done.stderr, \
        done.stderr


def test_import_without_the_extension() -> None:
    done = _import("import sys; sys.modules['xgpu._mpi'] = None")
    assert done.returncode != 0
    assert "ImportError: xgpu.mpi: this xgpu was built without MPI" in done.stderr, done.stderr


def test_import_on_another_mpi() -> None:
    _mpirun()
    done = _import("from mpi4py import MPI\n"
                   "MPI.Get_library_version = lambda: 'MPICH Version: 4.0.2'")
    assert done.returncode != 0
    assert ("mpi4py runs another MPI library than libxgpu-mpi was built with "
            "(mpi4py: 'MPICH Version: 4.0.2'; xgpu: '") in done.stderr, done.stderr
