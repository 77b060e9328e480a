import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// The physics models other engines define (docs/springs.md "Motion springs", "Android fling",
/// "Scroll deceleration", "Rebound's integrator", "Box2D's soft step") against every springs.json
/// case of their families, each to its own tolerances, and their properties beyond the vectors.
final class PhysicsModelTests: XCTestCase {
    /// The families this file checks, with the number of cases each has.
    static let families = ["motion.spring": 4, "android.fling": 1, "scroll.decay": 1, "rebound.spring.rk4": 1,
                           "box2d.softspring": 1]

    func testEveryCaseOfTheFamilies() throws {
        var checked: [String: Int] = [:]
        for vector in try VectorCase.load("springs.json") {
            let model = vector.fields["model"] as? String ?? ""
            guard Self.families[model] != nil else { continue }
            let motion = try self.motion(model, vector)
            let expect = try XCTUnwrap(vector.fields["expect"] as? [String: Any])
            let values = VectorCase.numbers(expect["value"]), velocities = VectorCase.numbers(expect["velocity"])
            let times = vector.numbers("times")
            XCTAssertEqual(times.count, values.count, vector.id)
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            let velocityTolerance = try XCTUnwrap(vector.number("velocityTolerance"))
            // The fling and the scroll deceleration hold their stop value; the vectors continue the
            // free formula, so only the samples before the stop are theirs.
            let holds = model == "android.fling" || model == "scroll.decay"
            for (i, t) in times.enumerated() where !(holds && t >= motion.settleTime) {
                let state = motion.state(at: t)
                assertClose(state.position[0], values[i], tolerance, "\(vector.id) value t=\(t)")
                // Motion's vector velocity is the generator's, not snapped at the completion.
                if model != "motion.spring" || t < motion.settleTime {
                    assertClose(state.velocity[0], velocities[i], velocityTolerance, "\(vector.id) velocity t=\(t)")
                }
            }
            if let settling = vector.number("settlingDuration") {
                assertClose(motion.settleTime, settling, try XCTUnwrap(vector.number("settlingTolerance")),
                            "\(vector.id) settles")
            }
            if let projection = vector.number("projection") {
                let start = try XCTUnwrap(vector.param("from"))
                assertClose(try XCTUnwrap(motion.projection?.first), start + projection, tolerance, "\(vector.id) projection")
            }
            checked[model, default: 0] += 1
        }
        XCTAssertEqual(checked, Self.families)
    }

    /// The motion of one case, as `SceneCompiler` builds it from a start at rest state.
    private func motion(_ model: String, _ vector: VectorCase) throws -> PhysicsMotion {
        func param(_ key: String) throws -> Double { try XCTUnwrap(vector.param(key), "\(vector.id) \(key)") }
        switch model {
        case "motion.spring":
            let keyframes = VectorCase.numbers(vector.params["keyframes"])
            let spring = try motionSpring(vector)
            return PhysicsMotion(model: .motionSpring(spring), integrator: .exact, start: [keyframes[0]],
                                 velocity: [vector.param("velocity") ?? 0], target: [keyframes[1]], restSpeed: 1, restDistance: 1,
                                 threshold: 1, horizon: 60)
        case "android.fling":
            let fling = Fling(friction: try param("friction"), minimumVisibleChange: try param("minimumVisibleChange"))
            return PhysicsMotion(model: .fling(fling), integrator: .exact, start: [try param("startValue")],
                                 velocity: [try param("startVelocity")], target: nil, restSpeed: 1, restDistance: 1, threshold: 1,
                                 horizon: 60)
        case "scroll.decay":
            return PhysicsMotion(model: .scrollDecay(ScrollDecay(rate: try param("decelerationRate"))), integrator: .exact,
                                 start: [try param("from")], velocity: [try param("velocity")], target: nil, restSpeed: 1,
                                 restDistance: 1, threshold: 1, horizon: 60)
        case "rebound.spring.rk4":
            let spring = Spring.pop(bounciness: try param("bounciness"), speed: try param("speed"), initialVelocity: 0)
            let rest = PhysicsDefaults.rest(threshold: 1, integrator: .rebound(tickRate: 60))
            return PhysicsMotion(model: .spring(mass: 1, stiffness: spring.stiffness, damping: spring.damping),
                                 integrator: .rebound(tickRate: 1 / (try param("frameInterval"))), start: [try param("from")],
                                 velocity: [try param("velocity")], target: [try param("to")], restSpeed: rest.speed,
                                 restDistance: rest.distance, threshold: 1, horizon: 60)
        default:
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            return PhysicsMotion(model: .attachment(frequency: try param("frequency"), dampingRatio: try param("damping")),
                                 integrator: .box2d(tickRate: 1 / (try param("dt")), resistance: try param("linearDamping")),
                                 start: [try param("from")], velocity: [try param("initialVelocity")], target: [try param("to")],
                                 restSpeed: (vector.number("velocityTolerance") ?? tolerance) / 10, restDistance: tolerance / 10,
                                 threshold: 1, horizon: 60)
        }
    }

    /// A Motion case's spring by Motion's precedence (durations in the vectors are milliseconds),
    /// its `derived` parameters checked.
    private func motionSpring(_ vector: VectorCase) throws -> MotionSpring {
        let p = vector.params
        let spring: MotionSpring
        let physical = p["stiffness"] != nil || p["damping"] != nil || p["mass"] != nil
        if physical || (p["duration"] == nil && p["bounce"] == nil) {
            spring = MotionSpring(mass: vector.param("mass") ?? 1, stiffness: vector.param("stiffness") ?? 100,
                                  damping: vector.param("damping") ?? 10)
        } else {
            spring = .timeDefined(duration: vector.param("duration").map { $0 / 1000 }, bounce: vector.param("bounce"),
                                  visualDuration: vector.param("visualDuration"))
        }
        let derived = try XCTUnwrap(vector.fields["derived"] as? [String: Any])
        let relative = try XCTUnwrap(vector.number("derivedRelTolerance"))
        let keyframes = VectorCase.numbers(p["keyframes"])
        let rest = spring.rest(distance: abs(keyframes[1] - keyframes[0]))
        for (name, actual) in [("stiffness", spring.oscillator.stiffness), ("damping", spring.oscillator.damping),
                               ("mass", spring.oscillator.mass), ("restSpeed", rest.speed), ("restDelta", rest.distance)] {
            let expected = try XCTUnwrap(VectorCase.number(derived[name]), "\(vector.id) \(name)")
            assertClose(actual, expected, relative * abs(expected), "\(vector.id) derived \(name)")
        }
        XCTAssertEqual(spring.duration != nil, derived["resolvedFromDuration"] as? Bool, vector.id)
        return spring
    }

    /// `findSpring` with no velocity converges on the closed form of the envelope equation
    /// (docs/springs.md "UIKit duration-based springs"), ω = ln(ζ/(ε√(1−ζ²)))/(ζT), over Motion's
    /// whole range; bounce clamps ζ to [0.05, 1] and duration to [0.01, 10] s.
    func testFindSpringMatchesTheClosedFormRoot() {
        for duration in [0.1, 0.3, 0.8, 2, 10] {
            for bounce in [0.1, 0.3, 0.5, 0.9] {
                let spring = MotionSpring.timeDefined(duration: duration, bounce: bounce, visualDuration: nil)
                let zeta = 1 - bounce
                let omega = log(zeta / (0.001 * (1 - zeta * zeta).squareRoot())) / (zeta * duration)
                assertClose(spring.oscillator.stiffness, omega * omega, 1e-9 * omega * omega, "k at \(duration), \(bounce)")
                assertClose(spring.oscillator.damping, 2 * zeta * omega, 1e-9 * omega, "c at \(duration), \(bounce)")
                XCTAssertEqual(spring.duration, duration)
                XCTAssertTrue(spring.startsFromRest)
            }
        }
        XCTAssertEqual(MotionSpring.timeDefined(duration: 20, bounce: 2, visualDuration: nil).duration, 10)
        XCTAssertEqual(MotionSpring.timeDefined(duration: 0.001, bounce: -1, visualDuration: nil).oscillator.dampingRatio, 1,
                       accuracy: 1e-12)
        // A visual duration names the period of the undamped spring; a missing bounce is 0 there.
        let visual = MotionSpring.timeDefined(duration: nil, bounce: nil, visualDuration: 0.5)
        XCTAssertEqual(visual.oscillator.naturalFrequency, 2 * Double.pi / 0.6, accuracy: 1e-12)
        XCTAssertEqual(visual.oscillator.dampingRatio, 1, accuracy: 1e-12)
        XCTAssertNil(visual.duration)
    }

    /// A time-defined spring starts from rest; rest thresholds follow the distance; the over-damped
    /// cap pulls a strongly over-damped spring onto its target (Motion's behaviour), and the
    /// completion is the first 50 ms grid point at rest.
    func testMotionSpringStartRestAndOverdampedCap() {
        let timed = PhysicsMotion(model: .motionSpring(.timeDefined(duration: 0.5, bounce: 0.2, visualDuration: nil)),
                                  integrator: .exact, start: [0], velocity: [900], target: [1], restSpeed: 7, restDistance: 7,
                                  threshold: 1, horizon: 60)
        XCTAssertEqual(timed.velocity, [0])
        XCTAssertEqual(timed.restSpeed, 0.01)
        XCTAssertEqual(timed.restDistance, 0.005)
        XCTAssertEqual(timed.settleTime, 0.5)
        XCTAssertEqual(timed.state(at: 0.5).position, [1])

        let heavy = MotionSpring(mass: 1, stiffness: 1, damping: 1000)
        // ωo ≈ 500 per second: ωo·t passes 300 at t ≈ 0.6 s, and from there the capped form
        // reads about 100·e^(−50) where the true solution is still about 99.93 away.
        let capped = heavy.state(y0: -100, v0: 0, at: 0.7).position
        let exact = DampedOscillator(mass: 1, stiffness: 1, damping: 1000).state(y0: -100, v0: 0, at: 0.7).position
        XCTAssertLessThan(abs(capped), 1e-10)
        XCTAssertEqual(exact, -99.93, accuracy: 0.01)
        // Below the cap it is the true over-damped solution.
        XCTAssertEqual(heavy.state(y0: -100, v0: 0, at: 0.5).position,
                       DampedOscillator(mass: 1, stiffness: 1, damping: 1000).state(y0: -100, v0: 0, at: 0.5).position)
        let motion = PhysicsMotion(model: .motionSpring(heavy), integrator: .exact, start: [0], velocity: [0], target: [100],
                                   restSpeed: 1, restDistance: 1, threshold: 1, horizon: 60)
        let grid = motion.settleTime
        XCTAssertEqual(grid * 20, (grid * 20).rounded(), accuracy: 1e-9, "on the 50 ms grid")
        let before = heavy.state(y0: -100, v0: 0, at: grid - 0.05)
        XCTAssertFalse(abs(before.position) <= 0.5 && abs(before.velocity) <= 2)
        XCTAssertEqual(grid, 0.65, accuracy: 1e-12)
    }

    /// A fling stops at the bound it moves toward, at the exact time it gets there, and holds it; a
    /// start at a bound stops at once.
    func testFlingStopsAtItsBound() {
        let fling = Fling(friction: 1, minimumVisibleChange: 1, min: -50, max: 200)
        let toward = PhysicsMotion(model: .fling(fling), integrator: .exact, start: [0], velocity: [2000], target: nil,
                                   restSpeed: 1, restDistance: 1, threshold: 1, horizon: 60)
        let f = -4.2
        let expected = log(1 + f * 200 / 2000) / f
        XCTAssertEqual(toward.settleTime, expected, accuracy: 1e-12)
        XCTAssertEqual(toward.state(at: expected).position, [200])
        XCTAssertEqual(toward.state(at: 5).position, [200])
        XCTAssertLessThan(toward.state(at: expected * 0.99).position[0], 200)
        // Slow: the speed stop comes first, short of the bound.
        let slow = PhysicsMotion(model: .fling(fling), integrator: .exact, start: [0], velocity: [-100], target: nil,
                                 restSpeed: 1, restDistance: 1, threshold: 1, horizon: 60)
        XCTAssertEqual(slow.settleTime, log(46.875 / 100) / f, accuracy: 1e-12)
        XCTAssertGreaterThan(slow.final[0], -50)
        let atBound = PhysicsMotion(model: .fling(fling), integrator: .exact, start: [250], velocity: [-1000], target: nil,
                                    restSpeed: 1, restDistance: 1, threshold: 1, horizon: 60)
        XCTAssertEqual(atBound.settleTime, 0)
        XCTAssertEqual(atBound.final, [200])
    }

    /// Rebound rests by |v| < restSpeed and |x − to| ≤ restDistance and snaps; its ticks are
    /// capped at 64 ms; Box2D's step without resistance is the implicit Euler step.
    func testReboundCapAndBox2DStep() {
        let model = PhysicsModel.spring(mass: 1, stiffness: 230.2, damping: 22)
        let slow = PhysicsMotion(model: model, integrator: .rebound(tickRate: 5), start: [0], velocity: [0], target: [1],
                                 restSpeed: 0.001, restDistance: 0.001, threshold: 1, horizon: 60)
        let capped = PhysicsMotion(model: model, integrator: .rebound(tickRate: 1 / 0.064), start: [0], velocity: [0],
                                   target: [1], restSpeed: 0.001, restDistance: 0.001, threshold: 1, horizon: 60)
        // A 0.2 s tick advances 64 ms, as a 64 ms tick does.
        XCTAssertEqual(slow.state(at: 0.2).position, capped.state(at: 0.064).position)
        XCTAssertEqual(slow.state(at: slow.settleTime).position, [1])

        let h = 1.0 / 60, k = 100.0, c = 5.0
        let box = PhysicsMotion(model: .spring(mass: 1, stiffness: k, damping: c), integrator: .box2d(tickRate: 60, resistance: 0),
                                start: [0, 10], velocity: [0, 0], target: [1, 10], restSpeed: 1e-9, restDistance: 1e-9,
                                threshold: 1, horizon: 60)
        let v = (0 - h * k * (0 - 1)) / (1 + h * c + h * h * k)
        XCTAssertEqual(box.state(at: h).velocity[0], v, accuracy: 1e-15)
        XCTAssertEqual(box.state(at: h).position, [h * v, 10])
    }
}
