#!/usr/bin/env python3
"""Checks that the repository is shaped the way docs/ARCHITECTURE.md says.

1. The module table in docs/ARCHITECTURE.md lists exactly the package's targets (from
   `swift package dump-package`), each with its folder and its dependencies.
2. Every folder under Sources/ is one of those targets.
3. No function in the request path (Sources/SegueEngine, SegueJSON, SegueCodec, SegueHTTP) is
   longer than MAX_FUNCTION_LINES lines.
4. The pipeline docs/ARCHITECTURE.md names after its `architecture-check: middleware` mark is the
   order the code builds: CORS around the router (`SegueService.respond`), then the stages of the
   `MiddlewareChain` in Sources/SegueHTTP/Service.swift, then the handler.
5. Every `import` in a target's sources names one of its documented dependencies or a system
   module (SYSTEM_MODULES), and no source imports Foundation (it drags ICU into the binary).

Ends with `architecture: N passed, M failed`; exits 1 on any failure. `--self-test` shows that the
checks fail on a reordered middleware list, a wrong module row and a stray import.
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
MIDDLEWARE_MARK = "<!-- architecture-check: middleware -->"
SYSTEM_MODULES = {"Glibc", "Musl", "Darwin", "Synchronization"}  # the C library on each platform
FORBIDDEN_MODULES = {"Foundation", "FoundationEssentials", "FoundationInternationalization"}
TEST_MODULES = {"Foundation", "XCTest"}  # what code under Tests/ (SegueTestSupport) may import besides


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


def read(*path):
    return open(os.path.join(ROOT, *path), encoding="utf-8").read()


def documented_targets(text=None):
    text = text if text is not None else read("docs", "ARCHITECTURE.md")
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


def code_middleware(service):
    """The pipeline as Sources/SegueHTTP/Service.swift builds it."""
    order = []
    if re.search(r"cors\.respond\(to: request\).*?router\.respond\(", service, re.S):
        order += ["CORSMiddleware", "Router"]
    chain = re.search(r"MiddlewareChain\(\[(.*?)\]\)", service, re.S)
    order += re.findall(r"\b(\w+Middleware)\(", chain.group(1)) if chain else []
    return order + ["handler"]


def documented_middleware(doc):
    """The pipeline docs/ARCHITECTURE.md names after its mark: `A` → `B` → … → handler."""
    text = doc[doc.index(MIDDLEWARE_MARK) + len(MIDDLEWARE_MARK):]
    text = text[:text.index("handler") + len("handler")]
    return [step.strip().strip("`") for step in text.replace("\n", " ").split("→")]


def stray_imports(targets, sources_of):
    """`target: module` for every import that is neither a dependency nor a system module, and
    every Foundation import."""
    found = []
    for name, (folder, deps) in sorted(targets.items()):
        allowed = deps | SYSTEM_MODULES | {name} | (TEST_MODULES if folder.startswith("Tests/") else set())
        for path, text in sources_of(folder):
            for module in re.findall(r"^\s*(?:@testable\s+|@_implementationOnly\s+)?import\s+(\w+)", text, re.M):
                if module not in allowed or module in FORBIDDEN_MODULES - allowed:
                    found.append(f"{path}: import {module}")
    return found


def swift_sources(folder):
    for directory, _, files in os.walk(os.path.join(ROOT, folder)):
        for file in sorted(files):
            if file.endswith(".swift"):
                path = os.path.join(directory, file)
                yield os.path.relpath(path, ROOT), open(path, encoding="utf-8").read()


def self_test():
    """The checks fail on what they exist to catch."""
    service, doc = read("Sources", "SegueHTTP", "Service.swift"), read("docs", "ARCHITECTURE.md")
    assert code_middleware(service) == documented_middleware(doc), "the checks must pass on the repository first"
    swapped = service.replace("ConditionalRequestMiddleware(),", "@@").replace("EntityTagMiddleware(),", "ConditionalRequestMiddleware(),")
    swapped = swapped.replace("@@", "EntityTagMiddleware(),")
    assert code_middleware(swapped) != documented_middleware(doc), "a reordered middleware list must fail"
    row = next(line for line in doc.splitlines() if line.startswith("| `SegueCodec`"))
    wrong = doc.replace(row, row.replace("`SegueEngine`, ", ""))
    assert documented_targets(wrong)["SegueCodec"] != documented_targets(doc)["SegueCodec"], "a wrong module row must differ"
    targets = {"SegueEngine": ("Sources/SegueEngine", set())}
    assert stray_imports(targets, lambda _: [("x.swift", "import SegueHTTP\n")]), "an undeclared import must fail"
    assert stray_imports(targets, lambda _: [("x.swift", "import Foundation\n")]), "Foundation must fail"
    assert not stray_imports(targets, lambda _: [("x.swift", "import Glibc\n")]), "a system module must pass"
    print("architecture self-test: the checks fail on a reordered middleware list, a wrong module row and a stray import")
    return 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
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
    code, docs = code_middleware(read("Sources", "SegueHTTP", "Service.swift")), documented_middleware(read("docs", "ARCHITECTURE.md"))
    check(code == docs, f"pipeline: the code builds {' → '.join(code)}, docs/ARCHITECTURE.md says {' → '.join(docs)}")
    stray = stray_imports(package, swift_sources)
    check(not stray, "imports outside the documented dependencies: " + "; ".join(stray[:10]))
    for folder in REQUEST_PATH:
        long = long_functions(folder)
        check(not long, f"functions over {MAX_FUNCTION_LINES} lines in {folder}: " + "; ".join(long))
    print(f"architecture: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
