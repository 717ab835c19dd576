"""Pictures of xgpu's measurements (docs/plots.md), drawn with matplotlib (``pip install
'xgpu[plot]'``; tools/setup.sh installs it into .venv):

    python -m xgpu.plot BENCH.json [MORE.json ...] [-o DIR]   roofline, bandwidth, comparison
    python -m xgpu.plot --timeline TRACE.json [-o FILE.png]   lanes of an XGPU_TRACE file

From Python: ``draw_report(["b.json"], "plots")`` and ``draw_timeline("t.json", "t.png")``.
``xgpu bench --plot DIR`` and ``xgpu trace summary --timeline FILE`` run the same."""

from __future__ import annotations

from pathlib import Path

from ._report import ReportError, read_report, read_reports


# matplotlib is imported only when something is drawn: `python -m xgpu.plot --check` must run
# without it, to say that it is missing.
def draw_report(files: list[str | Path], folder: str | Path) -> tuple[list[Path], list[str]]:
    """roofline, bandwidth and comparison (each .png and .svg) of the reports in `files`, into
    `folder`; returns the files written and what the reports lack, in sentences (a picture
    with nothing to draw is not written). Raises ReportError for a file that is no report."""
    series = read_reports(list(files))  # a bad file stops here, before matplotlib loads
    from ._draw import draw_series
    return draw_series(series, Path(folder))


def draw_timeline(trace: str | Path, output: str | Path) -> Path:
    """The lanes of an XGPU_TRACE file into `output` (.png, .svg or .pdf)."""
    from ._draw import draw_timeline as draw
    return draw(trace, output)

__all__ = ["draw_report", "draw_timeline", "ReportError", "read_report", "read_reports"]
