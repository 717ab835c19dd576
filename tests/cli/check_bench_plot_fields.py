"""Checks that a report of `xgpu bench --json` (every suite but multi) carries what the plotter
draws (docs/BENCHMARKS.md, "The JSON report"): the run's command, date and load; each device's
memory and float roofs, one figure per library operation with its flops and bytes, and the four
bandwidth curves with their sizes. Exits 1 naming each field that is wrong.

    check_bench_plot_fields.py REPORT.json"""

import json
import re
import sys

OPS = {"sum", "inclusive scan", "sort", "SGEMM", "transpose", "axpy", "softmax, long rows",
       "softmax, short rows"}
NO_ARITHMETIC = {"sort", "transpose"}
# Bytes a curve's point counts per byte of its buffer.
CURVES = {"host to device": 1, "device to host": 1, "device copy": 2, "triad": 3}

report = json.load(open(sys.argv[1]))
errors = []
if "bench" not in report.get("command", ""):
    errors.append(f"command is {report.get('command')!r}")
if not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", str(report.get("date"))):
    errors.append(f"date is {report.get('date')!r}")
load = report.get("load_average")
if not (isinstance(load, list) and len(load) == 3 and all(x >= 0 for x in load)):
    errors.append(f"load_average is {load!r}")
for d, device in enumerate(report["devices"]):
    figures = device["figures"]
    roofs = {f.get("roof") for f in figures}
    if not {"memory", "compute:float"} <= roofs:
        errors.append(f"devices[{d}]: roofs {sorted(r for r in roofs if r)}")
    for f in figures:
        if f.get("roof") and not (f.get("bytes", 0) > 0 and f.get("flops", 0) > 0):
            errors.append(f"devices[{d}] {f['case']}: a roof without flops and bytes")
    ops = [f for f in figures if f.get("op")]
    if sorted(f["op"] for f in ops) != sorted(OPS):
        errors.append(f"devices[{d}]: operations {sorted(f['op'] for f in ops)}")
    for f in ops:
        if not f.get("bytes", 0) > 0 or (f["op"] not in NO_ARITHMETIC) != ("flops" in f):
            errors.append(f"devices[{d}] {f['case']}: flops {f.get('flops')}, bytes {f.get('bytes')}")
    for curve, factor in CURVES.items():
        points = [f for f in figures if f.get("curve") == curve]
        sizes = [f["size"] for f in points]
        if len(points) < 4 or sizes != sorted(set(sizes)):
            errors.append(f"devices[{d}] curve {curve!r}: sizes {sizes}")
        for f in points:
            if f["bytes"] != factor * f["size"] or f["unit"] != "GB/s":
                errors.append(f"devices[{d}] {f['case']}: bytes {f['bytes']} for size {f['size']}")
print("\n".join(errors) if errors else "plot fields right")
sys.exit(1 if errors else 0)
