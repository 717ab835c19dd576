#!/usr/bin/env python3
"""Holds `xgpu query --json` (read from stdin) to the schema of docs/query-json.md.

Options narrow what is expected: --devices N (exactly N devices), --platform NAME (some
device is on that platform), --indices 0,2 (the devices' indices, in order), --probe (each
device has a "probe" object, and the driver's promises were kept), --field I.NAME=JSON
(device I's field NAME is that JSON value; repeatable).
"""
import argparse
import json
import sys

# field -> accepted types; None in a tuple means the field may be null.
DEVICE_FIELDS = {
    "index": (int,), "backend": (str,), "selector": (str,), "preferred": (bool,),
    "platform_name": (str,), "platform_vendor": (str,), "platform_version": (str,),
    "name": (str,), "vendor": (str,), "vendor_id": (int,),
    "hardware_vendor": (str,), "implementation": (str,), "type": (list,),
    "device_version": (str,), "driver_version": (str,), "language_version": (str,),
    "global_memory": (int,), "max_allocation": (int,), "local_memory": (int,),
    "max_parameter_size": (int,), "max_constant_buffer_size": (int,), "compute_units": (int,), "clock_mhz": (int,),
    "max_work_group_size": (int,), "max_work_item_sizes": (list,),
    "work_group_multiple": (int,),
    "fp16": (bool,), "fp64": (bool,), "ecc": (bool,), "host_unified_memory": (bool,),
    "images": (bool,), "non_uniform_work_groups": (bool,), "extensions": (list,),
    "uuid": (str, None), "pci_bus_id": (str, None), "physical_id": (str, None),
    "aliases": (list,),
    "vendor_extras": (dict,), "query_errors": (dict,),
}
# Where a device was seen from, not what it is: a profile (a capture of a device object) need
# not carry them, and a profile device never reports an identity.
WHERE_FIELDS = ("index", "backend", "selector", "preferred", "physical_id", "aliases")
BACKEND_FIELDS = {"name": (str,), "path": (str,), "loaded": (bool,), "device_count": (int,),
                  "message": (str,)}


def type_ok(value, accepted):
    if value is None:
        return None in accepted
    # bool is an int in Python: an integer field must not hold true/false, nor the reverse.
    if isinstance(value, bool):
        return bool in accepted
    return any(t is not None and t is not bool and isinstance(value, t) for t in accepted)


def check_object(obj, fields, where, errors, nullable_by_error=()):
    if not isinstance(obj, dict):
        errors.append(f"{where}: not an object")
        return
    for name, accepted in fields.items():
        if name not in obj:
            errors.append(f"{where}: missing {name}")
        elif obj[name] is None and name in nullable_by_error:
            continue  # a failed query is null, with its error in query_errors
        elif not type_ok(obj[name], accepted):
            errors.append(f"{where}: {name} = {obj[name]!r} is not {accepted}")


def check_device(device, where, errors):
    failed = device.get("query_errors") or {}
    check_object(device, DEVICE_FIELDS, where, errors, nullable_by_error=tuple(failed))
    if errors:
        return
    if not all(isinstance(e, str) and e and " " not in e for e in device["extensions"]):
        errors.append(f"{where}: extensions must be non-empty strings without spaces")
    if not set(device["type"]) <= {"cpu", "gpu", "accelerator"} or not device["type"]:
        errors.append(f"{where}: type {device['type']} is not a non-empty list of known types")
    sizes = device["max_work_item_sizes"]
    if len(sizes) != 3 or not all(type_ok(s, (int,)) for s in sizes):
        errors.append(f"{where}: max_work_item_sizes {sizes} is not 3 integers")
    for key in ("global_memory", "max_allocation", "compute_units", "max_work_group_size"):
        if key not in failed and device[key] <= 0:
            errors.append(f"{where}: {key} = {device[key]} is not positive")
    if "max_allocation" not in failed and device["max_allocation"] > device["global_memory"]:
        errors.append(f"{where}: max_allocation exceeds global_memory")
    if not all(isinstance(v, str) for v in device["vendor_extras"].values()):
        errors.append(f"{where}: vendor_extras values must be strings")
    if not all(isinstance(a, str) and ":" in a for a in device["aliases"]):
        errors.append(f"{where}: aliases {device['aliases']} are not selectors such as cuda:0")
    if device["aliases"] and device["physical_id"] is None:
        errors.append(f"{where}: aliases without a physical_id")
    if device["physical_id"] is not None and not device["physical_id"].startswith(("uuid:", "pci:")):
        errors.append(f"{where}: physical_id {device['physical_id']!r} is neither uuid: nor pci:")


def check_probe(device, where, errors):
    probe = device.get("probe")
    if not isinstance(probe, dict):
        errors.append(f"{where}: no probe object")
        return
    for name, kind in (("fp16", bool), ("fp64", bool), ("max_work_group_size", int)):
        check = probe.get(name)
        if not isinstance(check, dict):
            errors.append(f"{where}: probe has no {name}")
            continue
        advertised, observed = check.get("advertised"), check.get("observed")
        if not type_ok(advertised, (kind,)) or not type_ok(observed, (kind, None)):
            errors.append(f"{where}: probe {name} has {advertised!r} / {observed!r}")
        elif advertised != device[name]:
            errors.append(f"{where}: probe {name} advertised {advertised}, device says "
                          f"{device[name]}")
        elif observed is not None and observed != advertised:
            errors.append(f"{where}: {name} advertised {advertised} but observed {observed}: "
                          f"{check.get('detail')}")
        if check.get("agrees") is not (observed is None or observed == advertised):
            errors.append(f"{where}: probe {name} agrees = {check.get('agrees')!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--devices", type=int)
    parser.add_argument("--platform", action="append", default=[])
    parser.add_argument("--indices")
    parser.add_argument("--probe", action="store_true")
    parser.add_argument("--field", action="append", default=[])
    args = parser.parse_args()

    document = json.load(sys.stdin)
    errors = []
    if document.get("schema_version") != 1:
        errors.append(f"schema_version is {document.get('schema_version')!r}, expected 1")
    if not isinstance(document.get("xgpu_version"), str):
        errors.append("xgpu_version missing")
    for key in ("backends", "devices"):
        if not isinstance(document.get(key), list):
            errors.append(f"{key} is not an array")
    if errors:
        sys.exit("\n".join(errors))
    for i, backend in enumerate(document["backends"]):
        check_object(backend, BACKEND_FIELDS, f"backends[{i}]", errors)
    devices = document["devices"]
    for i, device in enumerate(devices):
        check_device(device, f"devices[{i}]", errors)
    if errors:
        sys.exit("\n".join(errors))

    if args.devices is not None and len(devices) != args.devices:
        errors.append(f"{len(devices)} devices, expected {args.devices}")
    platforms = {d["platform_name"] for d in devices}
    for platform in args.platform:
        if platform not in platforms:
            errors.append(f"no device on platform {platform!r} (have {sorted(platforms)})")
    if args.indices is not None:
        want = [int(i) for i in args.indices.split(",") if i]
        have = [d["index"] for d in devices]
        if have != want:
            errors.append(f"device indices {have}, expected {want}")
    for expectation in args.field:
        where, value = expectation.split("=", 1)
        index, name = where.split(".", 1)
        want = json.loads(value)
        have = devices[int(index)].get(name) if int(index) < len(devices) else "(no such device)"
        if have != want:
            errors.append(f"devices[{index}].{name} is {have!r}, expected {want!r}")
    if args.probe:
        for device in devices:
            check_probe(device, f"device {device['index']}", errors)
    if errors:
        sys.exit("\n".join(errors))
    print(f"ok: {len(devices)} device(s), {len(document['backends'])} backend(s)")


if __name__ == "__main__":
    main()
