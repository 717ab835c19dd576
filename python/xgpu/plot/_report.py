"""Reading the JSON of ``xgpu bench --json`` (docs/BENCHMARKS.md, "The JSON report") into
series, one per device of each run, and the figures the pictures draw from them: the roofs,
the library operations' points, the bandwidth curves and the ratios. Every field is checked
here, so that a bad file stops with its name and the field's path, never deep in a drawing."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional


class ReportError(ValueError):
    """A file that is not a bench report: the message names the file and the field."""


# Seconds per unit of the figures measured as a time.
_TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}


@dataclass
class Figure:
    """One line of a suite's table, as ``xgpu bench --json`` writes it."""
    suite: str
    case: str
    unit: str
    median: float
    minimum: float
    maximum: float
    baseline: str = ""
    ratio: float = 0.0
    target: str = ""
    met: bool = True
    flops: float = 0.0   # arithmetic operations of one call
    bytes: float = 0.0   # bytes one call counts as moved
    op: str = ""         # the library operation this figure places on the roofline
    roof: str = ""       # "memory" or "compute:<precision>"
    curve: str = ""      # the bandwidth curve of which this is the point at `size` bytes
    size: float = 0.0

    def seconds(self) -> Optional[float]:
        """The time of one call, from the median and what the figure counts; None where its
        unit and fields do not say."""
        if self.median <= 0:
            return None
        if self.unit in _TIME_UNITS:
            return self.median * _TIME_UNITS[self.unit]
        if self.unit == "GB/s" and self.bytes > 0:
            return self.bytes / (self.median * 1e9)
        if self.unit == "GFLOP/s" and self.flops > 0:
            return self.flops / (self.median * 1e9)
        return None


@dataclass
class Run:
    """One file: how it was made."""
    path: str
    command: str
    date: str
    quick: bool
    load_average: list[float]


@dataclass
class Series:
    """One device (or group) of one run, with its figures."""
    run: Run
    name: str
    platform: str
    driver: str
    figures: list[Figure]
    label: str = ""   # how the pictures name it (the device; with the file where several runs)
    suites: set[str] = field(default_factory=set)


@dataclass
class Point:
    """A library operation on the roofline."""
    op: str
    intensity: float   # FLOP/byte
    flops_per_s: float
    fraction: Optional[float]  # of the roof at its intensity; None with no roof at all
    figure: Figure


@dataclass
class Roofs:
    memory: Optional[float] = None                 # bytes/s, the best measured
    compute: dict[str, float] = field(default_factory=dict)  # FLOP/s by precision

    def attainable(self, intensity: float) -> Optional[float]:
        """The roof at this intensity: the float peak and the memory slope, whichever is lower;
        either alone where the other was not measured."""
        bounds = []
        if self.memory:
            bounds.append(self.memory * intensity)
        if "float" in self.compute:
            bounds.append(self.compute["float"])
        return min(bounds) if bounds else None


def _check(condition: bool, path: str, where: str, problem: str) -> None:
    if not condition:
        raise ReportError(f"{path}: {where or 'the top level'}: {problem}")


def _field(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _typed(obj: dict[str, Any], key: str, kinds: tuple[type, ...], path: str, where: str,
           required: bool, default: Any = None) -> Any:
    if key not in obj:
        _check(not required, path, _field(where, key), "missing")
        return default
    value = obj[key]
    # bool is an int to Python; a number field holding true is still wrong.
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in kinds)
    wanted = " or ".join(dict.fromkeys(_KIND_NAMES[k] for k in kinds))
    _check(ok, path, _field(where, key), f"expected {wanted}, got {json.dumps(value)[:40]}")
    return value


_KIND_NAMES = {int: "a number", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "an object"}


def _figure(entry: Any, path: str, where: str) -> Figure:
    _check(isinstance(entry, dict), path, where, "expected an object")
    number = (int, float)

    def get(key: str, kinds: tuple[type, ...], required: bool = False, default: Any = None) -> Any:
        return _typed(entry, key, kinds, path, where, required, default)

    figure = Figure(
        suite=get("suite", (str,), True), case=get("case", (str,), True),
        unit=get("unit", (str,), True), median=float(get("median", number, True)),
        minimum=float(get("min", number, False, 0.0)),
        maximum=float(get("max", number, False, 0.0)),
        baseline=get("baseline", (str,), False, ""), ratio=float(get("ratio", number, False, 0.0)),
        target=get("target", (str,), False, ""), met=get("met", (bool,), False, True),
        flops=float(get("flops", number, False, 0.0)), bytes=float(get("bytes", number, False, 0.0)),
        op=get("op", (str,), False, ""), roof=get("roof", (str,), False, ""),
        curve=get("curve", (str,), False, ""), size=float(get("size", number, False, 0.0)))
    for key in ("median", "flops", "bytes", "size"):
        _check(getattr(figure, key) >= 0, path, f"{where}.{key}", "is negative")
    _check(figure.roof in ("", "memory") or figure.roof.startswith("compute:"), path,
           f"{where}.roof", f"is {figure.roof!r}: expected \"memory\" or \"compute:<precision>\"")
    _check(not figure.curve or figure.size > 0, path, f"{where}.size",
           "missing: a point of a curve needs its size")
    _check(not figure.target or _parse_target(figure.target) is not None, path, f"{where}.target",
           f"is {figure.target!r}: expected \"<= N\" or \">= N\"")
    return figure


def _parse_target(target: str) -> Optional[tuple[str, float]]:
    parts = target.split()
    if len(parts) != 2 or parts[0] not in ("<=", ">="):
        return None
    try:
        return parts[0], float(parts[1])
    except ValueError:
        return None


def target_bound(figure: Figure) -> Optional[tuple[str, float]]:
    """("<=" or ">=", value) of the figure's target, None where it has none."""
    return _parse_target(figure.target) if figure.target else None


def read_report(file: str | Path) -> list[Series]:
    """The series of one report file; ReportError names the file and the field where it is not
    one."""
    path = str(file)
    try:
        with open(file, encoding="utf-8") as stream:
            document = json.load(stream)
    except OSError as error:
        raise ReportError(f"{path}: cannot read it: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise ReportError(f"{path}: not JSON (line {error.lineno}, column {error.colno}: "
                          f"{error.msg})") from None
    _check(isinstance(document, dict), path, "", "expected an object (of xgpu bench --json)")
    version = _typed(document, "schema_version", (int,), path, "", True)
    _check(version == 1, path, "schema_version", f"is {version}: this plotter reads version 1")
    load = _typed(document, "load_average", (list,), path, "", False, [])
    run = Run(path=path, command=_typed(document, "command", (str,), path, "", False, ""),
              date=_typed(document, "date", (str,), path, "", False, ""),
              quick=_typed(document, "quick", (bool,), path, "", False, False),
              load_average=[float(x) for x in load if isinstance(x, (int, float))])
    devices = _typed(document, "devices", (list,), path, "", True)
    series = []
    for d, entry in enumerate(devices):
        where = f"devices[{d}]"
        _check(isinstance(entry, dict), path, where, "expected an object")
        device = _typed(entry, "device", (dict,), path, where, True)
        name = _typed(device, "name", (str,), path, f"{where}.device", True)
        figures = _typed(entry, "figures", (list,), path, where, True)
        parsed = [_figure(f, path, f"{where}.figures[{i}]") for i, f in enumerate(figures)]
        series.append(Series(
            run=run, name=name, platform=str(device.get("platform", "")),
            driver=str(device.get("driver_version", "")), figures=parsed, label=name,
            suites={f.suite for f in parsed}))
    names = [s.name for s in series]
    for d, s in enumerate(series):
        if names.count(s.name) > 1:  # two devices of one kind: told apart by their place
            s.label = f"{s.name} #{d}"
    return series


def read_reports(files: list[str | Path]) -> list[Series]:
    """Every series of every file; with several files each label names its file too."""
    series = [s for file in files for s in read_report(file)]
    if len(files) > 1:
        for s in series:
            s.label = f"{s.label} ({Path(s.run.path).name})"
    return series


def roofs(series: Series) -> Roofs:
    """The roofs of a series: the best repetition (max) of its roof figures, each kind's
    highest; a roof is the most the device was seen to do, where the points are medians."""
    found = Roofs()
    for f in series.figures:
        best = f.maximum or f.median
        if f.roof == "memory" and f.unit == "GB/s" and best > 0:
            found.memory = max(found.memory or 0.0, best * 1e9)
        elif f.roof.startswith("compute:") and f.unit == "GFLOP/s" and best > 0:
            precision = f.roof.split(":", 1)[1]
            found.compute[precision] = max(found.compute.get(precision, 0.0), best * 1e9)
    return found


def points(series: Series, found: Roofs) -> tuple[list[Point], list[Figure]]:
    """The library operations with arithmetic, placed on the roofline, and those without
    (a sort, a transpose), which have only a bandwidth."""
    placed, without = [], []
    for f in series.figures:
        if not f.op:
            continue
        seconds = f.seconds()
        if f.flops <= 0 or f.bytes <= 0 or seconds is None:
            without.append(f)
            continue
        intensity = f.flops / f.bytes
        achieved = f.flops / seconds
        roof = found.attainable(intensity)
        placed.append(Point(f.op, intensity, achieved, achieved / roof if roof else None, f))
    return placed, without


def missing_for_roofline(series: Series, found: Roofs) -> list[str]:
    """What the roofline of this series lacks, and why, in sentences."""
    missing = []
    if "float" not in found.compute:
        missing.append("no compute roof: " + (
            "its compute figures carry no roof field (a report of an older xgpu bench)"
            if "compute" in series.suites else
            "the compute suite did not run (xgpu bench compute)"))
    if found.memory is None:
        missing.append("no memory roof: " + (
            "its figures carry no roof field (a report of an older xgpu bench)"
            if series.suites & {"memory", "library"} else
            "neither the memory nor the library suite ran (xgpu bench memory)"))
    if not any(f.op for f in series.figures):
        missing.append("no library operations: " + (
            "its library figures carry no op field (a report of an older xgpu bench)"
            if "library" in series.suites else
            "the library suite did not run (xgpu bench library)"))
    return missing


# The curves of `xgpu bench memory`, in the order they are drawn.
CURVES = ("host to device", "device to host", "device copy", "triad")


def curves(series: Series) -> dict[str, list[Figure]]:
    """Each bandwidth curve's points by size; the known curves first, then any other."""
    found: dict[str, list[Figure]] = {}
    for f in series.figures:
        if f.curve and f.unit == "GB/s":
            found.setdefault(f.curve, []).append(f)
    order = [c for c in CURVES if c in found] + [c for c in found if c not in CURVES]
    return {c: sorted(found[c], key=lambda f: f.size) for c in order}


def compared(series: Series) -> list[Figure]:
    """The figures measured against a baseline of the same run, in the report's order."""
    return [f for f in series.figures if f.baseline and f.ratio > 0]
