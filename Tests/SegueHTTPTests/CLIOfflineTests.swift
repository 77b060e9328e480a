import Foundation
import SegueCodec
import XCTest
@testable import SegueHTTP

/// The built `segue` binary, run as a process with a chosen environment and standard input.
enum SegueBinary {
    /// `swift test` builds the executable next to the test bundle.
    static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("segue")
    }

    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: [UInt8]
        var output: String { String(decoding: stdout, as: UTF8.self) }
        var errors: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `segue arguments…` to completion. Output goes to files, so a large one cannot block
    /// the child on a full pipe.
    static func run(_ arguments: [String], environment: [String: String] = [:], stdin: [UInt8]? = nil) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("no segue binary at \(url.path); run through `swift test`")
            throw CocoaError(.fileNoSuchFile)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = ["stdin", "stdout", "stderr"].map { folder.appendingPathComponent($0).path }
        for (path, contents) in zip(paths, [Data(stdin ?? []), Data(), Data()]) {
            try contents.write(to: URL(fileURLWithPath: path))
        }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle(forReadingAtPath: paths[0])
        process.standardOutput = FileHandle(forWritingAtPath: paths[1])
        process.standardError = FileHandle(forWritingAtPath: paths[2])
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: Array(try Data(contentsOf: URL(fileURLWithPath: paths[1]))),
                      stderr: Array(try Data(contentsOf: URL(fileURLWithPath: paths[2]))))
    }

    /// A request body in a temporary file that lives as long as the returned object.
    final class RequestFile {
        let path: String

        init(_ text: String) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("segue-request-\(UUID().uuidString).json").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }
}

/// `segue curve`, `segue render` and `segue presets` (docs/cli.md): the same bytes as the HTTP
/// body of the same request to a live server, the exit codes, and the options' resolution.
final class CLIOfflineTests: XCTestCase {
    static let curve = #"{"timing": {"type": "spring", "mass": 1, "stiffness": 170, "damping": 15}, "samples": 40}"#
    static let render = """
    {"fps": 30, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 0}},
     "animations": [{"id": "present", "view": "card", "duration": 0.8,
                     "timing": {"type": "spring", "dampingRatio": 0.6}, "to": {"frame": [0, 0, 320, 568], "alpha": 1}}]}
    """
    /// 20,001 frames: a body of about 850 KB, streamed over HTTP and by the command line.
    static let largeRender = """
    {"fps": 1000, "until": 20, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1}},
     "animations": [{"id": "present", "view": "card", "duration": 0.8,
                     "timing": {"type": "spring", "dampingRatio": 0.6}, "to": {"frame": [0, 0, 320, 568]}}]}
    """
    static let preset = #"{"fps": 30, "transition": {"preset": "bouncePresent", "container": [0, 0, 390, 844]}}"#

    /// The live server's answer to the request `segue route file arguments` makes.
    func http(_ server: LiveServer, _ route: String, _ body: String, query: String = "") throws -> RawResponse {
        try server.post("/v1/\(route)" + (query.isEmpty ? "" : "?" + query), json: body)
    }

    /// Runs `segue route FILE arguments…` and the same request over HTTP; both must agree byte for byte.
    func assertSameAsHTTP(_ server: LiveServer, _ route: String, _ body: String, _ arguments: [String] = [],
                          query: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        let request = try SegueBinary.RequestFile(body)
        let cli = try SegueBinary.run([route, request.path] + arguments)
        let live = try http(server, route, body, query: query)
        XCTAssertEqual(live.status, 200, live.text, file: file, line: line)
        XCTAssertEqual(cli.status, 0, cli.errors, file: file, line: line)
        XCTAssertEqual(cli.stderr, [], file: file, line: line)
        XCTAssertEqual(cli.stdout.count, live.body.count, "\(route) \(arguments)", file: file, line: line)
        XCTAssertTrue(cli.stdout == live.body, "\(route) \(arguments): the bytes differ", file: file, line: line)
    }

    func testCurveIsTheHTTPBodyInEveryFormat() throws {
        let server = try LiveServer()
        try assertSameAsHTTP(server, "curve", Self.curve)
        for format in ["json", "csv", "svg", "css", "waapi"] {
            try assertSameAsHTTP(server, "curve", Self.curve, ["--format", format], query: "format=\(format)")
        }
        try assertSameAsHTTP(server, "curve", Self.curve, ["--format", "css", "--tolerance", "0.01"],
                             query: "format=css&tolerance=0.01")
    }

    func testRenderIsTheHTTPBodyInEveryFormat() throws {
        let server = try LiveServer()
        for format in ["json", "csv", "svg", "css", "waapi", "lottie"] {
            try assertSameAsHTTP(server, "render", Self.render, ["--format", format], query: "format=\(format)")
        }
        try assertSameAsHTTP(server, "render", Self.render, ["--format", "waapi", "--tolerance", "0.05"],
                             query: "format=waapi&tolerance=0.05")
        try assertSameAsHTTP(server, "render", Self.preset, ["--expand"], query: "expand=true")
        try assertSameAsHTTP(server, "render", Self.preset, ["--format", "css", "--prefix", "sheet", "--trigger", ".open > main",
                                                              "--geometry", "transform", "--units", "container"],
                             query: "format=css&prefix=sheet&trigger=.open%20%3E%20main&geometry=transform&units=container")
    }

    /// Over the streaming threshold (64 KiB) HTTP sends the body chunked as it is written; the
    /// command line writes the same pieces to its standard output.
    func testLargeRenderStreamsTheSameBytes() throws {
        let server = try LiveServer()
        let live = try http(server, "render", Self.largeRender)
        XCTAssertEqual(live.header("Transfer-Encoding"), "chunked")
        XCTAssertGreaterThan(live.body.count, 64 << 10)
        try assertSameAsHTTP(server, "render", Self.largeRender)
        try assertSameAsHTTP(server, "render", Self.largeRender, ["--format", "csv"], query: "format=csv")
    }

    /// `segue tokens` is `POST /v1/tokens`: CSS by default, the resolved document with
    /// `--format json`, and a bad document's 422 (every token listed) on standard error.
    func testTokensIsTheHTTPBody() throws {
        let server = try LiveServer()
        try assertSameAsHTTP(server, "tokens", Self.tokens)
        try assertSameAsHTTP(server, "tokens", Self.tokens, ["--format", "json"], query: "format=json")
        try assertSameAsHTTP(server, "tokens", Self.tokens, ["--format", "css", "--tolerance", "0.01"], query: "format=css&tolerance=0.01")
        let bad = #"{"a": {"$type": "duration", "x": {"$value": "{a.y}"}, "y": {"$value": "2 parsecs"}}}"#
        let request = try SegueBinary.RequestFile(bad)
        let cli = try SegueBinary.run(["tokens", request.path])
        let live = try http(server, "tokens", bad)
        XCTAssertEqual(live.status, 422)
        XCTAssertEqual(cli.status, 65)
        XCTAssertEqual(cli.errors, "segue: \(request.path): " + live.text + "\n")
        XCTAssertTrue(live.text.contains(#""pointer":"/a/x/$value""#) && live.text.contains(#""pointer":"/a/y/$value""#), live.text)
    }

    static let tokens = #"""
    {"motion": {"duration": {"$type": "duration", "long": {"$value": "0.4s"}},
     "enter": {"$type": "transition", "$value": {"duration": "{motion.duration.long}", "timingFunction": [0.2, 0, 0, 1]}},
     "sheet": {"$type": "transition", "$value": {"duration": {"value": 500, "unit": "ms"}, "timingFunction": [0.2, 0, 0, 1]},
               "$extensions": {"dev.segue": {"timing": {"type": "spring", "dampingRatio": 0.8}}}}}}
    """#

    /// Several request files go with `--output-dir`: each answer, byte for byte HTTP's, to
    /// DIR/<name>.<extension>; a failing file is named on standard error, leaves no output, and
    /// sets the exit status while the others are still answered.
    func testSeveralFilesAnswerEachToItsOwnFile() throws {
        let server = try LiveServer()
        let spring = try SegueBinary.RequestFile(Self.curve)
        let bad = try SegueBinary.RequestFile(#"{"timing": "steps(1, jump-none)"}"#)
        let ease = try SegueBinary.RequestFile(#"{"timing": "ease"}"#)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("segue-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cli = try SegueBinary.run(["curve", spring.path, bad.path, ease.path, "--format", "css", "--output-dir", directory.path])
        XCTAssertEqual(cli.status, 65, cli.errors)
        XCTAssertEqual(cli.stdout, [])
        let badAnswer = try http(server, "curve", #"{"timing": "steps(1, jump-none)"}"#, query: "format=css")
        XCTAssertEqual(cli.errors, "segue: \(bad.path): " + badAnswer.text + "\n")
        func name(_ path: String) -> String { String(URL(fileURLWithPath: path).lastPathComponent.dropLast(5)) + ".css" }
        for (file, body) in [(spring.path, Self.curve), (ease.path, #"{"timing": "ease"}"#)] {
            let written = try Data(contentsOf: directory.appendingPathComponent(name(file)))
            XCTAssertEqual(Array(written), try http(server, "curve", body, query: "format=css").body, file)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name(bad.path)).path))
        // Several files without a directory, or standard input with one: usage errors.
        XCTAssertEqual(try SegueBinary.run(["curve", spring.path, ease.path]).status, 64)
        XCTAssertEqual(try SegueBinary.run(["curve", "-", "--output-dir", directory.path], stdin: Array(Self.curve.utf8)).status, 64)
    }

    func testStandardInputGivesTheSameBytesAsAFile() throws {
        let request = try SegueBinary.RequestFile(Self.render)
        let fromFile = try SegueBinary.run(["render", request.path, "--format", "csv"])
        let fromStdin = try SegueBinary.run(["render", "-", "--format", "csv"], stdin: Array(Self.render.utf8))
        XCTAssertEqual(fromFile.status, 0)
        XCTAssertEqual(fromStdin.status, 0, fromStdin.errors)
        XCTAssertFalse(fromFile.stdout.isEmpty)
        XCTAssertTrue(fromFile.stdout == fromStdin.stdout)
    }

    /// A request HTTP answers 4xx exits 65 with exactly the problem document on standard error.
    func testBadRequestsExit65WithTheHTTPProblem() throws {
        let server = try LiveServer()
        let cases: [(route: String, body: String, arguments: [String], query: String)] = [
            ("curve", #"{"timing": "ease""#, [], ""),                                        // 400, malformed JSON
            ("curve", #"{"timing": "steps(1, jump-none)"}"#, [], ""),                         // 422
            ("curve", Self.curve, ["--format", "lottie"], "format=lottie"),                  // 406
            ("curve", Self.curve, ["--tolerance", "5"], "tolerance=5"),                      // 422
            ("render", Self.render, ["--tolerance", "abc", "--format", "css"], "tolerance=abc&format=css"),
            ("render", Self.render, ["--expand", "--format", "csv"], "expand=true&format=csv"), // 400
        ]
        for (route, body, arguments, query) in cases {
            let request = try SegueBinary.RequestFile(body)
            let cli = try SegueBinary.run([route, request.path] + arguments)
            let live = try http(server, route, body, query: query)
            XCTAssertTrue((400..<500).contains(live.status), "\(route) \(arguments): \(live.status)")
            XCTAssertEqual(live.header("Content-Type"), "application/problem+json")
            XCTAssertEqual(cli.status, 65, "\(route) \(arguments)")
            XCTAssertEqual(cli.stdout, [], "\(route) \(arguments)")
            XCTAssertEqual(cli.errors, "segue: \(request.path): " + live.text + "\n", "\(route) \(arguments)")
        }
    }

    /// The limits are the server's: same flags, same variables, same problems.
    func testLimitsAreTheServersFromFlagsAndEnvironment() throws {
        var configuration = ServiceConfiguration()
        configuration.limits.maxBodyBytes = 64
        configuration.limits.maxSamples = 10
        let server = try LiveServer(configuration: configuration)
        let request = try SegueBinary.RequestFile(Self.curve)
        let overBody = try http(server, "curve", Self.curve)
        XCTAssertEqual(overBody.status, 413)
        let byFlag = try SegueBinary.run(["curve", request.path, "--max-body", "64"])
        XCTAssertEqual(byFlag.status, 65)
        XCTAssertEqual(byFlag.errors, "segue: \(request.path): " + overBody.text + "\n")
        let byVariable = try SegueBinary.run(["curve", request.path], environment: ["SEGUE_MAX_BODY": "64"])
        XCTAssertEqual(byVariable.status, 65)
        XCTAssertEqual(byVariable.errors, "segue: \(request.path): " + overBody.text + "\n")
        // A flag wins over its variable.
        XCTAssertEqual(try SegueBinary.run(["curve", request.path, "--max-body", "1000"],
                                           environment: ["SEGUE_MAX_BODY": "64"]).status, 0)

        let small = #"{"timing": "ease", "samples": 40}"#
        let overSamples = try http(server, "curve", small)
        XCTAssertEqual(overSamples.status, 413)
        let samples = try SegueBinary.run(["curve", "-"], environment: ["SEGUE_MAX_SAMPLES": "10"], stdin: Array(small.utf8))
        XCTAssertEqual(samples.status, 65)
        XCTAssertEqual(samples.errors, "segue: -: " + overSamples.text + "\n")
    }

    func testUsageErrorsExit64() throws {
        let request = try SegueBinary.RequestFile(Self.curve)
        let cases: [([String], [String: String])] = [
            (["curve", request.path, "--bogus"], [:]),
            (["curves", request.path], [:]),
            (["curve"], [:]),
            (["curve", request.path, "--format", "png"], [:]),
            (["curve", request.path, "--max-depth", "0"], [:]),
            (["render", request.path, "--max-work", "12"], [:]),
            (["curve", request.path, "--max-samples", "many"], [:]),
            (["curve", request.path], ["SEGUE_MAX_DEPTH": "deep"]),
            (["render", request.path], ["SEGUE_MAX_VIEWS": "0"]),
            (["serve", "--workers", "0"], [:]),
            (["serve"], ["SEGUE_LOG_LEVEL": "loud"]),
            (["healthcheck"], ["SEGUE_PORT": "http"]),
            (["healthcheck"], ["SEGUE_HOST": "localhost.localdomain"]),
            (["serve", "--host", "example.com"], [:]),
        ]
        for (arguments, environment) in cases {
            let result = try SegueBinary.run(arguments, environment: environment)
            XCTAssertEqual(result.status, 64, "\(arguments) \(environment): \(result.errors)")
            XCTAssertEqual(result.stdout, [], "\(arguments)")
            XCTAssertTrue(result.errors.contains("Usage: segue"), result.errors)
        }
        // The message names what carried the bad value.
        let variable = try SegueBinary.run(["curve", request.path], environment: ["SEGUE_MAX_DEPTH": "0"])
        XCTAssertTrue(variable.errors.contains("SEGUE_MAX_DEPTH=0"), variable.errors)
        let flag = try SegueBinary.run(["serve", "--threads", "300"])
        XCTAssertTrue(flag.errors.contains("--threads 300"), flag.errors)
        let host = try SegueBinary.run(["healthcheck", "--host", "example.com"])
        XCTAssertTrue(host.errors.contains("--host example.com is out of range (an IPv4 or IPv6 address, or localhost)"), host.errors)
        // A good flag wins over a bad variable, which is then not read.
        let overridden = try SegueBinary.run(["curve", request.path, "--max-depth", "10"], environment: ["SEGUE_MAX_DEPTH": "deep"])
        XCTAssertEqual(overridden.status, 0, overridden.errors)
    }

    func testUnreadableInputExits66() throws {
        let missing = try SegueBinary.run(["curve", "/nonexistent/segue-request.json"])
        XCTAssertEqual(missing.status, 66)
        XCTAssertEqual(missing.stdout, [])
        XCTAssertEqual(missing.errors, "segue: cannot open /nonexistent/segue-request.json: No such file or directory\n")
        let directory = try SegueBinary.run(["render", FileManager.default.temporaryDirectory.path])
        XCTAssertEqual(directory.status, 66, directory.errors)
        XCTAssertTrue(directory.errors.contains("Is a directory"), directory.errors)
    }

    func testPresetsIsTheHTTPBody() throws {
        let server = try LiveServer()
        let live = try server.request("GET", "/v1/presets")
        XCTAssertEqual(live.status, 200)
        let cli = try SegueBinary.run(["presets"])
        XCTAssertEqual(cli.status, 0)
        XCTAssertTrue(cli.stdout == live.body)
    }

    /// A reader that goes away is reported (EPIPE, exit 74), not a SIGPIPE death.
    func testClosedStandardOutputExits74() throws {
        let request = try SegueBinary.RequestFile(Self.largeRender)
        let process = Process()
        process.executableURL = SegueBinary.url
        process.arguments = ["render", request.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        _ = output.fileHandleForReading.readData(ofLength: 10)
        try output.fileHandleForReading.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 74)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(message, "segue: cannot write standard output: Broken pipe\n")
    }

    // MARK: segue batch

    /// Every line of this batch answers 200: csv, css and json curves, a render, a preset.
    static let goodBatch = [
        #"{"path": "/v1/curve", "body": \#(curve), "id": "spring"}"#,
        #"{"path": "/v1/curve", "body": \#(curve), "format": "csv"}"#,
        "",
        #"{"path": "/v1/curve", "body": {"timing": "ease"}, "format": "css", "tolerance": 0.01}"#,
        #"{"path": "/v1/render", "body": \#(render.replacingOccurrences(of: "\n", with: " ")), "format": "waapi"}"#,
        #"{"path": "/v1/render", "body": {"fps": 30, "transition": {"preset": "slideDismiss", "container": [0, 0, 320, 568]}}}"#,
    ].joined(separator: "\n") + "\n"

    /// Lines 2 and 4 (of 5) fail: a 422 of the single request and a line that is not JSON.
    static let mixedBatch = [
        #"{"path": "/v1/curve", "body": {"timing": "ease"}}"#,
        #"{"path": "/v1/curve", "body": {"timing": {"type": "spring", "dampingRatio": -1}}, "id": "bad"}"#,
        #"{"path": "/v1/curve", "body": {"timing": "linear"}, "format": "svg"}"#,
        #"{"path": "/v1/curve", "body": "#,
        "\r",
        #"{"path": "/v1/render", "body": {"views": {"card": {"alpha": 1}}}, "format": "css"}"#,
    ].joined(separator: "\r\n")

    /// The router's answer to the batch, as `POST /v1/batch` gives it.
    func routerBatch(_ text: String, configure: (inout ServiceConfiguration) -> Void = { _ in }) throws -> HTTPResponse {
        var configuration = ServiceConfiguration()
        configuration.logSink = { _ in }
        configure(&configuration)
        return SegueService(configuration: configuration).respond(
            to: HTTPRequest(method: "POST", path: "/v1/batch", headers: ["content-type": "application/x-ndjson"],
                            body: Array(text.utf8)))
    }

    /// `segue batch FILE` writes exactly the HTTP body — the router's and a live server's — and
    /// exits 0 when every line answered 200.
    func testBatchIsTheHTTPBodyAndExits0WhenEveryLineIs200() throws {
        let file = try SegueBinary.RequestFile(Self.goodBatch)
        let cli = try SegueBinary.run(["batch", file.path])
        XCTAssertEqual(cli.status, 0, cli.errors)
        XCTAssertEqual(cli.stderr, [])
        let router = try routerBatch(Self.goodBatch)
        XCTAssertEqual(router.status, 200)
        let body = try router.collectedBody()
        XCTAssertEqual(body.split(separator: 0x0A).count, 5)
        XCTAssertEqual(cli.stdout.count, body.count)
        XCTAssertTrue(cli.stdout == body, "segue batch: the bytes differ from the router's")

        let server = try LiveServer()
        let live = try server.request("POST", "/v1/batch", headers: [("Content-Type", "application/x-ndjson")],
                                      body: Array(Self.goodBatch.utf8))
        XCTAssertEqual(live.status, 200, live.text)
        XCTAssertEqual(live.header("Content-Type"), "application/x-ndjson")
        XCTAssertNil(live.header("ETag"))
        XCTAssertEqual(live.header("Cache-Control"), "no-store")
        XCTAssertTrue(live.body == body, "the live server's batch differs from the router's:\n\(live.text.prefix(500))")
    }

    /// A failed line does not stop the batch: every line is written, then exit 65 with a count of
    /// the failed lines on standard error.
    func testBatchWithFailedLinesWritesEveryLineAndExits65() throws {
        let file = try SegueBinary.RequestFile(Self.mixedBatch)
        let cli = try SegueBinary.run(["batch", file.path])
        XCTAssertEqual(cli.status, 65)
        let body = try routerBatch(Self.mixedBatch).collectedBody()
        XCTAssertEqual(body.split(separator: 0x0A).count, 5)
        XCTAssertTrue(cli.stdout == body, "segue batch: the bytes differ from the router's")
        XCTAssertTrue(cli.errors.hasPrefix("segue: \(file.path): 2 of 5 lines failed"), cli.errors)
        XCTAssertTrue(cli.errors.contains("line 2") && cli.errors.contains("422"), cli.errors)
        XCTAssertTrue(cli.errors.hasSuffix("\n"))
        XCTAssertEqual(cli.errors.split(separator: "\n").count, 1, cli.errors)
    }

    /// `segue batch -` reads standard input: the same bytes and the same exit status as a file.
    func testBatchReadsStandardInput() throws {
        let good = try SegueBinary.run(["batch", "-"], stdin: Array(Self.goodBatch.utf8))
        XCTAssertEqual(good.status, 0, good.errors)
        XCTAssertTrue(good.stdout == (try routerBatch(Self.goodBatch).collectedBody()))
        let mixed = try SegueBinary.run(["batch", "-"], stdin: Array(Self.mixedBatch.utf8))
        XCTAssertEqual(mixed.status, 65)
        XCTAssertTrue(mixed.stdout == (try routerBatch(Self.mixedBatch).collectedBody()))
        XCTAssertTrue(mixed.errors.hasPrefix("segue: -: 2 of 5 lines failed"), mixed.errors)
        // An empty batch answers nothing, successfully.
        let empty = try SegueBinary.run(["batch", "-"], stdin: Array("\n\r\n  \n".utf8))
        XCTAssertEqual(empty.status, 0, empty.errors)
        XCTAssertEqual(empty.stdout, [])
    }

    /// The batch limits are options of `segue batch`: over one, the 413 problem on standard error
    /// and no line written.
    func testBatchLimitsFromFlagsAndEnvironment() throws {
        let file = try SegueBinary.RequestFile(Self.goodBatch)
        let overLines = try routerBatch(Self.goodBatch) { $0.limits.maxBatchLines = 4 }
        XCTAssertEqual(overLines.status, 413)
        let byFlag = try SegueBinary.run(["batch", file.path, "--max-batch-lines", "4"])
        XCTAssertEqual(byFlag.status, 65)
        XCTAssertEqual(byFlag.stdout, [])
        XCTAssertEqual(byFlag.errors, "segue: \(file.path): " + String(decoding: overLines.body, as: UTF8.self) + "\n")
        let byVariable = try SegueBinary.run(["batch", file.path], environment: ["SEGUE_MAX_BATCH_LINES": "4"])
        XCTAssertEqual(byVariable.status, 65)
        XCTAssertEqual(byVariable.errors, byFlag.errors)
        XCTAssertEqual(try SegueBinary.run(["batch", file.path, "--max-batch-lines", "5"]).status, 0)

        let overBody = try SegueBinary.run(["batch", file.path, "--max-batch-body", "100"])
        XCTAssertEqual(overBody.status, 65)
        XCTAssertEqual(overBody.stdout, [])
        XCTAssertTrue(overBody.errors.contains("\"status\":413"), overBody.errors)

        // Three dear curves: their planned work, then a limit just under it and one just over it.
        let dear = #"{"path": "/v1/curve", "body": {"timing": {"type": "spring", "damping": 10}, "duration": 2, "samples": 100000}}"#
        let dearBatch = try SegueBinary.RequestFile([dear, dear, dear].joined(separator: "\n"))
        let handlers = Handlers(limits: Limits(), readiness: Readiness(), metrics: ServiceMetrics())
        let work = 3 * handlers.plannedWork(try BatchLine(Array(dear.utf8), limits: Limits()))
        XCTAssertGreaterThan(work, 1.01e6, "the batch must be dearer than the least --max-batch-work")
        let overWork = try SegueBinary.run(["batch", dearBatch.path, "--max-batch-work", String(Int(work * 0.99))])
        XCTAssertEqual(overWork.status, 65)
        XCTAssertEqual(overWork.stdout, [])
        XCTAssertTrue(overWork.errors.contains("\"status\":413") && overWork.errors.contains("work"), overWork.errors)
        let withinWork = try SegueBinary.run(["batch", dearBatch.path, "--max-batch-work", String(Int(work * 1.01))])
        XCTAssertEqual(withinWork.status, 0, withinWork.errors)
        XCTAssertEqual(withinWork.stdout.split(separator: 0x0A).count, 3)
        // A line's own limit applies to the line: its 413 is the line's answer, the rest still run.
        let overLineBody = try SegueBinary.run(["batch", file.path, "--max-body", "60"])
        XCTAssertEqual(overLineBody.status, 65)
        let lines = overLineBody.stdout.split(separator: 0x0A)
        XCTAssertEqual(lines.count, 5)
        XCTAssertTrue(String(decoding: lines[0], as: UTF8.self).contains(#""status":413"#), overLineBody.output)
        XCTAssertTrue(String(decoding: lines[2], as: UTF8.self).contains(#""status":200"#), overLineBody.output)
        XCTAssertEqual(try SegueBinary.run(["batch", file.path, "--max-batch-lines", "0"]).status, 64)
    }
}
