import Foundation
import XCTest
@testable import SegueHTTP

/// Animator commands that UIKit would reject, as a table (API.md §1 "422 … illegal animator
/// commands for their state", §4 "Commands", §6 rule 13). Each row is a 422
/// `application/problem+json` whose `pointer` is exactly the one given: `/commands/<i>` (i the
/// command's index in the request array, not its rank after sorting by `at`) for a command the
/// animator's state does not allow — then with members `state` (the state at the command's time)
/// and `allowed` (every op accepted there without error, no-ops included, compared as a set) —
/// and `/commands/<i>/animation` or `/commands/<i>/at` for an unknown animation id or a negative
/// time.
final class IllegalCommandTests: XCTestCase {
    let service = SegueService()

    /// §6 rule 13's table, no-ops included.
    static let allowed: [String: Set<String>] = [
        "inactive": ["start", "pause", "fraction", "reverse", "addAnimations"],
        "running": ["pause", "stop", "reverse", "fraction", "addAnimations", "start"],
        "paused": ["start", "stop", "reverse", "fraction", "continue", "addAnimations", "pause"],
        "stopped": ["finish"],
    ]

    struct Row {
        var name: String
        var autostart = true
        /// The `commands` array's entries, for animation `a` unless they name another.
        var commands: [String]
        var pointer: String
        /// The state a state error names; nil for the other errors.
        var state: String?
    }

    static let rows: [Row] = [
        Row(name: "finish while running",
            commands: [#"{"at": 0.2, "animation": "a", "op": "finish", "position": "end"}"#],
            pointer: "/commands/0", state: "running"),
        Row(name: "finish while running, listed after a later command",
            commands: [#"{"at": 0.6, "animation": "a", "op": "pause"}"#,
                       #"{"at": 0.3, "animation": "a", "op": "finish", "position": "current"}"#],
            pointer: "/commands/1", state: "running"),
        Row(name: "continue while inactive", autostart: false,
            commands: [#"{"at": 0.1, "animation": "a", "op": "continue"}"#],
            pointer: "/commands/0", state: "inactive"),
        Row(name: "continue while running",
            commands: [#"{"at": 0.1, "animation": "a", "op": "continue", "durationFactor": 0.5}"#],
            pointer: "/commands/0", state: "running"),
        Row(name: "unknown animation id",
            commands: [#"{"at": 0.1, "animation": "nope", "op": "pause"}"#],
            pointer: "/commands/0/animation", state: nil),
        Row(name: "unknown animation id in the second command",
            commands: [#"{"at": 0.1, "animation": "a", "op": "pause"}"#, #"{"at": 0.2, "animation": "b", "op": "start"}"#],
            pointer: "/commands/1/animation", state: nil),
        Row(name: "command at a negative time",
            commands: [#"{"at": -0.1, "animation": "a", "op": "pause"}"#],
            pointer: "/commands/0/at", state: nil),
        Row(name: "stop on a stopped animator",
            commands: [#"{"at": 0.2, "animation": "a", "op": "stop", "withoutFinishing": false}"#,
                       #"{"at": 0.3, "animation": "a", "op": "stop"}"#],
            pointer: "/commands/1", state: "stopped"),
        Row(name: "start right after a stop at the same time (ties in array order)",
            commands: [#"{"at": 0.2, "animation": "a", "op": "stop", "withoutFinishing": false}"#,
                       #"{"at": 0.2, "animation": "a", "op": "start"}"#],
            pointer: "/commands/1", state: "stopped"),
        Row(name: "fraction on a stopped animator",
            commands: [#"{"at": 0.2, "animation": "a", "op": "stop", "withoutFinishing": false}"#,
                       #"{"at": 0.3, "animation": "a", "op": "fraction", "value": 0.5}"#],
            pointer: "/commands/1", state: "stopped"),
        Row(name: "finish while paused",
            commands: [#"{"at": 0.2, "animation": "a", "op": "pause"}"#,
                       #"{"at": 0.3, "animation": "a", "op": "finish", "position": "end"}"#],
            pointer: "/commands/1", state: "paused"),
        Row(name: "stop while inactive", autostart: false,
            commands: [#"{"at": 0.1, "animation": "a", "op": "stop"}"#],
            pointer: "/commands/0", state: "inactive"),
        Row(name: "finish after the animator completed (inactive)",
            commands: [#"{"at": 1.5, "animation": "a", "op": "finish", "position": "end"}"#],
            pointer: "/commands/0", state: "inactive"),
        Row(name: "retarget on a block animation",
            commands: [#"{"at": 0.2, "animation": "a", "op": "retarget", "to": {"x": 50}}"#],
            pointer: "/commands/0", state: "running"),
    ]

    func request(autostart: Bool, commands: [String]) -> HTTPRequest {
        let json = """
        {"views": {"v": {"x": 0}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "autostart": \(autostart), "to": {"x": 100}}],
         "commands": [\(commands.joined(separator: ", "))]}
        """
        return HTTPRequest(method: "POST", path: "/v1/render", query: [:], body: Array(json.utf8))
    }

    /// §6 rule 13 and §1: every row of the table is a 422 problem with its exact pointer, and a
    /// state error names the state and the ops allowed there.
    func testIllegalCommandsAreProblemsNamingTheCommandStateAndAllowedOps() throws {
        for row in Self.rows {
            let response = service.respond(to: request(autostart: row.autostart, commands: row.commands))
            let bytes = try response.collectedBody()
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertEqual(response.status, 422, "\(row.name): \(text)")
            XCTAssertTrue(response.header("Content-Type")?.hasPrefix("application/problem+json") ?? false,
                          "\(row.name): \(response.header("Content-Type") ?? "no Content-Type")")
            guard let problem = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                XCTFail("\(row.name): not a JSON object: \(text)")
                continue
            }
            XCTAssertEqual(problem["status"] as? Int, 422, row.name)
            XCTAssertEqual(problem["pointer"] as? String, row.pointer, "\(row.name): \(text)")
            guard let state = row.state else { continue }
            XCTAssertEqual(problem["state"] as? String, state, "\(row.name): \(text)")
            let allowed = problem["allowed"] as? [String]
            XCTAssertNotNil(allowed, "\(row.name): `allowed` is a list of op names: \(text)")
            XCTAssertEqual(allowed.map { Set($0) }, Self.allowed[state], "\(row.name): \(text)")
            XCTAssertEqual(allowed?.count, Self.allowed[state]?.count, "\(row.name): no duplicates in `allowed`")
        }
    }

    /// §6 rule 13: `allowed` lists the no-ops, so they are accepted — `start` on a running
    /// animator and `pause` on a paused one are 200s that change nothing and emit no event
    /// (events list state changes, §4 Response).
    func testNoOpsAreAcceptedAndEmitNothing() throws {
        let response = service.respond(to: request(autostart: true, commands: [
            #"{"at": 0.2, "animation": "a", "op": "start"}"#,
            #"{"at": 0.4, "animation": "a", "op": "pause"}"#,
            #"{"at": 0.5, "animation": "a", "op": "pause"}"#,
            #"{"at": 0.6, "animation": "a", "op": "start"}"#,
        ]))
        let bytes = try response.collectedBody()
        XCTAssertEqual(response.status, 200, String(decoding: bytes, as: UTF8.self))
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let events = try XCTUnwrap(body["events"] as? [[String: Any]])
        XCTAssertEqual(events.map { $0["type"] as? String ?? "?" }, ["start", "pause", "start", "completion"])
        XCTAssertEqual(events.map { $0["command"] as? Int }, [nil, 1, 3, nil])
        for (event, t) in zip(events, [0, 0.4, 0.6, 1.2]) {
            XCTAssertEqual(event["t"] as? Double ?? .nan, t, accuracy: 1e-12)
        }
    }
}
