"""The timeline of a trace (python -m xgpu.plot --timeline), and the two commands that run the
plotter: `xgpu trace summary --timeline` and `xgpu bench --plot`, with the package and without."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import TRACES, plot
from svg_reader import Chart, close


def commands(trace: Path) -> list[dict]:
    """The trace's device commands in the file's order, as the timeline numbers them."""
    events = json.loads(trace.read_text())["traceEvents"]
    return [e for e in events if e.get("ph") == "X" and e.get("cat") in ("launch", "copy", "fill")]


def test_timeline_lanes_and_bars(tmp_path: Path) -> None:
    trace = TRACES / "trace_small.json"
    result = plot("--timeline", trace, "-o", tmp_path / "t.svg")
    assert result.returncode == 0, result.stderr
    chart = Chart(tmp_path / "t.svg")
    x_of = chart.linear_scale("timeline")
    events = commands(trace)
    assert len(chart.ids("timeline-event-")) == len(events) == 6
    lanes = {}
    for i, event in enumerate(events):
        points = chart.path_points(f"timeline-event-{i}")
        xs = sorted({round(x_of(x), 6) for x, _ in points})
        assert close(xs[0], event["ts"]) and close(xs[-1], event["ts"] + event["dur"]), (event, xs)
        lanes.setdefault(event["tid"], set()).add(round(sum(y for _, y in points) / len(points), 3))
    # One lane per queue: every command of queue 1 on one line, queue 2's gemm on another.
    assert len(lanes[2]) == 1 and len(lanes[3]) == 1 and lanes[2] != lanes[3], lanes
    labels = " ".join(chart.root.itertext())
    assert "queue 1 (profiling)" in labels and "queue 2 (profiling)" in labels


def test_timeline_png_of_a_cut_trace(tmp_path: Path) -> None:
    result = plot("--timeline", TRACES / "trace_cut.json", "-o", tmp_path / "cut.png")
    assert result.returncode == 0, result.stderr
    assert 10_000 < (tmp_path / "cut.png").stat().st_size < 1_000_000


def test_timeline_of_a_file_that_is_no_trace(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"devices": []}')
    result = plot("--timeline", bad, "-o", tmp_path / "t.png")
    assert result.returncode == 2
    assert f"{bad}: not a Chrome trace-event file" in result.stderr
    assert not (tmp_path / "t.png").exists()


def python_without(tmp_path: Path, what: str) -> str:
    """A Python (a script, as XGPU_PYTHON takes it) that lacks `what`: the package xgpu (the
    system's Python with no site-packages) or matplotlib (this one, with a matplotlib that
    cannot be imported ahead of the real one)."""
    script = tmp_path / f"python-without-{what}"
    if what == "xgpu":
        script.write_text("#!/bin/sh\nexec /usr/bin/python3 -I -S \"$@\"\n")
    else:
        broken = tmp_path / "broken" / "matplotlib"
        broken.mkdir(parents=True)
        (broken / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
        script.write_text(f"#!/bin/sh\nPYTHONPATH={broken.parent}${{PYTHONPATH:+:$PYTHONPATH}} "
                          f"exec {sys.executable} \"$@\"\n")
    script.chmod(0o755)
    return str(script)


def run_xgpu(command: Path, *args: str | Path, python: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, XGPU_PYTHON=python)
    return subprocess.run([str(command), *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=300)


def test_trace_summary_draws_the_timeline(xgpu_command: Path, tmp_path: Path) -> None:
    picture = tmp_path / "t.png"
    result = run_xgpu(xgpu_command, "trace", "summary", TRACES / "trace_small.json",
                      "--timeline", picture, python=sys.executable)
    assert result.returncode == 0, result.stderr
    assert "Kernels by total device time" in result.stdout
    assert f"wrote {picture}" in result.stdout
    assert 10_000 < picture.stat().st_size < 1_000_000


@pytest.mark.parametrize("lacking, says", [
    ("xgpu", "no Python here has the package xgpu with its plotter"),
    ("matplotlib", "has the package xgpu but not matplotlib"),
])
def test_trace_summary_without_the_package(xgpu_command: Path, tmp_path: Path, lacking: str,
                                           says: str) -> None:
    picture = tmp_path / "t.png"
    python = python_without(tmp_path, lacking)
    result = run_xgpu(xgpu_command, "trace", "summary", TRACES / "trace_small.json",
                      "--timeline", picture, python=python)
    assert result.returncode == 0, result.stderr  # never a failure for want of the package
    assert "Kernels by total device time" in result.stdout
    assert says in result.stderr, result.stderr
    assert ("Draw them later with: python -m xgpu.plot --timeline "
            f"{TRACES / 'trace_small.json'} -o {picture}") in result.stderr
    assert not picture.exists()


def test_bench_plot(xgpu_command: Path, tmp_path: Path) -> None:
    folder = tmp_path / "plots"
    result = run_xgpu(xgpu_command, "bench", "dispatch", "--quick", "--repetitions", "1", "-d",
                      "pocl:0", "--plot", folder, python=sys.executable)
    assert result.returncode == 0, result.stderr
    report = json.loads((folder / "bench.json").read_text())
    assert report["command"].endswith(f"bench dispatch --quick --repetitions 1 -d pocl:0 --plot "
                                      f"{folder}"), report["command"]
    # Dispatch has baselines and nothing for the roofline or the curves: it says so.
    assert sorted(p.name for p in folder.iterdir()) == ["bench.json", "comparison.png",
                                                        "comparison.svg"]
    assert "no library operations: the library suite did not run" in result.stderr


def test_bench_plot_without_the_package(xgpu_command: Path, tmp_path: Path) -> None:
    folder, report = tmp_path / "plots", tmp_path / "b.json"
    result = run_xgpu(xgpu_command, "bench", "dispatch", "--quick", "--repetitions", "1", "-d",
                      "pocl:0", "--json", report, "--plot", folder,
                      python=python_without(tmp_path, "xgpu"))
    assert result.returncode == 0, result.stderr
    assert f"Draw them later with: python -m xgpu.plot {report} -o {folder}" in result.stderr
    assert json.loads(report.read_text())["devices"], "the report is written all the same"
    assert not folder.exists() or not any(folder.iterdir())
