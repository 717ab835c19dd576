"""The pictures of one or several bench reports, and of a trace, with matplotlib's settings
scoped to each drawing (rc_context), so that a program importing this changes nothing else."""

from __future__ import annotations

from pathlib import Path

import matplotlib

from . import _comparison, _curves, _roofline, _style, _timeline
from ._report import Series


def draw_series(series: list[Series], folder: Path) -> tuple[list[Path], list[str]]:
    """xgpu.plot.draw_report's work, on the reports once read."""
    written, missing = [], []
    with matplotlib.rc_context(_style.RC):
        for draw in (_roofline.draw, _curves.draw, _comparison.draw):
            paths, lacking = draw(series, folder)
            written += paths
            missing += lacking
    return written, missing


def draw_timeline(trace: str | Path, output: str | Path) -> Path:
    """xgpu.plot.draw_timeline's work."""
    with matplotlib.rc_context(_style.RC):
        return _timeline.draw(Path(trace), Path(output))
