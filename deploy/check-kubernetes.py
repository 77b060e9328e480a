#!/usr/bin/env python3
"""Checks on deploy/kubernetes/*.yaml that a schema cannot express.

`kubernetes-validate --strict` (run first by `make kubernetes-check`) proves every document is a
well-formed resource of its API version. This script proves the documents fit together and keep
the promises the README's "Deploying" section makes:

  - the probes point at /healthz (liveness) and /readyz (readiness) on the container's port;
  - the grace period outlasts the preStop sleep plus the drain timeout, with a margin;
  - the container is non-root (uid 10001), read-only, unprivileged, with every capability dropped,
    and has CPU and memory requests and limits;
  - service links are off (enableServiceLinks: false), with a comment saying why;
  - the Service, the PodDisruptionBudget and the HorizontalPodAutoscaler select or target the
    Deployment's pods, the HPA scales on CPU, and its minimum leaves a pod up under the PDB.

Usage: check-kubernetes.py [-v] [DIR]   (default: the kubernetes/ folder beside this script)
Needs PyYAML (in the project's .venv). Prints each failed check (each check with -v) and a
summary line; exit 1 when a check failed.
"""
import glob
import os
import sys

import yaml

# The drain timeout segue uses when SEGUE_DRAIN_TIMEOUT is not set (`segue serve --drain-timeout`,
# default 10 s).
DEFAULT_DRAIN_TIMEOUT = 10
# Seconds the kubelet should still have after a normal drain before it sends SIGKILL.
MIN_MARGIN = 2
CONTAINER_PORT = 8080
UID = 10001

passed = failed = 0
verbose = False


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        if verbose:
            print("PASS: " + what)
    else:
        failed += 1
        print("FAIL: " + what)


def dig(obj, *path, default=None):
    """obj[path[0]][path[1]]... or default when any step is missing."""
    for key in path:
        if isinstance(obj, dict) and key in obj:
            obj = obj[key]
        elif isinstance(obj, list) and isinstance(key, int) and key < len(obj):
            obj = obj[key]
        else:
            return default
    return obj


def service_links_explained(folder):
    """The comment lines right above `enableServiceLinks:` in the manifests mention SEGUE_PORT."""
    for path in sorted(glob.glob(os.path.join(folder, "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for i, line in enumerate(lines):
            if line.strip().startswith("enableServiceLinks:"):
                above = []
                for prev in reversed(lines[:i]):
                    if not prev.strip().startswith("#"):
                        break
                    above.append(prev)
                return any("SEGUE_PORT" in c for c in above)
    return False


def main():
    global verbose
    args = sys.argv[1:]
    if args[:1] == ["-v"]:
        verbose, args = True, args[1:]
    folder = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "kubernetes")
    docs = {}
    for path in sorted(glob.glob(os.path.join(folder, "*.yaml"))):
        with open(path, encoding="utf-8") as f:
            for doc in yaml.safe_load_all(f):
                if doc:
                    docs.setdefault(doc.get("kind"), []).append(doc)
    for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"):
        check(len(docs.get(kind, [])) == 1, "exactly one %s in %s" % (kind, folder))
    if failed:
        return finish()

    dep = docs["Deployment"][0]
    svc = docs["Service"][0]
    hpa = docs["HorizontalPodAutoscaler"][0]
    pdb = docs["PodDisruptionBudget"][0]
    pod = dig(dep, "spec", "template", "spec", default={})
    pod_labels = dig(dep, "spec", "template", "metadata", "labels", default={})
    containers = pod.get("containers") or []
    check(len(containers) == 1, "the pod has one container")
    c = containers[0] if containers else {}

    # ---- ports and probes
    ports = {p.get("name"): p.get("containerPort") for p in c.get("ports", [])}
    check(ports.get("http") == CONTAINER_PORT, "container port 'http' is %d" % CONTAINER_PORT)

    def probe_ok(name, path):
        get = dig(c, name, "httpGet", default={})
        port = get.get("port")
        return get.get("path") == path and (port == "http" or port == CONTAINER_PORT)

    check(probe_ok("livenessProbe", "/healthz"), "livenessProbe is GET /healthz on the http port")
    check(probe_ok("readinessProbe", "/readyz"), "readinessProbe is GET /readyz on the http port")

    # ---- shutdown: preStop sleep + drain < grace period
    cmd = dig(c, "lifecycle", "preStop", "exec", "command", default=[])
    sleep_action = dig(c, "lifecycle", "preStop", "sleep", "seconds")
    pre_stop = None
    if sleep_action is not None:
        pre_stop = int(sleep_action)
    elif len(cmd) == 2 and cmd[0] in ("/bin/sleep", "/usr/bin/sleep"):
        pre_stop = float(cmd[1])
    check(pre_stop is not None and pre_stop > 0, "preStop sleeps before SIGTERM (%s s)" % pre_stop)
    env = {e.get("name"): e.get("value") for e in c.get("env", [])}
    drain = float(env.get("SEGUE_DRAIN_TIMEOUT", DEFAULT_DRAIN_TIMEOUT))
    grace = pod.get("terminationGracePeriodSeconds", 30)
    need = (pre_stop or 0) + drain + MIN_MARGIN
    check(grace >= need,
          "terminationGracePeriodSeconds %s >= preStop %s + drain %s + margin %s"
          % (grace, pre_stop, drain, MIN_MARGIN))

    # ---- service links: off, and the manifest says why (SEGUE_PORT would be tcp://<cluster IP>:80)
    check(pod.get("enableServiceLinks") is False, "enableServiceLinks: false")
    check(service_links_explained(folder), "a comment above enableServiceLinks says why (it names SEGUE_PORT)")

    # ---- security
    psc = pod.get("securityContext") or {}
    csc = c.get("securityContext") or {}

    def eff(key):  # the container's setting wins over the pod's
        return csc.get(key, psc.get(key))

    check(eff("runAsNonRoot") is True and eff("runAsUser") == UID,
          "runs as non-root uid %d" % UID)
    check(csc.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem: true")
    check(csc.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation: false")
    check(csc.get("privileged") in (None, False), "not privileged")
    check("ALL" in (dig(csc, "capabilities", "drop", default=[]) or [])
          and not dig(csc, "capabilities", "add"), "capabilities: drop ALL, add none")
    check(pod.get("hostNetwork") in (None, False) and pod.get("hostPID") in (None, False),
          "no host network or PID namespace")
    volumes_rw = [m for m in c.get("volumeMounts", []) if not m.get("readOnly")]
    check(not volumes_rw, "no writable volume mounts (the service writes nothing)")

    # ---- resources
    res = c.get("resources") or {}
    check(all(dig(res, part, r) for part in ("requests", "limits") for r in ("cpu", "memory")),
          "CPU and memory requests and limits are set")

    # ---- the other resources point at the Deployment's pods
    def selects(selector):
        return bool(selector) and all(pod_labels.get(k) == v for k, v in selector.items())

    check(selects(dig(dep, "spec", "selector", "matchLabels")), "the Deployment's selector matches its pod labels")
    check(selects(dig(svc, "spec", "selector")), "the Service selects the Deployment's pods")
    svc_ports = dig(svc, "spec", "ports", default=[])
    check(any(p.get("targetPort") in ("http", CONTAINER_PORT) for p in svc_ports),
          "the Service targets the http port")
    check(selects(dig(pdb, "spec", "selector", "matchLabels")), "the PodDisruptionBudget selects the Deployment's pods")
    ref = dig(hpa, "spec", "scaleTargetRef", default={})
    check(ref.get("kind") == "Deployment" and ref.get("name") == dig(dep, "metadata", "name"),
          "the HPA targets the Deployment")
    metrics = dig(hpa, "spec", "metrics", default=[])
    check(any(dig(m, "resource", "name") == "cpu" for m in metrics if m.get("type") == "Resource"),
          "the HPA scales on CPU")
    min_replicas = dig(hpa, "spec", "minReplicas", default=1)
    max_unavailable = dig(pdb, "spec", "maxUnavailable")
    min_available = dig(pdb, "spec", "minAvailable")
    if max_unavailable is not None:
        leaves = min_replicas - int(max_unavailable)
    else:
        leaves = int(min_available or 0)
    check(min_replicas <= dig(hpa, "spec", "maxReplicas", default=0) and leaves >= 1
          and (min_available is None or min_replicas > int(min_available)),
          "HPA minReplicas %d leaves %d pod(s) serving under the PDB, and still allows a drain"
          % (min_replicas, leaves))
    return finish()


def finish():
    if failed:
        print("check-kubernetes: FAILED, %d of %d checks" % (failed, passed + failed))
    else:
        print("check-kubernetes: OK, %d checks on the manifests" % passed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
