"""The cases of check_cache.py about modes, size, build flags and the `xgpu cache`
command, as a mixin of its Checker."""

import os
import re
import time

from cache_harness import PROGRAMS, make_open_folder, remove, snapshot, tail


class AdminCases:
    def case_modes(self):
        off = self.folder("off")
        ro_empty = self.folder("ro-empty")
        os.mkdir(ro_empty, 0o700)
        ro_filled = self.seeded("ro-filled")
        before = snapshot(self.all_files(ro_filled))
        target = os.path.join(self.scratch, self.case + "-target")
        unsafe = (("file", "not a folder", lambda p: open(p, "w").write("a file\n")),
                  ("mode-0777", "writable by other users", make_open_folder),
                  ("symlink", "symbolic link", self.make_link))
        for name, _, make in unsafe:
            make(self.folder(name))
        results = self.run_batch(
            [("XGPU_CACHE=0", off, 1, {"XGPU_CACHE": "0"}),
             ("XGPU_CACHE=ro, empty", ro_empty, 1, {"XGPU_CACHE": "ro"}),
             ("XGPU_CACHE=ro, filled", ro_filled, 1, {"XGPU_CACHE": "ro"})] +
            [(name, os.path.join(self.scratch, self.case + "-" + name), 1, None)
             for name, _, _ in unsafe])
        # Off: nothing is written, not even the folder.
        self.expect_logs(results["XGPU_CACHE=0"][1], "XGPU_CACHE=0", bad=0)
        self.check(not os.path.exists(off) or not self.all_files(off),
                   "XGPU_CACHE=0 wrote %s" % (self.all_files(off) or off))
        # Read-only on an empty folder: nothing written.
        self.expect_logs(results["XGPU_CACHE=ro, empty"][1], "XGPU_CACHE=ro, empty",
                         misses=PROGRAMS)
        self.check(not self.all_files(ro_empty), "XGPU_CACHE=ro wrote %s" %
                   self.all_files(ro_empty))
        # Read-only on a filled folder: hits, and not a byte or a time changed.
        self.expect_logs(results["XGPU_CACHE=ro, filled"][1], "XGPU_CACHE=ro, filled",
                         hits=PROGRAMS)
        self.check(snapshot(self.all_files(ro_filled)) == before,
                   "XGPU_CACHE=ro changed the folder")
        # Unsafe folders: refused with a warning naming the reason; results still right.
        for name, reason, _ in unsafe:
            folder = os.path.join(self.scratch, self.case + "-" + name)
            err = results[name][1]
            self.check(reason in err and "kernel cache disabled" in err,
                       "%s: no warning saying '%s'" % (name, reason), tail(err, 8))
            self.expect_logs(err, name, misses=PROGRAMS)
            if os.path.isdir(folder) and not os.path.islink(folder):
                self.check(not self.all_files(folder), "%s: written to: %s" %
                           (name, self.all_files(folder)))
        self.check(not self.all_files(target), "the symlink's target was written to: %s" %
                   self.all_files(target))

    def make_link(self, path):
        target = os.path.join(self.scratch, self.case + "-target")
        remove(target)
        os.mkdir(target, 0o700)
        os.symlink(target, path)

    def case_size(self):
        # A cap smaller than any entry: each is written, then pruned away.
        small = self.folder("small")
        # A cap for about one entry, on a filled folder to which a new program is added:
        # the least recently used entry (the seeded client_mix.cl) goes first.
        capped = self.seeded("one")
        sizes = sorted(os.path.getsize(p) for p in self.entries(capped))
        cap = sizes[-1] + sizes[0] // 2
        hour_ago = time.time() - 3600
        for path in self.entries(capped):
            os.utime(path, (hour_ago, hour_ago))
        old_mix = [p for p in self.entries(capped) if os.path.getsize(p) == sizes[0]]
        results = self.run_batch([("1K cap", small, 1, {"XGPU_CACHE_MAX_SIZE": "1K"}),
                                  ("cap for one entry", capped, 9,
                                   {"XGPU_CACHE_MAX_SIZE": str(cap)})])
        total = sum(os.path.getsize(p) for p in self.entries(small))
        self.check(total <= 1024, "with XGPU_CACHE_MAX_SIZE=1K the entries hold %d bytes" % total)
        self.check(not self.temporaries(small), "temporary files left: %s" %
                   self.temporaries(small))
        self.check("XGPU_CACHE_MAX_SIZE" not in results["1K cap"][1], "1K was not understood",
                   tail(results["1K cap"][1], 5))
        self.check("evicted" in results["1K cap"][1], "no 'evicted' line with a 1K cap")
        entries = self.entries(capped)
        total = sum(os.path.getsize(p) for p in entries)
        self.check(total <= cap and entries, "with XGPU_CACHE_MAX_SIZE=%d the entries hold %d "
                   "bytes in %d entries" % (cap, total, len(entries)))
        self.check(not any(p in entries for p in old_mix), "the least recently used entry "
                   "(client_mix.cl, -DOFFSET=1) was kept: %s" % entries)

    def case_options_env(self):
        # A build option from the environment is part of the key: a changed one misses.
        folder = self.seeded("pocl-flags")
        extra = {"POCL_EXTRA_BUILD_FLAGS": "-DXGPU_CACHE_TEST_FLAG=1"}
        good, err = self.run_client(folder, extra=extra, label="POCL_EXTRA_BUILD_FLAGS set")
        self.expect_logs(err, "POCL_EXTRA_BUILD_FLAGS set", misses=PROGRAMS)
        self.check(len(self.entries(folder)) == 2 * len(PROGRAMS),
                   "expected %d entries after building with other flags, found %d" %
                   (2 * len(PROGRAMS), len(self.entries(folder))))

    def case_command(self):
        folder = self.seeded("status")
        out, _ = self.xgpu_cache(folder)
        self.check(folder in out and re.search(r"entries:\s+2\b", out) is not None,
                   "`xgpu cache` does not show the folder and 2 entries", out)
        status = self.xgpu_json(folder)
        self.check(status.get("folder") == folder and status.get("entries") == 2 and
                   status.get("mode") == "read-write" and status.get("size_bytes", 0) > 0,
                   "`xgpu cache --json` says %s" % status)
        out, _ = self.xgpu_cache(folder, "list")
        for name in PROGRAMS:
            self.check(name in out, "`xgpu cache list` does not name %s" % name, out)
        listing = self.xgpu_json(folder, "list").get("entries", [])
        self.check(len(listing) == 2, "`list --json` has %d entries" % len(listing))
        for entry in listing:
            self.check(all(entry.get(k) for k in ("device", "driver", "kernels", "source",
                                                  "hash", "path", "size_bytes")) and
                       entry.get("valid") is True, "`list --json` entry lacks fields: %s" % entry)
        kernels = {e.get("source"): e.get("kernels", "") for e in listing}
        self.check("xgpu_axpy_f32" in kernels.get("elementwise.cl", "") and
                   "client_mix" in kernels.get("client_mix.cl", ""),
                   "`list --json` kernels: %s" % kernels)
        out, _ = self.xgpu_cache(folder, "verify")
        self.check(re.search(r"\b2 checked, 0 bad removed", out) is not None,
                   "`xgpu cache verify` says %r" % out)
        # verify removes a bad entry and names its problem.
        entries = self.entries(folder)
        with open(entries[0], "r+b") as f:
            f.truncate(100)
        report = self.xgpu_json(folder, "verify")
        removed = report.get("removed", [])
        self.check(report.get("checked") == 2 and len(removed) == 1 and
                   removed[0].get("path") == entries[0] and removed[0].get("problem"),
                   "verify of a truncated entry reported %s" % report)
        self.check(self.entries(folder) == entries[1:], "verify left %s" % self.entries(folder))
        # prune.
        folder = self.seeded("prune")
        out, err = self.xgpu_cache(folder, "prune", "--max-size", "abc", expect=2)
        self.check("abc" in err, "`prune --max-size abc` does not name 'abc'", err)
        self.check(len(self.entries(folder)) == 2, "a refused prune removed entries")
        report = self.xgpu_json(folder, "prune", "--max-size", "1G")
        self.check(report.get("removed") == [] and len(self.entries(folder)) == 2,
                   "prune to 1G removed %s" % report.get("removed"))
        report = self.xgpu_json(folder, "prune", "--max-size", "0")
        self.check(len(report.get("removed", [])) == 2 and report.get("size_after_bytes") == 0
                   and not self.entries(folder), "prune to 0 reported %s, left %s" %
                   (report, self.entries(folder)))
        # clear.
        folder = self.seeded("clear")
        out, _ = self.xgpu_cache(folder, "clear")
        self.check(re.search(r"\b2 entries removed", out) is not None and not self.entries(folder),
                   "`xgpu cache clear` said %r and left %s" % (out, self.entries(folder)))
        folder = self.seeded("clear-other")
        report = self.xgpu_json(folder, "clear", "--device", "nvidia")
        self.check(report.get("removed") == 0 and len(self.entries(folder)) == 2,
                   "clear --device nvidia (no such device) removed %s" % report)
        report = self.xgpu_json(folder, "clear", "--device", "pocl")
        self.check(report.get("removed") == 2 and not self.entries(folder),
                   "clear --device pocl removed %s, left %s" % (report, self.entries(folder)))
        # Modes and refusals as `xgpu cache` reports them.
        folder = self.seeded("modes")
        status = self.xgpu_json(folder, extra={"XGPU_CACHE": "ro"})
        self.check(status.get("mode") == "read-only" and status.get("entries") == 2,
                   "XGPU_CACHE=ro: `xgpu cache --json` says %s" % status)
        # Upkeep on a cache it may not change fails and says why, rather than "0 removed".
        _, err = self.xgpu_cache(folder, "clear", extra={"XGPU_CACHE": "ro"}, expect=1)
        self.check("read-only" in err, "clear with XGPU_CACHE=ro did not say why: %r" % err)
        self.check(len(self.entries(folder)) == 2, "clear with XGPU_CACHE=ro removed entries")
        self.xgpu_cache(folder, "clear", "--device", "gpu::x:y", expect=2)
        self.xgpu_cache(folder, "prune", expect=2)  # --max-size is required
        self.check(len(self.entries(folder)) == 2, "refused commands removed entries")
        os.chmod(folder, 0o777)
        status = self.xgpu_json(folder)
        self.check(status.get("mode") == "off" and
                   "writable by other users" in status.get("note", ""),
                   "a mode 0777 folder: `xgpu cache --json` says %s" % status)
        _, err = self.xgpu_cache(folder, "clear", expect=1)
        self.check("writable by other users" in err, "clear on a refused folder: %r" % err)
        self.check(len(self.entries(folder)) == 2, "clear on a refused folder removed entries")

    def case_clear_one_device(self):
        # One folder shared by PoCL and the selected device: clear --device takes only its own.
        device = os.environ.get("XGPU_DEVICE", "")
        if device in ("", "pocl"):
            self.note("needs XGPU_DEVICE naming a device other than PoCL; skipped")
            return
        folder = self.seeded("shared")
        self.fill(folder, 2 * len(PROGRAMS), extra={"XGPU_DEVICE": "pocl"}, label="PoCL run")
        self.check(len(self.entries(folder)) == 2 * len(PROGRAMS),
                   "PoCL and %s left %d entries, expected %d" %
                   (device, len(self.entries(folder)), 2 * len(PROGRAMS)))
        report = self.xgpu_json(folder, "clear", "--device", device)
        left = self.xgpu_json(folder, "list").get("entries", [])
        self.check(report.get("removed") == len(PROGRAMS) and len(left) == len(PROGRAMS) and
                   all("pthread" in e.get("device", "") for e in left),
                   "clear --device %s removed %s and left %s" %
                   (device, report.get("removed"), [e.get("device") for e in left]))
