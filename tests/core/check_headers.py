#!/usr/bin/env python3
"""Checks that the public headers show only the API: no program can reach the core's state.

Scans every header under the folders given (the installed include folders of libxgpu,
libxgpu-algorithms, libxgpu-multi and libxgpu-mpi) and fails, naming file and line, on:
  - a public member or a free function outside namespace detail whose declaration names the
    core's private state (detail::...State, detail::...Record, detail::BufferCore): a public
    constructor from it or an accessor that hands it out (state(), record(), core());
  - a public data member, outside namespace detail, of a detail:: type (`const
    detail::DeviceRecord* device`): internals a program could read or change.
Friend declarations and private or protected sections are the library's business.

  check_headers.py runtime/include/xgpu runtime/algorithms/include/xgpu ...
"""
import pathlib
import re
import sys

# Names of the core's private state in the detail namespace.
STATE = re.compile(r"\bdetail::\w*(State|Record|Core)\b")
# A data member of a detail:: type: `const detail::DeviceRecord* device = nullptr;`.
DETAIL_MEMBER = re.compile(r"^(const\s+)?([\w:]*::)?detail::[\w:<>, ]+[\s*&]+\w+\s*(=[^;]*)?;$")
ACCESS = re.compile(r"^(public|private|protected)\s*:")
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum(\s+class)?)\b\s*([\w:]*)")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    # Preprocessor lines are neither declarations nor scopes.
    return re.sub(r"^\s*#[^\n]*", "", text, flags=re.M)


def statements(text):
    """Yields (line, text, opens, closes): each declaration up to ';', '{' or '}'."""
    line, start_line, current = 1, 1, ""
    for c in text:
        if c == "\n":
            line += 1
        if not current.strip():
            start_line = line
        if c in ";{}":
            yield start_line, " ".join(current.split()), c
            current = ""
        else:
            current += c
            if ACCESS.match(current.strip()) and current.rstrip().endswith(":") and \
                    not current.rstrip().endswith("::"):
                yield start_line, " ".join(current.split()), ":"
                current = ""


def without_template_header(text):
    """'template <class T, class U> class Buffer' -> 'class Buffer'."""
    if not text.startswith("template"):
        return text
    depth = 0
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return text[i + 1:].strip()
    return text


def check(path):
    problems = []
    # Each scope: [kind, name, access]; access is None outside classes.
    stack = [["file", "", None]]
    for line, text, end in statements(strip_comments(path.read_text())):
        where = f"{path}:{line}"
        if end == ":":
            if stack[-1][0] in ("class", "struct", "union"):
                stack[-1][2] = ACCESS.match(text).group(1)
            continue
        if end == "}":
            if len(stack) > 1:
                stack.pop()
            continue
        in_detail = any(kind == "namespace" and "detail" in name.split("::")
                        for kind, name, _ in stack)
        visible = stack[-1][2] in (None, "public")
        scope = SCOPE.match(without_template_header(text)) if end == "{" else None
        if scope and "(" not in text:
            kind = scope.group(1).split()[0]
            access = "private" if kind == "class" else ("public" if kind != "namespace" else None)
            if kind == "enum":
                access = None
            stack.append([kind, scope.group(3), access])
            continue
        if end == "{":
            # A function body (or an initializer): its own braces are no declarations.
            stack.append(["body", "", "private"])
        if in_detail or not visible or text.startswith("friend ") or stack[-1][0] == "body" \
                and end != "{":
            continue
        if STATE.search(text):
            problems.append(f"{where}: public declaration names the core's state: {text}")
        elif end == ";" and stack[-1][0] in ("class", "struct") and DETAIL_MEMBER.match(text + ";") \
                and "(" not in text:
            problems.append(f"{where}: public data member of a detail type: {text}")
    return problems


def main(folders):
    headers = sorted(p for folder in folders for p in pathlib.Path(folder).rglob("*.hpp"))
    if not headers:
        print("check_headers.py: no header found under " + " ".join(folders))
        return 1
    problems = [problem for header in headers for problem in check(header)]
    for problem in problems:
        print(problem)
    print(f"check_headers.py: {len(headers)} headers, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
