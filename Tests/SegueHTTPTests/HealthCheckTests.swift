import XCTest
@testable import SegueHTTP

/// `segue healthcheck`'s probe and the listening address it follows (docs/cli.md "Listening
/// address and health check"): a wildcard is probed on its family's loopback, `::` is dual stack.
final class HealthCheckTests: XCTestCase {
    /// A wildcard, however spelt, becomes the loopback of its family; any other address stays.
    func testAWildcardIsReachedOnTheLoopbackOfItsFamily() throws {
        let cases = [("::", "::1"), ("0::0", "::1"), ("0:0:0:0:0:0:0:0", "::1"), ("0.0.0.0", "127.0.0.1"),
                     ("::1", "::1"), ("127.0.0.1", "127.0.0.1"), ("localhost", "127.0.0.1"),
                     ("10.0.0.5", "10.0.0.5"), ("fe80::1", "fe80::1"), ("::ffff:0.0.0.0", "::ffff:0.0.0.0")]
        for (host, probed) in cases {
            var address = try SocketAddress(reaching: host, port: 8080)
            XCTAssertEqual(address.withSockaddr { SocketAddress.host(of: $0) }, probed, host)
        }
        XCTAssertThrowsError(try SocketAddress(reaching: "example.com", port: 8080))
    }

    /// The options accept address literals and `localhost`, never a name or a scoped address.
    func testOnlyLiteralsAreAccepted() {
        for host in ["::", "::1", "0.0.0.0", "127.0.0.1", "localhost", "fe80::1:2"] {
            XCTAssertTrue(ListenConfiguration.accepts(host: host), host)
        }
        for host in ["", "example.com", "::1%lo", "[::1]", "127.0.0.1:80", "256.0.0.1", " ::1"] {
            XCTAssertFalse(ListenConfiguration.accepts(host: host), host)
        }
        XCTAssertEqual(ListenConfiguration.urlHost("::"), "[::]")
        XCTAssertEqual(ListenConfiguration.urlHost("127.0.0.1"), "127.0.0.1")
    }

    /// `::` answers on both loopbacks; `::1` on IPv6 alone; `127.0.0.1` on IPv4 alone.
    func testTheProbeFollowsTheFamiliesTheServerListensOn() throws {
        let expected = [("::", ["::": true, "::1": true, "0.0.0.0": true, "127.0.0.1": true]),
                        ("::1", ["::": true, "::1": true, "0.0.0.0": false, "127.0.0.1": false]),
                        ("127.0.0.1", ["::": false, "::1": false, "0.0.0.0": true, "127.0.0.1": true])]
        for (listening, probes) in expected {
            var listen = ListenConfiguration()
            (listen.host, listen.port, listen.threads, listen.workers) = (listening, 0, 1, 1)
            let server = HTTPServer(service: SegueService(configuration: ServiceConfiguration()), listen: listen)
            try server.start()
            defer { server.shutdown(drainSeconds: 1) }
            for (host, answers) in probes {
                XCTAssertEqual(HealthCheck.run(host: host, port: server.port), answers, "listening on \(listening), probing \(host)")
            }
        }
    }
}
