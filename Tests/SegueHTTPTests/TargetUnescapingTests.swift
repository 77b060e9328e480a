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
}
