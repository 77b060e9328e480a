// swift-tools-version:6.0
import PackageDescription

// Module graph (one-way): SegueEngine ← SegueCodec ← SegueHTTP ← segue (executable).
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
        .target(name: "SegueCodec", dependencies: ["SegueEngine"]),
        .target(name: "SegueHTTP", dependencies: ["SegueCodec", "SegueEngine", "CMicroHTTPD"]),
        .executableTarget(name: "segue", dependencies: ["SegueHTTP"]),
        // `make bench`: the engine's ns per sample, in the format of ../shared/bench/engine_reference.c,
        // and the handler's cost per request without sockets.
        .executableTarget(name: "segue-bench", dependencies: ["SegueEngine", "SegueHTTP"], path: "Benchmarks/segue-bench"),

        .testTarget(name: "SegueEngineTests", dependencies: ["SegueEngine"]),
        .testTarget(name: "SegueCodecTests", dependencies: ["SegueCodec"]),
        .testTarget(name: "SegueHTTPTests", dependencies: ["SegueHTTP"]),
    ]
)
