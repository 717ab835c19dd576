"""python -m xgpu.plot on recorded bench reports: the files, their size class, and every point,
roof, curve, bar and target read back from the SVG against the JSON's own figures."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest

from conftest import DATA, plot
from svg_reader import Chart, close
from xgpu.plot import ReportError, read_report

PICTURES = ("roofline", "bandwidth", "comparison")
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}


def devices(name: str) -> list[dict]:
    return json.loads((DATA / name).read_text())["devices"]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# What the pictures should show, worked out here from the JSON alone.
def seconds(f: dict) -> float:
    if f["unit"] in TIME_UNITS:
        return f["median"] * TIME_UNITS[f["unit"]]
    return (f["bytes"] if f["unit"] == "GB/s" else f["flops"]) / (f["median"] * 1e9)


# A roof is the best repetition of its figures; the points are medians.
def memory_roof(device: dict) -> float | None:
    found = [f["max"] * 1e9 for f in device["figures"] if f.get("roof") == "memory"]
    return max(found) if found else None


def float_peak(device: dict) -> float | None:
    found = [f["max"] * 1e9 for f in device["figures"] if f.get("roof") == "compute:float"]
    return max(found) if found else None


def operations(device: dict) -> list[dict]:
    return [f for f in device["figures"] if f.get("op") and f.get("flops", 0) > 0]


def compared(device: dict) -> list[dict]:
    return [f for f in device["figures"] if f["baseline"] and f["ratio"] > 0]


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", header[16:24])


def check_files(folder: Path, names=PICTURES) -> None:
    for name in names:
        png, svg = folder / f"{name}.png", folder / f"{name}.svg"
        assert png.exists() and svg.exists(), f"{name}: {sorted(p.name for p in folder.iterdir())}"
        # The size class of a chart with text, lines and a few dozen marks: not an empty
        # canvas (a few KiB), not a runaway (megabytes).
        assert 30_000 < png.stat().st_size < 2_000_000, (png, png.stat().st_size)
        assert 10_000 < svg.stat().st_size < 2_000_000, (svg, svg.stat().st_size)
        width, height = png_size(png)
        assert 1400 <= width <= 1900 and 900 <= height <= 4000, (png, width, height)


def check_roofline(folder: Path, k: int, device: dict) -> None:
    chart = Chart(folder / "roofline.svg")
    x_of, y_of = chart.log_scale("roofline", "x"), chart.log_scale("roofline", "y")
    bandwidth, peak = memory_roof(device), float_peak(device)
    ops = operations(device)
    assert ops, "the recorded report has no library operation"
    for f in ops:
        (x, y), = chart.markers(f"roofline-point-{k}-{slug(f['op'])}")
        intensity, achieved = f["flops"] / f["bytes"], f["flops"] / seconds(f)
        assert close(x_of(x), intensity), (f["op"], x_of(x), intensity)
        assert close(y_of(y), achieved), (f["op"], y_of(y), achieved)
        roof = min(b for b in (bandwidth * intensity if bandwidth else None, peak) if b)
        label = chart.text(f"roofline-label-{k}-{slug(f['op'])}")
        assert label == f"{f['op']} {achieved / roof:.0%} of roof", label
    vertices = [(x_of(x), y_of(y)) for x, y in chart.path_points(f"roofline-roof-{k}")]
    if bandwidth:
        assert close(vertices[0][1], bandwidth * vertices[0][0]), (vertices, bandwidth)
    if peak:
        assert close(vertices[-1][1], peak), (vertices, peak)
    if bandwidth and peak:  # the ridge, where the slope meets the peak
        assert close(vertices[1][0], peak / bandwidth) and close(vertices[1][1], peak), vertices
    else:
        assert len(vertices) == 2, vertices


def check_bandwidth(folder: Path, k: int, device: dict) -> None:
    chart = Chart(folder / "bandwidth.svg")
    curves = {}
    for f in device["figures"]:
        if f.get("curve"):
            curves.setdefault(f["curve"], []).append(f)
    assert set(curves) == {"host to device", "device to host", "device copy", "triad"}, curves
    for name, points in curves.items():
        prefix = f"bandwidth-{slug(name)}"
        x_of, y_of = chart.log_scale(prefix, "x"), chart.log_scale(prefix, "y")
        line = [x for x, _ in chart.path_points(f"{prefix}-{k}")]
        assert line == sorted(line), f"{name}: the line does not go by size"
        drawn = sorted((x_of(x), y_of(y)) for x, y in chart.markers(f"{prefix}-{k}"))
        wanted = sorted((f["size"], f["median"]) for f in points)
        assert len(drawn) == len(wanted), (name, drawn, wanted)
        for (x, y), (size, rate) in zip(drawn, wanted):
            assert close(x, size) and close(y, rate), (name, x, y, size, rate)


def check_comparison(folder: Path, k: int, device: dict) -> None:
    chart = Chart(folder / "comparison.svg")
    x_of = chart.log_scale(f"comparison-{k}", "x")
    figures = compared(device)
    assert figures, "the recorded report compares nothing"
    assert len(chart.ids(f"comparison-bar-{k}-")) == len(figures)
    for i, f in enumerate(figures):
        ends = sorted({round(x_of(x), 9) for x, _ in chart.path_points(f"comparison-bar-{k}-{i}")})
        # A bar runs from 1 to its ratio.
        assert len(ends) == 2 and any(close(e, 1.0) for e in ends), (f["case"], ends)
        ratio = ends[1] if close(ends[0], 1.0) else ends[0]
        assert close(ratio, f["ratio"]), (f["case"], ratio, f["ratio"])
        if f["target"]:
            xs = {round(x_of(x), 9) for x, _ in chart.path_points(f"comparison-target-{k}-{i}")}
            assert len(xs) == 1 and close(xs.pop(), float(f["target"].split()[1])), f["case"]
        else:
            assert not chart.has(f"comparison-target-{k}-{i}")


def test_one_device(drawn) -> None:
    folder, result = drawn("one_device.json")
    assert result.returncode == 0, result.stderr
    check_files(folder)
    assert result.stdout.count("wrote ") == 6, result.stdout
    device, = devices("one_device.json")
    check_roofline(folder, 0, device)
    check_bandwidth(folder, 0, device)
    check_comparison(folder, 0, device)


def test_title_names_device_driver_date_and_command(drawn) -> None:
    folder, _ = drawn("one_device.json")
    report = json.loads((DATA / "one_device.json").read_text())
    for name in PICTURES:
        text = " ".join(Chart(folder / f"{name}.svg").root.itertext())
        device = report["devices"][0]["device"]
        for part in (device["name"], device["driver_version"], report["date"], report["command"]):
            assert part in text, (name, part)


def test_two_devices(drawn) -> None:
    folder, result = drawn("two_devices.json")
    assert result.returncode == 0, result.stderr
    check_files(folder)
    both = devices("two_devices.json")
    assert len(both) == 2
    for k, device in enumerate(both):
        check_roofline(folder, k, device)
        check_bandwidth(folder, k, device)
        check_comparison(folder, k, device)


def test_several_runs_name_their_files(drawn) -> None:
    folder, result = drawn("one_device.json", "no_compute.json")
    assert result.returncode == 0, result.stderr
    check_roofline(folder, 0, devices("one_device.json")[0])
    check_roofline(folder, 1, devices("no_compute.json")[0])
    legend = " ".join(Chart(folder / "roofline.svg").root.itertext())
    assert "(one_device.json)" in legend and "(no_compute.json)" in legend


def test_a_run_without_the_compute_suite(drawn) -> None:
    folder, result = drawn("no_compute.json")
    assert result.returncode == 0, result.stderr
    check_files(folder)
    device, = devices("no_compute.json")
    assert float_peak(device) is None and memory_roof(device)
    # What it has: the memory roof alone, every operation's fraction of it.
    check_roofline(folder, 0, device)
    check_bandwidth(folder, 0, device)
    # What it lacks, said on stderr and in the picture.
    assert "no compute roof: the compute suite did not run" in result.stderr, result.stderr
    assert "no compute roof" in Chart(folder / "roofline.svg").text("notes")


def test_a_run_with_nothing_to_draw_writes_only_what_it_can(tmp_path: Path) -> None:
    report = json.loads((DATA / "one_device.json").read_text())
    for device in report["devices"]:
        device["figures"] = [f for f in device["figures"] if f["suite"] == "dispatch"]
    (tmp_path / "dispatch.json").write_text(json.dumps(report))
    result = plot(tmp_path / "dispatch.json", "-o", tmp_path / "out")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["comparison.png",
                                                                     "comparison.svg"]
    for what in ("no compute roof", "no memory roof", "no library operations",
                 "no bandwidth curves: the memory suite did not run"):
        assert what in result.stderr, (what, result.stderr)


@pytest.mark.parametrize("change, field, problem", [
    (lambda r: r["devices"][0]["figures"][3].update(median="fast"),
     "devices[0].figures[3].median", "expected a number"),
    (lambda r: r.pop("devices"), "devices", "missing"),
    (lambda r: r["devices"][0]["figures"].__setitem__(1, 7), "devices[0].figures[1]",
     "expected an object"),
    (lambda r: r["devices"][0]["figures"][0].update(roof="cache"), "devices[0].figures[0].roof",
     "expected \"memory\""),
    (lambda r: r["devices"][0]["device"].pop("name"), "devices[0].device.name", "missing"),
    (lambda r: r.update(schema_version=2), "schema_version", "reads version 1"),
])
def test_a_malformed_report_names_the_file_and_field(tmp_path: Path, change, field,
                                                     problem) -> None:
    report = json.loads((DATA / "one_device.json").read_text())
    change(report)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(report))
    with pytest.raises(ReportError) as error:
        read_report(bad)
    assert str(error.value).startswith(f"{bad}: {field}: "), str(error.value)
    assert problem in str(error.value)


def test_the_command_stops_on_a_malformed_report(tmp_path: Path) -> None:
    report = json.loads((DATA / "one_device.json").read_text())
    report["devices"][0]["figures"][2]["unit"] = None
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(report))
    result = plot(DATA / "one_device.json", bad, "-o", tmp_path / "out")
    assert result.returncode == 2, result
    assert result.stderr == (f"xgpu.plot: error: {bad}: devices[0].figures[2].unit: expected a "
                             "string, got null\n"), result.stderr
    assert not (tmp_path / "out").exists()  # nothing drawn from the good file either


def test_a_file_that_is_not_json(tmp_path: Path) -> None:
    bad = tmp_path / "cut.json"
    bad.write_text((DATA / "one_device.json").read_text()[:500])
    result = plot(bad, "-o", tmp_path)
    assert result.returncode == 2
    assert re.search(rf"{re.escape(str(bad))}: not JSON \(line [0-9]+, column [0-9]+", result.stderr)
    missing = plot(tmp_path / "nowhere.json")
    assert missing.returncode == 2 and "nowhere.json: cannot read it" in missing.stderr
