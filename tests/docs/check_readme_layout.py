#!/usr/bin/env python3
"""Fails when README.md's Layout block and the source tree disagree.

    check_readme_layout.py --root SOURCE_DIR

The block is the first ``` block after the heading "## Layout". A line that starts at its
first column is an entry: its first word is a path from the root (`runtime/`, `.ci/run`); the
indented lines below it continue its description. The rules:
  1. every entry's path exists (a folder where it ends in '/', else a file);
  2. every folder word of a description (a word ending in '/': `src/util/`, `abi/:`) exists,
     read from the entry's folder or else from the root; file names in a description are
     prose and not checked;
  3. every folder of the tree one or two levels deep (`profiles/`, `tests/teardown/`) is
     named: by an entry at or below it, or by a description word that resolves at or below it.
The tree's folders are those holding files git tracks (outside a git checkout: every folder
but those .gitignore names, and .git). Deeper folders (`runtime/src/cache/`) may be named but
need not be, so the block stays an overview rather than a listing.
Exits 1 naming each disagreement.
"""

import argparse
import fnmatch
import os
import re
import subprocess
import sys

# A folder word: path parts ending in '/', not part of a longer path or file name.
FOLDER_WORD = re.compile(r"(?<![\w./<-])((?:[\w.-]+/)+)(?![\w.<>-])")


def layout_block(readme):
    """The lines of the Layout block, or None."""
    lines = readme.splitlines()
    try:
        start = lines.index("## Layout")
    except ValueError:
        return None
    fences = [i for i in range(start + 1, len(lines)) if lines[i].startswith("```")]
    if len(fences) < 2 or any(lines[i].startswith("## ") for i in range(start + 1, fences[0])):
        return None
    return lines[fences[0] + 1 : fences[1]]


def entries(block):
    """[(path, description)] of the block's entries."""
    found = []
    for line in block:
        if not line.strip():
            continue
        if line[0].isspace():
            if found:
                found[-1][1].append(line)
            continue
        path, _, rest = line.partition(" ")
        found.append((path, [rest]))
    return [(path, " ".join(text)) for path, text in found]


def tree_folders(root):
    """The folders one or two levels deep that hold files, as 'a' and 'a/b'."""
    try:
        files = subprocess.run(["git", "-C", root, "ls-files"], check=True,
                               capture_output=True, text=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        files = walk_files(root)
    folders = set()
    for f in files:
        parts = f.split("/")[:-1]
        for depth in (1, 2):
            if len(parts) >= depth:
                folders.add("/".join(parts[:depth]))
    return folders


def walk_files(root):
    ignored = [".git"]
    gitignore = os.path.join(root, ".gitignore")
    if os.path.exists(gitignore):
        for line in open(gitignore):
            line = line.strip()
            if line and not line.startswith("#"):
                ignored.append(line.strip("/"))
    files = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [s for s in subfolders
                         if not any(fnmatch.fnmatch(s, pattern) for pattern in ignored)]
        rel = os.path.relpath(folder, root)
        files += [os.path.normpath(os.path.join(rel, n)).replace(os.sep, "/") for n in names]
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True)
    root = parser.parse_args().root
    block = layout_block(open(os.path.join(root, "README.md"), encoding="utf-8").read())
    if not block:
        print("README.md: no ``` block under a '## Layout' heading")
        return 1
    listed = entries(block)
    if not listed:
        print("README.md: the Layout block names no path")
        return 1

    errors = []
    named = []  # every path the block names, from the root, without a trailing '/'
    for path, description in listed:
        full = os.path.join(root, path)
        is_folder = path.endswith("/")
        if not (os.path.isdir(full) if is_folder else os.path.isfile(full)):
            errors.append(f"{path}: listed, but there is no such {'folder' if is_folder else 'file'}")
        named.append(path.rstrip("/"))
        base = path if is_folder else ""
        for word in FOLDER_WORD.findall(description):
            for candidate in (base + word, word):
                if os.path.isdir(os.path.join(root, candidate)):
                    named.append(candidate.rstrip("/"))
                    break
            else:
                errors.append(f"{path}: its description names {word}, which is neither "
                              f"{base + word} nor {word}")

    for folder in sorted(tree_folders(root)):
        if not any(n == folder or n.startswith(folder + "/") for n in named):
            errors.append(f"{folder}/: a folder of the tree the Layout block does not name")

    for error in errors:
        print(f"README.md, Layout: {error}")
    if not errors:
        print(f"README.md's Layout names {len(listed)} entries; every folder of the tree one or "
              f"two levels deep is among them")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
