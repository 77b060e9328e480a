import Foundation
import SegueTestSupport
import XCTest
@testable import SegueHTTP

/// `GET /` (docs/playground.md): one document whose inline style sheet and script are exactly what
/// its `Content-Security-Policy` admits, and the SHA-256 and Base64 that spell those hashes.
/// The page's behaviour in a browser is `Tests/Browser/playground.py`'s.
final class PlaygroundTests: XCTestCase {
    let service = SegueService()

    /// FIPS 180-4's examples (NIST's "SHA256.pdf" and "SHA2_Additional.pdf").
    func testSHA256MatchesTheStandardsExamples() {
        let cases: [(String, String)] = [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
            (String(repeating: "a", count: 1_000_000), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
            // 55, 56 and 64 bytes: the padding's edge cases (one block, two blocks, a full block).
            (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        ]
        for (message, hex) in cases {
            XCTAssertEqual(Self.hex(SHA256.digest(Array(message.utf8))), hex, "\(message.prefix(20))… (\(message.count) bytes)")
        }
    }

    /// RFC 4648 §10's vectors, and random bytes against Foundation's encoder.
    func testBase64MatchesRFC4648() {
        for (text, encoded) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                                ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")] {
            XCTAssertEqual(Base64.encode(Array(text.utf8)), encoded)
        }
        var generator = SplitMix64(seed: 0xBA5E_64)
        for count in 0..<100 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            XCTAssertEqual(Base64.encode(bytes), Data(bytes).base64EncodedString())
        }
    }

    func testThePageIsOneDocumentWhoseInlinePartsItsPolicyAdmits() throws {
        let response = service.respond(to: HTTPRequest(method: "GET", path: "/"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/html; charset=utf-8")
        XCTAssertEqual(response.header("X-Content-Type-Options"), "nosniff")
        XCTAssertNotNil(response.header("ETag"))
        let policy = try XCTUnwrap(response.header("Content-Security-Policy"))
        XCTAssertTrue(policy.hasPrefix("default-src 'none'; "), policy)
        XCTAssertFalse(policy.contains("unsafe"), policy)
        XCTAssertTrue(policy.contains("connect-src 'self'"), policy)

        let html = String(decoding: response.body, as: UTF8.self)
        XCTAssertFalse(html.contains("/*STYLE*/") || html.contains("/*SCRIPT*/"), "a placeholder is left")
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "the page refers outside itself")
        let style = try XCTUnwrap(Self.inline("style", in: html))
        let script = try XCTUnwrap(Self.inline("script", in: html))
        XCTAssertGreaterThan(script.count, 1000)
        // The hashes, computed by coreutils' sha256sum and Foundation's Base64: independent of the
        // code under test.
        XCTAssertTrue(policy.contains("style-src 'sha256-\(try Self.coreutilsHash(style))'"), policy)
        XCTAssertTrue(policy.contains("script-src 'sha256-\(try Self.coreutilsHash(script))'"), policy)
    }

    func testThePageIsTaggedCompressedAndOnlyRead() throws {
        let gzipped = service.respond(to: HTTPRequest(method: "GET", path: "/", headers: ["accept-encoding": "gzip"]))
        XCTAssertEqual(gzipped.header("Content-Encoding"), "gzip")
        XCTAssertLessThan(gzipped.body.count, PlaygroundPage.shared.body.count / 2)
        let head = service.respond(to: HTTPRequest(method: "HEAD", path: "/"))
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Security-Policy"), PlaygroundPage.shared.contentSecurityPolicy)
        let tag = try XCTUnwrap(head.header("ETag"))
        let again = service.respond(to: HTTPRequest(method: "GET", path: "/", headers: ["if-none-match": tag]))
        XCTAssertEqual(again.status, 304)
        let post = service.respond(to: HTTPRequest(method: "POST", path: "/", body: Array("{}".utf8)))
        XCTAssertEqual(post.status, 405)
        XCTAssertEqual(post.header("Allow"), "GET, HEAD, OPTIONS")
    }

    /// The text between `<tag>` and `</tag>`, when the page has exactly one such element.
    static func inline(_ tag: String, in html: String) -> String? {
        let parts = html.components(separatedBy: "<\(tag)>")
        guard parts.count == 2, let end = parts[1].range(of: "</\(tag)>") else { return nil }
        return String(parts[1][..<end.lowerBound])
    }

    static func coreutilsHash(_ text: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let hex = Array(printed.prefix(64))
        let bytes = stride(from: 0, to: 64, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! }
        return Data(bytes).base64EncodedString()
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
