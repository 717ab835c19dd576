"""Reads positions back from the plotter's SVG files as a person reads a chart: an element is
found by its id, and its position in the SVG is turned into data coordinates through the
axis' own ticks (two ticks of known value give the scale of a log or linear axis). Nothing
here trusts the plotter's numbers: only where it drew things."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"


class Chart:
    def __init__(self, path: Path) -> None:
        self.root = ET.parse(path).getroot()
        self.by_id = {e.get("id"): e for e in self.root.iter() if e.get("id")}

    def element(self, gid: str) -> ET.Element:
        assert gid in self.by_id, f"no element with id {gid!r} in the SVG"
        return self.by_id[gid]

    def has(self, gid: str) -> bool:
        return gid in self.by_id

    def ids(self, prefix: str) -> list[str]:
        return sorted(i for i in self.by_id if i.startswith(prefix))

    def markers(self, gid: str) -> list[tuple[float, float]]:
        """The positions of the markers drawn in the group `gid` (<use x= y=>)."""
        return [(float(u.get("x")), float(u.get("y"))) for u in self.element(gid).iter(SVG + "use")]

    def path_points(self, gid: str) -> list[tuple[float, float]]:
        """The vertices of the first path in the group `gid`."""
        path = next(self.element(gid).iter(SVG + "path"))
        numbers = [float(v) for v in re.findall(r"-?[0-9.]+(?:e-?[0-9]+)?", path.get("d"))]
        return list(zip(numbers[0::2], numbers[1::2]))

    def text(self, gid: str) -> str:
        return " ".join(t.strip() for t in self.element(gid).itertext() if t.strip())

    def tick_positions(self, prefix: str, axis: str) -> dict[str, float]:
        """The SVG coordinate (x for an x axis, y for a y axis) of each tick of the group ids
        `{prefix}-{axis}tick-{name}`, by name."""
        found = {}
        for gid in self.ids(f"{prefix}-{axis}tick-"):
            # The tick's own mark: the first <use> in its group (the major tick line).
            x, y = self.markers(gid)[0]
            found[gid[len(f"{prefix}-{axis}tick-"):]] = x if axis == "x" else y
        assert len(found) >= 2, f"fewer than two ticks {prefix}-{axis}tick-*: cannot calibrate"
        return found

    def log_scale(self, prefix: str, axis: str):
        """A function from SVG coordinate to the value on a log axis with decade ticks e{N}."""
        ticks = self.tick_positions(prefix, axis)
        (n1, p1), (n2, p2) = sorted(ticks.items(), key=lambda kv: kv[1])[:2]
        e1, e2 = (-int(n[2:]) if n.startswith("em") else int(n[1:]) for n in (n1, n2))
        return lambda p: 10 ** (e1 + (p - p1) * (e2 - e1) / (p2 - p1))

    def linear_scale(self, prefix: str, axis: str = "x"):
        ticks = self.tick_positions(prefix, axis)
        (n1, p1), (n2, p2) = sorted(ticks.items(), key=lambda kv: kv[1])[:2]
        v1, v2 = float(n1), float(n2)
        return lambda p: v1 + (p - p1) * (v2 - v1) / (p2 - p1)


def close(a: float, b: float, rel: float = 2e-3) -> bool:
    return math.isclose(a, b, rel_tol=rel)
