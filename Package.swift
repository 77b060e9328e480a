// swift-tools-version:6.0
import PackageDescription

// Module graph (one-way), drawn in docs/ARCHITECTURE.md:
//   SegueEngine, SegueJSON ← SegueCodec ← SegueHTTP ← segue (executable).
// CMicroHTTPD and CZlib are the system-library shims over Debian's libmicrohttpd-dev and zlib1g-dev;
// nothing else is C.
let package = Package(
    name: "Segue",
    products: [
        .executable(name: "segue", targets: ["segue"]),
    ],
    // Observability only (Sources/SegueHTTP/Observability): the JSON log handler, the metrics API and
    // its Prometheus exposition. `CoreMetrics`, never `Metrics` (which imports Foundation on Linux).
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The worker pool's queue (Sources/SegueHTTP/Transport/WorkerPool.swift).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The command line (Sources/segue): subcommands, typed options, generated --help.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "SegueEngine"),
        .target(name: "SegueJSON"),
        .target(name: "SegueCodec", dependencies: ["SegueEngine", "SegueJSON"]),
        // Resources/openapi.yaml is a symbolic link to the top-level openapi.yaml (one copy in git),
        // compiled in as `PackageResources.openapi_yaml` (no Bundle, no Foundation). SwiftPM writes it
        // as one array literal of 167,000 bytes, which took 42 s to compile with debug information
        // and 29 s optimised — longer than the rest of the package — and 12 s without either: its
        // module is compiled without them (the frontend flag, because SwiftPM appends its own `-g`).
        .target(name: "SegueOpenAPIDocument", resources: [.embedInCode("Resources/openapi.yaml")],
                swiftSettings: [.unsafeFlags(["-Onone", "-Xfrontend", "-gnone"])]),
        // The playground page's three sources (`GET /`), compiled in the same way and for the same reason.
        .target(name: "SeguePlaygroundDocument",
                resources: [.embedInCode("Resources/playground.html"), .embedInCode("Resources/playground.css"),
                            .embedInCode("Resources/playground.js")],
                swiftSettings: [.unsafeFlags(["-Onone", "-Xfrontend", "-gnone"])]),
        .target(name: "SegueHTTP", dependencies: ["SegueCodec", "SegueEngine", "SegueJSON", "SegueOpenAPIDocument",
                                                  "SeguePlaygroundDocument",
                                                  "CMicroHTTPD", "CZlib",
                                                  .product(name: "Logging", package: "swift-log"),
                                                  .product(name: "CoreMetrics", package: "swift-metrics"),
                                                  .product(name: "Prometheus", package: "swift-prometheus"),
                                                  .product(name: "DequeModule", package: "swift-collections")]),
        .executableTarget(name: "segue", dependencies: ["SegueHTTP", .product(name: "Logging", package: "swift-log"),
                                                  .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // `make bench`: the engine's ns per sample, in the line format of the C anchors scripts/bench.sh
        // compares with (README "Benchmarks"), and the handler's cost per request without sockets.
        .executableTarget(name: "segue-bench", dependencies: ["SegueEngine", "SegueCodec", "SegueJSON", "SegueHTTP"], path: "Benchmarks/segue-bench"),

        // Helpers shared by the test targets: reference models, fixtures, assertions.
        .target(name: "SegueTestSupport", dependencies: ["SegueEngine", "SegueJSON"], path: "Tests/SegueTestSupport"),
        .testTarget(name: "SegueEngineTests", dependencies: ["SegueEngine", "SegueTestSupport"]),
        .testTarget(name: "SegueJSONTests", dependencies: ["SegueJSON", "SegueTestSupport"]),
        .testTarget(name: "SegueCodecTests", dependencies: ["SegueCodec", "SegueTestSupport"]),
        .testTarget(name: "SegueHTTPTests", dependencies: ["SegueHTTP", "SegueOpenAPIDocument", "CZlib", "SegueTestSupport",
                                                    .product(name: "Logging", package: "swift-log")]),
    ]
)
