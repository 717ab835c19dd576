#!/usr/bin/env python3
"""`xgpu query --json` under a profile, checked against the profile file.

  match XGPU FILE         every field FILE gives is reported as is by `-d profile:0`; the
                          fields it lacks are listed in vendor_extras.profile_inherited
  roundtrip XGPU SEL      a device captured with `xgpu query --json -d SEL` and used as a
                          profile reports every field as captured
  bad XGPU FILE TEXT...   the profile module refuses FILE, its message names the file and
                          each TEXT, and the opencl module's devices are still listed
  backing XGPU FILE SELECTOR TEXT...
                          with XGPU_PROFILE_BACKING=SELECTOR the profile module offers no
                          device and its message names each TEXT (a selector matching none of
                          the opencl module's devices, which are still listed)

The caller's environment (OCL_ICD_VENDORS) is kept; XGPU_PROFILE is set here.
"""
import json
import os
import subprocess
import sys
import tempfile

# Where the capture came from, not what the device is; and the physical identity, which a
# simulated device never has (checked in compare()).
NOT_COMPARED = {"index", "backend", "query_errors", "vendor_extras", "source", "uuid", "pci_bus_id",
                "selector", "preferred", "physical_id", "aliases"}
SCHEMA_FIELDS = [
    "platform_name", "platform_vendor", "platform_version", "name", "vendor", "vendor_id",
    "hardware_vendor", "implementation", "type", "device_version", "driver_version",
    "language_version", "global_memory", "max_allocation", "local_memory",
    "max_parameter_size", "max_constant_buffer_size", "compute_units", "clock_mhz", "max_work_group_size",
    "max_work_item_sizes", "work_group_multiple", "fp16", "fp64", "ecc",
    "host_unified_memory", "images", "non_uniform_work_groups", "extensions",
]


def query(xgpu, profile, *args, backing=None):
    env = dict(os.environ)
    env.pop("XGPU_PROFILE", None)
    env.pop("XGPU_PROFILE_BACKING", None)
    if profile is not None:
        env["XGPU_PROFILE"] = profile
    if backing is not None:
        env["XGPU_PROFILE_BACKING"] = backing
    out = subprocess.run([xgpu, "query", "--json", *args], env=env, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"FAIL: xgpu query {' '.join(args)} exited {out.returncode}: {out.stderr}")
    return json.loads(out.stdout)


def device_of(path):
    with open(path, encoding="utf-8") as f:
        document = json.load(f)
    return document["devices"][0] if "devices" in document else document


def compare(expected, reported, errors):
    for key, value in expected.items():
        if key in NOT_COMPARED or key == "schema_version":
            continue
        if reported.get(key) != value:
            errors.append(f"{key}: profile says {value!r}, query reports {reported.get(key)!r}")
    extras = reported.get("vendor_extras", {})
    for key, value in expected.get("vendor_extras", {}).items():
        if extras.get(key) != value:
            errors.append(f"vendor_extras.{key}: profile says {value!r}, query reports "
                          f"{extras.get(key)!r}")
    lacking = [f for f in SCHEMA_FIELDS if expected.get(f) is None]
    inherited = [f for f in extras.get("profile_inherited", "").split(",") if f]
    if sorted(inherited) != sorted(lacking):
        errors.append(f"profile_inherited is {inherited}, expected the missing fields {lacking}")
    if reported.get("backend") != "profile":
        errors.append(f"backend is {reported.get('backend')!r}, not 'profile'")
    # A device of its own, never an alias of the device it runs on or of the one captured.
    for key in ("uuid", "pci_bus_id", "physical_id"):
        if reported.get(key) is not None:
            errors.append(f"{key}: a profile device reports {reported.get(key)!r}, not null")
    if reported.get("aliases") != []:
        errors.append(f"aliases: a profile device reports {reported.get('aliases')!r}, not []")


def check_match(xgpu, path):
    reported = query(xgpu, path, "-d", "profile:0")["devices"][0]
    errors = []
    compare(device_of(path), reported, errors)
    return errors, f"{len(device_of(path))} field(s) of {path} as reported"


def check_roundtrip(xgpu, selector):
    captured = query(xgpu, None, "-d", selector)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(captured, f)
        path = f.name
    try:
        errors, _ = check_match(xgpu, path)
    finally:
        os.unlink(path)
    device = captured["devices"][0]
    if device.get("backend") != "opencl":
        errors.append(f"the capture of {selector} is not an opencl device")
    return errors, f"{device['name']} captured and reported back"


def check_bad(xgpu, path, texts, backing=None):
    document = query(xgpu, path, backing=backing)
    errors = []
    modules = [b for b in document["backends"] if b["name"] == "profile"]
    if len(modules) != 1:
        return [f"no profile module among {document['backends']}"], ""
    message = modules[0]["message"]
    for text in [path, *texts] if backing is None else texts:
        if text not in message:
            errors.append(f"the profile module's message does not name {text!r}: {message!r}")
    if any(d["backend"] == "profile" for d in document["devices"]):
        errors.append("a profile device was offered from a bad profile")
    if not any(d["backend"] == "opencl" for d in document["devices"]):
        errors.append("the opencl module's devices are gone")
    return errors, message


def main():
    mode, xgpu = sys.argv[1], sys.argv[2]
    if mode == "match":
        errors, summary = check_match(xgpu, sys.argv[3])
    elif mode == "roundtrip":
        errors, summary = check_roundtrip(xgpu, sys.argv[3])
    elif mode == "bad":
        errors, summary = check_bad(xgpu, sys.argv[3], sys.argv[4:])
    elif mode == "backing":
        errors, summary = check_bad(xgpu, sys.argv[3], sys.argv[5:], backing=sys.argv[4])
    else:
        sys.exit(f"unknown mode {mode}")
    for error in errors:
        print("FAIL:", error)
    if errors:
        sys.exit(1)
    print("ok:", summary)


if __name__ == "__main__":
    main()
