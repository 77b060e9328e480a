import Foundation
import XCTest
@testable import SegueHTTP

/// Large renders are written while they are sent (chunked), byte-identical to the whole body.
final class StreamingTests: XCTestCase {
    let body = """
    {"fps": 1000, "until": 20, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1}},
     "animations": [{"id": "present", "view": "card", "duration": 0.8,
                     "timing": {"type": "spring", "dampingRatio": 0.6}, "to": {"frame": [0, 0, 320, 568]}}]}
    """

    func testLargeRenderStreamsTheSameBytesWithATagAndRevalidates() throws {
        let service = SegueService()
        let direct = service.respond(to: HTTPRequest(method: "POST", path: "/v1/render", body: Array(body.utf8)))
        XCTAssertNotNil(direct.stream, "a 20,001-frame render is over the streaming threshold")
        let whole = try direct.collectedBody()
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(whole)) as? [String: Any])
        XCTAssertEqual(parsed["frameCount"] as? Int, 20_001)

        let server = try LiveServer()
        let live = try server.post("/v1/render", json: body)
        XCTAssertEqual(live.status, 200)
        XCTAssertEqual(live.header("Transfer-Encoding"), "chunked")
        XCTAssertEqual(live.body, whole)
        let tag = try XCTUnwrap(live.header("ETag"))
        XCTAssertEqual(tag, direct.header("ETag"))
        // The tag comes from the request, not from a first writing of the bytes.
        let request = HTTPRequest(method: "POST", path: "/v1/render", body: Array(body.utf8))
        XCTAssertEqual(tag, EntityTag.make(source: RepresentationSource(request), contentType: "application/json", contentCoding: nil))
        XCTAssertEqual(try server.post("/v1/render", json: body, headers: [("If-None-Match", tag)]).status, 304)
        // Another render streams under another tag.
        let other = try server.post("/v1/render", json: body.replacingOccurrences(of: "\"until\": 20", with: "\"until\": 19"))
        XCTAssertEqual(other.status, 200)
        XCTAssertNotEqual(other.header("ETag"), tag)
    }

    /// A render whose numbers overflow is a 422 naming the channel before anything is sent, even
    /// when its body would stream: it is sampled whole before its status.
    func testALargeRenderThatOverflowsIsA422NotABrokenStream() throws {
        let overflowing = """
        {"fps": 1000, "until": 20, "views": {"card": {"center": [-1e308, 0]}},
         "animations": [{"id": "a", "view": "card", "duration": 19.5, "timing": "linear", "to": {"center": [1e308, 0]}}]}
        """
        let direct = SegueService().respond(to: HTTPRequest(method: "POST", path: "/v1/render", body: Array(overflowing.utf8)))
        XCTAssertEqual(direct.status, 422)
        XCTAssertNil(direct.stream)
        let live = try LiveServer().post("/v1/render", json: overflowing)
        XCTAssertEqual(live.status, 422)
        XCTAssertEqual(live.header("Content-Type"), "application/problem+json")
        let problem = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(live.body)) as? [String: Any])
        XCTAssertTrue((problem["detail"] as? String)?.contains("center") == true, "\(problem)")
    }

    /// Asked for gzip, a streamed body is coded piece by piece while it is sent: one gzip member
    /// whose content is the identity body, tagged from the request and the coding.
    func testStreamedBodyIsGzippedWhenAsked() throws {
        let whole = try SegueService().respond(to: HTTPRequest(method: "POST", path: "/v1/render", body: Array(body.utf8)))
            .collectedBody()
        let server = try LiveServer()
        let live = try server.post("/v1/render", json: body, headers: [("Accept-Encoding", "gzip")])
        XCTAssertEqual(live.status, 200)
        XCTAssertEqual(live.header("Transfer-Encoding"), "chunked")
        XCTAssertEqual(live.header("Content-Encoding"), "gzip")
        XCTAssertLessThan(live.body.count, whole.count / 3)
        XCTAssertEqual(GzipTests.gunzip(live.body), whole)
        let request = HTTPRequest(method: "POST", path: "/v1/render", body: Array(body.utf8))
        XCTAssertEqual(live.header("ETag"), EntityTag.make(source: RepresentationSource(request), contentType: "application/json",
                                                           contentCoding: "gzip"))
        XCTAssertNotEqual(live.header("ETag"), EntityTag.make(source: RepresentationSource(request), contentType: "application/json",
                                                              contentCoding: nil))
    }
}
