"""Bandwidth curves: host to device, device to host, device copy and triad against the transfer
size (bytes of one buffer), one panel each on log-log axes; a line per device (median) over a
band from its minimum to its maximum. SVG ids: bandwidth-{curve}-{series} (the line, a marker
at each size), bandwidth-{curve}-xtick-e{N} and bandwidth-{curve}-ytick-e{N}."""

from __future__ import annotations

import math
from pathlib import Path

from . import _report, _style
from ._report import Series

# What each curve counts as moved per byte of the buffer (docs/BENCHMARKS.md).
_COUNTED = {"host to device": "", "device to host": "",
            "device copy": " (read + write counted)", "triad": " (3 arrays counted)"}


def draw(series: list[Series], folder: Path) -> tuple[list[Path], list[str]]:
    """bandwidth.png and bandwidth.svg; returns them (none where no series has a curve) and what
    is missing."""
    by_series = [_report.curves(s) for s in series]
    missing = [f"{s.label}: no bandwidth curves: " + (
        "its memory figures carry no curve field (a report of an older xgpu bench)"
        if "memory" in s.suites else "the memory suite did not run (xgpu bench memory)")
        for s, found in zip(series, by_series) if not found]
    names = list(dict.fromkeys(c for found in by_series for c in found))
    if not names:
        return [], missing
    columns = 2 if len(names) > 1 else 1
    rows = math.ceil(len(names) / columns)
    figure = _style.new_figure(10, 1.6 + 3.2 * rows, "Bandwidth against transfer size (line: "
                               "median; band: minimum to maximum)", series,
                               missing)
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for ax, name in zip(axes, names):
        points = [p for found in by_series for p in found.get(name, [])]
        sizes = [p.size for p in points]
        rates = [v for p in points for v in (p.minimum, p.median, p.maximum) if v > 0]
        prefix = f"bandwidth-{_style.slug(name)}"
        _style.log_axis(ax, "x", min(sizes), max(sizes), prefix)
        _style.log_axis(ax, "y", min(rates), max(rates), prefix)
        ax.set_title(name + _COUNTED.get(name, ""))
        ax.set_xlabel("buffer size (bytes)")
        ax.set_ylabel("GB/s")
        for k, (s, found) in enumerate(zip(series, by_series)):
            line = found.get(name)
            if not line:
                continue
            style = _style.series_style(k)
            xs = [p.size for p in line]
            ax.fill_between(xs, [p.minimum or p.median for p in line],
                            [p.maximum or p.median for p in line], color=style["color"],
                            alpha=0.15, linewidth=0)
            ax.plot(xs, [p.median for p in line], color=style["color"], marker=style["marker"],
                    linestyle=style["linestyle"], markerfacecolor="white", label=s.label,
                    gid=f"{prefix}-{k}")
        ax.legend(fontsize=7.5, loc="lower right")
    for ax in axes[len(names):]:
        ax.set_visible(False)
    return _style.save(figure, folder, "bandwidth"), missing
