"""The cases of check_cache.py about the counters every process records in <folder>/counters
(`xgpu cache` shows them), as a mixin of its Checker. Each client runs with --stats, which
prints its own xgpu::cache_stats(): the folder's record must be their exact sum."""

import os
import re

COUNTERS = ("hits", "misses", "stores", "store_failures", "bad_entries", "healed",
            "read_only_skips", "evictions")
STATS = re.compile(r"^stats rounds=\d+ (.*)$", re.M)
DAMAGED = re.compile(r"\[warning\] the cache's counters file (\S+) is damaged")


class CounterCases:
    def client_stats(self, label):
        """The counters the last client printed with --stats, as a dict."""
        found = STATS.search(self.last_stdout)
        if not self.check(found, "%s: no stats line" % label, self.last_stdout):
            return dict.fromkeys(COUNTERS, 0)
        pairs = dict(item.split("=") for item in found.group(1).split())
        return {name: int(pairs.get(name, -1)) for name in COUNTERS}

    def recorded(self, folder, extra=None):
        return self.xgpu_json(folder, extra=extra).get("recorded", {})

    def expect_recorded(self, folder, want, label):
        got = self.recorded(folder)
        self.check({name: got.get(name) for name in COUNTERS} == want,
                   "%s: recorded %s, expected the clients' sum %s" %
                   (label, {name: got.get(name) for name in COUNTERS}, want))
        return got

    @staticmethod
    def add(total, stats):
        return {name: total[name] + stats[name] for name in COUNTERS}

    def case_counters(self):
        folder = self.folder("cache")
        total = dict.fromkeys(COUNTERS, 0)
        # Two processes, one after the other: misses and stores, then hits.
        for label in ("first run", "second run"):
            self.run_client(folder, label=label, arguments=["--stats"])
            total = self.add(total, self.client_stats(label))
        self.check(total["hits"] > 0 and total["misses"] > 0 and total["stores"] > 0,
                   "two runs counted %s: expected hits, misses and stores" % total)
        got = self.expect_recorded(folder, total, "after two runs")
        lookups = total["hits"] + total["misses"]
        self.check(got.get("hit_rate") == total["hits"] / lookups and got.get("since", 0) > 0,
                   "hit_rate %s (expected %s), since %s" %
                   (got.get("hit_rate"), total["hits"] / lookups, got.get("since")))
        out, _ = self.xgpu_cache(folder)
        self.check(re.search(r"^  hits:   %d, misses %d: hit rate [0-9.]+ %%$" %
                             (total["hits"], total["misses"]), out, re.M),
                   "`xgpu cache` does not show the hits, misses and hit rate", out)

        # XGPU_CACHE=ro records nothing (the process changes nothing in the folder).
        self.run_client(folder, label="read-only run", extra={"XGPU_CACHE": "ro"},
                        arguments=["--stats"])
        self.check(self.client_stats("read-only run")["hits"] > 0, "the read-only run hit nothing")
        self.expect_recorded(folder, total, "after a read-only run")

        # Concurrent processes lose no update: each holds the file 300 ms between reading and
        # rewriting it, so that their updates surely overlap.
        offsets = [5, 5, 6, 6, 7, 7]
        slow = ["--counters-delay-ms", "300", "--stats"]
        processes = [self.start_client(folder, offset, arguments=slow) for offset in offsets]
        for i, process in enumerate(processes):
            label = "concurrent client %d" % i
            self.finish_client(process, label)
            total = self.add(total, self.client_stats(label))
        self.expect_recorded(folder, total, "after 6 concurrent clients")

        # A damaged counters file: `xgpu cache` says so, the next process warns and replaces it.
        counters = os.path.join(folder, "counters")
        with open(counters, "w") as damaged:
            damaged.write("xgpu cache counters 1\nhits lots\n")
        got = self.recorded(folder)
        self.check("damaged" in got.get("problem", "") and got.get("hits") == 0,
                   "a damaged counters file reads as %s" % got)
        good, err = self.run_client(folder, label="run after damage", arguments=["--stats"])
        self.check(DAMAGED.search(err), "no warning about the damaged counters file", err[-2000:])
        self.expect_recorded(folder, self.client_stats("run after damage"), "after the damage")

        # `xgpu cache clear` starts again from zero.
        self.xgpu_cache(folder, "clear")
        got = self.recorded(folder)
        self.check(all(got.get(name) == 0 for name in COUNTERS) and got.get("since", 0) > 0 and
                   got.get("hit_rate") is None, "after clear: recorded %s" % got)
