"""The harness of check_cache.py: runs xgpu-cache-client and `xgpu cache` against cache
folders under a scratch folder, reads their logs, and collects failures."""

import json
import os
import re
import shutil
import subprocess

PROGRAMS = ("elementwise.cl", "client_mix.cl")
HIT = re.compile(r"\bhit: (\S+) loaded from the cache")
MISS = re.compile(r"\bmiss: (\S+) is built from source")
BAD = re.compile(r"cache entry (\S+) is bad \(([^)]*)")
REFUSED = re.compile(r"cache entry (\S+) removed: (the driver [^(]*)")
RUN_TIMEOUT = 180


class Checker:
    def __init__(self, args):
        self.client = args.client
        self.modules = args.modules
        self.xgpu = args.xgpu
        self.scratch = args.scratch
        self.failures = []
        self.case = ""
        self.notes = []
        self.last_stdout = ""
        self.base_extra = {}  # variables every client of the case gets (see use_pocl_cache)

    # --- reporting --------------------------------------------------------------------
    def check(self, condition, message, details=""):
        if condition:
            return True
        text = "[%s] %s" % (self.case, message)
        if details:
            text += "\n    " + details.strip().replace("\n", "\n    ")
        self.failures.append(text)
        print("FAIL " + text, flush=True)
        return False

    def note(self, message):
        self.notes.append("[%s] %s" % (self.case, message))
        print("note: [%s] %s" % (self.case, message), flush=True)

    # --- folders ----------------------------------------------------------------------
    def folder(self, name):
        """A fresh path for a cache folder (not created)."""
        path = os.path.join(self.scratch, self.case + "-" + name)
        remove(path)
        return path

    @staticmethod
    def entries(folder):
        """Paths of every entry file (*.xkc) under the folder."""
        found = []
        for root, _, files in os.walk(os.path.join(folder, "v1")):
            found += [os.path.join(root, f) for f in files if f.endswith(".xkc")]
        return sorted(found)

    @staticmethod
    def temporaries(folder):
        found = []
        for root, _, files in os.walk(folder):
            found += [os.path.join(root, f) for f in files if f.startswith(".tmp-")]
        return found

    @staticmethod
    def all_files(folder):
        found = []
        for root, dirs, files in os.walk(folder):
            found += [os.path.join(root, f) for f in files + dirs]
        return sorted(found)

    def use_pocl_cache(self):
        """Turns PoCL's own kernel cache on for the case's clients, in the scratch folder: an
        xgpu cache miss then costs milliseconds instead of a compile. For the stress cases,
        which test xgpu's files and not what PoCL compiles, and must stay fast."""
        self.base_extra = {"POCL_KERNEL_CACHE": "1", "POCL_CACHE_DIR": pocl_cache_folder()}

    # --- processes --------------------------------------------------------------------
    def environment(self, folder, extra=None):
        env = dict(os.environ)
        for name in ("XGPU_CACHE", "XGPU_CACHE_MAX_SIZE", "XDG_CACHE_HOME"):
            env.pop(name, None)
        env["XGPU_CACHE_DIR"] = folder
        env["POCL_KERNEL_CACHE"] = "0"
        env["XGPU_LOG_LEVEL"] = "debug"
        env.update(self.base_extra)
        env.update(extra or {})
        return env

    def start_client(self, folder, offset=1, extra=None, arguments=()):
        env = self.environment(folder, extra)
        # The client's static core looks for modules only there (see tests/cache/CMakeLists.txt).
        env["XGPU_BACKEND_PATH"] = self.modules
        return subprocess.Popen([self.client, "--offset", str(offset)] + list(arguments),
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def run_client(self, folder, offset=1, extra=None, label="run", arguments=()):
        """Runs the client; checks it printed ok and exited 0. Returns (ok, stderr); its
        stdout is kept in self.last_stdout."""
        process = self.start_client(folder, offset, extra, arguments)
        return self.finish_client(process, label)

    def finish_client(self, process, label):
        try:
            out, err = process.communicate(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
            self.check(False, "%s: the client ran over %d s" % (label, RUN_TIMEOUT))
            return False, err
        code = process.returncode
        process.stdout_text = self.last_stdout = out
        good = self.check(code == 0 and out.strip().endswith("ok"),
                          "%s: client exit %s (%s), stdout %r" %
                          (label, code, signal_name(code), out.strip()[-300:]),
                          tail(err, 15))
        return good, err

    def xgpu_cache(self, folder, *arguments, expect=0, extra=None):
        """Runs `xgpu cache ...` at default log level; returns (stdout, stderr)."""
        env = self.environment(folder, extra)
        env.pop("XGPU_LOG_LEVEL")
        command = [self.xgpu, "cache"] + list(arguments)
        result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, timeout=RUN_TIMEOUT)
        self.check(result.returncode == expect,
                   "`xgpu cache %s` exited %s, expected %s" %
                   (" ".join(arguments), result.returncode, expect),
                   tail(result.stdout, 10) + tail(result.stderr, 10))
        return result.stdout, result.stderr

    def xgpu_json(self, folder, *arguments, extra=None):
        out, _ = self.xgpu_cache(folder, *arguments, "--json", extra=extra)
        try:
            return json.loads(out)
        except ValueError as error:
            self.check(False, "`xgpu cache %s --json` is not JSON: %s" %
                       (" ".join(arguments), error), out[:500])
            return {}

    def verify_clean(self, folder, count, label):
        """`xgpu cache verify --json`: `count` entries checked, none bad."""
        report = self.xgpu_json(folder, "verify")
        self.check(report.get("checked") == count and report.get("removed") == [],
                   "%s: verify checked %s (expected %d) and removed %s (expected none)" %
                   (label, report.get("checked"), count, report.get("removed")))

    def expect_logs(self, err, label, hits=(), misses=(), bad=0, refused=False):
        """Checks the hit, miss and bad-entry lines of one run's stderr. With `refused`,
        `bad` counts entries removed because the driver refused their binary."""
        got_hits, got_misses = HIT.findall(err), MISS.findall(err)
        got_bad = (REFUSED if refused else BAD).findall(err)
        for name in hits:
            self.check(name in got_hits, "%s: no 'hit' line for %s" % (label, name), tail(err, 12))
            self.check(name not in got_misses, "%s: %s missed, expected a hit" % (label, name),
                       tail(err, 12))
        for name in misses:
            self.check(name in got_misses, "%s: no 'miss' line for %s" % (label, name),
                       tail(err, 12))
            self.check(name not in got_hits, "%s: %s hit, expected a miss" % (label, name),
                       tail(err, 12))
        self.check(len(got_bad) == bad, "%s: %d '%s' warnings, expected %d: %s" %
                   (label, len(got_bad), "removed: the driver" if refused else "is bad", bad,
                    got_bad), tail(err, 12))
        return got_bad

    def fill(self, folder, count, extra=None, label="seeding run"):
        """Runs the client until the folder holds `count` entries (a client that crashes
        at exit may save only some programs: each such run is a failure, and one more run
        is tried, so that the checks that follow still test what they are meant to)."""
        for attempt in range(1, 5):
            good, err = self.run_client(folder, extra=extra, label="%s %d" % (label, attempt))
            if len(self.entries(folder)) >= count:
                return
        self.check(False, "%s: %d entries after 4 runs, expected %d" %
                   (label, len(self.entries(folder)), count))

    def seeded(self, name):
        """A folder holding one good entry per program: made once per case set, copied."""
        source = os.path.join(self.scratch, "seed")
        if not os.path.isdir(source):
            saved = self.case
            self.case = "seed"
            self.fill(source, len(PROGRAMS))
            self.case = saved
        target = self.folder(name)
        shutil.copytree(source, target, symlinks=True)  # modes (0700, 0600) kept
        return target

    # --- cases ------------------------------------------------------------------------

    def run_batch(self, runs):
        """Starts every (label, folder, offset, extra) client at once (they use separate
        folders, so this only saves time), then returns {label: (ok, stderr)}."""
        started = [(label, self.start_client(folder, offset, extra))
                   for label, folder, offset, extra in runs]
        return {label: self.finish_client(process, label) for label, process in started}


def pocl_cache_folder():
    """One PoCL cache for every CTest entry of the build (beside their scratch folders), so
    that each compiles a program once: XGPU_TEST_POCL_CACHE_DIR, set by check_cache.py."""
    return os.environ["XGPU_TEST_POCL_CACHE_DIR"]


def snapshot(paths):
    """Size and modification time of each path: what a read-only run must not change."""
    return {p: (os.stat(p).st_mtime_ns, os.path.getsize(p)) for p in paths}


def make_open_folder(path):
    os.mkdir(path, 0o700)
    os.chmod(path, 0o777)


def remove(path):
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        for root, dirs, _ in os.walk(path):
            for d in dirs:
                full = os.path.join(root, d)
                if not os.path.islink(full):
                    os.chmod(full, 0o700)
        shutil.rmtree(path)


def tail(text, lines):
    return "\n".join((text or "").strip().splitlines()[-lines:])


def signal_name(code):
    if code is not None and code < 0:
        return "killed by signal %d" % -code
    return "exit code"
