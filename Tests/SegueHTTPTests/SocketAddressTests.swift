import XCTest
@testable import SegueHTTP
#if canImport(Glibc)
import Glibc
#endif

/// `SocketAddress`: host literals in, the client's host out as text (the fair queue's key).
final class SocketAddressTests: XCTestCase {
    /// Each literal is parsed into a socket address and read back by `host(of:)` as the same text;
    /// `localhost` is 127.0.0.1; IPv6 comes back as `inet_ntop` spells it (hex groups, a mapped IPv4
    /// address dotted), the longest of them (39 characters) not cut.
    func testHostTextReadsBackWhatWasParsed() throws {
        let cases = [("127.0.0.1", "127.0.0.1", false), ("localhost", "127.0.0.1", false),
                     ("10.20.30.40", "10.20.30.40", false), ("::1", "::1", true),
                     ("fe80::1:2", "fe80::1:2", true),
                     ("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true),
                     ("::ffff:192.168.1.1", "::ffff:192.168.1.1", true)]
        for (literal, expected, isIPv6) in cases {
            var address = try SocketAddress(host: literal, port: 8080)
            XCTAssertEqual(address.isIPv6, isIPv6, literal)
            XCTAssertEqual(address.withSockaddr { SocketAddress.host(of: $0) }, expected, literal)
        }
    }

    func testUnknownAddressesAreEmptyAndNamesAreRefused() {
        XCTAssertEqual(SocketAddress.host(of: nil), "")
        var unix = sockaddr()
        unix.sa_family = sa_family_t(AF_UNIX)
        XCTAssertEqual(withUnsafePointer(to: &unix) { SocketAddress.host(of: $0) }, "")
        XCTAssertThrowsError(try SocketAddress(host: "example.com", port: 80))
    }
}
