#!/usr/bin/env python3
"""Holds every shipped profile (profiles/*.json) to what a profile must be, and `xgpu query
--profiles` to listing them.

A profile is one device object of `xgpu query --json` (the fields and types of
docs/query-json.md, checked by tests/cli/check_query_json.py's table) with "schema_version": 1
and a "source" citing where its facts come from. Its values must be those of a real GPU:
plausible sizes, limits that fit together, the vendor's own conventions.

Usage: check_shipped_profiles.py PROFILES_DIR [--xgpu BUILD/bin/xgpu]
"""
import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "cli"))
from check_query_json import DEVICE_FIELDS, WHERE_FIELDS, type_ok  # noqa: E402  (one schema table)

KIB = 1024
GIB = 1024 ** 3
# The sub-group / warp / wavefront widths GPU drivers report as preferred multiples.
MULTIPLES = {8, 16, 32, 64}
VENDOR_IDS = {"nvidia": 0x10DE, "amd": 0x1002, "intel": 0x8086}
# What each vendor's driver reports in vendor_extras (backends/opencl/vendor_*.cpp).
VENDOR_EXTRAS = {"nvidia": {"compute_capability", "warp_size"},
                 "amd": {"board_name", "gfx_target", "wavefront_width"},
                 "intel": {"sub_group_sizes"}}
# At least one profile of each kind the issue asks for, by file name.
REQUIRED_KINDS = {
    "NVIDIA data-centre GPU": r"^nvidia-(h100|h200)",
    "NVIDIA consumer GPU": r"^nvidia-rtx-",
    "AMD Instinct": r"^amd-mi(2|3)",
    "AMD Radeon RDNA2/3": r"^amd-rx-(6|7)",
    "Intel Arc or Data Center GPU Max": r"^intel-(arc|max)-",
    "Intel integrated GPU": r"^intel-(uhd|iris)",
}


def power_of_two(n):
    return n > 0 and n & (n - 1) == 0


def profile_errors(path):
    """Every way the profile at `path` falls short, as 'field: why' strings."""
    try:
        profile = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        return [f"not readable JSON: {error}"]
    if not isinstance(profile, dict):
        return ["not a JSON object"]
    errors = []

    def bad(field, why):
        errors.append(f"{field}: {why}")

    if profile.get("schema_version") != 1 or isinstance(profile.get("schema_version"), bool):
        bad("schema_version", f"is {profile.get('schema_version')!r}, must be 1")
    source = profile.get("source")
    if not isinstance(source, str) or not re.search(r"[a-z0-9-]+\.(com|org|net|io)/", source):
        bad("source", "must cite where the facts come from (a string with at least one address)")
    before_types = len(errors)
    for field, accepted in DEVICE_FIELDS.items():
        if field in WHERE_FIELDS and field not in ("index", "backend"):
            continue  # the identity of the capturing machine's device: not the profile's
        if field not in profile:
            bad(field, "missing")
        elif profile[field] is None and field not in ("uuid", "pci_bus_id"):
            bad(field, "is null: a shipped profile states every property")
        elif not type_ok(profile[field], accepted):
            bad(field, f"{profile[field]!r} is not of type {accepted}")
    if len(errors) > before_types:
        return errors  # the value checks below assume the types are right

    if profile["type"] != ["gpu"]:
        bad("type", f"is {profile['type']}, a shipped profile is a GPU")
    vendor = profile["hardware_vendor"]
    if vendor not in VENDOR_IDS:
        bad("hardware_vendor", f"{vendor!r} is none of {sorted(VENDOR_IDS)}")
    elif profile["vendor_id"] != VENDOR_IDS[vendor]:
        bad("vendor_id", f"{profile['vendor_id']:#x} is not {vendor}'s {VENDOR_IDS[vendor]:#x}")
    elif not VENDOR_EXTRAS[vendor] <= set(profile["vendor_extras"]):
        bad("vendor_extras", f"lacks {sorted(VENDOR_EXTRAS[vendor] - set(profile['vendor_extras']))}")
    if not all(isinstance(v, str) for v in profile["vendor_extras"].values()):
        bad("vendor_extras", "values must be strings")
    if profile["query_errors"]:
        bad("query_errors", "must be empty: a shipped profile has no failed property")

    local = profile["local_memory"]
    if not 16 * KIB <= local <= 256 * KIB:
        bad("local_memory", f"{local} is not a GPU's local memory (16 KiB to 256 KiB)")
    group = profile["max_work_group_size"]
    if not (power_of_two(group) and 64 <= group <= 2048):
        bad("max_work_group_size", f"{group} is not a power of two from 64 to 2048")
    items = profile["max_work_item_sizes"]
    if len(items) != 3 or not all(isinstance(i, int) and not isinstance(i, bool) for i in items):
        bad("max_work_item_sizes", f"{items} is not 3 integers")
    else:
        # Per-dimension limits may exceed the group limit (ROCm: 1024 per dimension, 256 per
        # group), but each is at most 1024 on every GPU, and a full group must fit along x.
        if not all(1 <= i <= 1024 for i in items):
            bad("max_work_item_sizes", f"{items}: each dimension must be 1 to 1024")
        if items[0] < group:
            bad("max_work_item_sizes", f"{items}: x ({items[0]}) is below the group size {group}")
    multiple = profile["work_group_multiple"]
    if multiple not in MULTIPLES:
        bad("work_group_multiple", f"{multiple} is none of {sorted(MULTIPLES)}")
    elif group % multiple:
        bad("work_group_multiple", f"{multiple} does not divide max_work_group_size {group}")
    width = profile["vendor_extras"].get("warp_size") or profile["vendor_extras"].get(
        "wavefront_width")
    if width is not None and width != str(multiple):
        bad("work_group_multiple", f"{multiple} is not the warp/wavefront width {width}")
    sub_groups = profile["vendor_extras"].get("sub_group_sizes")
    if sub_groups is not None and not re.fullmatch(r"\d+(,\d+)*", sub_groups):
        bad("vendor_extras", f"sub_group_sizes {sub_groups!r} is not a comma-separated list")

    memory, allocation = profile["global_memory"], profile["max_allocation"]
    if not 1 * GIB <= memory <= 512 * GIB:
        bad("global_memory", f"{memory} is not 1 GiB to 512 GiB")
    if not memory // 8 <= allocation <= memory:
        bad("max_allocation", f"{allocation} is not between an eighth of and all of {memory}")
    if not 1024 <= profile["max_parameter_size"] <= 32 * KIB:
        bad("max_parameter_size", f"{profile['max_parameter_size']} is not 1 KiB to 32 KiB")
    # OpenCL's minimum is 64 KiB (NVIDIA's value); ROCm and NEO report their max allocation.
    if not 64 * KIB <= profile["max_constant_buffer_size"] <= allocation:
        bad("max_constant_buffer_size",
            f"{profile['max_constant_buffer_size']} is not 64 KiB to the max allocation")
    if not 1 <= profile["compute_units"] <= 1024:
        bad("compute_units", f"{profile['compute_units']} is not 1 to 1024")
    if not 300 <= profile["clock_mhz"] <= 4000:
        bad("clock_mhz", f"{profile['clock_mhz']} is not 300 to 4000 MHz")

    extensions = profile["extensions"]
    for flag, extension in (("fp64", "cl_khr_fp64"), ("fp16", "cl_khr_fp16")):
        if profile[flag] != (extension in extensions):
            bad(flag, f"is {profile[flag]} but {extension} is "
                      f"{'' if extension in extensions else 'not '}in extensions")
    if len(set(extensions)) != len(extensions) or any(" " in e or not e for e in extensions):
        bad("extensions", "must be distinct names without spaces")
    if not re.match(r"OpenCL C [123]\.\d", profile["language_version"]):
        bad("language_version", f"{profile['language_version']!r} is not 'OpenCL C X.Y ...'")
    # A device only the cuda module sees (NVIDIA ships no OpenCL for Jetson) is versioned as it
    # words it (backends/cuda/device_info.cpp).
    if profile["backend"] == "cuda":
        if not re.fullmatch(r"CUDA sm_\d{2,3}", profile["device_version"]):
            bad("device_version", f"{profile['device_version']!r} is not 'CUDA sm_XY'")
    elif not re.match(r"OpenCL [123]\.\d", profile["device_version"]):
        bad("device_version", f"{profile['device_version']!r} is not 'OpenCL X.Y ...'")
    return errors


def check_files(folder):
    files = sorted(folder.glob("*.json"))
    failures = []
    for path in files:
        failures += [f"{path.name}: {e}" for e in profile_errors(path)]
    names = [p.stem for p in files]
    for kind, pattern in REQUIRED_KINDS.items():
        if not any(re.match(pattern, n) for n in names):
            failures.append(f"no shipped profile of an {kind} (a file matching {pattern})")
    return names, failures


def run_list(xgpu, env=None):
    out = subprocess.run([xgpu, "query", "--profiles", "--json"], capture_output=True,
                         text=True, env=env, timeout=60)
    return out.returncode, json.loads(out.stdout) if out.stdout.strip() else {}, out.stderr


def check_cli(xgpu, names):
    """`xgpu query --profiles` lists exactly the shipped files, and XGPU_PROFILE_DIR comes first."""
    failures = []
    env = {k: v for k, v in os.environ.items() if k != "XGPU_PROFILE_DIR"}
    code, listing, stderr = run_list(xgpu, env)
    listed = {p["name"]: p for p in listing.get("profiles", [])}
    if code != 0:
        failures.append(f"xgpu query --profiles --json exited {code}: {stderr.strip()}")
    if sorted(listed) != names:
        failures.append(f"xgpu query --profiles lists {sorted(listed)}, the files are {names}")
    for name, entry in listed.items():
        if entry.get("error") or not entry.get("device") or not entry.get("source"):
            failures.append(f"xgpu query --profiles: {name} listed with {entry}")
    with tempfile.TemporaryDirectory() as own:
        # A folder of one's own is searched first: its profile of a shipped name wins, and a
        # new name is added.
        shadow = names[0] if names else "shadowed"
        for name in (shadow, "my-gpu"):
            pathlib.Path(own, name + ".json").write_text(json.dumps({"name": "Own " + name}))
        code, listing, stderr = run_list(xgpu, dict(env, XGPU_PROFILE_DIR=own))
        listed = {p["name"]: p for p in listing.get("profiles", [])}
        if listing.get("profile_dirs", [None])[0] != own:
            failures.append(f"XGPU_PROFILE_DIR={own} is not searched first: {listing.get('profile_dirs')}")
        for name in (shadow, "my-gpu"):
            if listed.get(name, {}).get("device") != "Own " + name:
                failures.append(f"XGPU_PROFILE_DIR: {name} is {listed.get(name)}, not the own file")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profiles_dir", type=pathlib.Path)
    parser.add_argument("--xgpu", help="also check `xgpu query --profiles` against the files")
    args = parser.parse_args()
    names, failures = check_files(args.profiles_dir)
    if not names:
        failures.append(f"no profile in {args.profiles_dir}")
    if args.xgpu:
        failures += check_cli(args.xgpu, names)
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(names)} profiles checked: {', '.join(names)}; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
