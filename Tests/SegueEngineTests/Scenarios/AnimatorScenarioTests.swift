import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// UIViewPropertyAnimator commands on a compiled `Scene` (docs/rules.md "Commands", rules 1–4,
/// 8, 9, 13–18). Every expected value is computed here from the contract's formulas — the
/// animator's time fraction f, `from + Δ · timing(f)`, the cubic Bézier of docs/curves.md "Cubic Bézier curves" and the
/// UIKit duration spring of docs/springs.md "UIKit duration-based springs" — never pasted from the implementation's output.
///
/// Conventions of these scenarios: view `v` has the scalar custom channel `x` starting at 10 and
/// every animation `a` takes it to 110 (Δ = 100), so a value reads off its progress directly.
final class AnimatorScenarioTests: XCTestCase {
    // MARK: - Independent models

    typealias Bezier = Reference.Bezier

    // MARK: - Building and reading a scene

    /// View `v` with x = 10 (and y = 50 when `y`), animation `a` taking x to 110, and the commands.
    func spec(duration: Double = 1, timing: TimingCurve = .linear, delay: Double = 0, autostart: Bool = true,
              pausesOnCompletion: Bool = false, scrubsLinearly: Bool = true, y: Bool = false,
              commands: [SceneSpec.Command] = []) -> SceneSpec {
        let view = y ? SceneSpec.View("v", .numbers("x", 10), .numbers("y", 50)) : SceneSpec.View("v", .numbers("x", 10))
        return SceneSpec(views: [view],
                         animations: [.block(id: "a", view: "v", to: [.numbers("x", 110)], duration: duration, timing: timing,
                                             delay: delay, autostart: autostart, pausesOnCompletion: pausesOnCompletion,
                                             scrubsLinearly: scrubsLinearly)],
                         commands: commands)
    }

    struct AnimatorTrack {
        var fraction: [Double]
        var state: [AnimatorState]
        var reversed: [Bool]

        init(_ scene: Scene, _ id: String = "a", at times: [Double]) throws {
            let animator = try scene.animator(id)
            fraction = times.map(animator.fraction(at:))
            state = times.map(animator.state(at:))
            reversed = times.map(animator.reversed(at:))
        }
    }

    struct Event {
        var t: Double
        var kind: AnimatorEvent.Kind
        var command: Int? = nil
        var animation = "a"
        /// Members that must be present with these values when given.
        var position: AnimatorEvent.Position? = nil
        var withoutFinishing: Bool? = nil
        var reversed: Bool? = nil
    }

    /// The whole `events` list, in order: exact times (1e-12: the times are exact in the
    /// contract, not rounded to a frame), kinds, animations, `command` present exactly when a
    /// command caused the event.
    func assertEvents(_ scene: Scene, _ expected: [Event], file: StaticString = #filePath, line: UInt = #line) {
        let events = scene.events
        let summary = events.map { "\($0.event.t) \(scene.id(of: $0)) \($0.event.kind) cmd \($0.event.command.map(String.init) ?? "-")" }
        XCTAssertEqual(events.count, expected.count, "events: \(summary)", file: file, line: line)
        for (got, want) in zip(events, expected) {
            let label = "\(want.kind) at \(want.t) (got \(summary))"
            XCTAssertEqual(got.event.kind, want.kind, label, file: file, line: line)
            XCTAssertEqual(scene.id(of: got), want.animation, label, file: file, line: line)
            XCTAssertEqual(got.event.t, want.t, accuracy: 1e-12, label, file: file, line: line)
            if let command = want.command {
                XCTAssertEqual(got.event.command, command, label, file: file, line: line)
            } else {
                XCTAssertNil(got.event.command, "no command caused \(label)", file: file, line: line)
            }
            if let position = want.position {
                XCTAssertEqual(got.event.position, position, "position of \(label)", file: file, line: line)
            }
            if let flag = want.withoutFinishing {
                XCTAssertEqual(got.event.withoutFinishing, flag, "withoutFinishing of \(label)", file: file, line: line)
            }
            if let flag = want.reversed {
                XCTAssertEqual(got.event.reversed, flag, "reversed of \(label)", file: file, line: line)
            }
        }
    }

    /// True within 1e-9 of a time the engine computes (a completion), where the state at a frame
    /// on that very instant depends on the last bit of a sum; states are checked elsewhere.
    func near(_ t: Double, _ instants: Double...) -> Bool {
        instants.contains { abs(t - $0) < 1e-9 }
    }

    // MARK: - Pause and resume

    /// Rules 1, 3, 4, 13, 14, 18: `pause` at 0.3 s freezes f = 0.3, `start` at 0.5 s resumes
    /// it at 1/duration, so after the resume f = 0.3 + (t − 0.5) and the animator completes at
    /// 1.2 s. On the fps grid (rule 3: `end` = 1.2, frames i/10), commands take effect before the
    /// frame at their time is sampled (rule 1), velocities are right-hand and 0 while paused
    /// (rule 4), and the events carry the causing command's index (rule 18).
    func testPauseAndResumeContinuesFromThePausedFraction() throws {
        let scene = try compile(spec(commands: [.at(0.3, .pause), .at(0.5, .start(delay: 0))]))
        XCTAssertEqual(scene.end, 1.2, accuracy: 1e-9)
        let t = scene.frames(fps: 10)
        XCTAssertEqual(t.count, 13)
        XCTAssertEqual(t, (0...12).map { Double($0) / 10 })
        let x = try scene.scalars("v", "x", at: t)
        let velocity = try scene.velocities("v", "x", at: t).map { $0[0] }
        let track = try AnimatorTrack(scene, at: t)
        for (i, time) in t.enumerated() {
            let f: Double, state: AnimatorState, speed: Double
            if time < 0.3 {
                (f, state, speed) = (time, .running, 100)
            } else if time < 0.5 {
                (f, state, speed) = (0.3, .paused, 0)
            } else if time < 1.2 - 1e-9 {
                (f, state, speed) = (0.3 + (time - 0.5), .running, 100)
            } else {
                (f, state, speed) = (1, .inactive, 0)
            }
            XCTAssertEqual(x[i], 10 + 100 * f, accuracy: 1e-9, "x at \(time)")
            if near(time, 1.2) { continue }
            XCTAssertEqual(velocity[i], speed, accuracy: 1e-6, "velocity at \(time)")
            XCTAssertEqual(track.state[i], state, "state at \(time)")
            XCTAssertFalse(track.reversed[i])
            if state != .inactive { XCTAssertEqual(track.fraction[i], f, accuracy: 1e-9, "fraction at \(time)") }
        }
        assertEvents(scene, [Event(t: 0, kind: .start),
                             Event(t: 0.3, kind: .pause, command: 0),
                             Event(t: 0.5, kind: .start, command: 1),
                             Event(t: 1.2, kind: .completion, position: .end)])
    }

    /// Rule 8: `pause` during the autostart delay freezes what is left of it (0.1 s of 0.2 s),
    /// the animator is running at fraction 0 and contributes nothing during the delay, and the
    /// resume at 0.5 s serves the remaining 0.1 s first: the animation runs 0.6 → 1.6 s.
    func testPauseDuringTheDelayFreezesTheRemainingDelay() throws {
        let at = [0, 0.05, 0.1, 0.3, 0.5, 0.55, 0.6, 1.0, 1.5, 1.7]
        let scene = try compile(spec(delay: 0.2, commands: [.at(0.1, .pause), .at(0.5, .start(delay: 0))]))
        let x = try scene.scalars("v", "x", at: at)
        let track = try AnimatorTrack(scene, at: at)
        for (i, time) in at.enumerated() {
            let expected = time < 0.6 ? 10 : 10 + 100 * min(time - 0.6, 1)
            XCTAssertEqual(x[i], expected, accuracy: 1e-9, "x at \(time)")
            if time < 0.6 { XCTAssertEqual(track.fraction[i], 0, accuracy: 1e-12, "fraction during the delay at \(time)") }
        }
        XCTAssertEqual(track.state, [.running, .running, .paused, .paused, .running, .running, .running, .running,
                                     .running, .inactive])
        assertEvents(scene, [Event(t: 0, kind: .start),
                             Event(t: 0.1, kind: .pause, command: 0),
                             Event(t: 0.5, kind: .start, command: 1),
                             Event(t: 1.6, kind: .completion, position: .end)])
    }

    /// Rule 8: an animation's `delay` applies only to its autostart; a `start` command uses its
    /// own `delay`. With `autostart: false` and `delay: 5` the view holds until `start` at 0.2 s
    /// with delay 0.3 s, and the animation runs 0.5 → 1.5 s.
    func testStartCommandUsesItsOwnDelay() throws {
        let at = [0, 0.2, 0.4, 0.5, 1.0, 1.6]
        let scene = try compile(spec(delay: 5, autostart: false, commands: [.at(0.2, .start(delay: 0.3))]))
        let x = try scene.scalars("v", "x", at: at)
        for (i, time) in at.enumerated() {
            XCTAssertEqual(x[i], 10 + 100 * min(max(time - 0.5, 0), 1), accuracy: 1e-9, "x at \(time)")
        }
        XCTAssertEqual(try AnimatorTrack(scene, at: at).state, [.inactive, .running, .running, .running, .running, .inactive])
        assertEvents(scene, [Event(t: 0.2, kind: .start, command: 0),
                             Event(t: 1.5, kind: .completion, position: .end)])
    }

    // MARK: - Scrubbing

    /// The scrub scenario of rules 13 and 14 with `autostart: false`: `fraction` 0.2 at 0.1 s
    /// makes the inactive animator `paused` (emitting `pause` with its command), `start` at 0.5 s
    /// runs the rest in (1 − 0.2) · 2 s = 1.6 s along the animation's own curve, so f = 0.2 +
    /// (t − 0.5)/2 and completion at 2.1 s. Returns the scene for the variant-specific checks.
    func scrub(timing: TimingCurve, scrubsLinearly: Bool?, pausedProgress: Double, curve: Bezier,
               file: StaticString = #filePath, line: UInt = #line) throws -> Scene {
        let at = [0, 0.05, 0.1, 0.3, 0.5, 0.9, 1.3, 1.7, 2.0, 2.3]
        let scene = try compile(spec(duration: 2, timing: timing, autostart: false, scrubsLinearly: scrubsLinearly ?? true,
                                     commands: [.at(0.1, .fraction(0.2)), .at(0.5, .start(delay: 0))]),
                                file: file, line: line)
        let x = try scene.scalars("v", "x", at: at)
        let track = try AnimatorTrack(scene, at: at)
        for (i, time) in at.enumerated() {
            let expected: Double, f: Double, state: AnimatorState
            if time < 0.1 {
                (expected, f, state) = (10, 0, .inactive)
            } else if time < 0.5 {
                (expected, f, state) = (10 + 100 * pausedProgress, 0.2, .paused)
            } else if time < 2.1 {
                let fraction = 0.2 + (time - 0.5) / 2
                (expected, f, state) = (10 + 100 * curve(fraction), fraction, .running)
            } else {
                (expected, f, state) = (110, 1, .inactive)
            }
            XCTAssertEqual(x[i], expected, accuracy: 1e-7, "x at \(time)", file: file, line: line)
            XCTAssertEqual(track.state[i], state, "state at \(time)", file: file, line: line)
            if time < 2.1 { XCTAssertEqual(track.fraction[i], f, accuracy: 1e-9, "fraction at \(time)", file: file, line: line) }
        }
        XCTAssertEqual(scene.end, 2.1, accuracy: 1e-9, file: file, line: line)
        assertEvents(scene, [Event(t: 0.1, kind: .pause, command: 0),
                             Event(t: 0.5, kind: .start, command: 1),
                             Event(t: 2.1, kind: .completion, position: .end)], file: file, line: line)
        return scene
    }

    /// Rule 14, `scrubsLinearly` true (the default) on an easeInOut animation: while paused the
    /// value is from + Δ · 0.2 (linear in f); on resume it continues from + Δ · timing(f), which
    /// jumps from 30 to 10 + 100 · easeInOut(0.2), and a warning names the jump — on the `start`
    /// command that resumes (command 1).
    func testLinearScrubThenResumeJumpsToTheCurveWithAWarning() throws {
        let scene = try scrub(timing: .easeInOut, scrubsLinearly: nil, pausedProgress: 0.2, curve: .easeInOut)
        XCTAssertGreaterThan(abs(Bezier.easeInOut(0.2) - 0.2), 0.05, "the scenario has a visible jump")
        let list = scene.warnings
        XCTAssertFalse(list.isEmpty, "the jump at the resume is a warning")
        XCTAssertEqual(list.map(\.subject), [.command(1)])
        XCTAssertTrue(list.allSatisfy { !$0.detail.isEmpty })
    }

    /// Rule 14, `scrubsLinearly: false`: the paused value is from + Δ · timing(0.2), the resume
    /// continues on the same curve without a jump, so there is no warning.
    func testCurvedScrubThenResumeHasNoJump() throws {
        let scene = try scrub(timing: .easeInOut, scrubsLinearly: false, pausedProgress: Bezier.easeInOut(0.2), curve: .easeInOut)
        XCTAssertEqual(scene.warnings.count, 0)
    }

    /// Rule 14: a linear scrub of a linear curve does not jump (the two values are equal), so it
    /// warns nothing.
    func testLinearScrubOfALinearCurveWarnsNothing() throws {
        let scene = try scrub(timing: .linear, scrubsLinearly: true, pausedProgress: 0.2, curve: .linear)
        XCTAssertEqual(scene.warnings.count, 0)
    }

    /// Rule 13: `fraction` on a running animator pauses it first and emits `pause` (with the
    /// command); then `start` runs the rest, (1 − 0.2) · 1 s, from f = 0.2.
    func testFractionOnARunningAnimatorPausesFirst() throws {
        let at = [0, 0.2, 0.4, 0.5, 0.6, 1.0, 1.3, 1.5]
        let scene = try compile(spec(commands: [.at(0.4, .fraction(0.2)), .at(0.6, .start(delay: 0))]))
        let x = try scene.scalars("v", "x", at: at)
        for (i, time) in at.enumerated() {
            let f = time < 0.4 ? time : time < 0.6 ? 0.2 : min(0.2 + (time - 0.6), 1)
            XCTAssertEqual(x[i], 10 + 100 * f, accuracy: 1e-9, "x at \(time)")
        }
        XCTAssertEqual(try AnimatorTrack(scene, at: at).state, [.running, .running, .paused, .paused, .running, .running,
                                                                .running, .inactive])
        assertEvents(scene, [Event(t: 0, kind: .start),
                             Event(t: 0.4, kind: .pause, command: 0),
                             Event(t: 0.6, kind: .start, command: 1),
                             Event(t: 1.4, kind: .completion, position: .end)])
    }

    // MARK: - Reverse

    /// Rule 14: `reverse` at 60 % of a 2 s easeInOut animation makes f run back at −1/duration,
    /// so the value retraces from + Δ · easeInOut(f) to `from` in 0.6 · 2 s = 1.2 s; completion
    /// with position `start` at 2.4 s; `reversed` is true on every frame from the reverse on,
    /// and the `reverse` event carries `reversed: true` (rule 18).
    func testReverseWhileRunningRetracesTheCurveToTheStart() throws {
        let scene = try compile(spec(duration: 2, timing: .easeInOut, commands: [.at(1.2, .reverse(true))]))
        XCTAssertEqual(scene.end, 2.4, accuracy: 1e-9)
        let t = scene.frames(fps: 10)
        XCTAssertEqual(t.count, 25)
        let x = try scene.scalars("v", "x", at: t)
        let track = try AnimatorTrack(scene, at: t)
        let ease = Bezier.easeInOut
        for (i, time) in t.enumerated() {
            let f = time < 1.2 ? time / 2 : max(0.6 - (time - 1.2) / 2, 0)
            XCTAssertEqual(x[i], 10 + 100 * ease(f), accuracy: 1e-7, "x at \(time)")
            XCTAssertEqual(track.reversed[i], time >= 1.2, "reversed at \(time)")
            if near(time, 2.4) { continue }
            XCTAssertEqual(track.state[i], time < 2.4 ? .running : .inactive, "state at \(time)")
            XCTAssertEqual(track.fraction[i], f, accuracy: 1e-9, "fraction at \(time)")
        }
        // Retracing: the value d after the reverse equals the value d before it.
        XCTAssertEqual(x[14], x[10], accuracy: 1e-9)
        XCTAssertEqual(x.last ?? .nan, 10, accuracy: 1e-9, "back at from")
        assertEvents(scene, [Event(t: 0, kind: .start),
                             Event(t: 1.2, kind: .reverse, command: 0, reversed: true),
                             Event(t: 2.4, kind: .completion, position: .start)])
    }

    // MARK: - Stop and finish

    /// "Commands" and rules 13, 17, 18: `stop(withoutFinishing: false)` at 0.4 s leaves the
    /// animator `stopped` with the values where they are (50); `finish` at 0.6 s with position
    /// `current` / `start` / `end` completes it (`inactive`) with the values staying at 50 /
    /// jumping to from (10) / jumping to to (110), and a `completion` event with that position,
    /// caused by the finish command (index 1).
    func testStopWithoutFinishingFalseThenFinishAtEachPosition() throws {
        let at = [0, 0.2, 0.4, 0.5, 0.6, 0.8]
        for (position, final) in [(AnimatorEvent.Position.current, 50.0), (.start, 10.0), (.end, 110.0)] {
            let scene = try compile(spec(commands: [.at(0.4, .stop(withoutFinishing: false)), .at(0.6, .finish(position))]))
            let x = try scene.scalars("v", "x", at: at)
            let expected = [10, 30, 50, 50, final, final]
            for (i, time) in at.enumerated() {
                XCTAssertEqual(x[i], expected[i], accuracy: 1e-9, "\(position): x at \(time)")
            }
            XCTAssertEqual(try AnimatorTrack(scene, at: at).state, [.running, .running, .stopped, .stopped, .inactive, .inactive],
                           "\(position)")
            XCTAssertEqual(scene.end, 0.6, accuracy: 1e-12, "\(position)")
            assertEvents(scene, [Event(t: 0, kind: .start),
                                 Event(t: 0.4, kind: .stop, command: 0, withoutFinishing: false),
                                 Event(t: 0.6, kind: .completion, command: 1, position: position)])
        }
    }

    /// Rule 17: `stop` with `withoutFinishing: true` (also the default) leaves the values where
    /// they are and the animator `inactive`, with no completion ever; `end` is the stop (rule 2:
    /// the time an animator entered a state it never leaves).
    func testStopWithoutFinishingLeavesTheValuesAndNoCompletion() throws {
        let at = [0, 0.2, 0.4, 0.7, 1.0, 1.5]
        // `{"op": "stop", "withoutFinishing": true}` and `{"op": "stop"}` both decode to stop(true).
        for (member, operation) in [("withoutFinishing: true", SceneSpec.Operation.stop(withoutFinishing: true)),
                                    ("the default", .stop(withoutFinishing: true))] {
            let scene = try compile(spec(commands: [.at(0.4, operation)]))
            let x = try scene.scalars("v", "x", at: at)
            for (i, time) in at.enumerated() {
                XCTAssertEqual(x[i], 10 + 100 * min(time, 0.4), accuracy: 1e-9, "x at \(time) \(member)")
            }
            XCTAssertEqual(try AnimatorTrack(scene, at: at).state, [.running, .running, .inactive, .inactive, .inactive, .inactive])
            XCTAssertEqual(scene.end, 0.4, accuracy: 1e-12)
            assertEvents(scene, [Event(t: 0, kind: .start),
                                 Event(t: 0.4, kind: .stop, command: 0, withoutFinishing: true)])
        }
    }

    // MARK: - Continue

    /// Rule 15 with a UIKit dampingRatio spring: a 2 s linear animation paused at 0.5 s
    /// (f = 0.25, presented 35) and continued at 0.75 s with `{"type": "spring", "dampingRatio":
    /// 0.5}` and durationFactor 0.5 runs from 35 to 110 in (1 − 0.25) · 2 · 0.5 = 0.75 s, its
    /// progress the UIKit spring whose duration is that window, with initialVelocity 0 (the
    /// animator was paused: current velocity 0). It overshoots, shows `to` exactly from 1.5 s on,
    /// and the `continue` event carries its command.
    func testContinueWithASpringRunsTheRemainingWindowScaledByTheFactor() throws {
        let at = [0, 0.25, 0.5, 0.6, 0.75, 0.8, 0.85, 0.9, 0.95, 0.964, 1.0, 1.1, 1.2, 1.3, 1.4, 1.45, 1.55, 1.7]
        // No `initialVelocity` given: nil, the current velocity over the remaining distance.
        let scene = try compile(spec(duration: 2, commands: [
            .at(0.5, .pause),
            .at(0.75, .continue(.durationSpring(dampingRatio: 0.5, initialVelocity: nil), durationFactor: 0.5)),
        ]))
        let x = try scene.scalars("v", "x", at: at)
        let track = try AnimatorTrack(scene, at: at)
        let window = (1 - 0.25) * 2 * 0.5
        var overshoot = false
        for (i, time) in at.enumerated() {
            if time < 0.5 {
                XCTAssertEqual(x[i], 10 + 50 * time, accuracy: 1e-9, "x at \(time)")
                XCTAssertEqual(track.state[i], .running)
            } else if time < 0.75 {
                XCTAssertEqual(x[i], 35, accuracy: 1e-9, "x at \(time)")
                XCTAssertEqual(track.state[i], .paused)
            } else if time < 0.75 + window {
                let p = Reference.uikitSpring(ratio: 0.5, duration: window, at: time - 0.75)
                XCTAssertEqual(x[i], 35 + 75 * p, accuracy: 75 * 1e-7, "x at \(time)")
                XCTAssertEqual(track.state[i], .running, "state at \(time)")
                if x[i] > 110 { overshoot = true }
            } else {
                XCTAssertEqual(x[i], 110, "exactly to from the end of the window, at \(time)")
                XCTAssertEqual(track.state[i], .inactive, "state at \(time)")
            }
        }
        XCTAssertTrue(overshoot, "a damping ratio of 0.5 overshoots")
        XCTAssertEqual(scene.end, 1.5, accuracy: 1e-9)
        assertEvents(scene, [Event(t: 0, kind: .start),
                             Event(t: 0.5, kind: .pause, command: 0),
                             Event(t: 0.75, kind: .continue, command: 1),
                             Event(t: 1.5, kind: .completion, position: .end)])
    }

    /// Rule 15 without `timing`: the animator's own curve resumes at f at speed
    /// 1 / durationFactor. A 2 s easeInOut animation (scrubsLinearly false, so the paused value is
    /// on the curve too — rule 14) paused at 0.5 s (f = 0.25) and continued at 0.75 s follows
    /// f = 0.25 + (t − 0.75) / (2 · factor) and completes at 0.75 + 0.75 · 2 · factor.
    func testContinueWithoutTimingResumesTheOwnCurveAtTheFactorsSpeed() throws {
        let ease = Bezier.easeInOut
        for factor in [0.5, 2.0] {
            let completion = 0.75 + 0.75 * 2 * factor
            let steps: [Double] = (1...8).map { (k: Int) -> Double in 0.75 + Double(k) / 8 * (completion - 0.75) }
            var at: [Double] = [0, 0.5, 0.6, 0.75]
            at += steps
            at.append(completion + 0.1)
            let scene = try compile(spec(duration: 2, timing: .easeInOut, scrubsLinearly: false,
                                         commands: [.at(0.5, .pause), .at(0.75, .continue(nil, durationFactor: factor))]))
            let x = try scene.scalars("v", "x", at: at)
            let track = try AnimatorTrack(scene, at: at)
            for (i, time) in at.enumerated() {
                let f = time < 0.5 ? time / 2 : time < 0.75 ? 0.25 : min(0.25 + (time - 0.75) / (2 * factor), 1)
                XCTAssertEqual(x[i], 10 + 100 * ease(f), accuracy: 1e-7, "factor \(factor): x at \(time)")
                if time < completion - 1e-9 {
                    XCTAssertEqual(track.fraction[i], f, accuracy: 1e-9, "factor \(factor): fraction at \(time)")
                    XCTAssertEqual(track.state[i], time >= 0.5 && time < 0.75 ? .paused : .running)
                } else if !near(time, completion) {
                    XCTAssertEqual(track.state[i], .inactive)
                }
            }
            assertEvents(scene, [Event(t: 0, kind: .start),
                                 Event(t: 0.5, kind: .pause, command: 0),
                                 Event(t: 0.75, kind: .continue, command: 1),
                                 Event(t: completion, kind: .completion, position: .end)])
        }
    }

    // MARK: - pausesOnCompletion

    /// Rule 17 (and 2, 13): with `pausesOnCompletion` reaching the end emits `pause` (no
    /// command, no completion) and the animator stays `paused` at 110; `reverse` + `start` at 1.5 s
    /// run it back to `from` in 1 s. Reaching the start in reverse is also the end of the run, so
    /// it pauses again at 2.5 s (UIKit keeps a pausesOnCompletion animator active in either
    /// direction) — never a `completion`; `end` is that last pause.
    func testPausesOnCompletionThenReverseRunsBackToTheStart() throws {
        let at = [0, 0.5, 1.0, 1.2, 1.5, 2.0, 2.5, 2.7]
        let scene = try compile(spec(pausesOnCompletion: true, commands: [.at(1.5, .reverse(true)), .at(1.5, .start(delay: 0))]))
        let x = try scene.scalars("v", "x", at: at)
        let track = try AnimatorTrack(scene, at: at)
        let f = at.map { $0 < 1 ? $0 : $0 < 1.5 ? 1 : max(1 - ($0 - 1.5), 0) }
        for (i, time) in at.enumerated() {
            XCTAssertEqual(x[i], 10 + 100 * f[i], accuracy: 1e-9, "x at \(time)")
            XCTAssertEqual(track.fraction[i], f[i], accuracy: 1e-9, "fraction at \(time)")
            XCTAssertEqual(track.reversed[i], time >= 1.5, "reversed at \(time)")
        }
        XCTAssertEqual(track.state, [.running, .running, .paused, .paused, .running, .running, .paused, .paused])
        XCTAssertEqual(scene.end, 2.5, accuracy: 1e-9)
        assertEvents(scene, [Event(t: 0, kind: .start),
                             Event(t: 1, kind: .pause),
                             Event(t: 1.5, kind: .reverse, command: 0, reversed: true),
                             Event(t: 1.5, kind: .start, command: 1),
                             Event(t: 2.5, kind: .pause)])
    }

    // MARK: - addAnimations

    /// Rule 16 (and 9): `addAnimations` with delayFactor 0.5 at f = 0.5 of a linear 1 s
    /// animation on `x` animates ANOTHER channel, `y`, of the same view: its block starts after
    /// 0.5 · (1 − 0.5) · 1 s, at 0.75 s, from y's presented value (50), and ends with the
    /// animator at 1 s, following the animator's (linear) timing over [0.75, 1]. One completion.
    func testAddAnimationsWithDelayFactorHalfWay() throws {
        let at = [0, 0.5, 0.6, 0.75, 0.8, 0.9, 0.95, 1.0, 1.1]
        let scene = try compile(spec(y: true, commands: [.at(0.5, .addAnimations(delayFactor: 0.5, to: [.numbers("y", 150)]))]))
        let x = try scene.scalars("v", "x", at: at), y = try scene.scalars("v", "y", at: at)
        for (i, time) in at.enumerated() {
            XCTAssertEqual(x[i], 10 + 100 * min(time, 1), accuracy: 1e-9, "x at \(time)")
            XCTAssertEqual(y[i], 50 + 100 * min(max((time - 0.75) / 0.25, 0), 1), accuracy: 1e-9, "y at \(time)")
        }
        assertEvents(scene, [Event(t: 0, kind: .start),
                             Event(t: 0.5, kind: .addAnimations, command: 0),
                             Event(t: 1, kind: .completion, position: .end)])
    }

    /// Rule 16, "follows the animator's timing curve over its own window", read as
    /// progress = timing((t − blockStart) / (blockEnd − blockStart)): an easeInOut animator gets
    /// the same added block at f = 0.5 and `y` follows easeInOut over [0.75, 1] from 50 to 150.
    func testAddedBlockFollowsTheAnimatorsCurveOverItsOwnWindow() throws {
        let at = [0, 0.5, 0.75, 0.8, 0.85, 0.875, 0.9, 0.95, 1.0]
        let scene = try compile(spec(timing: .easeInOut, y: true,
                                     commands: [.at(0.5, .addAnimations(delayFactor: 0.5, to: [.numbers("y", 150)]))]))
        let x = try scene.scalars("v", "x", at: at), y = try scene.scalars("v", "y", at: at)
        let ease = Bezier.easeInOut
        for (i, time) in at.enumerated() {
            XCTAssertEqual(x[i], 10 + 100 * ease(time), accuracy: 1e-7, "x at \(time)")
            XCTAssertEqual(y[i], 50 + 100 * ease((time - 0.75) / 0.25), accuracy: 1e-7, "y at \(time)")
        }
    }

    /// Rule 16: on a paused animator the added block's window begins when the animator
    /// resumes. Paused at 0.5 s (f = 0.5), `addAnimations` at 0.6 s (delayFactor 0.5), `start` at
    /// 1 s: the animator runs 1 → 1.5 s, the block 1 + 0.5 · 0.5 · 1 = 1.25 → 1.5 s.
    func testAddAnimationsOnAPausedAnimatorWaitsForTheResume() throws {
        let at = [0, 0.5, 0.6, 1.0, 1.2, 1.25, 1.3, 1.4, 1.5, 1.6]
        let scene = try compile(spec(y: true, commands: [
            .at(0.5, .pause),
            .at(0.6, .addAnimations(delayFactor: 0.5, to: [.numbers("y", 150)])),
            .at(1.0, .start(delay: 0)),
        ]))
        let x = try scene.scalars("v", "x", at: at), y = try scene.scalars("v", "y", at: at)
        for (i, time) in at.enumerated() {
            let f = time < 0.5 ? time : time < 1 ? 0.5 : min(0.5 + (time - 1), 1)
            XCTAssertEqual(x[i], 10 + 100 * f, accuracy: 1e-9, "x at \(time)")
            XCTAssertEqual(y[i], 50 + 100 * min(max((time - 1.25) / 0.25, 0), 1), accuracy: 1e-9, "y at \(time)")
        }
        assertEvents(scene, [Event(t: 0, kind: .start),
                             Event(t: 0.5, kind: .pause, command: 0),
                             Event(t: 0.6, kind: .addAnimations, command: 1),
                             Event(t: 1.0, kind: .start, command: 2),
                             Event(t: 1.5, kind: .completion, position: .end)])
    }
}
