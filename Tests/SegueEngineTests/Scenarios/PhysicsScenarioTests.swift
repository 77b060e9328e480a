import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Physics driven by commands on a compiled `Scene` (docs/rules.md "Physics animations", rules
/// 20–22): the interactive pane — dragged, released with a velocity, tapped mid-flight.
final class PhysicsScenarioTests: XCTestCase {
    static let closed = 500.0, open = 100.0, release = 0.2, tap = 0.4

    /// The finger moves the pane up at exactly 800 pt/s for 0.2 s, so the least-squares release
    /// velocity is −800 (rule 22); released upward it opens; a tap 0.2 s later sends it closed.
    static func pane() -> SceneSpec {
        let samples = stride(from: 0.0, through: release + 1e-12, by: 0.02).map { t in DragSample(t: t, value: [160, closed - 800 * t]) }
        return SceneSpec(
            views: [.init("pane", .numbers("center", 160, closed))],
            animations: [.physics(id: "pane", view: "pane", channel: "center",
                                  model: .attachment(frequency: 3.5, dampingRatio: 0.4), target: [160, closed], autostart: false)],
            commands: [.at(0, .drag(samples)),
                       .at(release, .retarget(target: [160, open], velocity: nil)),
                       // `"to": {"center": [160, closed]}`: the one-entry map form names the same target.
                       .at(tap, .retarget(target: [160, closed], velocity: nil))])
    }

    func testPaneDraggedReleasedUpwardAndTappedKeepsItsVelocityAndSettlesClosed() throws {
        let h = 1e-5
        let times = [0.1, Self.release, Self.tap - 2 * h, Self.tap - h, Self.tap, 3]
        let scene = try compile(Self.pane())
        let center = try scene.values("pane", "center", at: times), velocity = try scene.velocities("pane", "center", at: times)

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

        let events = scene.events.map(\.event)
        // At the release instant the retarget (a command) takes effect first, changing the target
        // the release heads for (rule 1: commands before what happens by itself).
        XCTAssertEqual(events.map(\.kind), [.grab, .retarget, .release, .retarget, .completion])
        XCTAssertEqual(events.map(\.command), [0, 1, 0, 2, nil])
        XCTAssertEqual(events.map(\.t).prefix(4), [0, Self.release, Self.release, Self.tap])
        let animator = try scene.animator("pane")
        XCTAssertTrue(animator.isPhysics, "no fraction (rule 18)")
        XCTAssertEqual(times.map(animator.state(at:)), [.running, .running, .running, .running, .running, .inactive])
    }

    /// An autostart's delay (rule 8): `start` at the autostart, `running` through the delay though
    /// nothing moves until it ends.
    func testPhysicsAutostartDelayIsRunningAndStill() throws {
        let at = [0, 0.1, 0.3]
        let scene = try compile(SceneSpec(
            views: [.init("pane", .numbers("center", 0, 0))],
            animations: [.physics(id: "p", view: "pane", channel: "center", model: .defaultSpring, target: [0, 100], delay: 0.2)]))
        let center = try scene.values("pane", "center", at: at)
        XCTAssertEqual(center[1], [0, 0])
        XCTAssertGreaterThan(center[2][1], 0)
        let events = scene.events.map(\.event)
        XCTAssertEqual(events.first?.kind, .start)
        XCTAssertEqual(events.first?.t, 0)
        let animator = try scene.animator("p")
        XCTAssertEqual(at.map(animator.state(at:)), [.running, .running, .running])
    }

    /// Rule 1 across animations: at one instant a command (another animation's pause) comes
    /// before a drag's release.
    func testADragReleaseComesAfterCommandsAtTheSameInstant() throws {
        let scene = try compile(SceneSpec(
            views: [.init("pane", .numbers("center", 0, 0)), .init("v", .numbers("alpha", 0))],
            animations: [.physics(id: "p", view: "pane", channel: "center", model: .defaultSpring, target: [0, 100],
                                  autostart: false),
                         .block(id: "a", view: "v", to: [.numbers("alpha", 1)], duration: 0.5, delay: 0.5)],
            commands: [.at(0.5, .drag([DragSample(t: 0.5, value: [0, 0]), DragSample(t: 1, value: [0, 10])]), animation: 0),
                       .at(1, .pause, animation: 1)]))
        let atOne = scene.events.filter { $0.event.t == 1 }.map { "\(scene.id(of: $0)) \($0.event.kind)" }
        XCTAssertEqual(atOne, ["a pause", "p release"])
    }

    /// Rule 4: a decay's velocity is the derivative of its position (POP's formula), checked
    /// against a central difference of the values.
    func testDecayVelocityIsTheDerivativeOfItsPosition() throws {
        let t = 0.005, h = 1e-7  // it stops at ln(5 / 1000) / (1000 ln 0.5) ≈ 7.6 ms
        let at = [t - h, t, t + h]
        let scene = try compile(SceneSpec(
            views: [.init("pane", .numbers("center", 0, 0))],
            animations: [.physics(id: "d", view: "pane", channel: "center", model: .decay(deceleration: 0.5), target: nil,
                                  velocity: [1000, 0])]))
        let x = try scene.values("pane", "center", at: at).map { $0[0] }, v = try scene.velocities("pane", "center", at: at).map { $0[0] }
        XCTAssertEqual(v[1], (x[2] - x[0]) / (2 * h), accuracy: 1e-3 * abs(v[1]))
        // POP's formula differentiated by hand: v0·d^(1000t)·d·ln(1/d)/(1 − d).
        XCTAssertEqual(v[1], 1000 * pow(0.5, 1000 * t) * 0.5 * log(2) / 0.5, accuracy: 1e-9)
    }

    /// A physics animation takes only retarget, drag and stop: a block animator's op is refused
    /// naming the chain's state (rule 20).
    func testPhysicsRefusesBlockAnimatorCommandsNamingItsState() throws {
        let error = refusal(SceneSpec(
            views: [.init("pane", .numbers("center", 0, 0))],
            animations: [.physics(id: "p", view: "pane", channel: "center", model: .defaultSpring, target: [0, 100])],
            commands: [.at(0.1, .reverse(true))]))
        // The codec points this at /commands/0 with `state` and `allowed`.
        XCTAssertEqual(error, .illegalCommand(command: 0, operation: "reverse", state: .running,
                                              allowed: ["retarget", "drag", "stop"]))
    }
}
