#!/usr/bin/env python3
"""Checks that the repository is shaped the way docs/ARCHITECTURE.md says.

1. The module table in docs/ARCHITECTURE.md lists exactly the package's targets (from
   `swift package dump-package`), each with its folder and its dependencies.
2. Every folder under Sources/ is one of those targets.
3. No function in the request path (Sources/SegueEngine, SegueJSON, SegueCodec, SegueHTTP) is
   longer than MAX_FUNCTION_LINES lines.

Ends with `architecture: N passed, M failed`; exits 1 on any failure.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FUNCTION_LINES = 80
REQUEST_PATH = ["Sources/SegueEngine", "Sources/SegueJSON", "Sources/SegueCodec", "Sources/SegueHTTP"]
TABLE_MARK = "<!-- architecture-check:"


def package_targets():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    targets = {}
    for target in json.loads(out)["targets"]:
        if target["type"] == "test":
            continue
        deps = set()
        for dep in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dep:
                    deps.add(dep[kind][0])
        default = ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]
        targets[target["name"]] = (target.get("path") or default, deps)
    return targets


def documented_targets():
    text = open(os.path.join(ROOT, "docs", "ARCHITECTURE.md"), encoding="utf-8").read()
    start = text.index(TABLE_MARK)
    rows = {}
    for line in text[start:].splitlines()[1:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] in ("target", "---") or set(cells[0]) <= {"-"}:
            continue
        name = cells[0].strip("`")
        folder = cells[1].strip("`")
        deps = set() if cells[2] in ("—", "-", "") else {d.strip().strip("`") for d in cells[2].split(",")}
        rows[name] = (folder, deps)
    return rows


FUNC = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|mutating|override|final|"
                  r"nonisolated)\s+)*(func\s+[^\s(<]+|init\??)\b")


def long_functions(folder):
    found = []
    for directory, _, files in os.walk(os.path.join(ROOT, folder)):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            lines = open(path, encoding="utf-8").read().split("\n")
            for i, line in enumerate(lines):
                match = FUNC.match(line)
                if not match:
                    continue
                depth, opened, j = 0, False, i
                while j < len(lines):
                    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', lines[j]).split("//")[0]
                    for ch in code:
                        if ch == "{":
                            depth, opened = depth + 1, True
                        elif ch == "}":
                            depth -= 1
                    if (opened and depth <= 0) or (not opened and j > i + 6):
                        break
                    j += 1
                if opened and j - i + 1 > MAX_FUNCTION_LINES:
                    found.append(f"{os.path.relpath(path, ROOT)}:{i + 1} {match.group(1)} is {j - i + 1} lines")
    return found


def main():
    passed, failures = 0, []

    def check(ok, what):
        nonlocal passed
        if ok:
            passed += 1
        else:
            failures.append(what)
            print("FAIL", what)

    package, documented = package_targets(), documented_targets()
    check(set(package) == set(documented),
          f"targets: Package.swift has {sorted(package)}, docs/ARCHITECTURE.md has {sorted(documented)}")
    for name in sorted(set(package) & set(documented)):
        check(package[name][0] == documented[name][0],
              f"{name}: folder {package[name][0]} in Package.swift, {documented[name][0]} in the table")
        check(package[name][1] == documented[name][1],
              f"{name}: depends on {sorted(package[name][1])} in Package.swift, {sorted(documented[name][1])} in the table")
    folders = {os.path.join("Sources", f) for f in os.listdir(os.path.join(ROOT, "Sources"))}
    check(folders <= {path for path, _ in package.values()}, f"Sources/ folders that are no target: "
          f"{sorted(folders - {path for path, _ in package.values()})}")
    for folder in REQUEST_PATH:
        long = long_functions(folder)
        check(not long, f"functions over {MAX_FUNCTION_LINES} lines in {folder}: " + "; ".join(long))
    print(f"architecture: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
