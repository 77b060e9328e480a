import XCTest
@testable import SegueHTTP

/// The head checks that are pure: the `Transfer-Encoding` list (RFC 9112 §6.1) and field names
/// with whitespace (RFC 9112 §5.1); docs/http.md "Request target".
final class FramingTests: XCTestCase {
    func verdict(_ lines: String...) -> TransferCodings.Verdict {
        var codings = TransferCodings()
        for line in lines { codings.add(line) }
        return codings.verdict
    }

    func isUnframed(_ verdict: TransferCodings.Verdict) -> Bool {
        if case .unframed = verdict { return true }
        return false
    }

    func isUnsupported(_ verdict: TransferCodings.Verdict) -> Bool {
        if case .unsupported = verdict { return true }
        return false
    }

    func testChunkedAloneIsAcceptedInAnyCase() {
        XCTAssertEqual(verdict(), .absent)
        XCTAssertEqual(verdict("chunked"), .chunked)
        XCTAssertEqual(verdict("Chunked"), .chunked)
        XCTAssertEqual(verdict("CHUNKED"), .chunked)
        // Empty elements are no codings (RFC 9110 §5.6.1), and libmicrohttpd reads the first line alone.
        XCTAssertEqual(verdict("chunked", ""), .chunked)
        XCTAssertEqual(verdict("chunked", " , "), .chunked)
    }

    /// chunked not last, twice, or nothing: the body's end cannot be found — 400.
    func testChunkedMustBeLastAndOnce() {
        for lines in [["gzip"], ["chunked, gzip"], ["chunked", "gzip"], ["identity"], ["chunked, chunked"],
                      ["chunked", "chunked"], ["gzip, chunked, chunked"], [""], [" , "], ["chunked;q=1, gzip"]] {
            var codings = TransferCodings()
            for line in lines { codings.add(line) }
            XCTAssertTrue(isUnframed(codings.verdict), "\(lines): \(codings.verdict)")
        }
    }

    /// chunked last, after a coding Segue does not decode, or written in a way libmicrohttpd does
    /// not decode: 501.
    func testOtherCodingsBeforeChunkedAreNotImplemented() {
        for lines in [["gzip, chunked"], ["gzip", "chunked"], ["x-custom ; a=b, chunked"], ["chunked;ext=1"],
                      ["chunked ,"], ["chunked  "], [" chunked"], ["", "chunked"], ["deflate,gzip,chunked"]] {
            var codings = TransferCodings()
            for line in lines { codings.add(line) }
            XCTAssertTrue(isUnsupported(codings.verdict), "\(lines): \(codings.verdict)")
        }
        guard case .unsupported(let detail) = verdict("gzip, chunked") else { return XCTFail() }
        XCTAssertTrue(detail.contains("gzip"), detail)
    }

    func testElementsThatAreNotTokensAreRefused() {
        for line in ["\"chunked\"", "chun ked", "chunked, gz ip", "chunked, @", ";a=b, chunked", "chunked\u{1}"] {
            XCTAssertTrue(isUnframed(verdict(line)), line)
        }
    }

    func testFieldNamesWithWhitespace() {
        func holds(_ name: String) -> Bool { Array(name.utf8).withUnsafeBytes { RequestHead.holdsSpace($0) } }
        for name in ["Host", "Content-Type", "X-Request-Id", "Access-Control-Request-Headers", "a", "", "abcdefgh", "abcdefghi"] {
            XCTAssertFalse(holds(name), name)
        }
        for name in ["Host ", "Host\t", " Host", "X A", "Content-Type ", "Content Type", "abcdefg ", "abcdefgh ",
                     "Access-Control-Request-Header ", "X\u{1}Y"] {
            XCTAssertTrue(holds(name), name)
        }
        // Every position of a space or a tab in names of 1 to 24 bytes.
        for length in 1...24 {
            for position in 0..<length {
                for space: UInt8 in [0x20, 0x09, 0x00, 0x1F] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "k"), count: length)
                    bytes[position] = space
                    XCTAssertTrue(bytes.withUnsafeBytes { RequestHead.holdsSpace($0) }, "\(length) \(position)")
                }
            }
        }
    }

    func testBodyPace() {
        let second: UInt64 = 1_000_000_000
        let pace = BodyPace(grace: 2, minRate: 100)
        XCTAssertFalse(pace.isOverdue(since: 10 * second, received: 0, now: 11 * second))
        XCTAssertTrue(pace.isOverdue(since: 10 * second, received: 0, now: 12 * second))
        // 150 bytes buy 1.5 s more.
        XCTAssertFalse(pace.isOverdue(since: 10 * second, received: 150, now: 13 * second))
        XCTAssertTrue(pace.isOverdue(since: 10 * second, received: 150, now: 13 * second + second / 2))
        // A head read while the round runs: later than its clock.
        XCTAssertFalse(pace.isOverdue(since: 20 * second, received: 0, now: 10 * second))
        // Rate 0: the whole body within the grace, however much has arrived.
        let whole = BodyPace(grace: 2, minRate: 0)
        XCTAssertTrue(whole.isOverdue(since: 10 * second, received: 1 << 30, now: 12 * second))
        XCTAssertEqual(pace.problem.status, 408)
    }
}
