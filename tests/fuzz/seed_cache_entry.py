#!/usr/bin/env python3
"""Writes a valid kernel-cache entry (format of runtime/src/cache/entry.hpp) as a fuzzing
seed, so that the fuzzer starts past the magic and checksum: seed_cache_entry.py FOLDER"""
import hashlib
import os
import struct
import sys

sections = [b"xgpu kernel cache format 1\nsource:\n__kernel void k() {}\n",
            b"device=seed\nkernels=k\n", b"", bytes(range(64))]
header = b"XGPUKC\r\n" + struct.pack("<II", 1, 4) + b"".join(
    struct.pack("<Q", len(s)) for s in sections)
checksum = hashlib.sha256(header + b"".join(sections)).digest()
os.makedirs(sys.argv[1], exist_ok=True)
with open(os.path.join(sys.argv[1], "valid_entry"), "wb") as out:
    out.write(header + checksum + b"".join(sections))
