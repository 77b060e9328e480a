import SegueEngine
import XCTest
@testable import SegueCodec
import SegueJSON

/// Commands through the render decoder (docs/rules.md "Commands", "Conventions"): the rows of
/// the illegal-command table that are JSON validation — an unknown animation id, a negative
/// time — are 422 problems pointing at the member at fault; a refusal of the engine's state
/// machine (SegueEngineTests' IllegalCommandTests) becomes a 422 `illegal-command` problem
/// pointing at `/commands/<i>` with `state` and `allowed`.
final class CommandValidationTests: XCTestCase {
    /// View `v` with x = 0, a linear 1 s animation `a` taking it to 100, and the commands.
    static func request(autostart: Bool = true, commands: [String]) -> String {
        """
        {"views": {"v": {"x": 0}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "autostart": \(autostart), "to": {"x": 100}}],
         "commands": [\(commands.joined(separator: ", "))]}
        """
    }

    func decode(_ json: String) throws(Problem) -> RenderRequest {
        try RenderRequest.decode(RequestDocument.parse(Array(json.utf8), limits: Limits()), limits: Limits())
    }

    /// The problem `json` is refused with; nil (and a failure) when it decodes.
    func problem(_ json: String, file: StaticString = #filePath, line: UInt = #line) -> Problem? {
        do throws(Problem) {
            _ = try decode(json)
            XCTFail("expected a problem", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    /// The problem's kind as its document names it (`type` = the problem base + kind).
    func kind(_ problem: Problem) -> String? {
        guard case .object(let members) = problem.json,
              case .string(let type)? = members.first(where: { $0.key == "type" })?.value else { return nil }
        return type.hasPrefix(Problem.typeBase) ? String(type.dropFirst(Problem.typeBase.count)) : type
    }

    func member(_ problem: Problem, _ key: String) -> JSONValue? {
        problem.extensions.first { $0.key == key }?.value
    }

    struct Row {
        var name: String
        var commands: [String]
        var pointer: String
    }

    static let rows: [Row] = [
        Row(name: "unknown animation id",
            commands: [#"{"at": 0.1, "animation": "nope", "op": "pause"}"#],
            pointer: "/commands/0/animation"),
        Row(name: "unknown animation id in the second command",
            commands: [#"{"at": 0.1, "animation": "a", "op": "pause"}"#, #"{"at": 0.2, "animation": "b", "op": "start"}"#],
            pointer: "/commands/1/animation"),
        Row(name: "command at a negative time",
            commands: [#"{"at": -0.1, "animation": "a", "op": "pause"}"#],
            pointer: "/commands/0/at"),
    ]

    /// Every validation row is a 422 `invalid-request` problem with its exact pointer.
    func testInvalidCommandsAreProblemsPointingAtTheMember() {
        for row in Self.rows {
            guard let problem = problem(Self.request(commands: row.commands)) else { continue }
            XCTAssertEqual(problem.status, 422, "\(row.name): \(problem.detail)")
            XCTAssertEqual(kind(problem), "invalid-request", "\(row.name): \(problem.detail)")
            XCTAssertEqual(problem.pointer, row.pointer, "\(row.name): \(problem.detail)")
        }
    }

    /// Rule 13 on the wire: the engine's refusal is a 422 `illegal-command` whose pointer is the
    /// command's index in the request (1 here, though it is first by `at`), with `state` and
    /// `allowed` (every op accepted while running, no-ops included).
    func testAnIllegalCommandIsAProblemNamingTheCommandStateAndAllowedOps() throws {
        let problem = try XCTUnwrap(problem(Self.request(commands: [
            #"{"at": 0.6, "animation": "a", "op": "pause"}"#,
            #"{"at": 0.3, "animation": "a", "op": "finish", "position": "current"}"#,
        ])))
        XCTAssertEqual(problem.status, 422, problem.detail)
        XCTAssertEqual(kind(problem), "illegal-command", problem.detail)
        XCTAssertEqual(problem.pointer, "/commands/1", problem.detail)
        XCTAssertEqual(member(problem, "state"), .string("running"))
        guard case .array(let allowed)? = member(problem, "allowed") else {
            return XCTFail("`allowed` is a list of op names: \(problem.extensions)")
        }
        let names = allowed.compactMap { value -> String? in
            if case .string(let name) = value { return name }
            return nil
        }
        XCTAssertEqual(Set(names), ["pause", "stop", "reverse", "fraction", "addAnimations", "start"])
        XCTAssertEqual(names.count, allowed.count)
        XCTAssertEqual(names.count, 6, "no duplicates in `allowed`")
    }

    /// The members the engine scenarios take as defaults: `stop` without `withoutFinishing`
    /// stops without finishing, `reverse` without `reversed` reverses.
    func testOmittedCommandMembersTakeTheirDefaults() throws {
        let stopped = try decode(Self.request(commands: [#"{"at": 0.4, "animation": "a", "op": "stop"}"#]))
        let stop = try XCTUnwrap(stopped.scene.events.map(\.event).first { $0.kind == .stop })
        XCTAssertEqual(stop.withoutFinishing, true)
        let reversedRequest = try decode(Self.request(commands: [#"{"at": 0.4, "animation": "a", "op": "reverse"}"#]))
        let reverse = try XCTUnwrap(reversedRequest.scene.events.map(\.event).first { $0.kind == .reverse })
        XCTAssertEqual(reverse.reversed, true)
    }
}
