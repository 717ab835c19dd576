#!/usr/bin/env python3
"""Traces the overlap example (XGPU_TRACE) and checks that the trace tells what its program
did: every write, launch and read is on the device's clock (its queues are profiled, the
feeder's upload queue too), and the pipelined part's durations add up to the device time the
example measures itself from the same commands' profiling events, not to a multiple of the
wall time (each command stretched from its enqueue to the moment the host saw it complete).
The pipelined part ends (download.finish()) before the serial part starts: its commands are
the first 48 on the device's clock.

  check_overlap_trace.py OVERLAP [DEVICE]
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def fail(message, output=""):
    print("FAIL: " + message)
    if output:
        print("--- output of the example\n" + output)
    sys.exit(1)


def main():
    example = sys.argv[1]
    arguments = sys.argv[2:]
    trace_path = os.path.join(tempfile.mkdtemp(), "overlap.json")
    done = subprocess.run([example] + arguments, capture_output=True, text=True,
                          env=dict(os.environ, XGPU_TRACE=trace_path))
    output = done.stdout + done.stderr
    if done.returncode != 0 or "overlap: OK" not in done.stdout:
        fail(f"the example failed (exit {done.returncode})", output)
    found = re.search(r"^pipelined: wall ([0-9.]+) ms, its commands' device time ([0-9.]+) ms",
                      done.stdout, re.M)
    if not found:
        fail("no 'pipelined: wall ... ms, its commands' device time ... ms' line", output)
    wall_ms, device_ms = float(found.group(1)), float(found.group(2))
    with open(trace_path) as file:
        events = json.load(file)["traceEvents"]
    commands = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("copy", "launch")]
    counts = {"write": sum(1 for e in commands if e["name"] == "write"),
              "read": sum(1 for e in commands if e["name"] == "read"),
              "launch": sum(1 for e in commands if e["cat"] == "launch")}
    # 16 chunks, pipelined and then serially.
    if counts != {"write": 32, "read": 32, "launch": 32}:
        fail(f"expected 32 writes, 32 launches and 32 reads, found {counts}", output)
    host_clocked = [e for e in commands if not e["args"]["clock"].startswith("device")]
    if host_clocked:
        fail(f"{len(host_clocked)} of {len(commands)} commands on another clock than the device's,"
             f" such as: {json.dumps(host_clocked[0])}", output)
    pipelined = sorted(commands, key=lambda e: e["ts"])[:48]
    traced_ms = sum(e["dur"] for e in pipelined) / 1000
    # Each duration is written in microseconds with 3 decimals: 48 roundings of 0.5 ns.
    print(f"wall {wall_ms:.3f} ms; device time {device_ms:.3f} ms as the example measures it, "
          f"{traced_ms:.3f} ms in the trace")
    if abs(traced_ms - device_ms) > 0.001 + device_ms * 1e-6:
        fail(f"the trace's commands take {traced_ms:.3f} ms in all, the device's "
             f"{device_ms:.3f} ms", output)
    print("ok: the trace's copies and kernels add up to the device's time")


if __name__ == "__main__":
    main()
