#!/usr/bin/env python3
"""Checks `xgpu query --require` against the facts of `xgpu query --json`.

Usage: check_require.py PATH_TO_XGPU. For each requirement below, the devices --require
lists must be exactly those whose JSON facts meet it, the exit code must be 0 when there
is one and 1 when there is none, and every other device must get a why-not line on stderr.
"""
import json
import subprocess
import sys


def query(xgpu, *args):
    result = subprocess.run([xgpu, "query", *args], capture_output=True, text=True, check=False)
    return result


def main():
    xgpu = sys.argv[1]
    listing = query(xgpu, "--json")
    if listing.returncode != 0:
        sys.exit(f"xgpu query --json failed: {listing.stderr}")
    devices = json.loads(listing.stdout)["devices"]
    if not devices:
        sys.exit("no device to test requirements on")
    most_cu = max(d["compute_units"] for d in devices)
    # Half of it: PoCL's global memory follows free memory and may shrink between runs.
    least_mem = min(d["global_memory"] for d in devices) // 2
    cases = {
        "fp64": lambda d: d["fp64"],
        "fp16": lambda d: d["fp16"],
        "fp64,fp16": lambda d: d["fp64"] and d["fp16"],
        f"cu>={most_cu}": lambda d: d["compute_units"] >= most_cu,
        f"cu>{most_cu}": lambda d: False,
        f"mem>={least_mem}": lambda d: True,
        "mem>=1024T": lambda d: False,
        "ext=cl_khr_global_int32_base_atomics":
            lambda d: "cl_khr_global_int32_base_atomics" in d["extensions"],
    }
    problems = []
    for requirement, meets in cases.items():
        want = [d["index"] for d in devices if meets(d)]
        result = query(xgpu, "--json", "--require", requirement)
        expected_exit = 0 if want else 1
        if result.returncode != expected_exit:
            problems.append(f"--require {requirement}: exit {result.returncode}, expected "
                            f"{expected_exit}\n{result.stderr}")
            continue
        have = [d["index"] for d in json.loads(result.stdout)["devices"]]
        if have != want:
            problems.append(f"--require {requirement}: lists {have}, expected {want}")
        why_not = [line for line in result.stderr.splitlines() if "does not meet" in line]
        if len(why_not) != len(devices) - len(want):
            problems.append(f"--require {requirement}: {len(why_not)} why-not lines for "
                            f"{len(devices) - len(want)} devices:\n{result.stderr}")
        print(f"--require {requirement}: devices {have}, exit {result.returncode}")
    if problems:
        sys.exit("\n".join(problems))


if __name__ == "__main__":
    main()
