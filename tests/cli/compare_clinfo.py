#!/usr/bin/env python3
"""Checks that `xgpu query --json` agrees with `clinfo --json` on every OpenCL device.

Usage: compare_clinfo.py PATH_TO_XGPU. Both commands run in the caller's environment
(OCL_ICD_VENDORS, POCL_DEVICES), with XGPU_VISIBLE_DEVICES removed so xgpu shows every
device. Devices are paired by platform name and position within the platform, so a
different platform order does not matter. PoCL derives its global memory from the memory
free at the time, so clinfo runs before and after xgpu, and a value agrees when it equals
either run's. Exits 77 (CTest's skip code) when clinfo is missing or has no --json.
"""
import json
import os
import subprocess
import sys

SKIP = 77
MISSING = object()

# xgpu field -> clinfo key, for values compared as they are.
SAME = {
    "name": "CL_DEVICE_NAME",
    "vendor": "CL_DEVICE_VENDOR",
    "vendor_id": "CL_DEVICE_VENDOR_ID",
    "device_version": "CL_DEVICE_VERSION",
    "driver_version": "CL_DRIVER_VERSION",
    "language_version": "CL_DEVICE_OPENCL_C_VERSION",
    "global_memory": "CL_DEVICE_GLOBAL_MEM_SIZE",
    "max_allocation": "CL_DEVICE_MAX_MEM_ALLOC_SIZE",
    "local_memory": "CL_DEVICE_LOCAL_MEM_SIZE",
    "max_parameter_size": "CL_DEVICE_MAX_PARAMETER_SIZE",
    "max_constant_buffer_size": "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE",
    "compute_units": "CL_DEVICE_MAX_COMPUTE_UNITS",
    "clock_mhz": "CL_DEVICE_MAX_CLOCK_FREQUENCY",
    "max_work_group_size": "CL_DEVICE_MAX_WORK_GROUP_SIZE",
    "max_work_item_sizes": "CL_DEVICE_MAX_WORK_ITEM_SIZES",
    "ecc": "CL_DEVICE_ERROR_CORRECTION_SUPPORT",
    "images": "CL_DEVICE_IMAGE_SUPPORT",
}
PLATFORM_SAME = {
    "platform_vendor": "CL_PLATFORM_VENDOR",
    "platform_version": "CL_PLATFORM_VERSION",
}
TYPES = {"CL_DEVICE_TYPE_CPU": "cpu", "CL_DEVICE_TYPE_GPU": "gpu",
         "CL_DEVICE_TYPE_ACCELERATOR": "accelerator"}


def run_json(command, env):
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    return result, json.loads(result.stdout) if result.stdout.strip() else None


def normal(value):
    return value.strip() if isinstance(value, str) else value


def fp_supported(entry, key):
    config = entry.get(key)
    return isinstance(config, dict) and config.get("raw", 0) != 0


def compare_device(mine, theirs, later, platform, where, problems):
    def differ(field, ours, reference, clinfo_key, reference_later=MISSING):
        if normal(ours) == normal(reference):
            return
        if reference_later is MISSING or normal(ours) != normal(reference_later):
            problems.append(f"{where}: {field} = {ours!r}, clinfo {clinfo_key} = {reference!r}")

    for field, key in SAME.items():
        if key in theirs:
            differ(field, mine[field], theirs[key], key, later.get(key, MISSING))
    for field, key in PLATFORM_SAME.items():
        differ(field, mine[field], platform[key], key)
    ours_ext = mine["extensions"]
    theirs_ext = theirs.get("CL_DEVICE_EXTENSIONS", "").split()
    if ours_ext != theirs_ext:
        problems.append(f"{where}: extensions differ: only xgpu "
                        f"{sorted(set(ours_ext) - set(theirs_ext))}, only clinfo "
                        f"{sorted(set(theirs_ext) - set(ours_ext))}, same set "
                        f"{set(ours_ext) == set(theirs_ext)}")
    differ("fp64", mine["fp64"], fp_supported(theirs, "CL_DEVICE_DOUBLE_FP_CONFIG"),
           "CL_DEVICE_DOUBLE_FP_CONFIG != 0")
    differ("fp16", mine["fp16"], "cl_khr_fp16" in theirs_ext, "cl_khr_fp16 in extensions")
    if "CL_DEVICE_TYPE" in theirs:
        reference = sorted(TYPES[t] for t in theirs["CL_DEVICE_TYPE"]["type"] if t in TYPES)
        differ("type", sorted(mine["type"]), reference, "CL_DEVICE_TYPE")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: compare_clinfo.py PATH_TO_XGPU")
    env = dict(os.environ)
    for name in ("XGPU_VISIBLE_DEVICES", "XGPU_DEVICE"):
        env.pop(name, None)
    try:
        _, reference = run_json(["clinfo", "--json"], env)
    except FileNotFoundError:
        print("skipped: clinfo is not installed")
        sys.exit(SKIP)
    except json.JSONDecodeError:
        print("skipped: this clinfo has no --json")
        sys.exit(SKIP)
    xgpu, ours = run_json([sys.argv[1], "query", "--json"], env)
    _, reference_later = run_json(["clinfo", "--json"], env)
    if xgpu.returncode != 0 or ours is None:
        sys.exit(f"xgpu query --json failed ({xgpu.returncode}):\n{xgpu.stderr}")

    # clinfo: platforms[i] holds devices[i]["online"].
    expected = {}
    for platform, group in zip(reference["platforms"], reference["devices"]):
        expected[platform["CL_PLATFORM_NAME"]] = (platform, group.get("online", []))
    later = {}
    for platform, group in zip(reference_later["platforms"], reference_later["devices"]):
        later[platform["CL_PLATFORM_NAME"]] = group.get("online", [])
    mine = {}
    for device in ours["devices"]:
        if device["backend"] == "opencl":
            mine.setdefault(device["platform_name"], []).append(device)

    problems = []
    if sorted(mine) != sorted(expected):
        problems.append(f"platforms: xgpu {sorted(mine)}, clinfo {sorted(expected)}")
    compared = 0
    for name, (platform, theirs) in expected.items():
        ours_here = mine.get(name, [])
        if len(ours_here) != len(theirs):
            problems.append(f"{name}: xgpu has {len(ours_here)} devices, clinfo {len(theirs)}")
        theirs_later = later.get(name, []) + [{}] * len(theirs)
        for position, (a, b) in enumerate(zip(ours_here, theirs)):
            compare_device(a, b, theirs_later[position], platform,
                           f"{name} #{position} (xgpu {a['index']})", problems)
            compared += 1
    if compared == 0:
        problems.append("no device to compare: clinfo and xgpu both found none")
    if problems:
        sys.exit("xgpu and clinfo disagree:\n  " + "\n  ".join(problems))
    print(f"ok: {compared} device(s) on {len(expected)} platform(s) agree with clinfo")


if __name__ == "__main__":
    main()
