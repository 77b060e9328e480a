import Foundation
import Synchronization
import XCTest

/// The `segue` executable itself: `serve` on an ephemeral port, graceful SIGTERM, `healthcheck`.
final class CommandLineTests: XCTestCase {
    /// `swift test` builds the executable next to the test bundle.
    var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("segue")
    }

    /// Starts `segue serve --port 0` (or `segue arguments…`) and returns the process and the port
    /// from its log line, whose URL names `listening` (an IPv6 host in brackets).
    func startServer(_ extra: [String] = [], arguments: [String] = ["serve", "--port", "0"],
                     environment: [String: String]? = nil, listening: String = "127.0.0.1") throws -> (Process, Pipe, UInt16) {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            XCTFail("no segue binary at \(binary.path); run through `swift test`")
            throw CocoaError(.fileNoSuchFile)
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments + extra
        if let environment { process.environment = environment }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let colon = text.range(of: ":", options: .backwards),
              let port = UInt16(text[colon.upperBound...].prefix(while: { $0.isNumber })) else {
            process.terminate()
            XCTFail("unexpected first line: \(text)")
            throw CocoaError(.fileReadCorruptFile)
        }
        XCTAssertTrue(text.hasPrefix("segue listening on http://\(listening):"), text)
        return (process, output, port)
    }

    func testServeAnswersThenStopsGracefullyOnSIGTERM() throws {
        let (process, _, port) = try startServer(["--threads", "1", "--cors-origin", "https://a.example"])
        let response = try RawHTTP.exchange(port: port, RawHTTP.build("POST", "/v1/curve", headers: [("Origin", "https://a.example")],
                                                                      body: Array(#"{"timing":"ease","samples":3}"#.utf8),
                                                                      declareLength: true))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), "https://a.example")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testSIGTERMLetsAnInFlightRequestFinish() throws {
        let (process, _, port) = try startServer()
        // A large request keeps the server busy while the signal arrives.
        let body = Array(#"{"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 1}, "fps": 1000, "duration": 99}"#.utf8)
        let request = RawHTTP.build("POST", "/v1/curve", headers: [], body: body, declareLength: true)
        let result = Mutex<Int?>(nil)
        let done = expectation(description: "response")
        Thread.detachNewThread {
            let status = try? RawHTTP.exchange(port: port, request).status
            result.withLock { $0 = status }
            done.fulfill()
        }
        // The signal must come while the request is in flight, not before the server has read it:
        // wait until /metrics counts it beside its own request (on a loaded machine 20 ms was not
        // always enough for the request to arrive).
        let deadline = Date().addingTimeInterval(30)
        var inFlight = false
        while !inFlight && Date() < deadline && result.withLock({ $0 }) == nil {
            let metrics = try RawHTTP.exchange(port: port, RawHTTP.build("GET", "/metrics", headers: [], body: [],
                                                                         declareLength: false))
            inFlight = String(decoding: metrics.body, as: UTF8.self).contains("segue_inflight_requests 2")
            if !inFlight { usleep(2_000) }
        }
        XCTAssertTrue(inFlight, "the request was never seen in flight")
        kill(process.processIdentifier, SIGTERM)
        wait(for: [done], timeout: 30)
        process.waitUntilExit()
        XCTAssertEqual(result.withLock { $0 }, 200)
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testHealthcheckExitCodes() throws {
        let (process, _, port) = try startServer()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        XCTAssertEqual(try run(["healthcheck", "--port", String(port)]), 0)
        // Nobody listens on the port a stopped server held.
        let (other, _, freedPort) = try startServer()
        kill(other.processIdentifier, SIGTERM)
        other.waitUntilExit()
        XCTAssertEqual(try run(["healthcheck", "--port", String(freedPort)]), 1)
        XCTAssertEqual(try run(["healthcheck"], environment: ["SEGUE_PORT": String(port)]), 0)
    }

    /// `healthcheck` reads the server's SEGUE_HOST: `::` is probed on ::1, and the dual-stack server
    /// also answers on 127.0.0.1; `::1` is IPv6 alone (docs/cli.md "Listening address and health check").
    func testHealthcheckFollowsTheServersHost() throws {
        for (host, url, answersIPv4) in [("::", "[::]", true), ("::1", "[::1]", false)] {
            let (process, _, port) = try startServer(["--host", host], listening: url)
            defer {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
            XCTAssertEqual(try run(["healthcheck"], environment: ["SEGUE_HOST": host, "SEGUE_PORT": String(port)]), 0, host)
            XCTAssertEqual(try run(["healthcheck", "--host", "::1", "--port", String(port)]), 0, host)
            XCTAssertEqual(try run(["healthcheck", "--port", String(port)]), answersIPv4 ? 0 : 1, host)
            XCTAssertEqual(try run(["healthcheck", "--host", "0.0.0.0"], environment: ["SEGUE_HOST": host, "SEGUE_PORT": String(port)]),
                           answersIPv4 ? 0 : 1, host)
        }
    }

    /// Usage errors exit 64, EX_USAGE (docs/cli.md "Exit codes").
    func testBadOptionsExit64() throws {
        XCTAssertEqual(try run(["serve", "--port", "99999"]), 64)
        XCTAssertEqual(try run(["serve", "--bogus"]), 64)
        XCTAssertEqual(try run(["nonsense"]), 64)
        XCTAssertEqual(try run([]), 64)
        XCTAssertEqual(try run(["serve"], environment: ["SEGUE_THREADS": "zero"]), 64)
        for bad in ["example.com", "::1%lo", "[::1]", "127.0.0.1:8080", ""] {
            XCTAssertEqual(try run(["serve", "--host", bad]), 64, "--host \(bad)")
            XCTAssertEqual(try run(["healthcheck", "--host", bad]), 64, "healthcheck --host \(bad)")
            XCTAssertEqual(try run(["healthcheck"], environment: ["SEGUE_HOST": bad]), 64, "SEGUE_HOST=\(bad)")
        }
        for bad in ["-1", "nan", "inf", "1e10", "lots"] {
            XCTAssertEqual(try run(["serve", "--inline-work", bad]), 64, "--inline-work \(bad)")
            XCTAssertEqual(try run(["serve"], environment: ["SEGUE_INLINE_WORK": bad]), 64, "SEGUE_INLINE_WORK=\(bad)")
        }
        for bad in ["-1", "16777217", "1.5", "lots", ""] {
            XCTAssertEqual(try run(["serve", "--log-buffer", bad]), 64, "--log-buffer \(bad)")
            XCTAssertEqual(try run(["serve"], environment: ["SEGUE_LOG_BUFFER": bad]), 64, "SEGUE_LOG_BUFFER=\(bad)")
        }
    }

    /// `segue --help` lists the subcommands and exits 0, like `--help` everywhere.
    func testHelpListsTheSubcommands() throws {
        let help = try SegueBinary.run(["--help"])
        XCTAssertEqual(help.status, 0)
        for subcommand in ["serve", "curve", "render", "presets", "healthcheck"] {
            XCTAssertNotNil(help.output.range(of: "\n  \(subcommand) "), "\(subcommand) in\n\(help.output)")
        }
        XCTAssertEqual(try SegueBinary.run(["serve", "--help"]).status, 0)
        XCTAssertEqual(try SegueBinary.run(["help", "render"]).status, 0)
    }

    /// One option of `segue serve --help`: `--flag <value>  summary (default D) (accepted) (env: VAR)`.
    struct HelpRow: Equatable {
        var flag, summary, defaultText, accepted, variable: String
    }

    /// The option rows of `segue command --help`, unwrapped (COLUMNS is wide).
    func helpRows(_ command: String) throws -> [HelpRow] {
        let help = try SegueBinary.run([command, "--help"], environment: ["COLUMNS": "1000"])
        XCTAssertEqual(help.status, 0)
        let row = #/^  --([a-z-]+) <[a-z]+> +(.+?) \(default (.+?)\) \((.+?)\) \(env: (SEGUE_[A-Z_]+)\)$/#
        // An option whose name is long has its help on the next line, indented.
        let unwrapped = help.output.replacing(#/\n {10,}/#, with: " ")
        return unwrapped.split(separator: "\n").compactMap { line in
            (try? row.wholeMatch(in: line)).map { match in
                HelpRow(flag: String(match.1), summary: String(match.2), defaultText: String(match.3),
                        accepted: String(match.4), variable: String(match.5))
            }
        }
    }

    /// Every option of `serve` shows its variable and default, and docs/cli.md's table is that help.
    func testServeHelpShowsEveryOptionAndMatchesTheDocs() throws {
        let rows = try helpRows("serve")
        let flags = ["host", "port", "threads", "max-body", "cors-origin", "max-depth", "max-duration", "max-samples",
                     "max-numbers", "max-views", "max-animations", "max-steps", "max-work", "cache-entries", "cache-bytes",
                     "timeout", "workers", "inline-work", "max-connections", "max-connections-per-client", "max-response-memory",
                     "header-timeout", "request-timeout", "body-timeout", "body-min-rate", "max-body-memory",
                     "drain-timeout", "log-level", "log-buffer",
                     "max-batch-lines", "max-batch-body", "max-batch-work"]
        XCTAssertEqual(Set(rows.map(\.flag)), Set(flags))
        XCTAssertEqual(rows.count, flags.count)
        for row in rows {
            XCTAssertEqual(row.variable, "SEGUE_" + row.flag.uppercased().replacingOccurrences(of: "-", with: "_"))
        }
        XCTAssertTrue(rows.contains(HelpRow(flag: "port", summary: "TCP port", defaultText: "8080; 0 picks a free one",
                                            accepted: "0–65535", variable: "SEGUE_PORT")))
        // The request limits are the same options on curve and render.
        let limits = try helpRows("curve")
        XCTAssertEqual(try helpRows("render"), limits)
        XCTAssertEqual(limits.map(\.flag), ["max-body", "max-depth", "max-duration", "max-samples", "max-numbers",
                                            "max-views", "max-animations", "max-steps", "max-work"])
        XCTAssertTrue(limits.allSatisfy(rows.contains))
        // `segue batch` has the request limits and the batch limits, as `serve` has them.
        let batchLimits = ["max-batch-lines", "max-batch-body", "max-batch-work"]
        let batch = try helpRows("batch")
        XCTAssertEqual(batch.map(\.flag), limits.map(\.flag) + batchLimits)
        XCTAssertTrue(batch.allSatisfy(rows.contains))
        XCTAssertTrue(rows.contains(HelpRow(flag: "max-batch-lines", summary: "most lines in a batch", defaultText: "10000",
                                            accepted: "1–1000000", variable: "SEGUE_MAX_BATCH_LINES")), "\(rows)")

        // docs/cli.md: | `--flag` | `SEGUE_FLAG` | default | accepted | commands | meaning |
        let docs = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/cli.md"), encoding: .utf8)
        let docRow = #/^\| `--([a-z-]+)` \| `(SEGUE_[A-Z_]+)` \| (.+?) \| (.+?) \| (.+?) \| (.+?) \|$/#
        var documented: [HelpRow] = []
        for line in docs.split(separator: "\n") {
            guard let match = try docRow.wholeMatch(in: line) else { continue }
            let flag = String(match.1)
            documented.append(HelpRow(flag: flag, summary: String(match.6), defaultText: String(match.3),
                                      accepted: String(match.4), variable: String(match.2)))
            let commands = limits.contains { $0.flag == flag } ? "serve, curve, render"
                : batchLimits.contains(flag) ? "serve, batch" : "serve"
            XCTAssertEqual(String(match.5), commands, flag)
        }
        XCTAssertEqual(documented, rows, "docs/cli.md's options table is `segue serve --help`")
    }

    /// A variable sets an option's default and a flag beats it.
    func testServeReadsTheEnvironmentAndAFlagWins() throws {
        // SEGUE_PORT=0 without --port: an ephemeral port, not 8080.
        let (fromVariable, _, port) = try startServer(arguments: ["serve"],
                                                      environment: ["SEGUE_PORT": "0", "SEGUE_CORS_ORIGIN": "https://env.example"])
        defer {
            kill(fromVariable.processIdentifier, SIGTERM)
            fromVariable.waitUntilExit()
        }
        XCTAssertNotEqual(port, 8080)
        func curve(origin: String) -> [UInt8] {
            RawHTTP.build("POST", "/v1/curve", headers: [("Origin", origin)], body: Array(#"{"timing":"ease","samples":3}"#.utf8),
                          declareLength: true)
        }
        XCTAssertEqual(try RawHTTP.exchange(port: port, curve(origin: "https://env.example")).header("Access-Control-Allow-Origin"),
                       "https://env.example")

        let (fromFlag, _, flagPort) = try startServer(["--cors-origin", "https://flag.example"],
                                                      environment: ["SEGUE_PORT": "1", "SEGUE_CORS_ORIGIN": "https://env.example"])
        defer {
            kill(fromFlag.processIdentifier, SIGTERM)
            fromFlag.waitUntilExit()
        }
        XCTAssertNotEqual(flagPort, 1)
        XCTAssertEqual(try RawHTTP.exchange(port: flagPort, curve(origin: "https://flag.example")).header("Access-Control-Allow-Origin"),
                       "https://flag.example")
        XCTAssertNil(try RawHTTP.exchange(port: flagPort, curve(origin: "https://env.example")).header("Access-Control-Allow-Origin"))
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
