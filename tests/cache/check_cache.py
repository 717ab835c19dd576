#!/usr/bin/env python3
"""End-to-end checks of the kernel cache, run by CTest (tests/cache/CMakeLists.txt).

    check_cache.py --client CLIENT --modules DIR --xgpu XGPU --scratch DIR --cases a,b,...

Runs xgpu-cache-client (which builds elementwise.cl and client_mix.cl with -DOFFSET=N and
checks its results exactly) and `xgpu cache` against cache folders made under DIR, one
per case, with XGPU_LOG_LEVEL=debug so that every hit, miss and bad entry is visible on
stderr, and PoCL's own kernel cache off. The device is whatever XGPU_DEVICE selects.
Exits 0 when every check of every case passed, 1 otherwise (each failure is printed).
"""

import argparse
import os
import stat
import subprocess
import sys
import time

from cache_admin_cases import AdminCases
from cache_counter_cases import CounterCases
from cache_entries import corruptions, decode_entry, encode_entry
from cache_harness import PROGRAMS, Checker, remove
from cache_mounts import SKIP_CODE, find_namespace
from cache_stress_cases import StressCases

# Cases that mount a tmpfs: run by a copy of this script inside a mount namespace.
MOUNT_CASES = ("full_filesystem", "readonly_filesystem")


class Cases(Checker, AdminCases, CounterCases, StressCases):
    """Every case: case_<name> runs the checks of --cases <name>."""

    def case_first_second(self):
        folder = self.folder("cache")
        good, err = self.run_client(folder, label="first run")
        self.expect_logs(err, "first run", misses=PROGRAMS)
        entries = self.entries(folder)
        self.check(len(entries) == len(PROGRAMS), "after the first run: %d entries, expected %d"
                   % (len(entries), len(PROGRAMS)), "\n".join(entries))
        self.check(not self.temporaries(folder), "temporary files left: %s" %
                   self.temporaries(folder))
        mode = stat.S_IMODE(os.lstat(folder).st_mode) if os.path.isdir(folder) else None
        self.check(mode == 0o700, "the cache folder's mode is %s, expected 0700" %
                   (oct(mode) if mode is not None else "(missing)"))
        for entry in entries:
            self.check(stat.S_IMODE(os.lstat(entry).st_mode) & 0o077 == 0,
                       "%s is readable by others" % entry)
        good, err = self.run_client(folder, label="second run")
        self.expect_logs(err, "second run", hits=PROGRAMS)
        self.check(self.entries(folder) == entries, "the second run changed the entry set")
        self.verify_clean(folder, len(PROGRAMS), "after two runs")

    def case_corrupt(self):
        prepared = []
        for name, _ in corruptions([]):
            folder = self.seeded(name)
            entries = self.entries(folder)
            if not self.check(len(entries) == len(PROGRAMS), "%s: the seed has %d entries" %
                              (name, len(entries))):
                continue
            if name == "wrong-key":  # the encoder above must write exactly what xgpu writes
                with open(entries[0], "rb") as f:
                    data = f.read()
                self.check(encode_entry(decode_entry(data)[1]) == data,
                           "the test's entry encoder does not reproduce xgpu's entries")
            dict(corruptions(entries))[name]()
            prepared.append((name, folder, entries))
        results = self.run_batch([(name, folder, 1, None) for name, folder, _ in prepared])
        for name, folder, entries in prepared:
            good, err = results[name]
            bad = self.expect_logs(err, name, misses=PROGRAMS, bad=len(PROGRAMS),
                                   refused=name == "refused-binary")
            self.check(sorted(path for path, _ in bad) == entries,
                       "%s: the warnings name %s, expected %s" % (name, [p for p, _ in bad],
                                                                  entries))
            healed = self.entries(folder)
            self.check(len(healed) == len(PROGRAMS), "%s: %d entries after the healing run, "
                       "expected %d" % (name, len(healed), len(PROGRAMS)))
            self.verify_clean(folder, len(PROGRAMS), name + ", healed")

    def case_concurrent(self):
        folder = self.folder("cache")
        offsets = [3] * 8 + [4] * 8
        processes = [self.start_client(folder, offset) for offset in offsets]  # all at once
        results = [self.finish_client(p, "client %d (offset %d)" % (i, offsets[i]))
                   for i, p in enumerate(processes)]
        self.check(all(good for good, _ in results), "%d of 16 clients failed" %
                   sum(not good for good, _ in results))
        entries = self.entries(folder)
        self.check(len(entries) == 3, "16 clients left %d entries, expected 3 (elementwise.cl "
                   "and client_mix.cl twice)" % len(entries), "\n".join(entries))
        self.check(not self.temporaries(folder), "temporary files left: %s" %
                   self.temporaries(folder))
        self.verify_clean(folder, 3, "after 16 clients")
        listing = self.xgpu_json(folder, "list").get("entries", [])
        options = sorted(e.get("options", "") for e in listing
                         if e.get("source") == "client_mix.cl")
        self.check(len(options) == 2 and "-DOFFSET=3" in options[0] and "-DOFFSET=4" in options[1],
                   "client_mix.cl entries have options %s" % options)


def run_in_namespace(checker, args, case, skipped):
    """Runs one mounting case by a copy of this script inside a mount namespace."""
    namespace, why = find_namespace(args.scratch)
    if namespace is None:
        if os.environ.get("XGPU_TEST_NO_MOUNT") == "1":
            print("SKIPPED case %s: XGPU_TEST_NO_MOUNT=1 says this machine cannot mount (%s)"
                  % (case, why), flush=True)
            skipped.append(case)
            return
        checker.check(False, "case %s must mount a tmpfs, and no way to do so works here: %s. "
                      "Run it as root, allow unprivileged user namespaces, or set "
                      "XGPU_TEST_NO_MOUNT=1 to skip it knowingly" % (case, why))
        return
    inner = namespace + [sys.executable, "-B", os.path.abspath(__file__), "--client",
                         args.client, "--modules", args.modules, "--xgpu", args.xgpu, "--scratch",
                         os.path.join(args.scratch, "ns-" + case), "--cases", case,
                         "--in-namespace"]
    print("case %s: inside `%s`" % (case, " ".join(namespace)), flush=True)
    code = subprocess.call(inner)
    checker.check(code == 0, "case %s failed inside the mount namespace (exit %d, see above)"
                  % (case, code))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", required=True)
    parser.add_argument("--modules", required=True, help="the folder of the backend modules")
    parser.add_argument("--xgpu", required=True)
    parser.add_argument("--scratch", required=True)
    parser.add_argument("--cases", required=True, help="comma-separated case names")
    parser.add_argument("--in-namespace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    remove(args.scratch)
    os.makedirs(args.scratch)
    os.environ.setdefault("XGPU_TEST_POCL_CACHE_DIR", os.path.join(
        os.path.dirname(os.path.abspath(args.scratch)), "pocl-cache"))
    checker = Cases(args)
    skipped = []
    for case in args.cases.split(","):
        function = getattr(checker, "case_" + case, None)
        if function is None:
            print("unknown case %r" % case)
            return 2
        checker.case = case
        started = time.monotonic()
        if case in MOUNT_CASES and not args.in_namespace:
            run_in_namespace(checker, args, case, skipped)
        else:
            function()
        print("case %s: %.1f s" % (case, time.monotonic() - started), flush=True)
    for note in checker.notes:
        print("note: " + note)
    if checker.failures:
        print("\n%d check(s) failed:" % len(checker.failures))
        for failure in checker.failures:
            print("  " + failure)
        return 1
    if skipped:
        print("skipped, as XGPU_TEST_NO_MOUNT=1 asks: %s" % ", ".join(skipped))
        return SKIP_CODE
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
