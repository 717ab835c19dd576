#!/usr/bin/env python3
"""Installs the build (cmake --install) into a folder of its own and fails when an installed
file names a test seam: an XGPU_ variable with TEST in its name (the tests' own variables, and
the switches that once made the shipped library stall or skip a barrier for a test). Test seams
live in the test programs (docs/settings.md).

    check_install.py --build BUILD_DIR --prefix FOLDER
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

SEAM = re.compile(rb"XGPU_[A-Z0-9_]*TEST[A-Z0-9_]*")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--prefix", required=True)
    args = parser.parse_args()
    shutil.rmtree(args.prefix, ignore_errors=True)
    subprocess.run(["cmake", "--install", args.build, "--prefix", args.prefix], check=True,
                   stdout=subprocess.DEVNULL)
    files, binaries, failures = 0, 0, []
    for folder, _, names in os.walk(args.prefix):
        for name in names:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                continue
            with open(path, "rb") as handle:
                data = handle.read()
            files += 1
            binaries += data.startswith(b"\x7fELF")
            for match in sorted(set(SEAM.findall(data))):
                failures.append("%s names %s" % (os.path.relpath(path, args.prefix),
                                                 match.decode()))
    if binaries == 0:
        sys.exit("FAIL no library or program was installed under %s" % args.prefix)
    for failure in failures:
        print("FAIL " + failure)
    print("%d installed files read (%d libraries and programs): %s" %
          (files, binaries, "a test seam is installed" if failures else "no test seam"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
