import CZlib
import Foundation
import SegueTestSupport
import XCTest
@testable import SegueHTTP

/// The gzip coder (zlib's deflate with the gzip wrapper) is checked by zlib's inflate, which also
/// checks the gzip trailer's CRC-32 and length; then the 1 KiB threshold and the Accept-Encoding
/// decisions through the service.
final class GzipTests: XCTestCase {
    /// One gzip member decoded with `inflateInit2(windowBits 31)`; nil unless it is exactly one
    /// complete, valid member.
    static func gunzip(_ data: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard segue_inflate_init2(&stream, 15 + 16) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = data
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        return input.withUnsafeMutableBufferPointer { source -> [UInt8]? in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output += chunk[0..<(chunk.count - Int(stream.avail_out))]
                if status == Z_STREAM_END { return stream.avail_in == 0 ? output : nil }
                if status != Z_OK { return nil }
            }
        }
    }

    static let inputs: [[UInt8]] = {
        var generator = SplitMix64(seed: 0x67_7A_69_70)  // the same bytes every run
        var inputs: [[UInt8]] = [[], [42], Array("a".utf8), Array(repeating: 7, count: 100_000)]
        inputs.append((0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        inputs.append(Array((0..<5000).map { "\(Double($0) * 0.0137)," }.joined().utf8))
        inputs.append(Array(String(repeating: "abcdefghij", count: 10_000).utf8) + Array(repeating: 0, count: 40_000)
                      + Array(String(repeating: "abcdefghij", count: 100).utf8))
        return inputs
    }()

    func testRoundTripsThroughZlibsInflate() throws {
        for input in Self.inputs {
            let compressed = try XCTUnwrap(Compression.gzip(input))
            // RFC 1952: magic 1f 8b, CM 8 (deflate), no flags, MTIME 0 (the same bytes every time).
            XCTAssertEqual(Array(compressed.prefix(8)), [0x1F, 0x8B, 8, 0, 0, 0, 0, 0], "\(input.count) bytes")
            XCTAssertEqual(Self.gunzip(compressed), input, "\(input.count) bytes")
            XCTAssertEqual(Compression.gzip(input), compressed, "deterministic")
        }
        XCTAssertNil(Self.gunzip(Array(try XCTUnwrap(Compression.gzip(Self.inputs[5])).dropLast())), "a truncated member is refused")
    }

    /// A body given in pieces (as a streamed body would be) codes to one member of the same bytes.
    func testStreamInPiecesRoundTrips() throws {
        for input in Self.inputs {
            let stream = try XCTUnwrap(Compression.Stream())
            var output: [UInt8] = []
            for start in stride(from: 0, to: input.count, by: 7_919) {
                XCTAssertTrue(stream.write(Array(input[start..<min(input.count, start + 7_919)]), into: &output))
            }
            XCTAssertTrue(stream.finish(into: &output))
            XCTAssertEqual(Self.gunzip(output), input, "\(input.count) bytes in pieces")
        }
    }

    func testThresholdAndAcceptEncodingDecisions() {
        XCTAssertEqual(Compression.threshold, 1024)
        XCTAssertFalse(Compression.applies(toBodyOf: 1024, acceptEncoding: "gzip"), "1 KiB is not above 1 KiB")
        XCTAssertTrue(Compression.applies(toBodyOf: 1025, acceptEncoding: "gzip"))
        XCTAssertFalse(Compression.applies(toBodyOf: 1 << 20, acceptEncoding: nil))
        let table: [(String, Bool)] = [
            ("gzip", true), ("x-gzip", true), ("GZIP", true), ("*", true), ("br;q=1, gzip;q=0.8", true),
            ("gzip;q=0", false), ("gzip;q=0.000", false), ("br", false), ("identity", false), ("", false),
            ("gzip;q=0.001", true), ("*;q=0, gzip", true), ("gzip;q=0, *", false), ("gzip, *;q=0", true),
            ("deflate, gzip;q=1.0", true), ("  gzip ; q=0.5 ", true),
        ]
        for (header, expected) in table {
            XCTAssertEqual(Compression.applies(toBodyOf: 4096, acceptEncoding: header), expected, header)
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
        XCTAssertEqual(Self.gunzip(zipped.body), plain.body)
        XCTAssertNotEqual(zipped.header("ETag"), plain.header("ETag"))
        XCTAssertEqual(zipped.header("Vary"), "Accept, Accept-Encoding")
        // The tag is the identity bytes' hash with the coding in the variant (docs/rules.md rule 23).
        XCTAssertEqual(zipped.header("ETag"), EntityTag.make(body: plain.body, contentType: "application/json", contentCoding: "gzip"))
        XCTAssertEqual(plain.header("ETag"), EntityTag.make(body: plain.body, contentType: "application/json", contentCoding: nil))
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
