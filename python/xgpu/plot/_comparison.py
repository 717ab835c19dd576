"""The comparison: each figure measured against a baseline of the same run (raw OpenCL,
Boost.Compute, OpenBLAS, the host, ...) as a bar from 1 to its ratio on a log axis, with its
target drawn across it; a panel per device. Met is solid, missed hatched, no target dotted.
SVG ids: comparison-bar-{series}-{i} and comparison-target-{series}-{i} (i counts the series'
compared figures in the report's order), comparison-{series}-xtick-e{N}."""

from __future__ import annotations

from pathlib import Path

from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from . import _report, _style
from ._report import Series

_MET = {"facecolor": "0.3", "edgecolor": "black", "hatch": None}
_MISSED = {"facecolor": "white", "edgecolor": "black", "hatch": "////"}
_NO_TARGET = {"facecolor": "0.88", "edgecolor": "0.4", "hatch": ".."}

_ROW = 0.24  # inches a bar


def _label(figure: _report.Figure) -> str:
    text = f"{figure.case}  [vs {figure.baseline}]"
    return text if len(text) <= 80 else text[:79] + "…"


def draw(series: list[Series], folder: Path) -> tuple[list[Path], list[str]]:
    """comparison.png and comparison.svg; returns them (none where nothing was compared) and
    what is missing."""
    rows = [_report.compared(s) for s in series]
    missing = [f"{s.label}: no figure has a baseline (the suites run had none to compare with)"
               for s, compared in zip(series, rows) if not compared]
    shown = [(k, s, compared) for k, (s, compared) in enumerate(zip(series, rows)) if compared]
    if not shown:
        return [], missing
    values = [1.0]
    for _, _, compared in shown:
        for f in compared:
            values.append(f.ratio)
            bound = _report.target_bound(f)
            if bound:
                values.append(bound[1])
    heights = [0.7 + _ROW * len(compared) for _, _, compared in shown]
    figure = _style.new_figure(12, 1.9 + sum(heights), "Each figure against its baseline in the "
                               "same run: ratio (a time's: lower is faster; a rate's: higher "
                               "is faster)", series, missing)
    axes = figure.subplots(len(shown), 1, squeeze=False, height_ratios=heights).ravel()
    for ax, (k, s, compared) in zip(axes, shown):
        # Room for the value written beside the longest bars.
        _style.log_axis(ax, "x", min(values) / 3, max(values) * 3, f"comparison-{k}")
        ax.axvline(1.0, color="black", linewidth=0.8, linestyle="--")
        ys = list(range(len(compared)))[::-1]  # the report's first figure on top
        for i, (y, f) in enumerate(zip(ys, compared)):
            bound = _report.target_bound(f)
            look = _NO_TARGET if bound is None else _MET if f.met else _MISSED
            bar = ax.barh(y, f.ratio - 1.0, left=1.0, height=0.62, linewidth=0.8, **look)
            bar[0].set_gid(f"comparison-bar-{k}-{i}")
            ax.annotate(f"{f.ratio:.3g}x", (f.ratio, y), xytext=(4 if f.ratio >= 1 else -4, 0),
                        textcoords="offset points", va="center",
                        ha="left" if f.ratio >= 1 else "right", fontsize=7)
            if bound:
                at = bound[1]
                ax.plot([at, at], [y - 0.42, y + 0.42], color="black", linewidth=2.2,
                        gid=f"comparison-target-{k}-{i}")
                ax.plot([at], [y + 0.42], linestyle="none", color="black", markersize=5,
                        marker=4 if bound[0] == "<=" else 5)  # points to the side that meets it
        ax.set_yticks(ys)
        ax.set_yticklabels([_label(f) for f in compared], fontsize=7)
        ax.set_ylim(-0.7, len(compared) - 0.3)
        ax.grid(axis="y", visible=False)
        ax.set_title(s.label, loc="left", fontsize=9)
        ax.set_xlabel("ratio to the baseline (log scale; 1 = the same)")
    axes[0].legend(handles=[
        Patch(label="target met", **_MET), Patch(label="target missed", **_MISSED),
        Patch(label="no target", **_NO_TARGET),
        Line2D([], [], color="black", linewidth=2.2, marker=4, markersize=5,
               label="target; the arrow points to the side that meets it")],
        fontsize=7, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncols=4, frameon=False)
    return _style.save(figure, folder, "comparison"), missing
