"""The roofline: arithmetic intensity (FLOP/byte) against FLOP/s on log-log axes, each device's
measured memory roof (its best triad bandwidth times the intensity) and compute roof (its best
float peak; double and half peaks dotted), and each library operation of the run (its median)
as a labelled point with its fraction of the roof at its intensity. SVG ids: roofline-point-{series}-{op},
roofline-label-{series}-{op}, roofline-roof-{series}, roofline-peak-{series}-{precision}, and
the decade ticks roofline-xtick-e{N} and roofline-ytick-e{N}."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.transforms import Bbox

from . import _report, _style
from ._report import Point, Roofs, Series

# Where a point's label may go, in points from the point, tried in turn until one is free.
_LABEL_PLACES = tuple((dx, dy, "left" if dx > 0 else "right")
                      for dy in (3, -13, 15, -25, 27, -37, 39, -49) for dx in (7, -7))


def _gflops(value: float) -> str:
    return f"{value / 1e9:.3g}"


def _limits(found: list[tuple[Roofs, list[Point]]]) -> tuple[float, float, float, float]:
    xs, ys = [], []
    for roofs, placed in found:
        xs += [p.intensity for p in placed]
        ys += [p.flops_per_s for p in placed]
        peaks = list(roofs.compute.values())
        ys += peaks
        if roofs.memory and peaks:
            ridge = max(peaks) / roofs.memory
            xs += [ridge / 8, ridge * 8]
        elif roofs.memory:
            ys += [roofs.memory * x for x in xs]
    xs = xs or [0.01, 100.0]
    ys = ys or [1e9, 1e12]
    return min(xs) / 2, max(xs) * 2, min(ys) / 2, max(ys) * 1.5


def _roof_lines(ax: Axes, k: int, series: Series, roofs: Roofs) -> None:
    style = _style.series_style(k)
    x_lo, x_hi = ax.get_xlim()
    peak = roofs.compute.get("float")
    parts = []
    if roofs.memory:
        parts.append(f"{roofs.memory / 1e9:.3g} GB/s")
    if peak:
        parts.append(f"{_gflops(peak)} GFLOP/s float")
    label = f"{series.label}: roofs (best repetitions) " + ", ".join(parts) if parts else \
        series.label
    if roofs.memory and peak:
        ridge = peak / roofs.memory
        xs, ys = [x_lo, ridge, x_hi], [roofs.memory * x_lo, peak, peak]
    elif roofs.memory:
        xs, ys = [x_lo, x_hi], [roofs.memory * x_lo, roofs.memory * x_hi]
    elif peak:
        xs, ys = [x_lo, x_hi], [peak, peak]
    else:
        ax.plot([], [], color=style["color"], marker=style["marker"], linestyle="none",
                label=series.label)
        return
    ax.plot(xs, ys, color=style["color"], linestyle=style["linestyle"], linewidth=1.8,
            marker=style["marker"], markevery=[], label=label, gid=f"roofline-roof-{k}")
    for precision, value in sorted(roofs.compute.items()):
        if precision == "float":
            continue
        start = value / roofs.memory if roofs.memory else x_lo
        ax.plot([max(start, x_lo), x_hi], [value, value], color=style["color"], linestyle=":",
                linewidth=1.0, gid=f"roofline-peak-{k}-{_style.slug(precision)}")
        ax.annotate(f"{series.label}: {precision} peak {_gflops(value)} GFLOP/s",
                    (max(start, x_lo), value), xytext=(4, -10 - 10 * k),
                    textcoords="offset points", ha="left", fontsize=7, color=style["color"])


def _place_labels(ax: Axes, labelled: list[tuple[Point, str, str, dict]]) -> None:
    """Labels beside their points, each at the first place that overlaps no point and no
    earlier label."""
    figure = ax.figure
    figure.draw_without_rendering()  # lays the axes out, so that extents are final
    renderer = figure.canvas.get_renderer()
    # The markers and the lines first: a label covers no point and no roof either.
    taken = []
    for point, _, _, _ in labelled:
        x, y = ax.transData.transform((point.intensity, point.flops_per_s))
        taken.append(Bbox.from_extents(x - 6, y - 6, x + 6, y + 6))
    for line in ax.get_lines():
        corners = line.get_transform().transform(line.get_xydata())
        for (x0, y0), (x1, y1) in zip(corners[:-1], corners[1:]):
            steps = max(1, int(max(abs(x1 - x0), abs(y1 - y0)) / 6))
            for i in range(steps + 1):
                x, y = x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps
                taken.append(Bbox.from_extents(x - 2, y - 2, x + 2, y + 2))
    for point, text, gid, style in labelled:
        def put(place: tuple[int, int, str]) -> Any:
            dx, dy, align = place
            return ax.annotate(text, (point.intensity, point.flops_per_s), xytext=(dx, dy),
                               textcoords="offset points", ha=align, fontsize=7.5,
                               color=style["color"], gid=gid)
        clashes = []
        for place in _LABEL_PLACES:
            label = put(place)
            box = label.get_window_extent(renderer).expanded(1.05, 1.1)
            label.remove()
            clashes.append((sum(box.overlaps(other) for other in taken), place, box))
            if clashes[-1][0] == 0:
                break
        _, place, box = min(clashes, key=lambda c: c[0])  # crowded: the least overlap
        put(place)
        taken.append(box)


def draw(series: list[Series], folder: Path) -> tuple[list[Path], list[str]]:
    """roofline.png and roofline.svg; returns them (none where no series has a roof or a
    point) and what the picture lacks."""
    found = []
    for s in series:
        roofs = _report.roofs(s)
        found.append((roofs, *_report.points(s, roofs)))
    missing, notes = [], []
    for s, (roofs, placed, without) in zip(series, found):
        missing += [f"{s.label}: {m}" for m in _report.missing_for_roofline(s, roofs)]
        if without:
            bandwidths = []
            for f in without:
                seconds = f.seconds()
                if seconds is None or f.bytes <= 0:
                    bandwidths.append(f"{f.op} (no time per call)")
                    continue
                rate = f.bytes / seconds
                share = f", {rate / roofs.memory:.0%} of the memory roof" if roofs.memory else ""
                bandwidths.append(f"{f.op} {rate / 1e9:.3g} GB/s{share}")
            notes.append(f"{s.label}: no arithmetic, so not on the roofline: "
                         + "; ".join(bandwidths))
    if not any(roofs.memory or roofs.compute or placed for roofs, placed, _ in found):
        return [], missing
    figure = _style.new_figure(10, 7, "Roofline: xgpu's library operations against the "
                               "device's measured roofs", series, missing + notes)
    ax = figure.add_subplot()
    x_lo, x_hi, y_lo, y_hi = _limits([(r, p) for r, p, _ in found])
    _style.log_axis(ax, "x", x_lo, x_hi, "roofline")
    _style.log_axis(ax, "y", y_lo, y_hi, "roofline")
    ax.set_xlabel("arithmetic intensity (FLOP/byte; integer operations for the scan)")
    ax.set_ylabel("FLOP/s")
    labelled = []
    for k, (s, (roofs, placed, _)) in enumerate(zip(series, found)):
        _roof_lines(ax, k, s, roofs)
        style = _style.series_style(k)
        for p in placed:
            gid = f"{k}-{_style.slug(p.op)}"
            ax.plot([p.intensity], [p.flops_per_s], linestyle="none", marker=style["marker"],
                    markersize=7, markerfacecolor=style["color"], markeredgecolor="black",
                    gid=f"roofline-point-{gid}")
            share = f"\n{p.fraction:.0%} of roof" if p.fraction is not None else ""
            labelled.append((p, f"{p.op}{share}", f"roofline-label-{gid}", style))
    ax.legend(loc="lower right", fontsize=7.5)
    _place_labels(ax, labelled)
    return _style.save(figure, folder, "roofline"), missing
