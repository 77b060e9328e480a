#!/usr/bin/env python3
"""The service-link variant of deploy/kubernetes: does `segue serve` still start?

A chart that leaves `enableServiceLinks` on (Kubernetes' default) gets, for the Service `segue`,
`SEGUE_PORT=tcp://<cluster IP>:80` and more `SEGUE_*` variables in the container, and SEGUE_PORT is
also the variable of `segue serve --port`. deploy/kubernetes turns service links off; this check
shows a chart that does not still works (Sources/segue/Settings.swift, `ServiceLink`):

  1. renders the variant: Tests/Fixtures/kubernetes/service-links.yaml merged into
     deploy/kubernetes/*.yaml, written to --render DIR (make kubernetes-check validates it there);
  2. derives the environment the kubelet would give the container, as Kubernetes does: the image's
     ENV (Dockerfile), overridden by the service links of every Service in the variant, overridden
     by the container's own env; and checks the service links are the documented ones;
  3. runs the release binary (--binary) with exactly that environment (plus PATH): `segue serve`
     must listen on 8080, print exactly one notice about ignoring SEGUE_PORT, answer GET /healthz,
     pass `segue healthcheck` run with the same environment, and exit 0 on SIGTERM.

As root, step 3 runs in a new network namespace (unshare --net), so port 8080 is free whatever
runs on this machine; otherwise 8080 must be free here.

Usage: kubernetes-service-links.py --binary PATH [--render DIR] [--fixture FILE]
Needs PyYAML. Exit 1 on any failed check.
"""
import argparse
import copy
import glob
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What the kubelet sets for the Service `segue` at 10.96.0.10, port 80 (the list).
EXPECTED_LINKS = {
    "SEGUE_SERVICE_HOST": "10.96.0.10",
    "SEGUE_SERVICE_PORT": "80",
    "SEGUE_PORT": "tcp://10.96.0.10:80",
    "SEGUE_PORT_80_TCP": "tcp://10.96.0.10:80",
    "SEGUE_PORT_80_TCP_PROTO": "tcp",
    "SEGUE_PORT_80_TCP_PORT": "80",
    "SEGUE_PORT_80_TCP_ADDR": "10.96.0.10",
}
CONTAINER_PORT = 8080
failures = []


def check(ok, what):
    print(("PASS: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)
    return ok


def merge(base, patch):
    """Mappings merge key by key; anything else in the patch replaces."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, value in patch.items():
            out[key] = merge(base.get(key), value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(patch)


def render(fixture):
    docs = []
    for path in sorted(glob.glob(os.path.join(ROOT, "deploy", "kubernetes", "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            docs += [(os.path.basename(path), d) for d in yaml.safe_load_all(f) if d]
    with open(fixture, encoding="utf-8") as f:
        patches = [d for d in yaml.safe_load_all(f) if d]
    for patch in patches:
        key = (patch.get("kind"), patch["metadata"]["name"])
        hits = [i for i, (_, d) in enumerate(docs) if (d.get("kind"), d["metadata"]["name"]) == key]
        if not check(len(hits) == 1, "the fixture's %s/%s patches one document of deploy/kubernetes" % key):
            continue
        name, doc = docs[hits[0]]
        docs[hits[0]] = (name, merge(doc, patch))
    return docs


def service_links(services):
    """The kubelet's service environment (pkg/kubelet/envvars): per Service with a cluster IP."""
    env = {}
    for svc in services:
        spec = svc.get("spec", {})
        ip = spec.get("clusterIP")
        if not ip or ip == "None":
            continue
        prefix = svc["metadata"]["name"].upper().replace("-", "_")
        ports = spec.get("ports", [])
        env[prefix + "_SERVICE_HOST"] = ip
        env[prefix + "_SERVICE_PORT"] = str(ports[0]["port"])
        for p in ports:
            if p.get("name"):
                env["%s_SERVICE_PORT_%s" % (prefix, p["name"].upper().replace("-", "_"))] = str(p["port"])
        first = ports[0]
        env[prefix + "_PORT"] = "%s://%s:%s" % (first.get("protocol", "TCP").lower(), ip, first["port"])
        for p in ports:
            proto = p.get("protocol", "TCP")
            var = "%s_PORT_%s_%s" % (prefix, p["port"], proto.upper())
            env[var] = "%s://%s:%s" % (proto.lower(), ip, p["port"])
            env[var + "_PROTO"] = proto.lower()
            env[var + "_PORT"] = str(p["port"])
            env[var + "_ADDR"] = ip
    return env


def image_env():
    """ENV lines of the Dockerfile's last stage (the runtime image)."""
    env, lines = {}, open(os.path.join(ROOT, "Dockerfile"), encoding="utf-8").read().splitlines()
    for line in lines:
        if line.startswith("FROM "):
            env = {}
        elif line.startswith("ENV "):
            for word in shlex.split(line[4:]):
                key, _, value = word.partition("=")
                env[key] = value
    return env


def port_free(port):
    with socket.socket() as s:
        try:
            s.bind(("0.0.0.0", port))
            return True
        except OSError:
            return False


def run_binary(binary, env):
    """Step 3. Returns normally; records failures."""
    print("environment: " + " ".join("%s=%s" % kv for kv in sorted(env.items()) if kv[0] != "PATH"))
    if not check(port_free(CONTAINER_PORT), "port %d is free for the check" % CONTAINER_PORT):
        return
    server = subprocess.Popen([binary, "serve"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        answered = None
        for _ in range(100):
            if server.poll() is not None:
                break
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/healthz" % CONTAINER_PORT, timeout=2) as r:
                    answered = r.status
                    break
            except OSError:
                time.sleep(0.1)
        check(answered == 200, "segue serve started with the service links and GET /healthz on :%d answered %s"
              % (CONTAINER_PORT, answered))
        hc = subprocess.run([binary, "healthcheck"], env=env, capture_output=True, text=True, timeout=30)
        check(hc.returncode == 0, "segue healthcheck (same environment) exited %d %s"
              % (hc.returncode, hc.stderr.strip()))
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        try:
            _, err = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            _, err = server.communicate()
    check(server.returncode == 0, "segue serve exited %s after SIGTERM" % server.returncode)
    notices = [line for line in err.splitlines() if "ignoring" in line]
    for line in notices:
        print("  notice: " + line)
    check(len(notices) == 1 and "SEGUE_PORT=tcp://10.96.0.10:80" in notices[0],
          "segue serve printed exactly one notice, about SEGUE_PORT (%d found)" % len(notices))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--render", help="write the rendered variant here (for kubernetes-validate)")
    ap.add_argument("--fixture", default=os.path.join(ROOT, "Tests", "Fixtures", "kubernetes", "service-links.yaml"))
    ap.add_argument("--in-netns", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)

    if not args.in_netns:
        docs = render(args.fixture)
        if args.render:
            os.makedirs(args.render, exist_ok=True)
            for old in glob.glob(os.path.join(args.render, "*.yaml")):
                os.remove(old)
            for name in sorted({n for n, _ in docs}):
                with open(os.path.join(args.render, name), "w", encoding="utf-8") as f:
                    f.write("# Rendered by scripts/kubernetes-service-links.py; do not edit.\n")
                    yaml.safe_dump_all([d for n, d in docs if n == name], f, sort_keys=False)
            print("rendered the variant into %s" % args.render)
        deployment = next(d for _, d in docs if d.get("kind") == "Deployment")
        pod = deployment["spec"]["template"]["spec"]
        check(pod.get("enableServiceLinks") is True, "the variant sets enableServiceLinks: true")
        links = service_links([d for _, d in docs if d.get("kind") == "Service"])
        for key, value in EXPECTED_LINKS.items():
            check(links.get(key) == value, "the kubelet would set %s=%s (derived: %s)" % (key, value, links.get(key)))
        container = pod["containers"][0]
        env = image_env()
        env.update(links)
        env.update({e["name"]: str(e["value"]) for e in container.get("env", []) if "value" in e})
        env["PATH"] = "/usr/bin:/bin"
        check(env.get("SEGUE_PORT") == "tcp://10.96.0.10:80", "the service link overrides the image's SEGUE_PORT=8080")
        if failures:
            return finish()
        if os.geteuid() == 0 and not os.environ.get("SEGUE_CHECK_NO_NETNS"):
            with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
                yaml.safe_dump(env, f)
            print("running the binary in a new network namespace (unshare --net)")
            inner = subprocess.run(["unshare", "--net", "--", "sh", "-c",
                                    'ip link set lo up && exec "$0" "$@"', sys.executable, os.path.abspath(__file__),
                                    "--binary", binary, "--in-netns", "--render", f.name])
            os.unlink(f.name)
            if inner.returncode != 0:
                failures.append("the check in the network namespace")
            return finish()
        run_binary(binary, env)
        return finish()
    with open(args.render, encoding="utf-8") as f:  # --in-netns: --render carries the environment
        run_binary(binary, yaml.safe_load(f))
    return 1 if failures else 0


def finish():
    if failures:
        print("kubernetes-service-links: FAILED, %d check(s)" % len(failures))
        return 1
    print("kubernetes-service-links: OK, segue serve and healthcheck work with service links on")
    return 0


if __name__ == "__main__":
    sys.exit(main())
