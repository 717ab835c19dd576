#!/usr/bin/env python3
"""Runs `xgpu conform` as a user would and checks what it promises: the exit status, the last
line `N passed, 0 failed, N skipped`, the time taken, and with --reports that the JUnit file
parses as XML (one <testsuite> per device, skips with a message) and the JSON file as JSON
with a fingerprint per device, which then serves as a --baseline. With --allowed-skips FILE
(allowed_skips/<device kind>.txt in the build tree, written from the table of known drivers,
backends/common/xgpu/common/drivers/known_drivers.def), a check that skips without being listed there
fails the run, naming it; a listed check that ran is reported as a warning.

With --clean-output, every line of stdout must be part of the table, the details or the
summary, and every line of stderr a progress line: a driver's compiler message or an xgpu
warning from a check that breaks something on purpose belongs in the check's record, and
--expect-output SUITE/NAME=REGEX checks that it is there (in the --json report).

  check_conform_cli.py XGPU [--expect-devices N] [--expect-exit N] [--max-seconds S]
                       [--reports] [--allowed-skips FILE] [--clean-output]
                       [--expect-output SUITE/NAME=REGEX] -- CONFORM-ARGUMENTS...
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

SUMMARY = re.compile(r"^[0-9]+ passed, 0 failed, [0-9]+ skipped$")
# What `xgpu conform` itself prints (without colour: its stdout is a pipe here).
STDOUT_LINES = [re.compile(p) for p in (
    r"^$",
    r"^device [0-9]+: ",
    r"^SUITE( +device [0-9]+ pass/fail/skip)+$",
    r"^[a-z_]+( +[0-9]+/[0-9]+/[0-9]+)+$",
    r"^(Failures|Skipped)$",
    r"^  (FAIL|SKIP) device [0-9]+ [a-z_]+/[a-z0-9_]+: ",
    r"^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$",
)]
# Its progress when stderr is not a terminal.
STDERR_LINES = [re.compile(p) for p in (r"^$", r"^xgpu conform: ", r"^xgpu conform --full: ")]


def stray_lines(text, allowed):
    return [line for line in text.split("\n") if not any(p.match(line) for p in allowed)]


def check_clean(done):
    stray = stray_lines(done.stdout, STDOUT_LINES) + stray_lines(done.stderr, STDERR_LINES)
    if stray:
        fail("lines that are not progress, table or summary (a check's output belongs in its "
             "record):\n  " + "\n  ".join(stray[:20]), done)


def check_outputs(json_path, expected):
    """Each SUITE/NAME=REGEX: that check's captured output (in the JSON) matches REGEX."""
    results = {}
    for device in json.load(open(json_path))["devices"]:
        for result in device["results"]:
            results[result["suite"] + "/" + result["name"]] = result.get("output", "")
    for item in expected:
        name, pattern = item.split("=", 1)
        if name not in results:
            fail(f"--expect-output: no check {name} in the report")
        if not re.search(pattern, results[name], re.M):
            fail(f"the record of {name} does not hold {pattern!r}: {results[name]!r}")


def run(xgpu, arguments):
    start = time.monotonic()
    done = subprocess.run([xgpu, "conform"] + arguments, capture_output=True, text=True)
    return done, time.monotonic() - start


def fail(message, done=None):
    print("FAIL: " + message)
    if done is not None:
        print("--- stdout\n" + done.stdout + "--- stderr\n" + done.stderr)
    sys.exit(1)


def check_reports(junit_path, json_path, devices):
    root = ET.parse(junit_path).getroot()
    suites = root.findall("testsuite")
    if len(suites) != devices:
        fail(f"JUnit: expected {devices} <testsuite>, got {len(suites)}")
    for suite in suites:
        cases = suite.findall("testcase")
        if not cases or int(suite.get("tests")) != len(cases):
            fail("JUnit: testsuite 'tests' does not count its testcases")
        for case in cases:
            skipped = case.find("skipped")
            if skipped is not None and not skipped.get("message"):
                fail(f"JUnit: skipped {case.get('name')} has no reason")
            if case.find("failure") is not None:
                fail(f"JUnit: {case.get('name')} failed")
    report = json.load(open(json_path))
    if len(report["devices"]) != devices:
        fail(f"JSON: expected {devices} devices, got {len(report['devices'])}")
    for device in report["devices"]:
        for key in ("backend", "platform", "device", "driver_version", "device_version"):
            if not device["fingerprint"].get(key):
                fail(f"JSON: fingerprint without {key}")
        for result in device["results"]:
            if result["outcome"] not in ("pass", "fail", "skip"):
                fail(f"JSON: outcome {result['outcome']}")
            if result["outcome"] == "skip" and not result["detail"]:
                fail(f"JSON: skip of {result['name']} without a reason")


def read_allowed_skips(path):
    """The "suite/name" lines of an allowlist; `#` starts a comment."""
    names = set()
    with open(path) as lines:
        for line in lines:
            name = line.split("#", 1)[0].strip()
            if name:
                names.add(name)
    return names


def check_skips(json_path, allowed_path):
    """Fails on a skip the allowlist does not name; warns of a listed check that ran."""
    allowed = read_allowed_skips(allowed_path)
    new, stale = [], []
    for device in json.load(open(json_path))["devices"]:
        for result in device["results"]:
            name = f"{result['suite']}/{result['name']}"
            if result["outcome"] == "skip" and name not in allowed:
                new.append(f"{name} on {device['label']}: {result['detail']}")
            elif result["outcome"] != "skip" and name in allowed:
                stale.append(f"{name} on {device['label']} ({result['outcome']})")
    for line in stale:
        print(f"WARNING: listed in {allowed_path} but no longer skipped: {line}")
    if new:
        fail(f"newly skipped checks (if that is right, add each with the reason to the table "
             f"of known drivers, known_drivers.def, which writes {allowed_path}):\n  "
             + "\n  ".join(new))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("xgpu")
    parser.add_argument("--expect-devices", type=int, default=1)
    parser.add_argument("--expect-exit", type=int, default=0)
    parser.add_argument("--max-seconds", type=float, default=0)
    parser.add_argument("--reports", action="store_true")
    parser.add_argument("--allowed-skips", metavar="FILE",
                        help="the checks that may skip, one suite/name per line")
    parser.add_argument("--expect-line", action="append", default=[],
                        help="a regex some line of stdout must match")
    parser.add_argument("--expect-stderr-line", action="append", default=[],
                        help="a regex some line of stderr must match")
    parser.add_argument("--clean-output", action="store_true",
                        help="fail on any line but progress, table and summary")
    parser.add_argument("--expect-output", action="append", default=[],
                        help="SUITE/NAME=REGEX: that check's captured output matches REGEX")
    parser.add_argument("--expect-last", default=SUMMARY.pattern,
                        help="a regex the last line of stdout must match")
    split = sys.argv.index("--") if "--" in sys.argv else len(sys.argv)
    options = parser.parse_args(sys.argv[1:split])
    options.arguments = sys.argv[split + 1:]
    arguments = list(options.arguments)

    work = tempfile.mkdtemp()
    junit, report = os.path.join(work, "conform.xml"), os.path.join(work, "conform.json")
    if options.reports:
        arguments += ["--junit", junit, "--json", report]
    elif options.allowed_skips or options.expect_output:
        arguments += ["--json", report]
    done, seconds = run(options.xgpu, arguments)
    if done.returncode != options.expect_exit:
        fail(f"expected exit {options.expect_exit}, got {done.returncode}", done)
    lines = done.stdout.rstrip("\n").split("\n")
    if not re.match(options.expect_last, lines[-1]):
        fail(f"last line {lines[-1]!r} does not match {options.expect_last!r}", done)
    for pattern in options.expect_line:
        if not any(re.match(pattern, line) for line in lines):
            fail(f"no line of stdout matches {pattern!r}", done)
    for pattern in options.expect_stderr_line:
        if not any(re.match(pattern, line) for line in done.stderr.split("\n")):
            fail(f"no line of stderr matches {pattern!r}", done)
    devices = len([l for l in lines if re.match(r"^device [0-9]+: ", l)])
    if devices != options.expect_devices:
        fail(f"expected {options.expect_devices} devices in the table, got {devices}", done)
    if options.max_seconds and seconds > options.max_seconds:
        fail(f"took {seconds:.1f} s, more than {options.max_seconds} s", done)
    if options.clean_output:
        check_clean(done)
    if options.expect_output:
        check_outputs(report, options.expect_output)
    if options.allowed_skips:
        check_skips(report, options.allowed_skips)
    if options.reports:
        check_reports(junit, report, options.expect_devices)
        # The report serves as a baseline: nothing changed since, on the same device.
        again, _ = run(options.xgpu, options.arguments + ["--baseline", report])
        if again.returncode != 0 or not re.search(r"^Changes since .*\n  none$", again.stdout,
                                                  re.M):
            fail("--baseline with the run's own report should list no change", again)
    print(done.stdout)
    print(f"ok: {lines[-1]} in {seconds:.1f} s")


if __name__ == "__main__":
    main()
