#!/usr/bin/env python3
"""Checks `xgpu conform --list`: it runs on a machine with no device at all (exit 0), prints
one "suite/name" line per check (with "needs <capability>" where one is needed) and a last
line "N checks in M suites" that counts them, honours --suite, writes the same list with
--json FILE, narrows with --check, refuses options that only make sense for a run, and
lists exactly the checks
a real run reports (same names, same order) for the suites given with --run-suites.

  check_conform_list.py XGPU --expect LINE... --run-suites api,cache
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

LINE = re.compile(r"^([a-z0-9_]+)/([A-Za-z0-9_]+)(?:\s+needs (\S+))?$")
COUNT = re.compile(r"^([0-9]+) checks? in ([0-9]+) suites?$")
failures = []


def check(condition, message, details=""):
    if not condition:
        failures.append(message + ("\n    " + details.strip().replace("\n", "\n    ")
                                   if details else ""))
    return condition


def xgpu(binary, arguments, no_device=False):
    env = dict(os.environ)
    if no_device:
        env["OCL_ICD_VENDORS"] = "/nonexistent-xgpu-test-icd-folder"
        env.pop("OPENCL_VENDOR_PATH", None)
    return subprocess.run([binary, "conform"] + arguments, capture_output=True, text=True,
                          env=env, timeout=300)


def parse(done, label):
    """[(suite, name, needs)] from a --list run, checked line by line."""
    lines = done.stdout.splitlines()
    check(done.returncode == 0, "%s: exit %d" % (label, done.returncode), done.stderr)
    if not check(lines and COUNT.match(lines[-1]), "%s: no 'N checks in M suites' last line"
                 % label, done.stdout[-500:]):
        return []
    checks = []
    for line in lines[:-1]:
        match = LINE.match(line)
        if check(match is not None, "%s: not a 'suite/name [needs X]' line: %r" % (label, line)):
            checks.append((match.group(1), match.group(2), match.group(3) or ""))
    count, suites = map(int, COUNT.match(lines[-1]).groups())
    check(count == len(checks), "%s: the last line counts %d checks, %d are listed" %
          (label, count, len(checks)))
    check(suites == len({s for s, _, _ in checks}), "%s: the last line counts %d suites" %
          (label, suites))
    names = ["%s/%s" % (s, n) for s, n, _ in checks]
    check(len(set(names)) == len(names), "%s: a check is listed twice" % label)
    return checks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("xgpu")
    parser.add_argument("--expect", nargs="+", default=[],
                        help="lines that must be in the full list, e.g. atomics/global_int_add")
    parser.add_argument("--run-suites", required=True,
                        help="suites run for real on the default device, to compare with")
    args = parser.parse_args()

    everything = parse(xgpu(args.xgpu, ["--list"], no_device=True), "--list (no device)")
    listed = {"%s/%s" % (s, n): needs for s, n, needs in everything}
    for expected in args.expect:
        name, _, needs = expected.partition(" needs ")
        check(name in listed, "--list does not name %s" % name)
        check(not needs or listed.get(name) == needs, "--list says %s needs %r, expected %r" %
              (name, listed.get(name), needs))

    run_suites = args.run_suites.split(",")
    with tempfile.TemporaryDirectory() as folder:
        list_json = os.path.join(folder, "list.json")
        some = parse(xgpu(args.xgpu, ["--list", "--suite", args.run_suites, "--json", list_json],
                          no_device=True), "--list --suite " + args.run_suites)
        check({s for s, _, _ in some} == set(run_suites), "--list --suite %s lists suites %s" %
              (args.run_suites, sorted({s for s, _, _ in some})))
        check(some == [c for c in everything if c[0] in run_suites],
              "--list --suite is not the full list's lines of those suites")
        data = json.load(open(list_json))
        check(data.get("count") == len(some) and
              [(c["suite"], c["name"], c["needs"]) for c in data.get("checks", [])] == some,
              "--json FILE does not hold the listed checks", json.dumps(data)[:500])
        # A real run reports one result per registered check: the list must match it.
        report_json = os.path.join(folder, "report.json")
        done = xgpu(args.xgpu, ["-d", "0", "--quick", "--suite", args.run_suites, "--json",
                                report_json])
        if check(os.path.exists(report_json), "the run of %s wrote no report (exit %d)" %
                 (args.run_suites, done.returncode), done.stdout[-800:] + done.stderr[-800:]):
            results = json.load(open(report_json))["devices"][0]["results"]
            ran = [(r["suite"], r["name"]) for r in results]
            check(ran == [(s, n) for s, n, _ in some], "--list shows %s, the run reported %s" %
                  (some, ran))

    # --check narrows the list as it narrows a run; the registry's order is kept.
    named = parse(xgpu(args.xgpu, ["--list", "--check", "cache/corrupt_entry_heals,global_int_add"],
                       no_device=True), "--list --check")
    check([(s, n) for s, n, _ in named] == [(s, n) for s, n, _ in everything
                                          if (s, n) in (("atomics", "global_int_add"),
                                                        ("cache", "corrupt_entry_heals"))],
          "--list --check cache/corrupt_entry_heals,global_int_add listed %s" % named)

    for bad in (["--list", "-d", "0"], ["--list", "--junit", "x.xml"]):
        done = xgpu(args.xgpu, bad, no_device=True)
        check(done.returncode == 2 and "--list" in done.stderr,
              "`xgpu conform %s` exit %d, expected 2 and a message naming --list" %
              (" ".join(bad), done.returncode), done.stderr)
    done = xgpu(args.xgpu, ["--list", "--suite", "nope"], no_device=True)
    check(done.returncode == 2 and "nope" in done.stderr, "--list --suite nope: exit %d" %
          done.returncode, done.stderr)

    for failure in failures:
        print("FAIL: " + failure)
    if failures:
        return 1
    print("--list: %d checks, as a run reports them" % len(everything))
    return 0


if __name__ == "__main__":
    sys.exit(main())
