import Foundation
import XCTest
@testable import SegueHTTP

/// Physics driven by commands through `POST /v1/render` (API.md §4 "Physics animations", §6
/// rules 20–22): the interactive pane — dragged, released with a velocity, tapped mid-flight.
final class PhysicsScenarioTests: XCTestCase {
    let service = SegueService()

    func render(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try renderObject(service, json, file: file, line: line)
    }

    func series(_ body: [String: Any], _ section: String, _ channel: String) throws -> [[Double]] {
        let views = try XCTUnwrap(body[section] as? [String: Any])
        return try XCTUnwrap((views["pane"] as? [String: Any])?[channel] as? [[Double]])
    }

    static let closed = 500.0, open = 100.0, release = 0.2, tap = 0.4

    /// The finger moves the pane up at exactly 800 pt/s for 0.2 s, so the least-squares release
    /// velocity is −800 (rule 22); released upward it opens; a tap 0.2 s later sends it closed.
    static func paneRequest(at times: [Double]) -> String {
        let samples = stride(from: 0.0, through: release + 1e-12, by: 0.02).map { t in "[\(t), 160, \(closed - 800 * t)]" }
        return """
        {"at": [\(times.map { "\($0)" }.joined(separator: ","))], "velocities": true,
         "views": {"pane": {"center": [160, \(closed)]}},
         "animations": [{"id": "pane", "view": "pane", "to": {"center": [160, \(closed)]}, "autostart": false,
                         "dynamics": {"model": "attachment", "frequency": 3.5, "damping": 0.4}}],
         "commands": [{"at": 0, "animation": "pane", "op": "drag", "samples": [\(samples.joined(separator: ","))]},
                      {"at": \(release), "animation": "pane", "op": "retarget", "to": [160, \(open)]},
                      {"at": \(tap), "animation": "pane", "op": "retarget", "to": {"center": [160, \(closed)]}}]}
        """
    }

    func testPaneDraggedReleasedUpwardAndTappedKeepsItsVelocityAndSettlesClosed() throws {
        let h = 1e-5
        let times = [0.1, Self.release, Self.tap - 2 * h, Self.tap - h, Self.tap, 3]
        let body = try render(Self.paneRequest(at: times))
        let center = try series(body, "views", "center"), velocity = try series(body, "velocity", "center")

        // During the drag the pane follows the finger (linear between samples).
        XCTAssertEqual(center[0][1], Self.closed - 80, accuracy: 1e-9)
        XCTAssertEqual(velocity[0][1], -800, accuracy: 1e-6)
        // Released at the last sample with the least-squares velocity, heading for `open`.
        XCTAssertEqual(center[1][1], Self.closed - 160, accuracy: 1e-9)
        XCTAssertEqual(velocity[1][1], -800, accuracy: 1e-6)
        // No jump at the tap: the left limit, extrapolated from two samples before it, meets the
        // right-hand value (a jump would be hundreds of pt/s; the extrapolation error is ~h²·x‴).
        let left = 2 * velocity[3][1] - velocity[2][1]
        XCTAssertEqual(velocity[4][1], left, accuracy: 1e-2)
        XCTAssertGreaterThan(abs(velocity[4][1]), 1, "the pane is still moving when tapped")
        XCTAssertEqual(velocity[4][0], 0)
        // It settles closed, exactly.
        XCTAssertEqual(center[5], [160, Self.closed])
        XCTAssertEqual(velocity[5], [0, 0])

        let events = try XCTUnwrap(body["events"] as? [[String: Any]])
        // At the release instant the retarget (a command) takes effect first, changing the target
        // the release heads for (rule 1: commands before what happens by itself).
        XCTAssertEqual(events.map { $0["type"] as? String }, ["grab", "retarget", "release", "retarget", "completion"])
        XCTAssertEqual(events.map { $0["command"] as? Int }, [0, 1, 0, 2, nil])
        XCTAssertEqual(events.map { $0["t"] as? Double }.prefix(4), [0, Self.release, Self.release, Self.tap])
        let animator = try XCTUnwrap((body["animators"] as? [String: Any])?["pane"] as? [String: Any])
        XCTAssertTrue(animator["fraction"] is NSNull)
        XCTAssertEqual(animator["state"] as? [String], ["running", "running", "running", "running", "running", "inactive"])
    }

    /// An autostart's delay (rule 8): `start` at the autostart, `running` through the delay though
    /// nothing moves until it ends.
    func testPhysicsAutostartDelayIsRunningAndStill() throws {
        let body = try render("""
        {"at": [0, 0.1, 0.3], "views": {"pane": {"center": [0, 0]}},
         "animations": [{"id": "p", "view": "pane", "delay": 0.2, "to": {"center": [0, 100]}, "dynamics": {"model": "spring"}}]}
        """)
        let center = try series(body, "views", "center")
        XCTAssertEqual(center[1], [0, 0])
        XCTAssertGreaterThan(center[2][1], 0)
        let events = try XCTUnwrap(body["events"] as? [[String: Any]])
        XCTAssertEqual(events.first?["type"] as? String, "start")
        XCTAssertEqual(events.first?["t"] as? Double, 0)
        let animator = try XCTUnwrap((body["animators"] as? [String: Any])?["p"] as? [String: Any])
        XCTAssertEqual(animator["state"] as? [String], ["running", "running", "running"])
    }

    /// Rule 1 across animations: at one instant a command (another animation's pause) comes
    /// before a drag's release.
    func testADragReleaseComesAfterCommandsAtTheSameInstant() throws {
        let body = try render("""
        {"fps": 2, "views": {"pane": {"center": [0, 0]}, "v": {"alpha": 0}},
         "animations": [{"id": "p", "view": "pane", "to": {"center": [0, 100]}, "dynamics": {"model": "spring"}, "autostart": false},
                        {"id": "a", "view": "v", "duration": 0.5, "delay": 0.5, "to": {"alpha": 1}}],
         "commands": [{"at": 0.5, "animation": "p", "op": "drag", "samples": [[0.5, 0, 0], [1, 0, 10]]},
                      {"at": 1, "animation": "a", "op": "pause"}]}
        """)
        let events = try XCTUnwrap(body["events"] as? [[String: Any]])
        let atOne = events.filter { $0["t"] as? Double == 1 }.map { "\($0["animation"] ?? "") \($0["type"] ?? "")" }
        XCTAssertEqual(atOne, ["a pause", "p release"])
    }

    /// Rule 4: a decay's velocity is the derivative of its position (POP's formula), checked
    /// against a central difference of the values.
    func testDecayVelocityIsTheDerivativeOfItsPosition() throws {
        let t = 0.005, h = 1e-7  // it stops at ln(5 / 1000) / (1000 ln 0.5) ≈ 7.6 ms
        let body = try render("""
        {"at": [\(t - h), \(t), \(t + h)], "velocities": true, "views": {"pane": {"center": [0, 0]}},
         "animations": [{"id": "d", "view": "pane", "channel": "center", "velocity": [1000, 0], "dynamics": {"model": "decay", "deceleration": 0.5}}]}
        """)
        let x = try series(body, "views", "center").map { $0[0] }, v = try series(body, "velocity", "center").map { $0[0] }
        XCTAssertEqual(v[1], (x[2] - x[0]) / (2 * h), accuracy: 1e-3 * abs(v[1]))
        // POP's formula differentiated by hand: v0·d^(1000t)·d·ln(1/d)/(1 − d).
        XCTAssertEqual(v[1], 1000 * pow(0.5, 1000 * t) * 0.5 * log(2) / 0.5, accuracy: 1e-9)
    }

    /// A decay has no target to change; a physics animation takes only retarget, drag and stop.
    func testPhysicsRefusesBlockAnimatorCommandsNamingItsState() throws {
        let json = """
        {"views": {"pane": {"center": [0, 0]}},
         "animations": [{"id": "p", "view": "pane", "to": {"center": [0, 100]}, "dynamics": {"model": "spring"}}],
         "commands": [{"at": 0.1, "animation": "p", "op": "reverse"}]}
        """
        let response = service.respond(to: HTTPRequest(method: "POST", path: "/v1/render", body: Array(json.utf8)))
        XCTAssertEqual(response.status, 422)
        let problem = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual(problem["pointer"] as? String, "/commands/0")
        XCTAssertEqual(problem["state"] as? String, "running")
        XCTAssertEqual(problem["allowed"] as? [String], ["retarget", "drag", "stop"])
    }
}
