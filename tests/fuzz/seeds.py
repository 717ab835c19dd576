#!/usr/bin/env python3
"""Writes each fuzz target's seed corpus into OUT/<target>/: the committed seeds and
regression inputs of tests/fuzz/corpus/<target>/, plus the real inputs the repository already
holds (the shipped profiles, every kernel of kernels/, the conformance suite's sources, the
selectors of docs/selectors.md and the tests, recorded traces), so that git keeps only the
seeds that exist nowhere else.  Usage: seeds.py OUT [PROGRAMS]
PROGRAMS: a folder of programs as the conformance suite built them, N.cl with N.options (the
cuda.capture_conform test leaves them in build/tests/cuda/conform-sources): many are
assembled at run time, with their own build options."""
import hashlib
import os
import re
import struct
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def files(folder, suffix):
    folder = os.path.join(ROOT, folder)
    found = []
    for base, _, names in os.walk(folder):
        found += [os.path.relpath(os.path.join(base, n), ROOT) for n in names if n.endswith(suffix)]
    return sorted(found)


def quoted(path, callers):
    """The string literals passed to any of `callers` in a C++ file: select("gpu") -> gpu."""
    text = read(path).decode()
    pattern = r'(?:%s)\(\s*"((?:[^"\\]|\\.)*)"' % "|".join(re.escape(c) for c in callers)
    return [bytes(s, "utf-8").decode("unicode_escape").encode() for s in re.findall(pattern, text)]


def raw_strings(path):
    """The R"(...)" literals of a C++ file: the conformance suite's OpenCL C sources."""
    text = read(path).decode()
    return [s.encode() for s in re.findall(r'R"\((.*?)\)"', text, re.S)]


def code_spans(path):
    return [s.encode() for s in re.findall(r"`([^`\n]+)`", read(path).decode())]


def cache_entry():
    """A valid kernel-cache entry (runtime/src/cache/entry.hpp), so that the fuzzer starts past
    the magic and the checksum."""
    sections = [b"xgpu kernel cache format 1\nsource:\n__kernel void k() {}\n",
                b"device=seed\nkernels=k\nsignatures=k(x|float*|1)\n", b"", bytes(range(64))]
    header = b"XGPUKC\r\n" + struct.pack("<II", 1, 4) + b"".join(
        struct.pack("<Q", len(s)) for s in sections)
    return header + hashlib.sha256(header + b"".join(sections)).digest() + b"".join(sections)


def selectors():
    spans = code_spans("docs/selectors.md")
    spans = [s.split(b"=", 1)[-1] for s in spans]
    found = [s for s in spans if re.fullmatch(rb"[\w*:,<>=.]+", s)]
    found += quoted("tests/core/test_selector.cpp",
                    ["select", "select_all", "find", "Requirements::parse", "ScopedEnv"])
    return found


def byte_sizes():
    return quoted("tests/core/test_byte_size.cpp", ["parse"]) + [b"0.5", b"64M", b"1.0", b"4G"]


def kernels():
    return [read(p) for p in files("kernels", ".cl")]


def conformance_sources():
    found = []
    for path in files("tools/conform", ".cpp"):
        found += raw_strings(path)
    return found + [read("tests/cuda/prelude_semantics.cl")]


def captured(folder, with_options):
    """Each captured program, as "options\\0source" (fuzz_opencl_translate's input form) when
    `with_options`; none when the folder is absent (the capture test did not run)."""
    if not folder or not os.path.isdir(folder):
        return []
    found = []
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".cl")):
        with open(os.path.join(folder, name), "rb") as f:
            source = f.read()
        options = os.path.join(folder, name[:-3] + ".options")
        if with_options and os.path.exists(options):
            with open(options, "rb") as f:
                source = f.read().strip() + b"\0" + source
        found.append(source)
    return found


def derived(programs):
    """Seeds made from the repository's own files, per target."""
    sources = kernels() + conformance_sources()
    return {
        "fuzz_cache_entry": [cache_entry()],
        "fuzz_selector": selectors(),
        "fuzz_byte_size": byte_sizes(),
        "fuzz_profile_file": [read(p) for p in files("profiles", ".json") +
                              files("tests/profile/data", ".json")],
        "fuzz_signature": [],
        "fuzz_preprocess": sources + captured(programs, False),
        "fuzz_opencl_translate": sources + captured(programs, True),
        "fuzz_trace_summary": [read(p) for p in files("tests/cli/data", ".json")],
        "fuzz_conform_baseline": [],
        "fuzz_bench_compare": [],
    }


def main():
    out = sys.argv[1]
    for target, seeds in derived(sys.argv[2] if len(sys.argv) > 2 else None).items():
        folder = os.path.join(out, target)
        os.makedirs(folder, exist_ok=True)
        committed = os.path.join(CORPUS, target)
        if os.path.isdir(committed):
            seeds = seeds + [read(os.path.join(committed, n)) for n in sorted(os.listdir(committed))]
        for seed in seeds:  # named by content, as libFuzzer names what it adds
            with open(os.path.join(folder, hashlib.sha1(seed).hexdigest()), "wb") as f:
                f.write(seed)
        print(f"{target}: {len(seeds)} seeds")


if __name__ == "__main__":
    main()
