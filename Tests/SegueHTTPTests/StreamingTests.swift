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
        // The tag is the hash of exactly these bytes: the buffered path gives the same one.
        XCTAssertEqual(tag, EntityTag.make(body: whole, contentType: "application/json", contentCoding: nil))
        XCTAssertEqual(try server.post("/v1/render", json: body, headers: [("If-None-Match", tag)]).status, 304)
    }

    /// Asked for gzip, a streamed body is coded piece by piece while it is sent: one gzip member
    /// whose content is the identity body, tagged like the buffered gzip form (identity bytes and
    /// the coding).
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
        XCTAssertEqual(live.header("ETag"), EntityTag.make(body: whole, contentType: "application/json", contentCoding: "gzip"))
    }

    func testIncrementalTagEqualsWholeTag() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        for split in [0, 1, 7, 8, 9, 500, 999] {
            var tag = EntityTag(contentType: "x", contentCoding: nil)
            tag.update(Array(bytes[..<split]))
            tag.update(Array(bytes[split...]))
            XCTAssertEqual(tag.finish(), EntityTag.make(body: bytes, contentType: "x", contentCoding: nil), "split at \(split)")
        }
    }
}
