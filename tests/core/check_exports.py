#!/usr/bin/env python3
"""Checks that a shared library exports its public API and nothing else.

Runs `nm -D --defined-only -C` on the library and fails, listing them, on every defined
symbol that is neither a C entry point named with --allow-c nor a name of namespace xgpu
whose every part the public headers (--headers) spell. So xgpu::detail (apart from the
--allow-detail names that the headers' inline code calls), internal classes, and template
instantiations of std::, fmt:: or spdlog:: that leak through -fvisibility=default all fail.

  check_exports.py --library build/lib/libxgpu.so --headers runtime/include/xgpu \
      --allow-detail retain_object release_object allocate log_unmap_failure
"""
import argparse
import pathlib
import re
import subprocess
import sys

# Prefixes nm -C writes before the name a symbol belongs to.
SPECIAL = ("typeinfo for ", "typeinfo name for ", "vtable for ", "VTT for ",
           "non-virtual thunk to ", "virtual thunk to ", "guard variable for ")
# What every ELF shared library defines besides its own code.
ELF_DEFAULTS = {"_init", "_fini", "_edata", "_end", "__bss_start"}


def defined_symbols(path):
    """The global symbols the file defines, demangled, as a set of names."""
    result = subprocess.run(["nm", "--defined-only", "-C"] +
                            (["-D"] if path.suffix != ".o" else []) + [str(path)],
                            check=True, capture_output=True, text=True)
    names = set()
    for line in result.stdout.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and (parts[1].isupper() or parts[1] in "uvw"):
            names.add(parts[2])
    return names


def split_top(text, separator):
    """Splits at separator outside <>, () and []."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            i += len(separator)
            start = i
            continue
        i += 1
    parts.append(text[start:])
    return parts


def qualified_name(symbol):
    """'xgpu::Queue::finish()' -> ['xgpu', 'Queue', 'finish']; None unless C++."""
    for prefix in SPECIAL:
        if symbol.startswith(prefix):
            symbol = symbol[len(prefix):]
    depth = 0
    for i, c in enumerate(symbol):  # cut the parameters: the first '(' outside <>
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0 and not symbol[:i].endswith("operator"):
            symbol = symbol[:i]
            break
    # A template function's name starts with its return type: keep the last top-level word
    # holding '::' and what follows it ("operator bool").
    words = split_top(symbol, " ")
    with_scope = [i for i, word in enumerate(words) if "::" in word]
    if not with_scope:
        return None
    symbol = " ".join(words[with_scope[-1]:])
    return [re.sub(r"\[abi:[^\]]*\]|<.*>$", "", part).strip() for part in split_top(symbol, "::")]


def problem(symbol, header_words, allowed_detail):
    """Why the symbol should not be exported, or None when it may be."""
    parts = qualified_name(symbol)
    if parts is None:
        return "a C symbol not in --allow-c"
    if parts[0] != "xgpu":
        return "not in namespace xgpu"
    if "detail" in parts[1:-1] and parts[-1] not in allowed_detail:
        return "xgpu::detail, not called by the headers' inline code"
    for part in parts:
        word = part.lstrip("~")
        if word.startswith("operator") or not word:
            continue
        if word not in header_words:
            return f"'{word}' appears in no public header"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", required=True, type=pathlib.Path)
    parser.add_argument("--headers", nargs="+", required=True, type=pathlib.Path,
                        help="folders of the public headers (searched recursively)")
    parser.add_argument("--allow-c", nargs="*", default=[], help="C entry points")
    parser.add_argument("--allow-detail", nargs="*", default=[],
                        help="xgpu::detail functions the public headers' inline code calls")
    args = parser.parse_args()

    header_words = set()
    for folder in args.headers:
        for header in sorted(folder.rglob("*")):
            if header.is_file():
                header_words.update(re.findall(r"[A-Za-z_]\w*", header.read_text()))
    exported = defined_symbols(args.library)
    allowed_c = ELF_DEFAULTS | set(args.allow_c)
    offending = []
    for symbol in sorted(exported):
        if symbol in allowed_c:
            continue
        why = problem(symbol, header_words, set(args.allow_detail))
        if why:
            offending.append(f"  {symbol}    ({why})")
    checked = len(exported)
    if offending:
        print(f"{args.library}: {len(offending)} of {checked} exported symbols are not public API:")
        print("\n".join(offending))
        return 1
    print(f"{args.library}: all {checked} exported symbols are public API")
    return 0


if __name__ == "__main__":
    sys.exit(main())
