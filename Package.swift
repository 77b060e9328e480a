// swift-tools-version:6.0
import PackageDescription

// Module graph (one-way), drawn in docs/ARCHITECTURE.md:
//   SegueEngine ← SegueCodec ← SegueHTTP ← segue (executable); SegueJSON ← SegueCodec.
// CMicroHTTPD is the system-library shim over Debian's libmicrohttpd-dev; nothing else is C.
let package = Package(
    name: "Segue",
    products: [
        .executable(name: "segue", targets: ["segue"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "SegueEngine"),
        .target(name: "SegueJSON"),
        .target(name: "SegueCodec", dependencies: ["SegueEngine", "SegueJSON"]),
        .target(name: "SegueHTTP", dependencies: ["SegueCodec", "SegueEngine", "CMicroHTTPD"]),
        .executableTarget(name: "segue", dependencies: ["SegueHTTP"]),
        // `make bench`: the engine's ns per sample, in the format of ../shared/bench/engine_reference.c,
        // and the handler's cost per request without sockets.
        .executableTarget(name: "segue-bench", dependencies: ["SegueEngine", "SegueHTTP"], path: "Benchmarks/segue-bench"),

        // Helpers shared by the test targets: reference models, fixtures, assertions.
        .target(name: "SegueTestSupport", dependencies: ["SegueEngine"], path: "Tests/SegueTestSupport"),
        .testTarget(name: "SegueEngineTests", dependencies: ["SegueEngine", "SegueTestSupport"]),
        .testTarget(name: "SegueJSONTests", dependencies: ["SegueJSON", "SegueTestSupport"]),
        .testTarget(name: "SegueCodecTests", dependencies: ["SegueCodec", "SegueTestSupport"]),
        .testTarget(name: "SegueHTTPTests", dependencies: ["SegueHTTP"]),
    ]
)
