"""``python -m xgpu.bench``: the package against PyOpenCL and NumPy, side by side in one process
on the same device, each ratio from the same run (docs/BENCHMARKS.md, "Python").

    python -m xgpu.bench [--device SEL] [--quick] [--json FILE]

Cases: a launch of an empty kernel enqueued only, and launched and waited for (also from C++,
xgpu's own launch without Python); 64 MiB copied host to device and back; a first build against
a cache hit (each in a process of its own); ``import`` time; the sum of 16M floats against
``pyopencl.array.sum`` and NumPy. Times are medians of repetitions; the machine's load is
recorded beside them (``os.getloadavg``): compare ratios, not times, on a shared machine."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Optional

import numpy as np

import xgpu

EMPTY = "__kernel void empty(__global float* x) { }\n"

# A program of some size for the build cases: what a first build compiles and a hit skips.
BUILD = """
__kernel void stencil(__global const float* in, __global float* out, uint n, float a) {
  uint i = get_global_id(0);
  if (i == 0 || i + 1 >= n) return;
  float acc = 0.0f;
  for (int k = -1; k <= 1; ++k) acc += in[i + k] * (k == 0 ? a : 0.5f * a);
  out[i] = acc;
}
__kernel void reduce(__global const float* in, __global float* out, __local float* tile, uint n) {
  uint lid = get_local_id(0), gid = get_global_id(0);
  tile[lid] = gid < n ? in[gid] : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tile[lid] += tile[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tile[0];
}
__kernel void transpose(__global const float* in, __global float* out, uint rows, uint cols) {
  uint c = get_global_id(0), r = get_global_id(1);
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}
"""


def median_time(action: Callable[[], Any], repeats: int, per: int = 1) -> float:
    """Median seconds of one action (each timed block runs it ``per`` times)."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(per):
            action()
        samples.append((time.perf_counter() - start) / per)
    return statistics.median(samples)


class Case:
    def __init__(self, name: str, unit: str, xgpu_value: float, baseline: float,
                 baseline_name: str, target: str, met: Optional[bool], ratio: float) -> None:
        self.record = {"case": name, "unit": unit, "xgpu": xgpu_value, "baseline": baseline,
                       "baseline_name": baseline_name, "ratio": ratio, "target": target,
                       "met": met}


def pyopencl_device(props: Any) -> Any:
    """The PyOpenCL device that is xgpu's ``props``: same platform and name, same position
    among equals (PoCL with two devices)."""
    import pyopencl as cl
    same = [d for p in cl.get_platforms() for d in p.get_devices()
            if d.name == props.name and d.platform.name == props.platform_name]
    alike = [d.index for d in xgpu.devices() if d.properties.name == props.name
             and d.properties.platform_name == props.platform_name]
    position = alike.index(props.index)
    if position >= len(same):
        raise SystemExit(f"xgpu.bench: PyOpenCL does not see {props.name}")
    return same[position]


def launches(props: Any, cl: Any, ctx: Any, queue: Any, quick: bool) -> list[Case]:
    n = 500 if quick else 4000
    repeats = 3 if quick else 7
    kernel = xgpu.Program(EMPTY, name="empty.cl").kernel("empty")
    x = xgpu.zeros(64)
    stream = xgpu.current_stream()
    cl_buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 256)
    cl_kernel = cl.Program(ctx, EMPTY).build().empty
    cl_kernel.set_args(cl_buf)

    # Loops written out (no lambda per launch: its call would count as launch time).
    def ours_enqueue(count: int) -> None:
        for _ in range(count):
            kernel(1, x)

    def theirs_enqueue(count: int) -> None:
        for _ in range(count):
            cl_kernel(queue, (1,), None, cl_buf)

    def ours_wait(count: int) -> None:
        for _ in range(count):
            kernel(1, x).synchronize()

    def theirs_wait(count: int) -> None:
        for _ in range(count):
            cl_kernel(queue, (1,), None, cl_buf).wait()

    # The loop's time per launch; the drain after it is not counted (enqueue-only).
    def loop_time(loop: Callable[[int], None], count: int, drain: Callable[[], None]) -> float:
        samples = []
        for _ in range(repeats):
            drain()
            start = time.perf_counter()
            loop(count)
            samples.append((time.perf_counter() - start) / count)
            drain()
        return statistics.median(samples)

    ours = loop_time(ours_enqueue, n, stream.synchronize)
    theirs = loop_time(theirs_enqueue, n, queue.finish)
    cpp = statistics.median(xgpu._xgpu.cpp_launch_seconds(kernel, x._b, 1, n, False)
                            for _ in range(repeats))
    waits = n // 4
    waited = loop_time(ours_wait, waits, stream.synchronize)
    cl_waited = loop_time(theirs_wait, waits, queue.finish)
    cpp_waited = statistics.median(xgpu._xgpu.cpp_launch_seconds(kernel, x._b, 1, waits, True)
                                   for _ in range(repeats))
    us = 1e6
    return [
        Case("launch, enqueue only", "us", ours * us, theirs * us, "PyOpenCL", "<= 1.0x",
             ours <= theirs, ours / theirs),
        Case("launch, enqueue only, Python over C++", "us", ours * us, cpp * us,
             "xgpu from C++", "<= C++ + 1.5 us", ours - cpp <= 1.5e-6, ours / cpp),
        Case("launch and wait", "us", waited * us, cl_waited * us, "PyOpenCL", "<= 1.0x",
             waited <= cl_waited, waited / cl_waited),
        Case("launch and wait, Python over C++", "us", waited * us, cpp_waited * us,
             "xgpu from C++", "<= C++ + 1.5 us", waited - cpp_waited <= 1.5e-6,
             waited / cpp_waited),
    ]


def transfers(cl: Any, ctx: Any, queue: Any, quick: bool) -> list[Case]:
    count = (8 if quick else 64) << 20 >> 2  # floats
    repeats = 3 if quick else 7
    host = np.random.default_rng(0).standard_normal(count, dtype=np.float32)
    back = np.empty_like(host)
    a = xgpu.asarray(host)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE, host.nbytes)
    gb = host.nbytes / 1e9
    up = gb / median_time(lambda: a.set(host), repeats)
    down = gb / median_time(lambda: a.get(out=back), repeats)
    cl_up = gb / median_time(lambda: cl.enqueue_copy(queue, buf, host, is_blocking=True), repeats)
    cl_down = gb / median_time(lambda: cl.enqueue_copy(queue, back, buf, is_blocking=True),
                               repeats)
    mib = host.nbytes >> 20
    return [
        Case(f"{mib} MiB host to device", "GB/s", up, cl_up, "PyOpenCL", ">= 0.9x",
             up >= 0.9 * cl_up, up / cl_up),
        Case(f"{mib} MiB device to host", "GB/s", down, cl_down, "PyOpenCL", ">= 0.9x",
             down >= 0.9 * cl_down, down / cl_down),
    ]


def sums(cl: Any, ctx: Any, queue: Any, quick: bool) -> list[Case]:
    import pyopencl.array as cl_array
    count = (1 << 20) if quick else (1 << 24)
    repeats = 3 if quick else 9
    host = np.random.default_rng(1).random(count, dtype=np.float32)
    a = xgpu.asarray(host)
    b = cl_array.to_device(queue, host)
    a.sum()  # the first call builds the library's kernels
    cl_array.sum(b).get()
    ours = median_time(lambda: a.sum(), repeats)
    theirs = median_time(lambda: cl_array.sum(b).get(), repeats)
    numpy = median_time(lambda: host.sum(), repeats)
    label = f"sum of {count >> 20}M floats"
    return [
        Case(label, "ms", ours * 1e3, theirs * 1e3, "pyopencl.array.sum", "<= 1/3x",
             ours * 3 <= theirs, ours / theirs),
        Case(label, "ms", ours * 1e3, numpy * 1e3, "NumPy", "<= 1.0x", ours <= numpy,
             ours / numpy),
    ]


def _timed_process(code: str, env: dict[str, str]) -> float:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **env}, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def builds(props: Any, quick: bool) -> list[Case]:
    """A first build and a cache hit, each in a fresh process over one new cache folder."""
    code = ("import time, xgpu; xgpu.set_device({index}); xgpu.zeros(1); "
            "s = time.perf_counter(); xgpu.Program({source!r}, name='bench_build.cl'); "
            "print(time.perf_counter() - s)")
    source = BUILD + f"// {time.time_ns()}\n"  # new to every cache
    with tempfile.TemporaryDirectory() as folder:
        env = {"XGPU_CACHE_DIR": folder}
        cold = _timed_process(code.format(index=props.index, source=source), env)
        warm = statistics.median(_timed_process(code.format(index=props.index, source=source),
                                                env) for _ in range(1 if quick else 3))
    return [Case("build: first against a cache hit", "ms", cold * 1e3, warm * 1e3,
                 "xgpu cache hit", "(reported)", None, cold / warm)]


def imports(quick: bool) -> list[Case]:
    def run(statement: str) -> float:
        samples = []
        for _ in range(3 if quick else 7):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", statement], check=True)
            samples.append(time.perf_counter() - start)
        return statistics.median(samples)

    nothing = run("pass")
    ours, theirs = run("import xgpu") - nothing, run("import pyopencl") - nothing
    return [Case("import", "ms", ours * 1e3, theirs * 1e3, "import pyopencl", "<= 1.0x",
                 ours <= theirs, ours / theirs)]


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xgpu.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--device", default=None, help="selector (default: the current device)")
    parser.add_argument("--quick", action="store_true", help="small sizes, few repetitions")
    parser.add_argument("--json", metavar="FILE", help="write the results there too")
    args = parser.parse_args(argv)
    import pyopencl as cl

    if args.device is not None:
        xgpu.set_device(args.device)
    props = xgpu.get_device_properties()
    ctx = cl.Context([pyopencl_device(props)])
    queue = cl.CommandQueue(ctx)
    load_before = os.getloadavg()
    cases = (launches(props, cl, ctx, queue, args.quick) + transfers(cl, ctx, queue, args.quick)
             + sums(cl, ctx, queue, args.quick) + builds(props, args.quick)
             + imports(args.quick))
    report = {
        "schema": "xgpu-python-bench/1",
        "device": props.description,
        "quick": args.quick,
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "versions": {"xgpu": xgpu.__version__, "pyopencl": cl.VERSION_TEXT,
                     "numpy": np.__version__, "python": sys.version.split()[0]},
        "results": [c.record for c in cases],
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")
    for c in cases:
        r = c.record
        verdict = "" if r["met"] is None else ("met" if r["met"] else "missed")
        print(f"{r['case']:<42} {r['xgpu']:10.3f} {r['unit']:<5} {r['baseline_name']:<20} "
              f"{r['baseline']:10.3f}  ratio {r['ratio']:.3f}  {r['target']} {verdict}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
