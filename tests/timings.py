#!/usr/bin/env python3
"""The per-entry timings of a CTest run, as the artifact docs/testing.md reads.

    timings.py BUILD_DIR [--junit FILE] [--out FILE] [--top N]

Reads the JUnit report `ctest --output-junit` wrote (BUILD_DIR/test-results.xml by default)
and each entry's labels (`ctest --show-only=json-v1`), writes every entry's seconds, slowest
first, with its labels and status, to --out (BUILD_DIR/test-timings.txt), and prints the
seconds per label and the slowest entries. An entry over 60 s without the `long` label is
named: the budget's rule (docs/testing.md). It is a report, never a failure: timings on a
shared machine are noise, and no test asserts one.
"""

import argparse
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict

LIMIT_S = 60.0


def labels_of(build_dir):
    listing = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
    labels = {}
    for test in json.loads(listing).get("tests", []):
        names = []
        for prop in test.get("properties", []):
            if prop.get("name") == "LABELS":
                names = list(prop.get("value", []))
        labels[test["name"]] = names
    return labels


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir")
    parser.add_argument("--junit")
    parser.add_argument("--out")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    junit = args.junit or f"{args.build_dir}/test-results.xml"
    out = args.out or f"{args.build_dir}/test-timings.txt"
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as error:
        sys.exit(f"timings.py: cannot read the CTest report {junit}: {error}")
    labels = labels_of(args.build_dir)
    rows = []
    for case in root.iter("testcase"):
        status = case.get("status") or ("failed" if case.find("failure") is not None else "run")
        rows.append((float(case.get("time", "0")), case.get("name"), status))
    rows.sort(reverse=True)
    per_label = defaultdict(float)
    for seconds, name, _ in rows:
        for label in labels.get(name, []) or ["(none)"]:
            per_label[label] += seconds
    total = sum(seconds for seconds, _, _ in rows)
    with open(out, "w", encoding="utf-8") as file:
        file.write(f"# {len(rows)} entries, {total:.0f} s of test time in all "
                   f"(CTest runs them in parallel: the wall time is less)\n")
        file.write("# seconds  entry  labels  status\n")
        for seconds, name, status in rows:
            file.write(f"{seconds:9.1f}  {name}  {','.join(labels.get(name, []))}  {status}\n")
    print(f"Per-entry timings: {out} ({len(rows)} entries, {total:.0f} s of test time)")
    print("Seconds per label: " +
          ", ".join(f"{label} {seconds:.0f}" for label, seconds in
                    sorted(per_label.items(), key=lambda item: -item[1])))
    print(f"The {min(args.top, len(rows))} slowest:")
    for seconds, name, _ in rows[:args.top]:
        print(f"  {seconds:7.1f} s  {name}")
    over = [(s, n) for s, n, _ in rows if s > LIMIT_S and "long" not in labels.get(n, [])]
    for seconds, name in over:
        print(f"note: {name} took {seconds:.0f} s, over {LIMIT_S:.0f} s without the 'long' label "
              "(docs/testing.md)")


if __name__ == "__main__":
    main()
