import Foundation
import XCTest
@testable import SegueHTTP

/// UIViewPropertyAnimator commands through `POST /v1/render` (API.md §4 "Commands", §6 rules
/// 1–4, 8, 9, 13–18). Every expected value is computed here from the contract's formulas — the
/// animator's time fraction f, `from + Δ · timing(f)`, the cubic Bézier of curves.md §1 and the
/// UIKit duration spring of springs.md §3 — never pasted from the implementation's output.
///
/// Conventions of these scenarios: view `v` has the scalar custom channel `x` starting at 10 and
/// every animation takes it to 110 (Δ = 100), so a value reads off its progress directly.
final class AnimatorScenarioTests: XCTestCase {
    let service = SegueService()

    // MARK: - Independent models

    typealias Bezier = Reference.Bezier

    /// UIKit's dampingRatio spring over a duration T with initial velocity 0 (springs.md §3):
    /// ω = ln(ζ / (ε√(1−ζ²))) / (ζT), ε = 0.001 — the root UIKit's Newton iteration converges to —
    /// on the CASpringAnimation curve of springs.md §2, and exactly 1 from T on (API.md §3).
    static func uikitSpring(ratio zeta: Double, duration: Double, at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        let omega = log(zeta / (0.001 * (1 - zeta * zeta).squareRoot())) / (zeta * duration)
        let omegaD = omega * (1 - zeta * zeta).squareRoot()
        return 1 - exp(-zeta * omega * t) * (cos(omegaD * t) + zeta * omega / omegaD * sin(omegaD * t))
    }

    // MARK: - Reading a render

    func render(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        try renderObject(service, json, file: file, line: line)
    }

    func times(_ body: [String: Any]) throws -> [Double] {
        try XCTUnwrap(body["t"] as? [Double])
    }

    func scalar(_ body: [String: Any], _ view: String = "v", _ name: String = "x") throws -> [Double] {
        let views = try XCTUnwrap(body["views"] as? [String: Any])
        return try XCTUnwrap((views[view] as? [String: Any])?[name] as? [Double], "\(view).\(name)")
    }

    struct AnimatorTrack {
        var fraction: [Double]
        var state: [String]
        var reversed: [Bool]
    }

    func animator(_ body: [String: Any], _ id: String = "a") throws -> AnimatorTrack {
        let entry = try XCTUnwrap((body["animators"] as? [String: Any])?[id] as? [String: Any], "animators.\(id)")
        return AnimatorTrack(fraction: try XCTUnwrap(entry["fraction"] as? [Double]),
                             state: try XCTUnwrap(entry["state"] as? [String]),
                             reversed: try XCTUnwrap(entry["reversed"] as? [Bool]))
    }

    func warnings(_ body: [String: Any]) throws -> [[String: Any]] {
        try XCTUnwrap(body["warnings"] as? [[String: Any]])
    }

    struct Event {
        var t: Double
        var type: String
        var command: Int? = nil
        var animation = "a"
        /// String members that must be present with these values (`position`).
        var strings: [String: String] = [:]
        /// Boolean members that must be present with these values (`withoutFinishing`, `reversed`).
        var flags: [String: Bool] = [:]
    }

    /// The whole `events` list, in order: exact times (1e-12: the times are exact in the
    /// contract, not rounded to a frame), types, animations, `command` present exactly when a
    /// command caused the event.
    func assertEvents(_ body: [String: Any], _ expected: [Event], file: StaticString = #filePath, line: UInt = #line) throws {
        let events = try XCTUnwrap(body["events"] as? [[String: Any]], file: file, line: line)
        let summary = events.map { "\($0["t"] ?? "?") \($0["animation"] ?? "?") \($0["type"] ?? "?") cmd \($0["command"] ?? "-")" }
        XCTAssertEqual(events.count, expected.count, "events: \(summary)", file: file, line: line)
        for (got, want) in zip(events, expected) {
            let label = "\(want.type) at \(want.t) (got \(summary))"
            XCTAssertEqual(got["type"] as? String, want.type, label, file: file, line: line)
            XCTAssertEqual(got["animation"] as? String, want.animation, label, file: file, line: line)
            XCTAssertEqual(got["t"] as? Double ?? .nan, want.t, accuracy: 1e-12, label, file: file, line: line)
            if let command = want.command {
                XCTAssertEqual(got["command"] as? Int, command, label, file: file, line: line)
            } else {
                XCTAssertNil(got["command"], "no command caused \(label)", file: file, line: line)
            }
            for (key, value) in want.strings {
                XCTAssertEqual(got[key] as? String, value, "\(key) of \(label)", file: file, line: line)
            }
            for (key, value) in want.flags {
                XCTAssertEqual(got[key] as? Bool, value, "\(key) of \(label)", file: file, line: line)
            }
        }
    }

    /// True within 1e-9 of a time the engine computes (a completion), where the state at a frame
    /// on that very instant depends on the last bit of a sum; states are checked elsewhere.
    func near(_ t: Double, _ instants: Double...) -> Bool {
        instants.contains { abs(t - $0) < 1e-9 }
    }

    // MARK: - Pause and resume

    /// §6 rules 1, 3, 4, 13, 14, 18: `pause` at 0.3 s freezes f = 0.3, `start` at 0.5 s resumes
    /// it at 1/duration, so after the resume f = 0.3 + (t − 0.5) and the animator completes at
    /// 1.2 s. On the fps grid (rule 3: `end` = 1.2, frames i/10), commands take effect before the
    /// frame at their time is sampled (rule 1), velocities are right-hand and 0 while paused
    /// (rule 4), and the events carry the causing command's index (rule 18).
    func testPauseAndResumeContinuesFromThePausedFraction() throws {
        let body = try render("""
        {"fps": 10, "velocities": true, "views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "to": {"x": 110}}],
         "commands": [{"at": 0.3, "animation": "a", "op": "pause"},
                      {"at": 0.5, "animation": "a", "op": "start"}]}
        """)
        XCTAssertEqual(body["duration"] as? Double ?? .nan, 1.2, accuracy: 1e-9)
        XCTAssertEqual(body["frameCount"] as? Int, 13)
        let t = try times(body)
        XCTAssertEqual(t, (0...12).map { Double($0) / 10 })
        let x = try scalar(body)
        let velocity = try XCTUnwrap(((body["velocity"] as? [String: Any])?["v"] as? [String: Any])?["x"] as? [Double])
        let track = try animator(body)
        for (i, time) in t.enumerated() {
            let f: Double, state: String, speed: Double
            if time < 0.3 {
                (f, state, speed) = (time, "running", 100)
            } else if time < 0.5 {
                (f, state, speed) = (0.3, "paused", 0)
            } else if time < 1.2 - 1e-9 {
                (f, state, speed) = (0.3 + (time - 0.5), "running", 100)
            } else {
                (f, state, speed) = (1, "inactive", 0)
            }
            XCTAssertEqual(x[i], 10 + 100 * f, accuracy: 1e-9, "x at \(time)")
            if near(time, 1.2) { continue }
            XCTAssertEqual(velocity[i], speed, accuracy: 1e-6, "velocity at \(time)")
            XCTAssertEqual(track.state[i], state, "state at \(time)")
            XCTAssertFalse(track.reversed[i])
            if state != "inactive" { XCTAssertEqual(track.fraction[i], f, accuracy: 1e-9, "fraction at \(time)") }
        }
        try assertEvents(body, [Event(t: 0, type: "start"),
                                Event(t: 0.3, type: "pause", command: 0),
                                Event(t: 0.5, type: "start", command: 1),
                                Event(t: 1.2, type: "completion", strings: ["position": "end"])])
    }

    /// §6 rule 8: `pause` during the autostart delay freezes what is left of it (0.1 s of 0.2 s),
    /// the animator is running at fraction 0 and contributes nothing during the delay, and the
    /// resume at 0.5 s serves the remaining 0.1 s first: the animation runs 0.6 → 1.6 s.
    func testPauseDuringTheDelayFreezesTheRemainingDelay() throws {
        let at = [0, 0.05, 0.1, 0.3, 0.5, 0.55, 0.6, 1.0, 1.5, 1.7]
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "delay": 0.2, "timing": "linear", "to": {"x": 110}}],
         "commands": [{"at": 0.1, "animation": "a", "op": "pause"},
                      {"at": 0.5, "animation": "a", "op": "start"}]}
        """)
        let x = try scalar(body)
        let track = try animator(body)
        for (i, time) in at.enumerated() {
            let expected = time < 0.6 ? 10 : 10 + 100 * min(time - 0.6, 1)
            XCTAssertEqual(x[i], expected, accuracy: 1e-9, "x at \(time)")
            if time < 0.6 { XCTAssertEqual(track.fraction[i], 0, accuracy: 1e-12, "fraction during the delay at \(time)") }
        }
        XCTAssertEqual(track.state, ["running", "running", "paused", "paused", "running", "running", "running", "running",
                                     "running", "inactive"])
        try assertEvents(body, [Event(t: 0, type: "start"),
                                Event(t: 0.1, type: "pause", command: 0),
                                Event(t: 0.5, type: "start", command: 1),
                                Event(t: 1.6, type: "completion", strings: ["position": "end"])])
    }

    /// §6 rule 8: an animation's `delay` applies only to its autostart; a `start` command uses its
    /// own `delay`. With `autostart: false` and `delay: 5` the view holds until `start` at 0.2 s
    /// with delay 0.3 s, and the animation runs 0.5 → 1.5 s.
    func testStartCommandUsesItsOwnDelay() throws {
        let at = [0, 0.2, 0.4, 0.5, 1.0, 1.6]
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "delay": 5, "autostart": false, "timing": "linear",
                         "to": {"x": 110}}],
         "commands": [{"at": 0.2, "animation": "a", "op": "start", "delay": 0.3}]}
        """)
        let x = try scalar(body)
        for (i, time) in at.enumerated() {
            XCTAssertEqual(x[i], 10 + 100 * min(max(time - 0.5, 0), 1), accuracy: 1e-9, "x at \(time)")
        }
        XCTAssertEqual(try animator(body).state, ["inactive", "running", "running", "running", "running", "inactive"])
        try assertEvents(body, [Event(t: 0.2, type: "start", command: 0),
                                Event(t: 1.5, type: "completion", strings: ["position": "end"])])
    }

    // MARK: - Scrubbing

    /// The scrub scenario of §6 rules 13 and 14 with `autostart: false`: `fraction` 0.2 at 0.1 s
    /// makes the inactive animator `paused` (emitting `pause` with its command), `start` at 0.5 s
    /// runs the rest in (1 − 0.2) · 2 s = 1.6 s along the animation's own curve, so f = 0.2 +
    /// (t − 0.5)/2 and completion at 2.1 s. Returns the body for the variant-specific checks.
    func scrub(timing: String, scrubsLinearly: Bool?, pausedProgress: Double, curve: Bezier,
               file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let at = [0, 0.05, 0.1, 0.3, 0.5, 0.9, 1.3, 1.7, 2.0, 2.3]
        let linearly = scrubsLinearly.map { #", "scrubsLinearly": \#($0)"# } ?? ""
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 2, "timing": "\(timing)", "autostart": false\(linearly),
                         "to": {"x": 110}}],
         "commands": [{"at": 0.1, "animation": "a", "op": "fraction", "value": 0.2},
                      {"at": 0.5, "animation": "a", "op": "start"}]}
        """, file: file, line: line)
        let x = try scalar(body)
        let track = try animator(body)
        for (i, time) in at.enumerated() {
            let expected: Double, f: Double, state: String
            if time < 0.1 {
                (expected, f, state) = (10, 0, "inactive")
            } else if time < 0.5 {
                (expected, f, state) = (10 + 100 * pausedProgress, 0.2, "paused")
            } else if time < 2.1 {
                let fraction = 0.2 + (time - 0.5) / 2
                (expected, f, state) = (10 + 100 * curve(fraction), fraction, "running")
            } else {
                (expected, f, state) = (110, 1, "inactive")
            }
            XCTAssertEqual(x[i], expected, accuracy: 1e-7, "x at \(time)", file: file, line: line)
            XCTAssertEqual(track.state[i], state, "state at \(time)", file: file, line: line)
            if time < 2.1 { XCTAssertEqual(track.fraction[i], f, accuracy: 1e-9, "fraction at \(time)", file: file, line: line) }
        }
        XCTAssertEqual(body["duration"] as? Double ?? .nan, 2.1, accuracy: 1e-9, file: file, line: line)
        try assertEvents(body, [Event(t: 0.1, type: "pause", command: 0),
                                Event(t: 0.5, type: "start", command: 1),
                                Event(t: 2.1, type: "completion", strings: ["position": "end"])], file: file, line: line)
        return body
    }

    /// §6 rule 14, `scrubsLinearly` true (the default) on an easeInOut animation: while paused the
    /// value is from + Δ · 0.2 (linear in f); on resume it continues from + Δ · timing(f), which
    /// jumps from 30 to 10 + 100 · easeInOut(0.2), and a warning names the jump — pointing at the
    /// `start` command that resumes (/commands/1).
    func testLinearScrubThenResumeJumpsToTheCurveWithAWarning() throws {
        let body = try scrub(timing: "easeInOut", scrubsLinearly: nil, pausedProgress: 0.2, curve: .easeInOut)
        XCTAssertGreaterThan(abs(Bezier.easeInOut(0.2) - 0.2), 0.05, "the scenario has a visible jump")
        let list = try warnings(body)
        XCTAssertFalse(list.isEmpty, "the jump at the resume is a warning")
        XCTAssertEqual(list.compactMap { $0["pointer"] as? String }, ["/commands/1"])
        XCTAssertTrue(list.allSatisfy { !(($0["detail"] as? String) ?? "").isEmpty })
    }

    /// §6 rule 14, `scrubsLinearly: false`: the paused value is from + Δ · timing(0.2), the
    /// resume continues on the same curve without a jump, so there is no warning.
    func testCurvedScrubThenResumeHasNoJump() throws {
        let body = try scrub(timing: "easeInOut", scrubsLinearly: false, pausedProgress: Bezier.easeInOut(0.2), curve: .easeInOut)
        XCTAssertEqual(try warnings(body).count, 0)
    }

    /// §6 rule 14: a linear scrub of a linear curve does not jump (the two values are equal), so
    /// it warns nothing.
    func testLinearScrubOfALinearCurveWarnsNothing() throws {
        let body = try scrub(timing: "linear", scrubsLinearly: true, pausedProgress: 0.2, curve: .linear)
        XCTAssertEqual(try warnings(body).count, 0)
    }

    /// §6 rule 13: `fraction` on a running animator pauses it first and emits `pause` (with the
    /// command); then `start` runs the rest, (1 − 0.2) · 1 s, from f = 0.2.
    func testFractionOnARunningAnimatorPausesFirst() throws {
        let at = [0, 0.2, 0.4, 0.5, 0.6, 1.0, 1.3, 1.5]
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "to": {"x": 110}}],
         "commands": [{"at": 0.4, "animation": "a", "op": "fraction", "value": 0.2},
                      {"at": 0.6, "animation": "a", "op": "start"}]}
        """)
        let x = try scalar(body)
        for (i, time) in at.enumerated() {
            let f = time < 0.4 ? time : time < 0.6 ? 0.2 : min(0.2 + (time - 0.6), 1)
            XCTAssertEqual(x[i], 10 + 100 * f, accuracy: 1e-9, "x at \(time)")
        }
        XCTAssertEqual(try animator(body).state, ["running", "running", "paused", "paused", "running", "running", "running",
                                                  "inactive"])
        try assertEvents(body, [Event(t: 0, type: "start"),
                                Event(t: 0.4, type: "pause", command: 0),
                                Event(t: 0.6, type: "start", command: 1),
                                Event(t: 1.4, type: "completion", strings: ["position": "end"])])
    }

    // MARK: - Reverse

    /// §6 rule 14: `reverse` at 60 % of a 2 s easeInOut animation makes f run back at −1/duration,
    /// so the value retraces from + Δ · easeInOut(f) to `from` in 0.6 · 2 s = 1.2 s; completion
    /// with position `start` at 2.4 s; `reversed` is true on every frame from the reverse on,
    /// and the `reverse` event carries `reversed: true` (rule 18).
    func testReverseWhileRunningRetracesTheCurveToTheStart() throws {
        let body = try render("""
        {"fps": 10, "views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 2, "timing": "easeInOut", "to": {"x": 110}}],
         "commands": [{"at": 1.2, "animation": "a", "op": "reverse"}]}
        """)
        XCTAssertEqual(body["duration"] as? Double ?? .nan, 2.4, accuracy: 1e-9)
        let t = try times(body)
        XCTAssertEqual(t.count, 25)
        let x = try scalar(body)
        let track = try animator(body)
        let ease = Bezier.easeInOut
        for (i, time) in t.enumerated() {
            let f = time < 1.2 ? time / 2 : max(0.6 - (time - 1.2) / 2, 0)
            XCTAssertEqual(x[i], 10 + 100 * ease(f), accuracy: 1e-7, "x at \(time)")
            XCTAssertEqual(track.reversed[i], time >= 1.2, "reversed at \(time)")
            if near(time, 2.4) { continue }
            XCTAssertEqual(track.state[i], time < 2.4 ? "running" : "inactive", "state at \(time)")
            XCTAssertEqual(track.fraction[i], f, accuracy: 1e-9, "fraction at \(time)")
        }
        // Retracing: the value d after the reverse equals the value d before it.
        XCTAssertEqual(x[14], x[10], accuracy: 1e-9)
        XCTAssertEqual(x.last ?? .nan, 10, accuracy: 1e-9, "back at from")
        try assertEvents(body, [Event(t: 0, type: "start"),
                                Event(t: 1.2, type: "reverse", command: 0, flags: ["reversed": true]),
                                Event(t: 2.4, type: "completion", strings: ["position": "start"])])
    }

    // MARK: - Stop and finish

    /// §4 Commands and §6 rules 13, 17, 18: `stop(withoutFinishing: false)` at 0.4 s leaves the
    /// animator `stopped` with the values where they are (50); `finish` at 0.6 s with position
    /// `current` / `start` / `end` completes it (`inactive`) with the values staying at 50 /
    /// jumping to from (10) / jumping to to (110), and a `completion` event with that position,
    /// caused by the finish command (index 1).
    func testStopWithoutFinishingFalseThenFinishAtEachPosition() throws {
        let at = [0, 0.2, 0.4, 0.5, 0.6, 0.8]
        for (position, final) in [("current", 50.0), ("start", 10.0), ("end", 110.0)] {
            let body = try render("""
            {"at": \(at), "views": {"v": {"x": 10}},
             "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "to": {"x": 110}}],
             "commands": [{"at": 0.4, "animation": "a", "op": "stop", "withoutFinishing": false},
                          {"at": 0.6, "animation": "a", "op": "finish", "position": "\(position)"}]}
            """)
            let x = try scalar(body)
            let expected = [10, 30, 50, 50, final, final]
            for (i, time) in at.enumerated() {
                XCTAssertEqual(x[i], expected[i], accuracy: 1e-9, "\(position): x at \(time)")
            }
            XCTAssertEqual(try animator(body).state, ["running", "running", "stopped", "stopped", "inactive", "inactive"], position)
            XCTAssertEqual(body["duration"] as? Double ?? .nan, 0.6, accuracy: 1e-12, position)
            try assertEvents(body, [Event(t: 0, type: "start"),
                                    Event(t: 0.4, type: "stop", command: 0, flags: ["withoutFinishing": false]),
                                    Event(t: 0.6, type: "completion", command: 1, strings: ["position": position])])
        }
    }

    /// §6 rule 17: `stop` with `withoutFinishing: true` (also the default) leaves the values where
    /// they are and the animator `inactive`, with no completion ever; `end` is the stop (rule 2:
    /// the time an animator entered a state it never leaves).
    func testStopWithoutFinishingLeavesTheValuesAndNoCompletion() throws {
        let at = [0, 0.2, 0.4, 0.7, 1.0, 1.5]
        for member in [#", "withoutFinishing": true"#, ""] {
            let body = try render("""
            {"at": \(at), "views": {"v": {"x": 10}},
             "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "to": {"x": 110}}],
             "commands": [{"at": 0.4, "animation": "a", "op": "stop"\(member)}]}
            """)
            let x = try scalar(body)
            for (i, time) in at.enumerated() {
                XCTAssertEqual(x[i], 10 + 100 * min(time, 0.4), accuracy: 1e-9, "x at \(time) \(member)")
            }
            XCTAssertEqual(try animator(body).state, ["running", "running", "inactive", "inactive", "inactive", "inactive"])
            XCTAssertEqual(body["duration"] as? Double ?? .nan, 0.4, accuracy: 1e-12)
            try assertEvents(body, [Event(t: 0, type: "start"),
                                    Event(t: 0.4, type: "stop", command: 0, flags: ["withoutFinishing": true])])
        }
    }

    // MARK: - Continue

    /// §6 rule 15 with a UIKit dampingRatio spring: a 2 s linear animation paused at 0.5 s
    /// (f = 0.25, presented 35) and continued at 0.75 s with `{"type": "spring", "dampingRatio":
    /// 0.5}` and durationFactor 0.5 runs from 35 to 110 in (1 − 0.25) · 2 · 0.5 = 0.75 s, its
    /// progress the UIKit spring whose duration is that window, with initialVelocity 0 (the
    /// animator was paused: current velocity 0). It overshoots, shows `to` exactly from 1.5 s on,
    /// and the `continue` event carries its command.
    func testContinueWithASpringRunsTheRemainingWindowScaledByTheFactor() throws {
        let at = [0, 0.25, 0.5, 0.6, 0.75, 0.8, 0.85, 0.9, 0.95, 0.964, 1.0, 1.1, 1.2, 1.3, 1.4, 1.45, 1.55, 1.7]
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 2, "timing": "linear", "to": {"x": 110}}],
         "commands": [{"at": 0.5, "animation": "a", "op": "pause"},
                      {"at": 0.75, "animation": "a", "op": "continue", "durationFactor": 0.5,
                       "timing": {"type": "spring", "dampingRatio": 0.5}}]}
        """)
        let x = try scalar(body)
        let track = try animator(body)
        let window = (1 - 0.25) * 2 * 0.5
        var overshoot = false
        for (i, time) in at.enumerated() {
            if time < 0.5 {
                XCTAssertEqual(x[i], 10 + 50 * time, accuracy: 1e-9, "x at \(time)")
                XCTAssertEqual(track.state[i], "running")
            } else if time < 0.75 {
                XCTAssertEqual(x[i], 35, accuracy: 1e-9, "x at \(time)")
                XCTAssertEqual(track.state[i], "paused")
            } else if time < 0.75 + window {
                let p = Self.uikitSpring(ratio: 0.5, duration: window, at: time - 0.75)
                XCTAssertEqual(x[i], 35 + 75 * p, accuracy: 75 * 1e-7, "x at \(time)")
                XCTAssertEqual(track.state[i], "running", "state at \(time)")
                if x[i] > 110 { overshoot = true }
            } else {
                XCTAssertEqual(x[i], 110, "exactly to from the end of the window, at \(time)")
                XCTAssertEqual(track.state[i], "inactive", "state at \(time)")
            }
        }
        XCTAssertTrue(overshoot, "a damping ratio of 0.5 overshoots")
        XCTAssertEqual(body["duration"] as? Double ?? .nan, 1.5, accuracy: 1e-9)
        try assertEvents(body, [Event(t: 0, type: "start"),
                                Event(t: 0.5, type: "pause", command: 0),
                                Event(t: 0.75, type: "continue", command: 1),
                                Event(t: 1.5, type: "completion", strings: ["position": "end"])])
    }

    /// §6 rule 15 without `timing`: the animator's own curve resumes at f at speed
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
            let body = try render("""
            {"at": \(at), "views": {"v": {"x": 10}},
             "animations": [{"id": "a", "view": "v", "duration": 2, "timing": "easeInOut", "scrubsLinearly": false,
                             "to": {"x": 110}}],
             "commands": [{"at": 0.5, "animation": "a", "op": "pause"},
                          {"at": 0.75, "animation": "a", "op": "continue", "durationFactor": \(factor)}]}
            """)
            let x = try scalar(body)
            let track = try animator(body)
            for (i, time) in at.enumerated() {
                let f = time < 0.5 ? time / 2 : time < 0.75 ? 0.25 : min(0.25 + (time - 0.75) / (2 * factor), 1)
                XCTAssertEqual(x[i], 10 + 100 * ease(f), accuracy: 1e-7, "factor \(factor): x at \(time)")
                if time < completion - 1e-9 {
                    XCTAssertEqual(track.fraction[i], f, accuracy: 1e-9, "factor \(factor): fraction at \(time)")
                    XCTAssertEqual(track.state[i], time >= 0.5 && time < 0.75 ? "paused" : "running")
                } else if !near(time, completion) {
                    XCTAssertEqual(track.state[i], "inactive")
                }
            }
            try assertEvents(body, [Event(t: 0, type: "start"),
                                    Event(t: 0.5, type: "pause", command: 0),
                                    Event(t: 0.75, type: "continue", command: 1),
                                    Event(t: completion, type: "completion", strings: ["position": "end"])])
        }
    }

    // MARK: - pausesOnCompletion

    /// §6 rule 17 (and 2, 13): with `pausesOnCompletion` reaching the end emits `pause` (no
    /// command, no completion) and the animator stays `paused` at 110; `reverse` + `start` at 1.5 s
    /// run it back to `from` in 1 s. Reaching the start in reverse is also the end of the run, so
    /// it pauses again at 2.5 s (UIKit keeps a pausesOnCompletion animator active in either
    /// direction) — never a `completion`; `end` is that last pause.
    func testPausesOnCompletionThenReverseRunsBackToTheStart() throws {
        let at = [0, 0.5, 1.0, 1.2, 1.5, 2.0, 2.5, 2.7]
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "pausesOnCompletion": true,
                         "to": {"x": 110}}],
         "commands": [{"at": 1.5, "animation": "a", "op": "reverse"},
                      {"at": 1.5, "animation": "a", "op": "start"}]}
        """)
        let x = try scalar(body)
        let track = try animator(body)
        let f = at.map { $0 < 1 ? $0 : $0 < 1.5 ? 1 : max(1 - ($0 - 1.5), 0) }
        for (i, time) in at.enumerated() {
            XCTAssertEqual(x[i], 10 + 100 * f[i], accuracy: 1e-9, "x at \(time)")
            XCTAssertEqual(track.fraction[i], f[i], accuracy: 1e-9, "fraction at \(time)")
            XCTAssertEqual(track.reversed[i], time >= 1.5, "reversed at \(time)")
        }
        XCTAssertEqual(track.state, ["running", "running", "paused", "paused", "running", "running", "paused", "paused"])
        XCTAssertEqual(body["duration"] as? Double ?? .nan, 2.5, accuracy: 1e-9)
        try assertEvents(body, [Event(t: 0, type: "start"),
                                Event(t: 1, type: "pause"),
                                Event(t: 1.5, type: "reverse", command: 0, flags: ["reversed": true]),
                                Event(t: 1.5, type: "start", command: 1),
                                Event(t: 2.5, type: "pause")])
    }

    // MARK: - addAnimations

    /// §6 rule 16 (and 9): `addAnimations` with delayFactor 0.5 at f = 0.5 of a linear 1 s
    /// animation on `x` animates ANOTHER channel, `y`, of the same view: its block starts after
    /// 0.5 · (1 − 0.5) · 1 s, at 0.75 s, from y's presented value (50), and ends with the
    /// animator at 1 s, following the animator's (linear) timing over [0.75, 1]. One completion.
    func testAddAnimationsWithDelayFactorHalfWay() throws {
        let at = [0, 0.5, 0.6, 0.75, 0.8, 0.9, 0.95, 1.0, 1.1]
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10, "y": 50}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "to": {"x": 110}}],
         "commands": [{"at": 0.5, "animation": "a", "op": "addAnimations", "delayFactor": 0.5, "to": {"y": 150}}]}
        """)
        let x = try scalar(body), y = try scalar(body, "v", "y")
        for (i, time) in at.enumerated() {
            XCTAssertEqual(x[i], 10 + 100 * min(time, 1), accuracy: 1e-9, "x at \(time)")
            XCTAssertEqual(y[i], 50 + 100 * min(max((time - 0.75) / 0.25, 0), 1), accuracy: 1e-9, "y at \(time)")
        }
        try assertEvents(body, [Event(t: 0, type: "start"),
                                Event(t: 0.5, type: "addAnimations", command: 0),
                                Event(t: 1, type: "completion", strings: ["position": "end"])])
    }

    /// §6 rule 16, "follows the animator's timing curve over its own window", read as
    /// progress = timing((t − blockStart) / (blockEnd − blockStart)): an easeInOut animator gets
    /// the same added block at f = 0.5 and `y` follows easeInOut over [0.75, 1] from 50 to 150.
    func testAddedBlockFollowsTheAnimatorsCurveOverItsOwnWindow() throws {
        let at = [0, 0.5, 0.75, 0.8, 0.85, 0.875, 0.9, 0.95, 1.0]
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10, "y": 50}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "easeInOut", "to": {"x": 110}}],
         "commands": [{"at": 0.5, "animation": "a", "op": "addAnimations", "delayFactor": 0.5, "to": {"y": 150}}]}
        """)
        let x = try scalar(body), y = try scalar(body, "v", "y")
        let ease = Bezier.easeInOut
        for (i, time) in at.enumerated() {
            XCTAssertEqual(x[i], 10 + 100 * ease(time), accuracy: 1e-7, "x at \(time)")
            XCTAssertEqual(y[i], 50 + 100 * ease((time - 0.75) / 0.25), accuracy: 1e-7, "y at \(time)")
        }
    }

    /// §6 rule 16: on a paused animator the added block's window begins when the animator
    /// resumes. Paused at 0.5 s (f = 0.5), `addAnimations` at 0.6 s (delayFactor 0.5), `start` at
    /// 1 s: the animator runs 1 → 1.5 s, the block 1 + 0.5 · 0.5 · 1 = 1.25 → 1.5 s.
    func testAddAnimationsOnAPausedAnimatorWaitsForTheResume() throws {
        let at = [0, 0.5, 0.6, 1.0, 1.2, 1.25, 1.3, 1.4, 1.5, 1.6]
        let body = try render("""
        {"at": \(at), "views": {"v": {"x": 10, "y": 50}},
         "animations": [{"id": "a", "view": "v", "duration": 1, "timing": "linear", "to": {"x": 110}}],
         "commands": [{"at": 0.5, "animation": "a", "op": "pause"},
                      {"at": 0.6, "animation": "a", "op": "addAnimations", "delayFactor": 0.5, "to": {"y": 150}},
                      {"at": 1.0, "animation": "a", "op": "start"}]}
        """)
        let x = try scalar(body), y = try scalar(body, "v", "y")
        for (i, time) in at.enumerated() {
            let f = time < 0.5 ? time : time < 1 ? 0.5 : min(0.5 + (time - 1), 1)
            XCTAssertEqual(x[i], 10 + 100 * f, accuracy: 1e-9, "x at \(time)")
            XCTAssertEqual(y[i], 50 + 100 * min(max((time - 1.25) / 0.25, 0), 1), accuracy: 1e-9, "y at \(time)")
        }
        try assertEvents(body, [Event(t: 0, type: "start"),
                                Event(t: 0.5, type: "pause", command: 0),
                                Event(t: 0.6, type: "addAnimations", command: 1),
                                Event(t: 1.0, type: "start", command: 2),
                                Event(t: 1.5, type: "completion", strings: ["position": "end"])])
    }
}
