# Segue: multi-stage image. Build with a Swift toolchain image, run on
# debian:bookworm-slim with only libmicrohttpd12 added (the Swift runtime is
# linked statically with --static-swift-stdlib).
#
#   docker build -t segue .
#   docker run --rm -p 8080:8080 segue
#
# Base images are build args so an offline check (scripts/docker-check.sh) can
# substitute local stand-ins without editing this file.
ARG SWIFT_IMAGE=swift:6.3-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# ---------------------------------------------------------------- build stage
FROM ${SWIFT_IMAGE} AS build
ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd-dev zlib1g-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY Package.swift ./
# Sources/SegueOpenAPIDocument/Resources/openapi.yaml is a symbolic link to this file.
COPY openapi.yaml ./
COPY Sources ./Sources
COPY Benchmarks ./Benchmarks
# SwiftPM loads every declared target, test targets included, so their sources come along;
# only the `segue` product is built.
COPY Tests ./Tests
RUN swift build -c release --static-swift-stdlib --product segue \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/segue" /out/segue

# -------------------------------------------------------------- runtime stage
FROM ${RUNTIME_IMAGE} AS runtime
ARG DEBIAN_FRONTEND=noninteractive
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 10001 --user-group --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin segue

COPY --from=build /out/segue /usr/local/bin/segue

USER 10001:10001
ENV SEGUE_HOST=0.0.0.0 SEGUE_PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
  CMD ["/usr/local/bin/segue", "healthcheck"]
# The binary is the entry point and `serve` its default command, so the image also runs the
# command line: `docker run --rm -i IMAGE curve - --format css < request.json`.
ENTRYPOINT ["/usr/local/bin/segue"]
CMD ["serve"]
