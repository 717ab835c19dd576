#!/usr/bin/env python3
"""xgpu without the OpenCL ICD loader: what a machine without libOpenCL.so.1 (a CUDA-only
machine, or the very case `xgpu doctor` diagnoses) gets.

  installed BUILD_DIR   `cmake --install BUILD_DIR` into a fresh prefix; `readelf -d` of every
                        ELF file installed (the command, the libraries, the modules) lists no
                        libOpenCL among its NEEDED libraries
  hidden XGPU           in a mount namespace where /dev/null is bound over the ICD loader's
                        file, `xgpu doctor` runs, fails the loader's line with the fix
                        ("install ... ocl-icd-libopencl1") and exits 1, and `xgpu query` lists
                        no device, says why and how to fix it, and exits 3 (docs/doctor.md,
                        docs/query-json.md). Outside the namespace the same query finds a
                        device, so the hiding is what changed. Needs `unshare -m` and the right
                        to mount (root in CI): where that is missing it exits 77, a skip, with
                        the reason.
"""
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
FIX = "install an OpenCL ICD loader (Debian/Ubuntu: sudo apt install ocl-icd-libopencl1)"


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def check_installed(build_dir):
    readelf = shutil.which("readelf")
    if readelf is None:
        fail("readelf (binutils) is not installed")
    with tempfile.TemporaryDirectory(prefix="xgpu-install-") as prefix:
        done = subprocess.run(["cmake", "--install", build_dir, "--prefix", prefix],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            fail(f"cmake --install failed ({done.returncode}): {done.stdout}{done.stderr}")
        checked, linking = [], []
        for folder, _, files in os.walk(prefix):
            for name in files:
                path = os.path.join(folder, name)
                if os.path.islink(path) or not is_elf(path):
                    continue
                dynamic = subprocess.run([readelf, "-d", path], capture_output=True, text=True,
                                         check=True).stdout
                needed = [line for line in dynamic.splitlines() if "(NEEDED)" in line]
                checked.append(os.path.relpath(path, prefix))
                if any("libOpenCL" in line for line in needed):
                    linking.append(os.path.relpath(path, prefix))
        # The command, libxgpu and the opencl module at least: a search that found nothing
        # would prove nothing.
        for expected in ("bin/xgpu", "libxgpu.so", "libxgpu-backend-opencl.so"):
            if not any(path.endswith(expected) or expected + "." in path for path in checked):
                fail(f"no installed {expected} among the ELF files checked: {checked}")
        if linking:
            fail("installed files that need libOpenCL: " + ", ".join(linking))
        print(f"ok: {len(checked)} installed ELF files, none needs libOpenCL:", ", ".join(checked))


def loader_file():
    """The ICD loader's real file, as the dynamic linker finds libOpenCL.so.1."""
    listing = subprocess.run(["ldconfig", "-p"], capture_output=True, text=True, check=False)
    for line in listing.stdout.splitlines():
        if line.strip().startswith("libOpenCL.so.1 ") and "=>" in line:
            return os.path.realpath(line.split("=>")[1].strip())
    return None


def run(command, hidden=None):
    """Runs `command`, in a mount namespace with /dev/null over `hidden` when given. The
    caller's XGPU_* variables are dropped (but the test's cache folder): a selector or a
    hidden device of the shell must not change what is checked."""
    if hidden is not None:
        command = ["unshare", "-m", "--", "sh", "-c",
                   'mount --bind /dev/null "$0" && exec "$@"', hidden, *command]
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("XGPU_") or k == "XGPU_CACHE_DIR"}
    return subprocess.run(command, capture_output=True, text=True, check=False, env=env)


def check_hidden(xgpu):
    hidden = loader_file()
    if hidden is None:
        print("SKIP: no libOpenCL.so.1 in the dynamic linker's cache (ldconfig -p): nothing "
              "to hide")
        sys.exit(SKIP)
    if shutil.which("unshare") is None:
        print("SKIP: no unshare(1) (util-linux) to make a mount namespace")
        sys.exit(SKIP)
    probe = run(["true"], hidden)
    if probe.returncode != 0:
        print("SKIP: cannot bind-mount over the ICD loader in a new mount namespace (needs "
              f"root or CAP_SYS_ADMIN): {probe.stderr.strip()}")
        sys.exit(SKIP)

    seen = run([xgpu, "query"])
    if seen.returncode != 0:
        fail(f"with the ICD loader in place, xgpu query exited {seen.returncode}: "
             f"{seen.stdout}{seen.stderr}")

    doctor = run([xgpu, "doctor", "--ascii"], hidden)
    text = doctor.stdout + doctor.stderr
    if doctor.returncode != 1:
        fail(f"xgpu doctor without the ICD loader exited {doctor.returncode}, not 1:\n{text}")
    if "[FAIL] ICD loader: libOpenCL.so.1 does not load" not in doctor.stdout:
        fail(f"xgpu doctor does not fail the ICD loader's line:\n{text}")
    if f"fix: {FIX}" not in doctor.stdout:
        fail(f"xgpu doctor does not name the fix {FIX!r}:\n{text}")

    query = run([xgpu, "query"], hidden)
    text = query.stdout + query.stderr
    if query.returncode != 3:
        fail(f"xgpu query without the ICD loader exited {query.returncode}, not 3:\n{text}")
    if "no compute device found" not in query.stderr:
        fail(f"xgpu query does not say it found no device:\n{text}")
    if "the OpenCL ICD loader could not be opened" not in query.stdout:
        fail(f"xgpu query's note of the opencl module does not say why:\n{text}")
    if FIX not in query.stderr:
        fail(f"xgpu query does not name the fix {FIX!r}:\n{text}")
    print(f"ok: with {hidden} hidden, xgpu doctor exits 1 naming the fix and xgpu query exits "
          "3 saying why")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("installed", "hidden"):
        sys.exit(__doc__)
    if sys.argv[1] == "installed":
        check_installed(sys.argv[2])
    else:
        check_hidden(sys.argv[2])


if __name__ == "__main__":
    main()
