import Foundation
import Synchronization
import XCTest

/// The `segue` executable itself: `serve` on an ephemeral port, graceful SIGTERM, `healthcheck`.
final class CommandLineTests: XCTestCase {
    /// `swift test` builds the executable next to the test bundle.
    var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("segue")
    }

    /// Starts `segue serve --port 0` and returns the process and the port from its log line.
    func startServer(_ extra: [String] = []) throws -> (Process, Pipe, UInt16) {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("no segue binary at \(binary.path); run through `swift test`")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0"] + extra
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
            throw XCTSkip("unexpected first line: \(text)")
        }
        XCTAssertTrue(text.hasPrefix("segue listening on http://127.0.0.1:"), text)
        return (process, output, port)
    }

    func testServeAnswersThenStopsGracefullyOnSIGTERM() throws {
        let (process, _, port) = try startServer(["--threads", "1", "--cors-origin", "https://a.example"])
        let response = try RawHTTP.exchange(port: port, RawHTTP.build("POST", "/v1/curve", headers: [],
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
        usleep(20_000)
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

    /// Usage errors exit 64, EX_USAGE (docs/cli.md "Exit codes").
    func testBadOptionsExit64() throws {
        XCTAssertEqual(try run(["serve", "--port", "99999"]), 64)
        XCTAssertEqual(try run(["serve", "--bogus"]), 64)
        XCTAssertEqual(try run(["nonsense"]), 64)
        XCTAssertEqual(try run([]), 64)
        XCTAssertEqual(try run(["serve"], environment: ["SEGUE_THREADS": "zero"]), 64)
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
