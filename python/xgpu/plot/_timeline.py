"""The timeline of an XGPU_TRACE file (docs/trace.md): a lane per queue of each device, its
kernels, copies and fills as bars over time, as Perfetto shows them, in one picture for a
report or an issue. Kernels are solid, copies hatched, fills dotted, each named where it is
wide enough. SVG ids: timeline-event-{i} (i counts the commands in the file's order) and the
ticks timeline-xtick-{value}."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from matplotlib.patches import Patch

from . import _style
from ._report import ReportError

_LOOKS = {"launch": {"facecolor": "0.35", "edgecolor": "black", "hatch": None},
          "copy": {"facecolor": "white", "edgecolor": "black", "hatch": "////"},
          "fill": {"facecolor": "0.85", "edgecolor": "black", "hatch": ".."}}


@dataclass
class Command:
    index: int    # among the file's commands, in its order
    lane: tuple[int, int]
    name: str
    category: str
    begin: float  # microseconds
    duration: float


def read_trace(file: str | Path) -> tuple[list[Command], dict[tuple[int, int], str]]:
    """The device commands of a trace and the name of each lane; a file cut short (no closing
    "]}", as a crashed program leaves it) is read as `xgpu trace summary` reads it."""
    path = str(file)
    try:
        text = Path(file).read_text(encoding="utf-8")
    except OSError as error:
        raise ReportError(f"{path}: cannot read it: {error.strerror}") from None
    document = None
    for ending in ("", "]}", "\n]}"):
        try:
            document = json.loads(text + ending)
            break
        except json.JSONDecodeError:
            continue
    if not isinstance(document, dict) or not isinstance(document.get("traceEvents"), list):
        raise ReportError(f"{path}: not a Chrome trace-event file (a JSON object with "
                          "traceEvents)")
    devices: dict[int, str] = {}
    queues: dict[tuple[int, int], str] = {}
    commands = []
    for i, event in enumerate(document["traceEvents"]):
        if not isinstance(event, dict):
            continue
        phase, pid, tid = event.get("ph"), event.get("pid", 0), event.get("tid", 0)
        args = event.get("args") if isinstance(event.get("args"), dict) else {}
        if phase == "M" and event.get("name") == "process_name":
            devices[pid] = str(args.get("name", ""))
        elif phase == "M" and event.get("name") == "thread_name":
            queues[(pid, tid)] = str(args.get("name", ""))
        elif phase == "X" and event.get("cat") in _LOOKS:
            for key in ("ts", "dur"):
                value = event.get(key)
                if not isinstance(value, (int, float)) or isinstance(value, bool):
                    raise ReportError(f"{path}: traceEvents[{i}].{key}: expected a number, got "
                                      f"{json.dumps(value)}")
            commands.append(Command(len(commands), (pid, tid), str(event.get("name", "?")),
                                    event["cat"], float(event["ts"]), float(event["dur"])))
    names = {}
    for lane in sorted({c.lane for c in commands}):
        device = devices.get(lane[0], f"pid {lane[0]}").split(" (")[0]
        names[lane] = f"{device}\n{queues.get(lane, f'tid {lane[1]}')}"
    return commands, names


def draw(trace: Path, output: Path) -> Path:
    """The picture of the trace's commands, written to `output` (.png, .svg or .pdf)."""
    commands, names = read_trace(trace)
    if not commands:
        raise ReportError(f"{trace}: has no device commands (launches, copies, fills) to draw")
    if output.suffix not in (".png", ".svg", ".pdf"):
        raise ReportError(f"{output}: the timeline is written as .png, .svg or .pdf")
    start = min(c.begin for c in commands)
    end = max(c.begin + c.duration for c in commands)
    # Microseconds up to 5 ms, then milliseconds, then seconds: ticks of a few digits.
    unit, scale = ("µs", 1.0) if end - start <= 5e3 else ("ms", 1e3) if end - start <= 5e6 \
        else ("s", 1e6)
    lanes = sorted(names)
    figure = _style.new_figure(12, 1.8 + 0.55 * len(lanes), f"Timeline of {trace.name}: "
                               "kernels and copies of each queue", [], [])
    ax = figure.add_subplot()
    margin = (end - start) * 0.02
    _style.linear_axis(ax, (start - margin) / scale, (end + margin) / scale, "timeline")
    for c in commands:
        y = lanes.index(c.lane)
        look = _LOOKS[c.category]
        bar = ax.barh(y, max(c.duration, 1e-9) / scale, left=c.begin / scale, height=0.6,
                      linewidth=0.6, **look)
        bar[0].set_gid(f"timeline-event-{c.index}")
        if c.duration >= (end - start) / 25:
            ax.text((c.begin + c.duration / 2) / scale, y, c.name, ha="center", va="center",
                    fontsize=7, color="white" if c.category == "launch" else "black",
                    backgroundcolor="none" if c.category == "launch" else "white",
                    clip_on=True)
    ax.set_yticks(range(len(lanes)))
    ax.set_yticklabels([names[lane] for lane in lanes], fontsize=7.5)
    ax.set_ylim(len(lanes) - 0.4, -0.6)  # the first lane on top
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(f"time since the trace began ({unit})")
    ax.set_axisbelow(True)
    ax.legend(handles=[Patch(label=label, **_LOOKS[category]) for category, label in
                       (("launch", "kernel"), ("copy", "copy"), ("fill", "fill"))],
              fontsize=7, loc="lower right", bbox_to_anchor=(1.0, 1.0), ncols=3, frameon=False)
    output.parent.mkdir(parents=True, exist_ok=True)
    _style.save_as(figure, output)
    return output
