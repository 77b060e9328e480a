#!/usr/bin/env python3
"""Checks openapi.yaml, and optionally a running Segue server against it.

    .venv/bin/python scripts/openapi-check.py [openapi.yaml] [--base http://127.0.0.1:8080]

Static checks: the document is OpenAPI 3.1.0 and valid (openapi-spec-validator), and every
example validates against its schema (openapi-schema-validator, which openapi-spec-validator
installs). With --base: every path and method in the document answers something other than
404/405 to a minimal valid request, with a status the document lists and, for bodies, a media type
and (JSON) a body that match it; each request-body example answers 200 with a body matching the
200 schema; the problem responses for an unknown path and a wrong method match; and
GET /openapi.yaml serves the file byte for byte.

Prints "N passed, M failed" and exits 1 when anything failed (2 on a usage or load error).
"""

import argparse
import json
import pathlib
import sys
import urllib.error
import urllib.request

import yaml
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import OpenAPIV31SpecValidator

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
JSON_TYPES = ("application/json", "application/problem+json")


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok    {name}")
        else:
            self.failed += 1
            print(f"FAIL  {name}" + (f": {detail}" if detail else ""))
        return ok


def resolve(doc, node):
    """Follows local `$ref`s ("#/a/b") until a node without one."""
    seen = set()
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if not ref.startswith("#/") or ref in seen:
            raise ValueError(f"cannot resolve {ref}")
        seen.add(ref)
        node = doc
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def schema_errors(doc, schema, instance):
    """Validation errors of `instance` against `schema`, with the document's components in scope."""
    root = dict(schema)
    root["components"] = doc.get("components", {})
    validator = OAS31Validator(root)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in validator.iter_errors(instance)]


def operations(doc):
    for path, item in doc.get("paths", {}).items():
        for method in METHODS:
            if method in item:
                yield path, method, item[method]


def media_examples(media):
    if "example" in media:
        yield "example", media["example"]
    for name, example in (media.get("examples") or {}).items():
        if "value" in example:
            yield name, example["value"]


def static_checks(doc, results):
    results.check("openapi is 3.1.0", doc.get("openapi") == "3.1.0", repr(doc.get("openapi")))
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in OpenAPIV31SpecValidator(doc).iter_errors()]
    results.check("openapi-spec-validator (3.1)", not errors, "; ".join(errors[:5]))
    if errors:
        return
    # Every example, in operations and in component responses, matches its schema.
    places = []
    for path, method, operation in operations(doc):
        body = resolve(doc, operation.get("requestBody", {}))
        for media_type, media in body.get("content", {}).items():
            places.append((f"{method.upper()} {path} request {media_type}", media))
        for status, response in operation.get("responses", {}).items():
            for media_type, media in resolve(doc, response).get("content", {}).items():
                places.append((f"{method.upper()} {path} {status} {media_type}", media))
    for name, response in doc.get("components", {}).get("responses", {}).items():
        for media_type, media in response.get("content", {}).items():
            places.append((f"components/responses/{name} {media_type}", media))
    seen = set()
    for where, media in places:
        if "schema" not in media or id(media) in seen:
            continue
        seen.add(id(media))
        for name, value in media_examples(media):
            errors = schema_errors(doc, media["schema"], value)
            results.check(f"{where} {name} matches its schema", not errors, "; ".join(errors[:3]))


def request(base, method, path, body=None, headers=None, content_type="application/json"):
    """(status, headers, body bytes) without raising on 4xx/5xx. A JSON body is encoded; an NDJSON
    one (`content_type` application/x-ndjson) is sent as its text."""
    data = None if body is None else body.encode() if isinstance(body, str) else json.dumps(body).encode()
    req = urllib.request.Request(base.rstrip("/") + path, data=data, method=method.upper())
    for name, value in (headers or {}).items():
        req.add_header(name, value)
    if data is not None:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def media_type(headers):
    return (headers.get("Content-Type") or "").split(";")[0].strip().lower()


def check_response(doc, results, name, operation, method, status, headers, payload):
    responses = operation.get("responses", {})
    documented = responses.get(str(status))
    if not results.check(f"{name} answers a documented status", documented is not None,
                         f"{status} not in {sorted(responses)}: {payload[:300]!r}"):
        return
    content = resolve(doc, documented).get("content")
    if not content or method == "head" or status in (204, 304):
        return
    kind = media_type(headers)
    if not results.check(f"{name} media type {kind} is documented", kind in content, f"documented: {sorted(content)}"):
        return
    schema = content[kind].get("schema")
    if kind in JSON_TYPES and schema is not None:
        try:
            value = json.loads(payload)
        except ValueError as error:
            results.check(f"{name} body is JSON", False, str(error))
            return
        errors = schema_errors(doc, schema, value)
        results.check(f"{name} body matches the {status} schema", not errors, "; ".join(errors[:3]))


def minimal_body(doc, operation):
    body = resolve(doc, operation.get("requestBody", {}))
    media = body.get("content", {}).get("application/json")
    if media is None:
        return None
    for _, value in media_examples(media):
        return value
    return {}


def live_checks(doc, source, base, results):
    for path, method, operation in operations(doc):
        name = f"{method.upper()} {path}"
        try:
            status, headers, payload = request(base, method, path, minimal_body(doc, operation))
        except OSError as error:
            results.check(f"{name} answers", False, str(error))
            continue
        results.check(f"{name} is routed (not 404/405)", status not in (404, 405), f"{status}: {payload[:300]!r}")
        check_response(doc, results, name, operation, method, status, headers, payload)

    # Every request example is accepted and answers the documented 200 body.
    for path, method, operation in operations(doc):
        body = resolve(doc, operation.get("requestBody", {}))
        media = body.get("content", {}).get("application/json")
        for example, value in media_examples(media or {}):
            name = f"{method.upper()} {path} example {example}"
            status, headers, payload = request(base, method, path, value)
            results.check(f"{name} answers 200", status == 200, f"{status}: {payload[:300]!r}")
            check_response(doc, results, name, operation, method, status, headers, payload)

    # Every NDJSON request example (a batch) answers 200 with one BatchAnswerLine a non-empty line.
    answer_line = doc["components"]["schemas"].get("BatchAnswerLine")
    for path, method, operation in operations(doc):
        media = resolve(doc, operation.get("requestBody", {})).get("content", {}).get("application/x-ndjson")
        for example, value in media_examples(media or {}):
            name = f"{method.upper()} {path} example {example}"
            status, headers, payload = request(base, method, path, value, content_type="application/x-ndjson")
            results.check(f"{name} answers 200", status == 200, f"{status}: {payload[:300]!r}")
            check_response(doc, results, name, operation, method, status, headers, payload)
            lines = [line for line in value.split("\n") if line.strip()]
            answers = payload.decode().split("\n")
            results.check(f"{name} answers every line, in order", answers[-1] == "" and
                          [json.loads(a).get("line") for a in answers[:-1]] == list(range(1, len(lines) + 1)), f"{payload[:300]!r}")
            for answer in answers[:-1]:
                errors = schema_errors(doc, answer_line, json.loads(answer))
                results.check(f"{name} answer line matches BatchAnswerLine", not errors, "; ".join(errors[:3]))

    # The documented problem answers for an unlisted path and an unlisted method.
    problem = doc["components"]["schemas"]["Problem"]
    status, headers, payload = request(base, "get", "/segue-openapi-check-unknown")
    if results.check("an unlisted path answers 404 problem+json",
                     status == 404 and media_type(headers) == "application/problem+json", f"{status}"):
        errors = schema_errors(doc, problem, json.loads(payload))
        results.check("the 404 body matches Problem", not errors, "; ".join(errors[:3]))
    for path, item in doc.get("paths", {}).items():
        unlisted = next((m for m in ("delete", "put", "patch", "get", "post") if m not in item), None)
        if unlisted is None:
            continue
        status, headers, payload = request(base, unlisted, path, {} if unlisted in ("put", "patch", "post") else None)
        allow = [m.strip().lower() for m in (headers.get("Allow") or "").split(",") if m.strip()]
        results.check(f"{unlisted.upper()} {path} answers 405 with the documented Allow",
                      status == 405 and sorted(allow) == sorted(m for m in METHODS if m in item),
                      f"{status}, Allow: {headers.get('Allow')}")

    status, headers, payload = request(base, "get", "/openapi.yaml")
    results.check("GET /openapi.yaml serves openapi.yaml byte for byte", status == 200 and payload == source,
                  f"status {status}, {len(payload)} bytes served, {len(source)} in the file")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = pathlib.Path(__file__).resolve().parent.parent / "openapi.yaml"
    parser.add_argument("document", nargs="?", default=str(default), help="the OpenAPI document (default: openapi.yaml)")
    parser.add_argument("--base", help="base URL of a running server to check, e.g. http://127.0.0.1:8080")
    arguments = parser.parse_args()
    try:
        source = pathlib.Path(arguments.document).read_bytes()
        doc = yaml.safe_load(source)
    except (OSError, yaml.YAMLError) as error:
        print(f"openapi-check: cannot load {arguments.document}: {error}", file=sys.stderr)
        return 2
    results = Results()
    static_checks(doc, results)
    if arguments.base and results.failed == 0:
        live_checks(doc, source, arguments.base, results)
    print(f"{results.passed} passed, {results.failed} failed")
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
