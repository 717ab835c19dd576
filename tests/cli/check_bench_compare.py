#!/usr/bin/env python3
"""`xgpu bench --compare` flags a case that got more than 10 % worse, in the right direction
for its unit: a time (ns, us, ms) is worse when higher, a rate (GB/s, GFLOP/s) when lower.

Usage: check_bench_compare.py XGPU REPORT.json

From a real `--json` report it writes two earlier runs no machine could have made: one where
every case was a million times better (each must be flagged now) and one where every case was a
million times worse (none may be). A factor that large, because the report is the fixture's
one-repetition quick run: on a loaded machine one of its cases was once 120x slower than usual. Runs `xgpu bench dispatch compute --quick` against each: dispatch has times,
compute has rates.
"""
import json
import os
import subprocess
import sys
import tempfile


def scaled(report, better):
    """The report with every median a million times better (or worse) in its unit's direction."""
    copy = json.loads(json.dumps(report))
    for device in copy["devices"]:
        for figure in device["figures"]:
            rate = figure["unit"].endswith("/s")
            factor = 1e6 if rate == better else 1e-6
            figure["median"] *= factor
    return copy


def compare(xgpu, earlier):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
        json.dump(earlier, out)
    try:
        run = subprocess.run([xgpu, "bench", "dispatch", "compute", "--quick", "--repetitions",
                              "1", "-d", "pocl", "--compare", out.name],
                             capture_output=True, text=True, timeout=100)
    finally:
        os.unlink(out.name)
    if run.returncode not in (0, 1):  # 1: a target was missed, which is not this test's matter
        sys.exit(f"xgpu bench exited {run.returncode}: {run.stderr}")
    lines = run.stdout.split("Compared with the earlier run")[-1].splitlines()
    rows = [l for l in lines if l.startswith(("dispatch ", "compute "))]
    units = {l.split()[0] for l in rows}
    if units != {"dispatch", "compute"}:
        sys.exit(f"the comparison lacks a suite (has {sorted(units)}):\n{run.stdout}")
    return rows, run.stdout


def refused_without_figures(xgpu, report):
    """An earlier report whose devices lack their figures (found by tests/fuzz: reading the
    missing list was undefined) is refused before anything runs, naming what is missing."""
    copy = json.loads(json.dumps(report))
    for device in copy["devices"]:
        del device["figures"]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as out:
        json.dump(copy, out)
    try:
        run = subprocess.run([xgpu, "bench", "dispatch", "--quick", "-d", "pocl", "--compare",
                              out.name], capture_output=True, text=True, timeout=100)
    finally:
        os.unlink(out.name)
    if run.returncode != 2 or 'has no "figures" list' not in run.stderr:
        sys.exit(f"a report without figures: exit {run.returncode}, {run.stderr}")


def main():
    xgpu, report_file = sys.argv[1], sys.argv[2]
    with open(report_file) as f:
        report = json.load(f)
    rows, text = compare(xgpu, scaled(report, better=True))
    unflagged = [r for r in rows if not r.rstrip().endswith("regressed")]
    if unflagged or "regressed by more than 10%" not in text:
        sys.exit("cases far worse than before were not flagged:\n" + "\n".join(unflagged))
    rows, text = compare(xgpu, scaled(report, better=False))
    flagged = [r for r in rows if r.rstrip().endswith("regressed")]
    if flagged or "no case regressed by more than 10%" not in text:
        sys.exit("cases far better than before were flagged:\n" + "\n".join(flagged))
    refused_without_figures(xgpu, report)
    print(f"flags right: {len(rows)} cases each way; a report without figures refused")


if __name__ == "__main__":
    main()
