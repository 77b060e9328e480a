import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Transitions compiled into a `Scene`, with expected values computed here from the formulas
/// of shared/reference (never pasted from the implementation's output).
final class RenderScenarioTests: XCTestCase {
    func testBouncingPresentOvershootsAndLandsExactlyAtTheDuration() throws {
        let scene = try compile(SceneSpec(
            views: [.init("card", .numbers("frame", 0, 568, 320, 568), .numbers("alpha", 1))],
            animations: [.block(id: "present", view: "card", to: [.numbers("frame", 0, 0, 320, 568)], duration: 0.8,
                                timing: .uikitSpring(dampingRatio: 0.6, duration: 0.8, initialVelocity: 0))]))
        XCTAssertEqual(scene.end, 0.8)
        let t = scene.frames(fps: 60)
        XCTAssertEqual(t.count, 49)
        let frames = try scene.values("card", "frame", at: t)
        var overshoot = false
        for (i, time) in t.enumerated() {
            let y = frames[i][1]
            XCTAssertEqual(frames[i][0], 0)
            XCTAssertEqual(frames[i][2], 320)
            if time >= 0.8 {
                XCTAssertEqual(y, 0, "exactly the final frame from the duration on")
            } else {
                XCTAssertEqual(y, 568 - 568 * Reference.uikitSpring(ratio: 0.6, duration: 0.8, at: time), accuracy: 1e-6)
            }
            if y < 0 { overshoot = true }
        }
        XCTAssertTrue(overshoot, "a damping ratio of 0.6 overshoots the final frame")
        let alpha = try scene.scalars("card", "alpha", at: t)
        XCTAssertEqual(Set(alpha), [1], "alpha is reported because it was given, and holds")
        let events = scene.events.map(\.event)
        XCTAssertEqual(events.count, 2)
        XCTAssertEqual(events[0].kind, .start)
        XCTAssertEqual(events[1].kind, .completion)
        XCTAssertEqual(events[1].t, 0.8)
        XCTAssertEqual(events[1].position, .end)
        let animator = try scene.animator("present")
        XCTAssertEqual(animator.state(at: t[0]), .running)
        XCTAssertEqual(animator.state(at: t[t.count - 1]), .inactive)
        XCTAssertEqual(animator.fraction(at: t[24]), t[24] / 0.8, accuracy: 1e-12)
    }

    /// The drop-dismiss of docs/transforms.md "The drop-dismiss fall" with a linear curve: five rotation
    /// keyframes, each turning along the shorter arc from the one before, while a cover fades.
    func testKeyframedDropDismissTurnsAsCoreAnimationDoes() throws {
        let starts = [0, 0.15, 0.25, 0.45, 0.65], durations = [0.15, 0.10, 0.20, 0.20, 0.35]
        let rotations = [-1.5 * Double.pi, Double.pi, 1.3 * Double.pi, 0.8 * Double.pi]
        var keyframes = zip(starts.prefix(4), zip(durations, rotations)).map { start, rest in
            (start: start, duration: rest.0, to: SceneSpec.Target.transform(.parts(rotation: rest.1)))
        }
        keyframes.append((start: 0.65, duration: 0.35, to: .transform(.ops([.translate(180, 0), .rotate(0.3 * Double.pi)]))))
        // Frame times exactly at each keyframe's end, and half way through each.
        let ends = zip(starts, durations).map { $0 + $1 }
        let halves = zip(starts, durations).map { $0 + $1 / 2 }
        let at = (halves + ends).sorted()
        let scene = try compile(SceneSpec(
            views: [.init("card", .numbers("center", 160, 284), .transform(.parts(rotation: 0))),
                    .init("cover", .numbers("alpha", 1))],
            animations: [.keyframes(id: "drop", view: "card", duration: 1, timing: .linear, keyframes),
                         .block(id: "fade", view: "cover", to: [.numbers("alpha", 0)], duration: 1, timing: .linear)]))
        let matrices = try scene.values("card", "transform", at: at)
        func angle(at time: Double) throws -> Double {
            let i = try XCTUnwrap(at.firstIndex(of: time))
            return atan2(matrices[i][1], matrices[i][0])
        }
        func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
        // Keyframe ends: rotation(−1.5π) is +90°, then 180°, then 1.3π ≡ −126°, then 0.8π = 144°.
        XCTAssertEqual(degrees(try angle(at: ends[0])), 90, accuracy: 1e-9)
        XCTAssertEqual(abs(degrees(try angle(at: ends[1]))), 180, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: ends[2])), -126, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: ends[3])), 144, accuracy: 1e-9)
        // Half way: +45° (clockwise), +135° (clockwise on to 180°), 207° ≡ −153° (clockwise past
        // 180°), 189° ≡ −171° (back, counter-clockwise, toward 144°).
        XCTAssertEqual(degrees(try angle(at: halves[0])), 45, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: halves[1])), 135, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: halves[2])), -153, accuracy: 1e-9)
        XCTAssertEqual(degrees(try angle(at: halves[3])), -171, accuracy: 1e-9)
        // The last keyframe ends at the concatenated matrix: rotate(0.3π) after translate(180, 0).
        let last = matrices[try XCTUnwrap(at.firstIndex(of: ends[4]))]
        let theta = 0.3 * Double.pi
        let expected = [cos(theta), sin(theta), -sin(theta), cos(theta), 180 * cos(theta), 180 * sin(theta)]
        for (got, want) in zip(last, expected) { XCTAssertEqual(got, want, accuracy: 1e-9) }
        let alpha = try scene.scalars("cover", "alpha", at: at)
        for (i, time) in at.enumerated() { XCTAssertEqual(alpha[i], 1 - time, accuracy: 1e-12) }
    }

    func testZoomPushAndPopScaleThroughZero() throws {
        let ease = { (x: Double) -> Double in x }  // linear timing keeps the expectation exact
        for (from, to) in [(0.0, 1.0), (1.0, 0.0)] {
            let scene = try compile(SceneSpec(
                views: [.init("card", .transform(.parts(scale: (from, from))))],
                animations: [.block(id: "a0", view: "card", to: [.transform(.parts(scale: (to, to)))], duration: 0.4,
                                    timing: .linear)]))
            let t = scene.frames(fps: 10)
            XCTAssertEqual(t.count, 5)
            let matrices = try scene.values("card", "transform", at: t)
            for (i, time) in t.enumerated() {
                let s = from + (to - from) * ease(min(time / 0.4, 1))
                XCTAssertEqual(matrices[i][0], s, accuracy: 1e-12, "t = \(time)")
                XCTAssertEqual(matrices[i][3], s, accuracy: 1e-12, "t = \(time)")
            }
            XCTAssertEqual(scene.warnings.count, 0)
        }
    }

    /// `rotationPath: "direct"` interpolates θ as given: the components' rotation or the sum of
    /// rotate ops turns a full circle, where the shorter-arc default does not move (rule 6).
    func testDirectRotationPathTurnsByTheGivenAngle() throws {
        for (to, expectedTurn) in [(TransformEnd.parts(rotation: 6.283185307179586), true),
                                   (.ops([.rotate(3.141592653589793), .rotate(3.141592653589793)]), true),
                                   (.matrix(numbers: [1, 0, 0, 1, 0, 0]), false)] {
            for direct in [true, false] {
                let scene = try compile(SceneSpec(
                    views: [.init("v", .transform(.parts(rotation: 0)))],
                    animations: [.block(id: "a0", view: "v", to: [.transform(to)], duration: 1, timing: .linear,
                                        directRotation: direct)]))
                let m = try XCTUnwrap(try scene.values("v", "transform", at: [0.25]).first)
                // A quarter of a full turn is +90°; no turn stays at 0°.
                let turning = direct && expectedTurn
                XCTAssertEqual(atan2(m[1], m[0]), turning ? .pi / 2 : 0, accuracy: 1e-9,
                               "\(direct ? "direct" : "shortest") to \(to)")
            }
        }
    }

    /// The pane of the objc.io example, released upward: an attachment (3.5 Hz, ζ 0.4) from
    /// y = 500 toward 100 with −800 pt/s, exact closed form; it rests on the millisecond grid,
    /// shows the target exactly from then on, and completes there. The animator has no fraction.
    func testPhysicsPaneSettlesExactly() throws {
        let scene = try compile(SceneSpec(
            views: [.init("pane", .numbers("center", 160, 500))],
            animations: [.physics(id: "pane", view: "pane", channel: "center",
                                  model: .attachment(frequency: 3.5, dampingRatio: 0.4), target: [160, 100],
                                  velocity: [0, -800])]))
        let settle = scene.end
        XCTAssertEqual(settle * 1000, (settle * 1000).rounded(), accuracy: 1e-6)
        let t = scene.frames(fps: 60)
        let centers = try scene.values("pane", "center", at: t)
        // k = (2π·3.5)², c = 2·0.4·2π·3.5 per unit mass: the closed form, computed here.
        let omega0 = 2 * Double.pi * 3.5, zeta = 0.4, omegaD = omega0 * (1 - zeta * zeta).squareRoot()
        let y0 = 400.0, v0 = -800.0, a = zeta * omega0
        for (i, time) in t.enumerated() where time < settle {
            let y = exp(-a * time) * (y0 * cos(omegaD * time) + (v0 + a * y0) / omegaD * sin(omegaD * time))
            XCTAssertEqual(centers[i][1], 100 + y, accuracy: 1e-9)
            XCTAssertEqual(centers[i][0], 160)
        }
        XCTAssertEqual(centers.last, [160, 100])
        let velocity = try scene.velocities("pane", "center", at: t)
        XCTAssertEqual(velocity[0], [0, -800])
        let events = scene.events.map(\.event)
        XCTAssertEqual(events.last?.kind, .completion)
        XCTAssertEqual(events.last?.t, settle)
        let animator = try scene.animator("pane")
        XCTAssertTrue(animator.isPhysics, "no fraction (rule 18)")
        XCTAssertEqual(animator.state(at: t[t.count - 1]), .inactive)
    }

    func testSingularMatrixEndsAreDiscreteWithAWarning() throws {
        let scene = try compile(SceneSpec(
            views: [.init("card", .transform(.matrix(numbers: [0, 0, 0, 0, 0, 0])))],
            animations: [.block(id: "a0", view: "card", to: [.transform(.matrix(numbers: [1, 0, 0, 1, 0, 0]))], duration: 1,
                                timing: .linear)]))
        let matrices = try scene.values("card", "transform", at: [0, 0.49, 0.5, 1])
        XCTAssertEqual(matrices.map { $0[0] }, [0, 0, 1, 1])
        // The codec points this at /animations/0/to/transform.
        XCTAssertEqual(scene.warnings.first?.subject, .target(animation: 0, channel: "transform"))
    }

    func testOverlappingAnimationsReplaceAndAdd() throws {
        // A: 0 → 100 over [0, 1]; B: to 200 over [0.5, 1.5]; both linear.
        for blend in [SceneSpec.Blend.replace, .additive] {
            let scene = try compile(SceneSpec(
                views: [.init("v", .numbers("x", 0))],
                animations: [.block(id: "A", view: "v", to: [.numbers("x", 100)], duration: 1, timing: .linear),
                             .block(id: "B", view: "v", to: [.numbers("x", 200)], duration: 1, timing: .linear, delay: 0.5,
                                    blend: blend)]))
            let t = scene.frames(fps: 4)
            XCTAssertEqual(t.last, 1.5)
            let x = try scene.scalars("v", "x", at: t)
            for (i, time) in t.enumerated() {
                let a = 100 * min(time, 1)
                let pb = min(max(time - 0.5, 0), 1)
                let expected: Double
                if time < 0.5 {
                    expected = a
                } else if blend == .replace {
                    // B starts from A's presented value at 0.5 (50) and A stops contributing.
                    expected = 50 + (200 - 50) * pb
                } else {
                    // B adds (to − m)·p, m = A's target 100.
                    expected = a + (200 - 100) * pb
                }
                XCTAssertEqual(x[i], expected, accuracy: 1e-12, "\(blend) at \(time)")
            }
            // Both animators still run and complete.
            let completions = scene.events.map(\.event).filter { $0.kind == .completion }
            XCTAssertEqual(completions.map(\.t), [1, 1.5])
        }
    }

    /// An undamped spring never settles (rule 7): without `until` the scene is refused, with it
    /// the channel oscillates as x = from + Δ · (1 − cos ω₀t), ω₀ = √(k/m), its animator runs
    /// throughout, and no completion is reported (it would be at t = ∞).
    func testUndampedSpringRendersUntilTheGivenEnd() throws {
        let spring = Spring.physical(mass: 1, stiffness: 100, damping: 0, initialVelocity: 0, allowsOverdamping: false)
        let animation = SceneSpec.Animation.block(id: "a0", view: "v", to: [.numbers("x", 30)], timing: .spring(spring))
        let views = [SceneSpec.View("v", .numbers("x", 10))]
        XCTAssertEqual(refusal(SceneSpec(views: views, animations: [animation])),
                       .neverEnds(animation: 0, cause: .undampedSpring))
        let scene = try compile(SceneSpec(views: views, animations: [animation], until: 1))
        let times = scene.frames(fps: 60)
        XCTAssertEqual(scene.end, 1)
        for (t, x) in zip(times, try scene.scalars("v", "x", at: times)) {
            XCTAssertEqual(x, 10 + 20 * (1 - cos(10 * t)), accuracy: 1e-9, "t = \(t)")
        }
        for (t, v) in zip(times, try scene.velocities("v", "x", at: times).map { $0[0] }) {
            XCTAssertEqual(v, 20 * 10 * sin(10 * t), accuracy: 1e-8, "t = \(t)")
        }
        let animator = try scene.animator("a0")
        XCTAssertTrue(times.allSatisfy { animator.state(at: $0) == .running })
        XCTAssertEqual(scene.events.map(\.event.kind), [.start])
    }

    /// An animation that repeats forever runs until `until`, and its completion — at t = ∞ —
    /// is never reported (an event list holds only what happens).
    func testInfiniteRepeatReportsNoCompletion() throws {
        let timing = ActiveTiming(curve: .cubicBezier(.easeInOut), duration: 0.4, repeatCount: .infinity, autoreverses: true)
        let animation = SceneSpec.Animation(id: "a0", view: "v", form: .block(SceneSpec.Block(timing: timing, to: [.numbers("x", 10)])))
        let scene = try compile(SceneSpec(views: [.init("v", .numbers("x", 0))], animations: [animation], until: 1.3))
        XCTAssertEqual(scene.events.map(\.event.kind), [.start])
        XCTAssertTrue(scene.events.allSatisfy { $0.event.t.isFinite })
        XCTAssertEqual(try scene.scalars("v", "x", at: [0.4, 0.8, 1.2]), [10, 0, 10])
    }

    func testVelocitiesAreExactForVectorsAndZeroOnSteps() throws {
        // A spring: (to − from) · p′(t) exactly, from the curve endpoint's own velocity.
        let spring = Spring.physical(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)
        let at = [0, 0.1, 0.3]
        let scene = try compile(SceneSpec(
            views: [.init("v", .numbers("x", 10), .numbers("s", 0))],
            animations: [.block(id: "a0", view: "v", to: [.numbers("x", 30)], timing: .spring(spring)),
                         .block(id: "a1", view: "v", to: [.numbers("s", 1)], duration: 1, timing: .steps(Steps(count: 4)))]))
        // What `/v1/curve` answers for the same timing: the curve's own velocity.
        let expected = at.map { TimingCurve.spring(spring).sample(at: $0, duration: spring.settlingDuration).velocity }
        let x = try scene.velocities("v", "x", at: at).map { $0[0] }
        for (got, want) in zip(x, expected) { XCTAssertEqual(got, 20 * want, accuracy: 1e-12 * abs(want)) }
        // And the closed form of the under-damped spring (ω₀ = 10, ζ = 0.5, v₀ = 0):
        // p′(t) = e^(−ζω₀t) · ω₀² / ω_d · sin(ω_d t).
        let omega0 = 10.0, zeta = 0.5, omegaD = omega0 * (1 - zeta * zeta).squareRoot()
        for (t, got) in zip(at, x) {
            XCTAssertEqual(got, 20 * exp(-zeta * omega0 * t) * omega0 * omega0 / omegaD * sin(omegaD * t), accuracy: 1e-9)
        }
        XCTAssertEqual(try scene.velocities("v", "s", at: at).map { $0[0] }, [0, 0, 0])
    }

    func testVelocitiesAreRightHandDerivatives() throws {
        let scene = try compile(SceneSpec(
            views: [.init("v", .numbers("x", 0))],
            animations: [.block(id: "a0", view: "v", to: [.numbers("x", 10)], duration: 1, timing: .linear, delay: 0.25)]))
        let x = try scene.velocities("v", "x", at: scene.frames(fps: 4)).map { $0[0] }
        // 0 during the delay, 10/s while running (right-hand at the start), 0 from completion on.
        XCTAssertEqual(x[0], 0)
        for v in x[1...4] { XCTAssertEqual(v, 10, accuracy: 1e-6) }
        XCTAssertEqual(x[5], 0)
    }

    func testRepeatAndAutoreverse() throws {
        // Linear 0 → 10 over 1 s, autoreversing, 1.5 repeats: up [0,1], down [1,2], up [2,3], then 10.
        let scene = try compile(SceneSpec(
            views: [.init("v", .numbers("x", 0))],
            animations: [.block(id: "a0", view: "v", to: [.numbers("x", 10)], duration: 1, timing: .linear, repeatCount: 1.5,
                                autoreverses: true)]))
        XCTAssertEqual(try scene.scalars("v", "x", at: [0.5, 1.5, 2.5, 3, 3.5]), [5, 5, 5, 10, 10])
        XCTAssertEqual(scene.end, 3)
    }

    /// keyTimes that do not fit the mode are ignored as Core Animation ignores them (default
    /// spacing), with a warning (docs/rules.md rule 12): the track names `keyTimes`, which the
    /// codec points at /animations/0/keyTimes.
    func testMismatchedKeyTimesAreAWarning() throws {
        let animation = SceneSpec.Animation.values(id: "a0", view: "v", channel: "x", [[0], [10], [30]], keyTimes: [0, 1],
                                                   duration: 1, timing: .linear)
        guard case .values(let values) = animation.form, case .vector(let track) = values.track else {
            return XCTFail("a values animation of a vector channel")
        }
        XCTAssertEqual(track.warnings.map(\.subject.member.rawValue), ["keyTimes"])
        XCTAssertEqual(track.warnings.map(\.subject.index), [nil])
        let scene = try compile(SceneSpec(views: [.init("v", .numbers("x", 0))], animations: [animation]))
        XCTAssertEqual(scene.warnings.count, 0, "the track's warning is the only one")
        // Default spacing: key times 0, 0.5, 1.
        XCTAssertEqual(try scene.scalars("v", "x", at: [0, 0.25, 0.5, 1]), [0, 5, 10, 30])
    }
}
