#!/usr/bin/env python3
"""Validates Lottie files against the lottie-spec JSON schema (docs/rules.md rule 29).

    validate-lottie.py FILE...     each file
    validate-lottie.py [-]         standard input

The schema is the one the `lottie-specs` package ships (lottie_specs/data/lottie.schema.json:
lottie-spec 1.0, JSON Schema draft 2020-12), checked with `jsonschema`; both come from the
Makefile's venv (`make venv`), nothing is installed here. Prints one line per file (and the
errors of an invalid one) and exits 1 when any file is missing, is not JSON or does not validate.
"""

import json
import sys

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match
    from lottie_specs import load_specs
except ImportError as error:
    sys.exit(f"validate-lottie.py: {error}; run it with the venv's python (make venv: pip install lottie-specs jsonschema)")

# Errors shown per invalid file (a oneOf failure reports every branch, which can be many).
SHOWN = 10


def read(path):
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def check(validator, path):
    """True when the file at `path` validates; prints what is wrong otherwise."""
    try:
        document = json.loads(read(path))
    except (OSError, ValueError) as error:
        print(f"{path}: FAIL: {error}")
        return False
    errors = list(validator.iter_errors(document))
    if not errors:
        print(f"{path}: ok")
        return True
    print(f"{path}: FAIL: {len(errors)} schema errors")
    best = best_match(errors)
    print(f"  most relevant: {best.json_path}: {best.message[:300]}")
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path])[:SHOWN]:
        print(f"  {error.json_path}: {error.message[:300]}")
    return False


def main(paths):
    schema = load_specs()
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    results = [check(validator, path) for path in (paths or ["-"])]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
