import SegueTestSupport
import XCTest
@testable import SegueHTTP

/// The request target's decoding and verdict (docs/http.md "Request target").
final class TargetUnescapingTests: XCTestCase {
    func unescape(_ target: String) -> (String, Bool) {
        var bytes = Array(target.utf8).map { CChar(bitPattern: $0) } + [0]
        let (length, valid) = bytes.withUnsafeMutableBufferPointer { TargetUnescaping.unescape($0.baseAddress!) }
        let decoded = String(decoding: bytes.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (decoded, valid)
    }

    func testDecodesAsLibmicrohttpdDoesAndRefusesControlBytesAndBadUTF8() {
        let rows: [(String, String, Bool)] = [
            ("/v1/curve", "/v1/curve", true),
            ("/a%20b%2Fc", "/a b/c", true),
            ("/caf%C3%A9", "/café", true),
            ("/%zz%4", "/%zz%4", true),          // not an escape: kept as sent
            ("/openapi.yaml%00.txt", "/openapi.yaml\0.txt", false),
            ("/x%01", "/x\u{1}", false),
            ("/x%7F", "/x\u{7F}", false),
            ("/x\u{1}", "/x\u{1}", false),       // raw control byte
            ("/x%FF", "/x\u{FFFD}", false),      // not UTF-8 once decoded
            ("/x%C3", "/x\u{FFFD}", false),      // a truncated sequence
        ]
        for (target, decoded, valid) in rows {
            let result = unescape(target)
            XCTAssertEqual(result.0, decoded, target)
            XCTAssertEqual(result.1, valid, target)
        }
    }

    /// Random targets, long and short, against the rules spelled out one byte at a time: the word
    /// test that lets plain targets through untouched must agree with the decoding.
    func testRandomTargetsMatchTheRules() {
        var generator = SplitMix64(seed: 3986)  // seeded: a rerun draws the same values
        let pieces: [[UInt8]] = [Array("/v1/curve".utf8), Array("abcXYZ09-._~".utf8), [0x25], Array("%41".utf8),
                                 Array("%c3%a9".utf8), Array("%00".utf8), Array("%7f".utf8), [0x01], [0x1F], [0x20],
                                 [0x7E], [0x7F], [0x80], [0xC3, 0xA9], [0xFF], Array("%zz".utf8)]
        for _ in 0..<20_000 {
            var target: [UInt8] = [0x2F]
            for _ in 0..<Int.random(in: 0...6, using: &generator) { target += pieces.randomElement(using: &generator)! }
            // The rules: %HH decodes, anything else stays; a control byte or bytes that are not UTF-8 refuse.
            var decoded: [UInt8] = []
            var i = 0
            while i < target.count {
                if target[i] == 0x25, i + 2 < target.count, let high = TargetUnescaping.hexValue(target[i + 1]),
                   let low = TargetUnescaping.hexValue(target[i + 2]) {
                    decoded.append(high << 4 | low)
                    i += 3
                } else {
                    decoded.append(target[i])
                    i += 1
                }
            }
            let valid = !decoded.contains { $0 < 0x20 || $0 == 0x7F } && String(validating: decoded, as: UTF8.self) != nil
            var bytes = target.map { CChar(bitPattern: $0) } + [0]
            let (length, verdict) = bytes.withUnsafeMutableBufferPointer { TargetUnescaping.unescape($0.baseAddress!) }
            XCTAssertEqual(bytes.prefix(length).map { UInt8(bitPattern: $0) }, decoded, "\(target)")
            XCTAssertEqual(verdict, valid, "\(target)")
        }
    }
}
