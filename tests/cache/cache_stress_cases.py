"""The cases of check_cache.py that put the kernel cache under stress, as a mixin of its
Checker: upkeep (`xgpu cache clear|prune|verify`) racing 8 looping clients, a writer killed
in the middle of a write, a full and a read-only filesystem (inside a mount namespace, see
cache_mounts.py), and links or a FIFO planted below the cache folder."""

import os
import re
import shutil
import signal
import stat
import subprocess
import time

from cache_harness import PROGRAMS, RUN_TIMEOUT, snapshot, tail
from cache_mounts import mount_tmpfs, remount_read_only, unmount

STATS = re.compile(r"^stats (.*)$", re.M)
WARNING = re.compile(r"\] \[(warning|error|critical)\] ")


def stats_of(out):
    """{"hits": 3, ...} from the client's --stats line (empty when it printed none)."""
    match = STATS.search(out or "")
    if not match:
        return {}
    return {k: int(v) for k, v in (pair.split("=") for pair in match.group(1).split())}


def fill(path):
    """Writes zeros to `path` until the filesystem has no byte left."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 4096) > 0:
            pass
    except OSError:
        pass
    os.close(fd)


def warnings_in(err):
    return [line for line in (err or "").splitlines() if WARNING.search(line)]


class StressCases:
    # --- prune and clear racing 8 loaders and writers --------------------------------
    def case_race_upkeep(self):
        self.use_pocl_cache()
        folder = self.folder("cache")
        offsets = [41] * 4 + [42] * 4  # 3 programs in all: loaders and writers of each
        # Filled first, so that the clients start with hits and every rebuild is a reaction
        # to an entry removed under them.
        for offset in sorted(set(offsets)):  # one after the other: elementwise.cl built once
            self.run_client(folder, offset, label="filling, offset %d" % offset)
        quiet = {"XGPU_LOG_LEVEL": "warn"}  # only warnings: a pipe nobody reads must not fill
        clients = [self.start_client(folder, offset, quiet, ["--seconds", "2", "--stats"])
                   for offset in offsets]
        upkeep = [("clear",), ("prune", "--max-size", "0"), ("verify",),
                  ("prune", "--max-size", "100K")]
        done_while_running = 0
        while any(client.poll() is None for client in clients):
            command = upkeep[done_while_running % len(upkeep)]
            report = self.xgpu_json(folder, *command)
            if command[0] == "verify":  # entries appear and vanish, but none is ever bad
                self.check(report.get("removed") == [], "verify during the race removed %s" %
                           report.get("removed"))
            done_while_running += 1
            time.sleep(0.2)
        results = [self.finish_client(client, "client %d (offset %d)" % (i, offsets[i]))
                   for i, client in enumerate(clients)]
        self.check(done_while_running >= 4, "only %d upkeep commands ran while the clients did"
                   % done_while_running)
        for i, (good, err) in enumerate(results):
            self.check(not warnings_in(err), "client %d warned (a torn or bad entry seen?)" % i,
                       "\n".join(warnings_in(err)[:5]))
        stats = [stats_of(client.stdout_text) for client in clients]
        self.check(all(stats), "a client printed no stats line")
        hits = sum(s.get("hits", 0) for s in stats)
        misses = sum(s.get("misses", 0) for s in stats)
        rebuilt = sum(1 for s in stats if s.get("misses", 0) > len(PROGRAMS))
        self.check(sum(s.get("bad_entries", 0) for s in stats) == 0, "bad entries seen: %s" %
                   stats)
        self.note("%d upkeep commands; clients: %d rounds, %d hits, %d misses; %d clients "
                  "rebuilt after an entry was removed under them" %
                  (done_while_running, sum(s.get("rounds", 0) for s in stats), hits, misses,
                   rebuilt))
        self.check(not self.temporaries(folder), "temporary files left: %s" %
                   self.temporaries(folder))
        self.verify_clean(folder, len(self.entries(folder)), "after the race")

    # --- a writer killed in the middle of a write ------------------------------------
    def case_killed_writer(self):
        self.use_pocl_cache()
        folder = self.folder("cache")
        writer = self.start_client(folder, arguments=["--stall-write"])
        torn = self.wait_for_stalled_write(folder, writer)
        writer.kill()  # SIGKILL, while its temporary file holds half an entry
        writer.communicate(timeout=RUN_TIMEOUT)
        self.check(writer.returncode == -signal.SIGKILL, "the writer ended with %s, not SIGKILL"
                   % writer.returncode)
        if not self.check(torn is not None, "the writer never stalled in a write"):
            return
        self.check(self.entries(folder) == [], "a killed writer left an entry: %s" %
                   self.entries(folder))
        self.check(torn in self.temporaries(folder), "the writer stalled in %s, not in a "
                   "temporary file" % torn)
        # The next program neither loads nor trips over the torn file: it misses and saves.
        good, err = self.run_client(folder, label="after the kill")
        self.expect_logs(err, "after the kill", misses=PROGRAMS, bad=0)
        self.check(len(self.entries(folder)) == len(PROGRAMS), "after the kill: %d entries" %
                   len(self.entries(folder)))
        self.check(self.temporaries(folder) == [torn], "the torn file %s: left %s" %
                   (torn, self.temporaries(folder)))
        self.verify_clean(folder, len(PROGRAMS), "after the kill")
        # Once old enough to be surely abandoned, upkeep deletes it.
        two_hours_ago = time.time() - 7200
        os.utime(torn, (two_hours_ago, two_hours_ago))
        self.xgpu_cache(folder, "prune", "--max-size", "1G")
        self.check(not self.temporaries(folder), "prune left the abandoned %s" % torn)
        self.check(len(self.entries(folder)) == len(PROGRAMS), "prune to 1G removed entries")

    def wait_for_stalled_write(self, folder, process):
        """The file the client stalled in writing (its size steady and not zero): a temporary
        file, unless the writer writes entries in place."""
        deadline = time.monotonic() + 60
        last = None
        while time.monotonic() < deadline and process.poll() is None:
            found = [(p, os.path.getsize(p))
                     for p in self.temporaries(folder) + self.entries(folder)]
            if found and found[0][1] > 0 and found == last:
                return found[0][0]
            last = found
            time.sleep(0.1)
        return None

    # --- full and read-only filesystems (run inside a mount namespace) ---------------
    def case_full_filesystem(self):
        self.use_pocl_cache()
        mount = os.path.join(self.scratch, "full")
        mount_tmpfs(mount, "64k")
        try:
            folder = os.path.join(mount, "cache")
            os.mkdir(folder, 0o700)
            fill(os.path.join(mount, "filler"))
            good, err = self.run_client(folder, extra={"XGPU_LOG_LEVEL": "warn"},
                                        arguments=["--stats"], label="on a full filesystem")
            warned = warnings_in(err)
            self.check(len(warned) == 1 and "No space left on device" in warned[0],
                       "on a full filesystem: %d warnings, expected 1 naming the lack of space"
                       % len(warned), "\n".join(warned))
            stats = stats_of(self.last_stdout)
            self.check(stats.get("stores") == 0 and stats.get("store_failures", 0) >= 1,
                       "on a full filesystem the client counted %s" % stats)
            self.check(self.entries(folder) == [] and not self.temporaries(folder),
                       "on a full filesystem, left: %s" % self.all_files(folder))
            self.verify_clean(folder, 0, "on a full filesystem")
        finally:
            unmount(mount)

    def case_readonly_filesystem(self):
        self.use_pocl_cache()
        mount = os.path.join(self.scratch, "ro")
        seed = self.seeded("seed-copy")  # made before mounting: the mount hides nothing of it
        mount_tmpfs(mount, "2m")
        try:
            seeded, empty = os.path.join(mount, "seeded"), os.path.join(mount, "empty")
            missing = os.path.join(mount, "missing")
            shutil.copytree(seed, seeded, symlinks=True)
            os.mkdir(empty, 0o700)
            remount_read_only(mount)
            before = snapshot(self.all_files(seeded))
            results = self.run_batch([("seeded", seeded, 1, None), ("empty", empty, 1, None),
                                      ("missing", missing, 1, None)])
            expected = {"seeded": "read-only filesystem", "empty": "read-only filesystem",
                        "missing": "Read-only file system"}
            for label, (good, err) in results.items():
                warned = warnings_in(err)
                self.check(len(warned) == 1 and expected[label] in warned[0],
                           "read-only filesystem, %s folder: %d warnings, expected 1 saying "
                           "'%s'" % (label, len(warned), expected[label]), "\n".join(warned))
            self.expect_logs(results["seeded"][1], "read-only filesystem, seeded", hits=PROGRAMS)
            self.expect_logs(results["empty"][1], "read-only filesystem, empty", misses=PROGRAMS)
            self.expect_logs(results["missing"][1], "read-only filesystem, missing",
                             misses=PROGRAMS)
            self.check(snapshot(self.all_files(seeded)) == before,
                       "the seeded folder changed on a read-only filesystem")
            self.check(not self.all_files(empty) and not os.path.exists(missing),
                       "written on a read-only filesystem: %s" % self.all_files(mount))
        finally:
            unmount(mount)

    # --- links and a FIFO below the cache folder --------------------------------------
    def case_links(self):
        self.use_pocl_cache()
        planted = {}
        for name in ("entry-link", "fanout-link", "v1-link", "fifo"):
            folder = self.seeded(name)
            target = os.path.join(self.scratch, "%s-%s-target" % (self.case, name))
            entry = self.entries(folder)[0]
            if name == "entry-link":
                shutil.copy2(entry, target)
                os.unlink(entry)
                os.symlink(target, entry)
            elif name in ("fanout-link", "v1-link"):
                linked = os.path.dirname(entry) if name == "fanout-link" else \
                    os.path.join(folder, "v1")
                shutil.copytree(linked, target, symlinks=True)
                shutil.rmtree(linked)
                os.symlink(target, linked)
            else:
                os.unlink(entry)
                os.mkfifo(entry, 0o600)
                target = None
            planted[name] = (folder, target, snapshot(self.files_below(target)))
        results = self.run_batch([(name, folder, 1, None)
                                  for name, (folder, _, _) in planted.items()])
        for name, (folder, target, before) in planted.items():
            good, err = results[name]  # ok, in time: nothing hung on the FIFO
            self.check(warnings_in(err), "%s: no warning" % name)
            self.check(snapshot(self.files_below(target)) == before,
                       "%s: the link's target was changed" % name)
            self.check(not self.temporaries(folder), "%s: temporary files left" % name)
        # A link or FIFO at an entry's path is replaced by a good entry, never written through.
        for name in ("entry-link", "fifo"):
            folder = planted[name][0]
            self.check(all(stat.S_ISREG(os.lstat(p).st_mode) for p in self.entries(folder)),
                       "%s: not every entry is a regular file afterwards" % name)
            self.verify_clean(folder, len(PROGRAMS), name + ", afterwards")

    @staticmethod
    def files_below(path):
        if path is None:
            return []
        if os.path.isfile(path):
            return [path]
        return [os.path.join(root, f) for root, _, files in os.walk(path) for f in files]
