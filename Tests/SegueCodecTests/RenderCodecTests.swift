import SegueEngine
import XCTest
@testable import SegueCodec
import SegueJSON

/// The render route's codec around the engine (docs/rules.md "The render route", rules 12 and
/// 23): where the engine's and the decoder's warnings point in the request, and how a decoded
/// render is written. The scenarios themselves are SegueEngineTests' (on `Scene`).
final class RenderCodecTests: XCTestCase {
    func decode(_ json: String) throws -> RenderRequest {
        try RenderRequest.decode(RequestDocument.parse(Array(json.utf8), limits: Limits()), limits: Limits())
    }

    /// A scene warning on a target points at the member that named it, one on a command at the
    /// command; a keyframe track's warning at its member (RenderScenarioTests' singular matrix and
    /// mismatched keyTimes, AnimatorScenarioTests' linear scrub).
    func testWarningsPointIntoTheRequest() throws {
        let singular = try decode("""
        {"at": [0, 0.49, 0.5, 1], "views": {"card": {"transform": {"matrix": [0, 0, 0, 0, 0, 0]}}},
         "animations": [{"view": "card", "duration": 1, "timing": "linear", "to": {"transform": {"matrix": [1, 0, 0, 1, 0, 0]}}}]}
        """)
        XCTAssertEqual(singular.warnings.first?.pointer.description, "/animations/0/to/transform")
        let keyTimes = try decode("""
        {"at": [0, 0.25, 0.5, 1], "views": {"v": {"x": 0}},
         "animations": [{"view": "v", "duration": 1, "timing": "linear", "channel": "x", "values": [0, 10, 30],
                         "keyTimes": [0, 1]}]}
        """)
        XCTAssertEqual(keyTimes.warnings.map(\.pointer.description), ["/animations/0/keyTimes"])
        let scrub = try decode("""
        {"views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 2, "timing": "easeInOut", "autostart": false, "to": {"x": 110}}],
         "commands": [{"at": 0.1, "animation": "a", "op": "fraction", "value": 0.2},
                      {"at": 0.5, "animation": "a", "op": "start"}]}
        """)
        XCTAssertEqual(scrub.warnings.map(\.pointer.description), ["/commands/1"])
        XCTAssertTrue(scrub.warnings.allSatisfy { !$0.detail.isEmpty })
    }

    func testCSVColumns() throws {
        let request = try decode("""
        {"at": [0, 1], "views": {"card": {"frame": [0, 0, 10, 10], "transform": {"rotation": 0}, "tint": [1, 2]}},
         "animations": [{"view": "card", "duration": 1, "timing": "linear", "to": {"frame": [0, 10, 10, 10]}}]}
        """)
        let lines = String(decoding: try RenderResponse(request).csv().bytes(), as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.first, "t,card.frame.x,card.frame.y,card.frame.w,card.frame.h,card.transform.a,card.transform.b,"
                       + "card.transform.c,card.transform.d,card.transform.tx,card.transform.ty,card.tint.0,card.tint.1")
        XCTAssertEqual(lines.last, "1,0,10,10,10,1,0,0,1,0,0,1,2")
    }
}
