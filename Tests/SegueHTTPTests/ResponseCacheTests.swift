import Foundation
import XCTest
@testable import SegueHTTP

/// Identical requests are answered from the cache with identical bytes; anything the body
/// depends on keeps entries apart; the bounds hold.
final class ResponseCacheTests: XCTestCase {
    func post(_ service: SegueService, _ json: String, headers: [String: String] = [:], query: [String: String] = [:]) -> HTTPResponse {
        service.respond(to: HTTPRequest(method: "POST", path: "/v1/curve", query: query, headers: headers, body: Array(json.utf8)))
    }

    func testHitsAreIdenticalAndRevalidate() throws {
        let service = SegueService()
        let first = post(service, #"{"timing": "ease", "samples": 5}"#)
        XCTAssertNotNil(service.cache.lookup(try XCTUnwrap(ResponseCache.key(for: HTTPRequest(
            method: "POST", path: "/v1/curve", body: Array(#"{"timing": "ease", "samples": 5}"#.utf8))))))
        let second = post(service, #"{"timing": "ease", "samples": 5}"#)
        XCTAssertEqual(second.body, first.body)
        XCTAssertEqual(second.header("ETag"), first.header("ETag"))
        let tag = try XCTUnwrap(first.header("ETag"))
        XCTAssertEqual(post(service, #"{"timing": "ease", "samples": 5}"#, headers: ["if-none-match": tag]).status, 304)
    }

    func testVariantsStayApart() {
        let service = SegueService()
        let json = post(service, #"{"timing": "ease", "samples": 200}"#)
        let csv = post(service, #"{"timing": "ease", "samples": 200}"#, query: ["format": "csv"])
        let gzip = post(service, #"{"timing": "ease", "samples": 200}"#, headers: ["accept-encoding": "gzip"])
        XCTAssertEqual(json.header("Content-Type"), "application/json")
        XCTAssertEqual(csv.header("Content-Type"), "text/csv; charset=utf-8")
        XCTAssertEqual(gzip.header("Content-Encoding"), "gzip")
        XCTAssertNil(post(service, #"{"timing": "ease", "samples": 200}"#).header("Content-Encoding"))
        XCTAssertEqual(post(service, #"{"timing": "ease", "samples": 200}"#, query: ["format": "csv"]).body, csv.body)
    }

    /// An empty `format` is not an absent one: whatever was asked before, `?format=` is a 406
    /// and no `format` is JSON (the cache once answered both from one entry).
    func testEmptyAndAbsentQueryStayApart() {
        let body = #"{"timing": "ease", "samples": 3}"#
        for order in [["absent", "empty"], ["empty", "absent"]] {
            let service = SegueService()
            for which in order {
                let response = post(service, body, query: which == "empty" ? ["format": ""] : [:])
                XCTAssertEqual(response.status, which == "empty" ? 406 : 200, "\(which) after \(order)")
            }
        }
    }

    func testBoundsAndOff() {
        var configuration = ServiceConfiguration()
        configuration.cacheEntries = 2
        let small = SegueService(configuration: configuration)
        for samples in 2...5 { _ = post(small, #"{"timing": "ease", "samples": \#(samples)}"#) }
        func cached(_ service: SegueService, _ samples: Int) -> Bool {
            service.cache.lookup(ResponseCache.key(for: HTTPRequest(method: "POST", path: "/v1/curve",
                body: Array(#"{"timing": "ease", "samples": \#(samples)}"#.utf8)))!) != nil
        }
        XCTAssertEqual((2...5).map { cached(small, $0) }, [false, false, true, true], "the oldest are evicted first")
        configuration.cacheEntries = 0
        let off = SegueService(configuration: configuration)
        _ = post(off, #"{"timing": "ease", "samples": 5}"#)
        XCTAssertFalse(cached(off, 5))
    }
}
