@testable import SegueEngine
import XCTest

/// Animator commands that UIKit would reject, as a table (docs/rules.md "Commands", rule 13).
/// Each row is a `SceneError.illegalCommand` naming the command by its index in the spec's
/// `commands` (not its rank after sorting by `at`), the state at the command's time and `allowed`
/// — every op accepted there without error, no-ops included, compared as a set. (The codec turns
/// it into a 422 problem pointing at `/commands/<i>`; the rows that are JSON validation — an
/// unknown animation id, a negative time — are SegueCodecTests' CommandValidationTests.)
final class IllegalCommandTests: XCTestCase {
    /// Rule 13's table, no-ops included.
    static let allowed: [AnimatorState: Set<String>] = [
        .inactive: ["start", "pause", "fraction", "reverse", "addAnimations"],
        .running: ["pause", "stop", "reverse", "fraction", "addAnimations", "start"],
        .paused: ["start", "stop", "reverse", "fraction", "continue", "addAnimations", "pause"],
        .stopped: ["finish"],
    ]

    struct Row {
        var name: String
        var autostart = true
        /// The spec's `commands`, all for animation `a` (index 0).
        var commands: [SceneSpec.Command]
        /// The index of the refused command.
        var command: Int
        var state: AnimatorState
    }

    static let rows: [Row] = [
        Row(name: "finish while running",
            commands: [.at(0.2, .finish(.end))],
            command: 0, state: .running),
        Row(name: "finish while running, listed after a later command",
            commands: [.at(0.6, .pause), .at(0.3, .finish(.current))],
            command: 1, state: .running),
        Row(name: "continue while inactive", autostart: false,
            commands: [.at(0.1, .continue(nil, durationFactor: 1))],
            command: 0, state: .inactive),
        Row(name: "continue while running",
            commands: [.at(0.1, .continue(nil, durationFactor: 0.5))],
            command: 0, state: .running),
        Row(name: "stop on a stopped animator",
            commands: [.at(0.2, .stop(withoutFinishing: false)), .at(0.3, .stop(withoutFinishing: true))],
            command: 1, state: .stopped),
        Row(name: "start right after a stop at the same time (ties in array order)",
            commands: [.at(0.2, .stop(withoutFinishing: false)), .at(0.2, .start(delay: 0))],
            command: 1, state: .stopped),
        Row(name: "fraction on a stopped animator",
            commands: [.at(0.2, .stop(withoutFinishing: false)), .at(0.3, .fraction(0.5))],
            command: 1, state: .stopped),
        Row(name: "finish while paused",
            commands: [.at(0.2, .pause), .at(0.3, .finish(.end))],
            command: 1, state: .paused),
        Row(name: "stop while inactive", autostart: false,
            commands: [.at(0.1, .stop(withoutFinishing: true))],
            command: 0, state: .inactive),
        Row(name: "finish after the animator completed (inactive)",
            commands: [.at(1.5, .finish(.end))],
            command: 0, state: .inactive),
        // `{"op": "retarget", "to": {"x": 50}}` on a block animation: the codec reads a physics
        // op on a block animation no further (an empty target); the state machine refuses it.
        Row(name: "retarget on a block animation",
            commands: [.at(0.2, .retarget(target: [], velocity: nil))],
            command: 0, state: .running),
    ]

    /// View `v` with x = 0 and a linear 1 s animation `a` taking it to 100.
    static func spec(autostart: Bool, commands: [SceneSpec.Command]) -> SceneSpec {
        SceneSpec(views: [.init("v", .numbers("x", 0))],
                  animations: [.block(id: "a", view: "v", to: [.numbers("x", 100)], duration: 1, timing: .linear,
                                      autostart: autostart)],
                  commands: commands)
    }

    /// Rule 13: every row of the table is refused naming the command, the state it met and the
    /// ops allowed there.
    func testIllegalCommandsAreRefusedNamingTheCommandStateAndAllowedOps() throws {
        for row in Self.rows {
            guard let error = refusal(Self.spec(autostart: row.autostart, commands: row.commands)) else {
                XCTFail("\(row.name): compiled")
                continue
            }
            guard case .illegalCommand(let command, let operation, let state, let allowed) = error else {
                XCTFail("\(row.name): \(error)")
                continue
            }
            XCTAssertEqual(command, row.command, "\(row.name): \(error)")
            XCTAssertEqual(operation, row.commands[row.command].operation.name, "\(row.name): \(error)")
            XCTAssertEqual(state, row.state, "\(row.name): \(error)")
            XCTAssertEqual(Set(allowed), Self.allowed[row.state], "\(row.name): \(error)")
            XCTAssertEqual(allowed.count, Self.allowed[row.state]?.count, "\(row.name): no duplicates in `allowed`")
        }
    }

    /// Rule 13: `allowed` lists the no-ops, so they are accepted — `start` on a running animator
    /// and `pause` on a paused one compile, change nothing and emit no event (events list state
    /// changes).
    func testNoOpsAreAcceptedAndEmitNothing() throws {
        let scene = try compile(Self.spec(autostart: true, commands: [
            .at(0.2, .start(delay: 0)),
            .at(0.4, .pause),
            .at(0.5, .pause),
            .at(0.6, .start(delay: 0)),
        ]))
        let events = scene.events.map(\.event)
        XCTAssertEqual(events.map(\.kind), [.start, .pause, .start, .completion])
        XCTAssertEqual(events.map(\.command), [nil, 1, 3, nil])
        for (event, t) in zip(events, [0, 0.4, 0.6, 1.2]) {
            XCTAssertEqual(event.t, t, accuracy: 1e-12)
        }
    }
}
