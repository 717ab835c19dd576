#!/usr/bin/env python3
"""End-to-end checks of the kernel cache, run by CTest (tests/cache/CMakeLists.txt).

    check_cache.py --client XGPU_CACHE_CLIENT --xgpu XGPU --scratch DIR --cases a,b,...

Runs xgpu-cache-client (which builds elementwise.cl and client_mix.cl with -DOFFSET=N and
checks its results exactly) and `xgpu cache` against cache folders made under DIR, one
per case, with XGPU_LOG_LEVEL=debug so that every hit, miss and bad entry is visible on
stderr, and PoCL's own kernel cache off. The device is whatever XGPU_DEVICE selects.
Exits 0 when every check of every case passed, 1 otherwise (each failure is printed).
"""

import argparse
import os
import stat
import sys
import time

from cache_admin_cases import AdminCases
from cache_entries import corruptions, decode_entry, encode_entry
from cache_harness import PROGRAMS, Checker, remove


class Cases(Checker, AdminCases):
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", required=True)
    parser.add_argument("--xgpu", required=True)
    parser.add_argument("--scratch", required=True)
    parser.add_argument("--cases", required=True, help="comma-separated case names")
    args = parser.parse_args()
    remove(args.scratch)
    os.makedirs(args.scratch)
    checker = Cases(args)
    for case in args.cases.split(","):
        function = getattr(checker, "case_" + case, None)
        if function is None:
            print("unknown case %r" % case)
            return 2
        checker.case = case
        started = time.monotonic()
        function()
        print("case %s: %.1f s" % (case, time.monotonic() - started), flush=True)
    for note in checker.notes:
        print("note: " + note)
    if checker.failures:
        print("\n%d check(s) failed:" % len(checker.failures))
        for failure in checker.failures:
            print("  " + failure)
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
