#!/usr/bin/env python3
"""Fails on an XGPU_* environment variable in the sources that the settings registry does not
list (backends/common/xgpu/common/settings.def; the names come from `xgpu-settings-docs
--names`), nor the list of the tests' own variables below.

    check_setting_names.py --names-from PROGRAM --root SOURCE_DIR

What counts as a variable's name, by the kind of file:
  C, C++, OpenCL C, Python: an XGPU_ name inside a string literal;
  shell: an assignment (NAME=...), an expansion ($NAME, ${NAME}) or `export NAME`;
  CMake: NAME= (an ENVIRONMENT entry, --env NAME=..., NAME=unset:) or $ENV{NAME};
  Markdown: a name in `code`.
Not a variable: a name the C-family sources use as an identifier outside strings and
comments (macros such as XGPU_API, enumerators such as XGPU_STATUS_SUCCESS, compile
definitions), a name given to a compiler with -D anywhere (a kernel's macro, also where a
kernel's source is a string), a CMake variable (set(), option(), a cache entry), a name
ending in '_' (a prefix in prose: XGPU_*, XGPU_<OP>_SHAPE).
"""

import argparse
import os
import re
import subprocess
import sys

# The tests' own variables: set by CTest (or a developer running a test by hand) for a test
# program; nothing installed reads them (ctest -R settings.install checks the _TEST_ ones).
TEST_VARIABLES = {
    "XGPU_TEST_EXPECT_POCL": "how many PoCL devices the entry promises (test_support.hpp)",
    "XGPU_TEST_EXPECT_OCLGRIND": "how many Oclgrind devices the entry promises",
    "XGPU_TEST_REQUIRE_PLATFORMS": "the platforms the tests must find (tests/CMakeLists.txt)",
    "XGPU_TEST_GROUP": "the selector of the [multi] tests' DeviceGroup",
    "XGPU_TEST_GROUP_SIZE": "how many devices that group must hold",
    "XGPU_TEST_STUB_DIR": "the folder of the stub modules (tests/modules)",
    "XGPU_TEST_PROFILE_FILE": "the profile xgpu::add_profile is given (tests/profile)",
    "XGPU_TEST_NO_MOUNT": "turns the cache's mount-namespace cases into reported skips",
    "XGPU_TEST_POCL_CACHE_DIR": "PoCL's kernel cache for the cache stress cases",
    "XGPU_TEST_MPI_WATCHDOG_S": "the MPI tests' watchdog (tests/mpi/mpi_main.cpp)",
    "XGPU_TEST_POCL_CACHE": "a PoCL kernel cache per MPI rank (tests/mpi/per_rank.sh)",
    "XGPU_CONFORM_QUICK": "the conformance test's quick sampling (tests/conform)",
    "XGPU_CONFORM_ALLOWED_SKIPS": "the folder of the conformance allowed-skip lists",
    "XGPU_CAPTURE_DIR": "where tests/cuda's OpenCL source capture writes",
    "XGPU_GPU_CHECK_LIBDIR": "a library folder for tools/gpu-check.sh (a developer's script)",
    "XGPU_PTXAS": "the ptxas tests/cuda's kernel compile check assembles with",
    "XGPU_TEST_XGPU": "the xgpu command tests/plot runs (default build/bin/xgpu)",
}

# Names the tests and the docs use as a user's mistakes: they must stay unknown.
MISSPELT_EXAMPLES = {"XGPU_CACHE_MAX_SZE", "XGPU_CUBLAS_LIBARY", "XGPU_SOMETHING_ELSE_ENTIRELY"}

# Not the sources: build trees (build*), the Python environment and caches (hidden folders).
SKIPPED_DIRS = {"__pycache__", "node_modules"}
C_FAMILY = (".c", ".h", ".cpp", ".hpp", ".inc", ".def", ".cl", ".in")
NAME = r"XGPU_[A-Z0-9_]*[A-Z0-9]"

# A C or C++ string literal (raw strings too), a char literal, or a comment.
C_TOKENS = re.compile(r'R"(?P<delim>[^(\s]*)\((?P<raw>.*?)\)(?P=delim)"'
                      r'|"(?P<str>(?:\\.|[^"\\\n])*)"'
                      r"|'(?:\\.|[^'\\\n])*'"
                      r"|//[^\n]*|/\*.*?\*/", re.S)
PY_STRINGS = re.compile(r'("""|\'\'\'|"|\')((?:\\.|(?!\1).)*?)\1', re.S)


def names_in(text):
    """Names in text that are not after -D (a macro given to a compiler)."""
    found = set()
    for match in re.finditer(NAME, text):
        before = text[max(0, match.start() - 3):match.start()]
        if re.search(r"-D\s*$", before):
            continue
        found.add(match.group(0))
    return found


def macros_and_cmake_variables(text):
    """Names given to a compiler with -D, and names CMake sets (set, option, find_*)."""
    found = set(re.findall(r"-D\s*(" + NAME + r")", text))
    found |= set(re.findall(r"\b(?:set|option|find_library|find_program|find_path)\(\s*(" +
                            NAME + r")\b", text))
    return found


def c_family(text):
    """(names in string literals, names used as identifiers in code)."""
    in_strings, in_code = set(), set()
    last = 0
    for match in C_TOKENS.finditer(text):
        in_code |= set(re.findall(NAME, text[last:match.start()]))
        last = match.end()
        literal = match.group("raw") if match.group("raw") is not None else match.group("str")
        if literal is not None:
            in_strings |= names_in(literal)
    in_code |= set(re.findall(NAME, text[last:]))
    return in_strings, in_code


def python_file(text):
    found = set()
    for match in PY_STRINGS.finditer(text):
        found |= names_in(match.group(2))
    return found


def shell_file(text):
    found = set()
    for pattern in (r"(?<![-\w])(" + NAME + r")=", r"\$\{?(" + NAME + r")", r"export\s+(" + NAME + r")"):
        for match in re.finditer(pattern, text):
            if not re.search(r"-D\s*$", text[max(0, match.start() - 3):match.start(1)]):
                found.add(match.group(1))
    return found


def cmake_file(text):
    found = set()
    for pattern in (r"(?<![-\w{])(" + NAME + r")=", r"\$ENV\{(" + NAME + r")\}"):
        for match in re.finditer(pattern, text):
            if not re.search(r"-D\s*$", text[max(0, match.start() - 3):match.start(1)]):
                found.add(match.group(1))
    return found


def markdown_file(text):
    found = set()
    for match in re.finditer(r"`([^`\n]+)`", text):
        found |= names_in(match.group(1))
    return found


def scan(root):
    """{name: [files]} of the candidate variables, and the set of identifiers."""
    candidates, identifiers = {}, set()
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(("build", "."))]
        for name in files:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root)
            try:
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                continue
            identifiers |= macros_and_cmake_variables(text)
            if name.endswith(C_FAMILY):
                found, code = c_family(text)
                identifiers |= code
            elif name.endswith(".py"):
                found = python_file(text)
            elif name.endswith(".sh") or name == "run":
                found = shell_file(text)
            elif name == "CMakeLists.txt" or name.endswith(".cmake"):
                found = cmake_file(text)
            elif name.endswith(".md"):
                found = markdown_file(text)
            else:
                continue
            for variable in found:
                candidates.setdefault(variable, []).append(relative)
    return candidates, identifiers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--names-from", required=True, help="the xgpu-settings-docs program")
    parser.add_argument("--root", required=True, help="the source tree")
    args = parser.parse_args()
    registered = set(subprocess.run([args.names_from, "--names"], check=True,
                                    stdout=subprocess.PIPE, text=True).stdout.split())
    if len(registered) < 10:
        sys.exit("the registry lists %d names: xgpu-settings-docs --names is broken"
                 % len(registered))
    overlap = registered & (set(TEST_VARIABLES) | MISSPELT_EXAMPLES)
    if overlap:
        sys.exit("listed in the registry and as the tests' own or a misspelt example: %s"
                 % sorted(overlap))
    candidates, identifiers = scan(args.root)
    known = registered | set(TEST_VARIABLES) | MISSPELT_EXAMPLES
    unknown = {name: files for name, files in candidates.items()
               if name not in known and name not in identifiers}
    seen = {name for name in candidates if name in known}
    print("%d variable names found in the sources, all listed (%d in the registry, %d the "
          "tests' own)" % (len(seen), len(seen & registered), len(seen & set(TEST_VARIABLES)))
          if not unknown else "")
    for name, files in sorted(unknown.items()):
        print("FAIL %s is read or set as an environment variable but is not in the settings "
              "registry (backends/common/xgpu/common/settings.def): %s"
              % (name, ", ".join(sorted(set(files))[:5])))
    unused = sorted(set(TEST_VARIABLES) - set(candidates))
    for name in unused:
        print("FAIL %s is listed as a test variable but no source names it" % name)
    return 1 if unknown or unused else 0


if __name__ == "__main__":
    sys.exit(main())
