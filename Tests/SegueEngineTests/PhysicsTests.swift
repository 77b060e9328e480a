import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Physics motions against the reference vectors (objc.io Euler ticks, POP's RK4 solver, POP's
/// decay) and against an independent fine-step integration done here.
final class PhysicsTests: XCTestCase {
    func testTickIntegratorsAndDecayMatchTheVectors() throws {
        var checked = 0
        for vector in try VectorCase.load("springs.json") {
            let model = vector.fields["model"] as? String ?? ""
            let motion: PhysicsMotion
            switch model {
            case "objcio.euler":
                let dt = try XCTUnwrap(vector.param("dt"))
                motion = PhysicsMotion(model: .spring(mass: try XCTUnwrap(vector.param("mass")), stiffness: try XCTUnwrap(vector.param("k")),
                                                      damping: try XCTUnwrap(vector.param("mu"))),
                                       integrator: .euler(tickRate: 1 / dt), start: [try XCTUnwrap(vector.param("from"))],
                                       velocity: [try XCTUnwrap(vector.param("initialVelocity"))], target: [try XCTUnwrap(vector.param("to"))],
                                       restSpeed: 0.05, restDistance: 1, threshold: 1, horizon: 10)
            case "pop.spring.rk4":
                let spring = Spring.pop(bounciness: try XCTUnwrap(vector.param("springBounciness")),
                                        speed: try XCTUnwrap(vector.param("springSpeed")), initialVelocity: 0)
                // No rest snapping in the vector: thresholds far below its tolerance.
                motion = PhysicsMotion(model: .spring(mass: 1, stiffness: spring.stiffness, damping: spring.damping),
                                       integrator: .rk4(tickRate: 1 / (try XCTUnwrap(vector.param("frameInterval")))),
                                       start: [try XCTUnwrap(vector.param("from"))], velocity: [try XCTUnwrap(vector.param("velocity"))],
                                       target: [try XCTUnwrap(vector.param("to"))], restSpeed: 1e-9, restDistance: 1e-9,
                                       threshold: 1, horizon: 10)
            case "pop.decay":
                motion = PhysicsMotion(model: .decay(deceleration: try XCTUnwrap(vector.param("deceleration"))), integrator: .exact,
                                       start: [try XCTUnwrap(vector.param("from"))], velocity: [try XCTUnwrap(vector.param("velocity"))],
                                       target: nil, restSpeed: 1, restDistance: 1, threshold: try XCTUnwrap(vector.param("threshold")),
                                       horizon: 10)
            default:
                continue
            }
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            let values = VectorCase.numbers((vector.fields["expect"] as? [String: Any])?["value"])
            let settle = vector.number("settlingDuration")
            for (t, expected) in zip(vector.numbers("times"), values) {
                // After completion the channel holds its final value (the decay's `toValue`).
                let want = (settle.map { t >= $0 } ?? false) && model == "pop.decay" ? try XCTUnwrap(vector.number("toValue")) : expected
                assertClose(motion.state(at: t).position[0], want, model == "pop.decay" ? tolerance : max(tolerance, 1e-9),
                            "\(vector.id) t=\(t)")
            }
            if let settle {
                assertClose(motion.settleTime, settle, try XCTUnwrap(vector.number("settlingTolerance")), "\(vector.id) settles")
            }
            checked += 1
        }
        XCTAssertEqual(checked, 4)
    }

    /// The exact integrator against RK4 at 10 µs steps done here, in all three regimes, for
    /// points; damped energy never increases; rest is on the millisecond grid.
    func testExactAgreesWithAFineIntegrationAndSettlesOnTheGrid() {
        var generator = SplitMix64(state: 7)
        func uniform(_ low: Double, _ high: Double) -> Double { Double.random(in: low..<high, using: &generator) }
        for regime in 0..<3 {
            for _ in 0..<20 {
                let mass = uniform(0.5, 3), stiffness = uniform(50, 500)
                let critical = 2 * (mass * stiffness).squareRoot()
                let damping = [uniform(0.1, 0.9), 1, uniform(1.2, 4)][regime] * critical
                let start = [uniform(-300, 300), uniform(-300, 300)]
                let velocity = [uniform(-2000, 2000), uniform(-2000, 2000)]
                let target = [uniform(-300, 300), uniform(-300, 300)]
                let motion = PhysicsMotion(model: .spring(mass: mass, stiffness: stiffness, damping: damping), integrator: .exact,
                                           start: start, velocity: velocity, target: target, restSpeed: 5, restDistance: 0.5,
                                           threshold: 1, horizon: 60)
                // Fine RK4, independent of the closed form.
                var x = start, v = velocity, t = 0.0
                let h = 1e-5
                var energy = Double.infinity
                while t < 0.5 {
                    for i in 0..<2 {
                        func a(_ p: Double, _ u: Double) -> Double { (-stiffness * (p - target[i]) - damping * u) / mass }
                        let k1x = v[i], k1v = a(x[i], v[i])
                        let k2x = v[i] + k1v * h / 2, k2v = a(x[i] + k1x * h / 2, k2x)
                        let k3x = v[i] + k2v * h / 2, k3v = a(x[i] + k2x * h / 2, k3x)
                        let k4x = v[i] + k3v * h, k4v = a(x[i] + k3x * h, k4x)
                        x[i] += (k1x + 2 * k2x + 2 * k3x + k4x) * h / 6
                        v[i] += (k1v + 2 * k2v + 2 * k3v + k4v) * h / 6
                    }
                    t += h
                    if Int((t / h).rounded()) % 1000 == 0 && t < motion.settleTime {
                        let exact = motion.state(at: t)
                        let distance = hypot(start[0] - target[0], start[1] - target[1]) + 1
                        for i in 0..<2 { XCTAssertEqual(exact.position[i], x[i], accuracy: 1e-6 * distance) }
                        let e = (0..<2).reduce(0.0) { $0 + 0.5 * stiffness * pow(exact.position[$1] - target[$1], 2)
                                                         + 0.5 * mass * pow(exact.velocity[$1], 2) }
                        XCTAssertLessThanOrEqual(e, energy * (1 + 1e-12), "damped energy never increases")
                        energy = e
                    }
                }
                let settle = motion.settleTime
                XCTAssertTrue(settle.isFinite)
                XCTAssertEqual(settle * 1000, (settle * 1000).rounded(), accuracy: 1e-6, "rest on the ms grid")
                let rest = motion.state(at: settle)
                XCTAssertEqual(rest.position, target, "the exact target from rest on")
                let before = motion.state(at: settle - 0.001)
                let moving = hypot(before.velocity[0], before.velocity[1]) >= 5
                    || hypot(before.position[0] - target[0], before.position[1] - target[1]) >= 0.5
                XCTAssertTrue(moving || settle == 0, "the first millisecond at rest")
            }
        }
    }
}
