"""What every picture shares: greyscale styles (a series is told by its marker and line, never by
colour alone), the title (device, driver, date, command), decade ticks whose SVG elements carry
ids (so that a test, or a reader, can map a drawn position back to its value), and saving."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any, Iterable

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure
from matplotlib.ticker import FuncFormatter

from ._report import Series

# Series k draws with SHADES[k], MARKERS[k] and LINES[k] (cycled): three ways to tell them apart.
SHADES = ("0.0", "0.45", "0.25", "0.6")
MARKERS = ("o", "s", "^", "D", "v", "P")
LINES = ("-", "--", ":", "-.")

# Applied around each picture (matplotlib.rc_context): text stays text in the SVG.
RC = {"svg.fonttype": "none", "svg.hashsalt": "xgpu", "font.size": 9, "axes.titlesize": 10,
      "axes.grid": True, "grid.color": "0.85", "grid.linewidth": 0.6}

DPI = 150

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def series_style(k: int) -> dict[str, Any]:
    return {"color": SHADES[k % len(SHADES)], "marker": MARKERS[k % len(MARKERS)],
            "linestyle": LINES[k % len(LINES)]}


def slug(text: str) -> str:
    """A piece of an SVG id: lower case letters, digits and '-'."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def title_lines(series: list[Series]) -> list[str]:
    """One line per run (date, command, load) and one per device (name, platform, driver)."""
    lines, seen = [], set()
    for s in series:
        if s.run.path not in seen:
            seen.add(s.run.path)
            load = f", load {s.run.load_average[0]:.1f}" if s.run.load_average else ""
            quick = " (quick)" if s.run.quick else ""
            lines.append(f"{s.run.date or 'date not recorded'}{quick}{load}: "
                         f"{_shorten(s.run.command or 'command not recorded', 90)}")
        driver = f", driver {s.driver}" if s.driver else ""
        platform = f" ({s.platform}{driver})" if s.platform else driver
        lines.append(_shorten(f"{s.label}{platform}", 110))
    return lines


def new_figure(width: float, height: float, heading: str, series: list[Series],
               notes: list[str]) -> MplFigure:
    """A figure titled with the heading and title_lines(), laid out around its axes, with the
    notes (what the picture lacks, or what it leaves out) in a strip at the bottom."""
    figure = MplFigure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    figure.suptitle(heading + "\n" + "\n".join(title_lines(series)), fontsize=9, x=0.01,
                    ha="left")
    if notes:
        strip = min(0.4, (len(notes) * 11 + 8) / (height * 72))  # 11 points a line
        figure.get_layout_engine().set(rect=(0, strip, 1, 1 - strip))
        figure.text(0.01, 0.005, "\n".join(notes), fontsize=7.5, va="bottom", ha="left",
                    gid="notes")
    return figure


def decades(low: float, high: float) -> tuple[int, int]:
    """The powers of ten just around [low, high], at least one decade apart."""
    a, b = math.floor(math.log10(low)), math.ceil(math.log10(high))
    return a, max(b, a + 1)


def log_axis(ax: Axes, axis: str, low: float, high: float, prefix: str) -> None:
    """A log axis from the decade under `low` to the one over `high`, a tick at each decade
    whose SVG group is `{prefix}-{axis}tick-e{N}` (N the exponent, 'm' for minus)."""
    a, b = decades(low, high)
    ticks = [10.0 ** e for e in range(a, b + 1)]
    if axis == "x":
        ax.set_xscale("log")
        ax.set_xlim(ticks[0], ticks[-1])
        ax.set_xticks(ticks)
        major = ax.xaxis.get_major_ticks(len(ticks))
    else:
        ax.set_yscale("log")
        ax.set_ylim(ticks[0], ticks[-1])
        ax.set_yticks(ticks)
        major = ax.yaxis.get_major_ticks(len(ticks))
    for tick, e in zip(major, range(a, b + 1)):
        tick.set_gid(f"{prefix}-{axis}tick-e{'m' if e < 0 else ''}{abs(e)}")
    # 10² in plain text: matplotlib's default typesets each label as mathtext, the slowest part
    # of drawing a picture.
    formatter = FuncFormatter(lambda value, _: "10" + str(round(math.log10(value))).translate(
        _SUPERSCRIPT))
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_formatter(formatter)


def linear_axis(ax: Axes, low: float, high: float, prefix: str) -> None:
    """A linear x axis over [low, high] whose ticks' SVG groups are `{prefix}-xtick-{value}`
    (integers in the axis' unit)."""
    ax.set_xlim(low, high)
    step = 10 ** math.floor(math.log10(max(high - low, 1e-9)))
    for factor in (1, 2, 5, 10):
        if (high - low) / (step * factor) <= 8:
            step *= factor
            break
    step = max(step, 1)
    ticks = [v for v in range(int(math.ceil(low / step) * step), int(high) + 1, int(step))]
    ax.set_xticks(ticks)
    for tick, value in zip(ax.xaxis.get_major_ticks(len(ticks)), ticks):
        tick.set_gid(f"{prefix}-xtick-{value}")


def save(figure: MplFigure, folder: Path, name: str) -> list[Path]:
    """The picture as NAME.png and NAME.svg in `folder`; returns both paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for suffix in ("png", "svg"):
        path = folder / f"{name}.{suffix}"
        save_as(figure, path)
        written.append(path)
    return written


def save_as(figure: MplFigure, path: Path) -> None:
    # No date in the SVG, so that the same report gives the same file.
    metadata = {"Date": None} if path.suffix == ".svg" else None
    figure.savefig(path, dpi=DPI, metadata=metadata)
