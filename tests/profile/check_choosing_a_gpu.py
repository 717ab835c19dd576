#!/usr/bin/env python3
"""Holds docs/choosing-a-gpu.md's recipe table to the shipped profiles.

For every row: the "needs" arithmetic (N parameters x bytes x 1.2, in GiB) and the `mem>=`
bound it gives, then the recipe run through `xgpu query --json --require` with every shipped
profile added (XGPU_PROFILE) and only the profile devices visible: the profiles that meet it
must be exactly the ones the row lists.

Usage: check_choosing_a_gpu.py DOC PROFILES_DIR XGPU
"""
import json
import math
import os
import pathlib
import re
import subprocess
import sys

NEEDS = re.compile(r"^(\d+)e9 × (\d+) B × 1\.2 = (\d+\.\d\d) GiB$")


def rows_of(doc):
    """(workload, needs, recipe, [profile names]) for each row of the table under ## Recipes."""
    text = doc.read_text(encoding="utf-8")
    section = text.split("## Recipes", 1)[1]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith("| workload") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4:
            sys.exit(f"FAIL: a table row without 4 cells: {line}")
        workload, needs, recipe, listed = cells
        names = [] if listed == "none" else re.findall(r"`([^`]+)`", listed)
        rows.append((workload, needs, recipe.strip("`"), names))
    return rows


def arithmetic_errors(workload, needs, recipe):
    match = NEEDS.match(needs)
    if not match:
        return []
    billions, per_parameter, written = int(match[1]), int(match[2]), match[3]
    gib = billions * 1e9 * per_parameter * 1.2 / 2**30
    errors = []
    if f"{gib:.2f}" != written:
        errors.append(f"{workload}: {needs} is {gib:.2f} GiB, not {written}")
    bound = f"mem>={math.ceil(gib)}G"
    if bound not in recipe.split(","):
        errors.append(f"{workload}: {gib:.2f} GiB rounds up to {bound}, the recipe is {recipe}")
    return errors


def meeting(xgpu, profiles, recipe):
    env = dict(os.environ, XGPU_PROFILE=":".join(profiles), XGPU_VISIBLE_DEVICES="profile")
    out = subprocess.run([xgpu, "query", "--json", "--require", recipe], env=env,
                         capture_output=True, text=True, timeout=120, check=False)
    if out.returncode not in (0, 1):
        sys.exit(f"FAIL: xgpu query --require {recipe} exited {out.returncode}: {out.stderr}")
    devices = json.loads(out.stdout)["devices"]
    if out.returncode == 1 and devices:
        sys.exit(f"FAIL: xgpu query --require {recipe} exited 1 with devices listed")
    return sorted(pathlib.Path(d["vendor_extras"]["profile_file"]).stem for d in devices)


def main():
    doc, folder, xgpu = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
    profiles = sorted(p.stem for p in folder.glob("*.json"))
    rows = rows_of(doc)
    errors = []
    # A table of nothing checks nothing: the doc promises memory, fp64 and ecc recipes.
    for term in ("mem>=", "fp64", "ecc"):
        if not any(term in recipe for _, _, recipe, _ in rows):
            errors.append(f"no recipe uses {term}")
    for workload, needs, recipe, listed in rows:
        errors += arithmetic_errors(workload, needs, recipe)
        unknown = sorted(set(listed) - set(profiles))
        if unknown:
            errors.append(f"{workload}: lists {unknown}, which are not shipped profiles")
        met = meeting(xgpu, profiles, recipe)
        if met != sorted(listed):
            errors.append(f"{workload} ({recipe}): the doc lists {sorted(listed)}, the "
                          f"profiles that meet it are {met}")
    for error in errors:
        print("FAIL", error)
    print(f"{len(rows)} recipes checked against {len(profiles)} profiles; "
          f"{len(errors)} failure(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
