"""The kernel-cache entry format, as the tests write it: decoding, encoding and the ways
check_cache.py damages entries."""

import hashlib
import os
import random
import struct

# The entry format (runtime/src/cache/entry.hpp): magic, u32 version, u32 section count,
# 4 x u64 section lengths, SHA-256 over header bytes 0..47 and every section, sections.
MAGIC = b"XGPUKC\r\n"
HEADER = 80


def decode_entry(data):
    """The four sections of a well-formed entry (key, metadata, build log, binary)."""
    if data[:8] != MAGIC:
        raise ValueError("bad magic")
    version, count = struct.unpack_from("<II", data, 8)
    lengths = struct.unpack_from("<4Q", data, 16)
    sections, at = [], HEADER
    for length in lengths:
        sections.append(data[at:at + length])
        at += length
    if count != 4 or at != len(data):
        raise ValueError("bad lengths")
    return version, sections


def encode_entry(sections, version=1):
    head = MAGIC + struct.pack("<II4Q", version, 4, *(len(s) for s in sections))
    digest = hashlib.sha256(head + b"".join(sections)).digest()
    return head + digest + b"".join(sections)


def corruptions(entries):
    """(name, function damaging every entry in place) pairs."""
    rng = random.Random(7)

    def rewrite(change):
        def apply():
            for path in entries:
                with open(path, "rb") as f:
                    data = f.read()
                with open(path, "wb") as f:
                    f.write(change(data))
        return apply

    def flip(data):
        middle = len(data) // 2
        return data[:middle] + bytes([data[middle] ^ 0x10]) + data[middle + 1:]

    def version(data):
        return data[:8] + struct.pack("<I", 2) + data[12:]

    def garbage(data):
        return bytes(rng.randrange(256) for _ in range(len(data)))

    def rekey(data):
        _, sections = decode_entry(data)
        sections[0] = sections[0] + b"\n// not the key of this file name"
        return encode_entry(sections)

    def rebinary(data):
        # Well-formed, right key, valid checksum: only the driver can tell the binary is
        # garbage. (A binary that keeps the driver's own header but is cut short is not
        # tried: PoCL 3.1 asserts in pocl_binary_deserialize on it, inside the driver.)
        _, sections = decode_entry(data)
        sections[3] = bytes(rng.randrange(256) for _ in range(len(sections[3])))
        return encode_entry(sections)

    def swap():
        first, second = entries[0], entries[1]
        os.rename(first, first + ".swap")
        os.rename(second, first)
        os.rename(first + ".swap", second)

    return [("truncated", rewrite(lambda d: d[:len(d) // 2])),
            ("zero-length", rewrite(lambda d: b"")),
            ("bit-flipped", rewrite(flip)),
            ("garbage", rewrite(garbage)),
            ("wrong-version", rewrite(version)),
            ("wrong-key", rewrite(rekey)),
            ("swapped", swap),
            ("refused-binary", rewrite(rebinary))]
