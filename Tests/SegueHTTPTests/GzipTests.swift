import Foundation
import XCTest
@testable import SegueHTTP

/// The gzip coder is checked by an independent decoder: Python's zlib (CPython's `gzip` module).
final class GzipTests: XCTestCase {
    func gunzip(_ data: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import gzip, sys; sys.stdout.buffer.write(gzip.decompress(sys.stdin.buffer.read()))"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(data))
        try input.fileHandleForWriting.close()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "python could not decompress")
        return Array(result)
    }

    func testRoundTripsThroughAnIndependentDecoder() throws {
        var generator = SystemRandomNumberGenerator()
        var inputs: [[UInt8]] = [[], [42], Array("a".utf8), Array(repeating: 7, count: 100_000)]
        inputs.append((0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        inputs.append(Array((0..<5000).map { "\(Double($0) * 0.0137)," }.joined().utf8))
        // Long runs, matches at the window's edge, lengths at 258.
        inputs.append(Array(String(repeating: "abcdefghij", count: 10_000).utf8) + Array(repeating: 0, count: 40_000)
                      + Array(String(repeating: "abcdefghij", count: 100).utf8))
        for input in inputs {
            let compressed = Gzip.compress(input)
            XCTAssertEqual(try gunzip(compressed), input, "\(input.count) bytes")
        }
    }

    /// Fibonacci frequencies make the deepest possible Huffman tree; the limit must hold and
    /// the code stay complete (Kraft sum exactly 1).
    func testCodeLengthsRespectTheLimit() {
        var fibonacci = [1, 1]
        while fibonacci.count < 40 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for limit in [7, 15] {
            let lengths = Huffman.lengths(fibonacci, limit: limit)
            XCTAssertLessThanOrEqual(lengths.max() ?? 0, limit)
            XCTAssertEqual(lengths.reduce(0.0) { $0 + pow(2, -Double($1)) }, 1, accuracy: 1e-12)
        }
    }

    func testResponsesAreGzippedAboveOneKiBWhenAsked() throws {
        let service = SegueService()
        func post(_ json: String, encoding: String?) -> HTTPResponse {
            var headers: [String: String] = [:]
            headers["accept-encoding"] = encoding
            return service.respond(to: HTTPRequest(method: "POST", path: "/v1/curve", headers: headers, body: Array(json.utf8)))
        }
        let big = #"{"timing": "ease", "samples": 200}"#
        let plain = post(big, encoding: nil)
        let zipped = post(big, encoding: "br;q=1, gzip;q=0.8")
        XCTAssertEqual(zipped.header("Content-Encoding"), "gzip")
        XCTAssertLessThan(zipped.body.count, plain.body.count / 2)
        XCTAssertEqual(try gunzip(zipped.body), plain.body)
        XCTAssertNotEqual(zipped.header("ETag"), plain.header("ETag"))
        XCTAssertEqual(zipped.header("Vary"), "Accept, Accept-Encoding")
        // Refused, or below the threshold: identity.
        XCTAssertNil(post(big, encoding: "gzip;q=0").header("Content-Encoding"))
        XCTAssertNil(post(big, encoding: "br").header("Content-Encoding"))
        XCTAssertNotNil(post(big, encoding: "*").header("Content-Encoding"))
        XCTAssertNil(post(#"{"timing": "ease", "samples": 3}"#, encoding: "gzip").header("Content-Encoding"))
        // The gzip tag revalidates the gzip variant only.
        let tag = try XCTUnwrap(zipped.header("ETag"))
        var headers = ["accept-encoding": "gzip", "if-none-match": tag]
        XCTAssertEqual(service.respond(to: HTTPRequest(method: "POST", path: "/v1/curve", headers: headers,
                                                       body: Array(big.utf8))).status, 304)
        headers["accept-encoding"] = nil
        XCTAssertEqual(service.respond(to: HTTPRequest(method: "POST", path: "/v1/curve", headers: headers,
                                                       body: Array(big.utf8))).status, 200)
    }
}
