@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Every springs.json case of the closed-form spring models, mapped onto the parameter sets as
/// /work/shared/conformance/check.py `plan_spring_case` does: value = from + (to − from)·p,
/// velocity = (to − from)·p', initial velocities in value units per second divided by the distance.
final class SpringVectorTests: XCTestCase {
    /// Models outside the engine (integrators, decays, Motion's rest snapping): the render module's.
    static let otherModels: Set<String> = [
        "pop.spring.rk4", "rebound.spring.rk4", "pop.decay", "motion.spring", "android.fling",
        "objcio.euler", "box2d.softspring", "scroll.decay",
    ]

    /// A case resolved to a spring: its travel, and the time its curve ends (UIKit), if any.
    private struct Plan {
        var spring: Spring
        var from: Double
        var to: Double
        var end = Double.infinity
        /// Expected `derived` names → the spring's value.
        var derived: [String: Double] = [:]
    }

    func testEveryClosedFormCase() throws {
        var checked: [String: Int] = [:]
        for vector in try VectorCase.load("springs.json") {
            let model = try XCTUnwrap(vector.fields["model"] as? String)
            if Self.otherModels.contains(model) { continue }
            let plan = try self.plan(model: model, vector)
            let distance = plan.to - plan.from
            let expect = try XCTUnwrap(vector.fields["expect"] as? [String: Any])
            let values = VectorCase.numbers(expect["value"]), velocities = VectorCase.numbers(expect["velocity"])
            let times = vector.numbers("times")
            XCTAssertEqual(times.count, values.count, vector.id)
            XCTAssertEqual(times.count, velocities.count, vector.id)
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            let velocityTolerance = try XCTUnwrap(vector.number("velocityTolerance"))
            // From `end` on, a UIKit spring reads exactly `to`: the codec's job, not checked here.
            for (index, t) in times.enumerated() where t < plan.end {
                let (progress, velocity) = plan.spring.sample(at: t)
                assertClose(plan.from + distance * progress, values[index], tolerance, "\(vector.id) value t=\(t)")
                assertClose(distance * velocity, velocities[index], velocityTolerance, "\(vector.id) velocity t=\(t)")
            }
            if let settling = vector.number("settlingDuration") {
                let settlingTolerance = try XCTUnwrap(vector.number("settlingTolerance"))
                assertClose(plan.spring.settlingDuration, settling, settlingTolerance, "\(vector.id) settlingDuration")
            }
            let expectedDerived = vector.fields["derived"] as? [String: Any] ?? [:]
            let relative = vector.number("derivedRelTolerance") ?? 0
            for (name, actual) in plan.derived {
                let expected = try XCTUnwrap(VectorCase.number(expectedDerived[name]), "\(vector.id) derived \(name)")
                assertClose(actual, expected, relative * abs(expected), "\(vector.id) derived \(name)")
            }
            checked[model, default: 0] += 1
        }
        XCTAssertEqual(
            checked,
            [
                "physics.spring": 5, "ca.spring": 5, "uikit.durationSpring": 3, "swiftui.spring": 4,
                "pop.spring": 2, "android.spring": 2,
            ])
    }

    private func plan(model: String, _ vector: VectorCase) throws -> Plan {
        func param(_ key: String) throws -> Double { try XCTUnwrap(vector.param(key), "\(vector.id) \(key)") }
        let p = vector.params
        switch model {
        case "physics.spring":
            let from = try param("from"), to = try param("to")
            let spring = Spring.physical(
                mass: try param("mass"), stiffness: try param("stiffness"), damping: try param("damping"),
                initialVelocity: try param("initialVelocity") / (to - from), allowsOverdamping: true)
            return Plan(spring: spring, from: from, to: to)
        case "ca.spring":
            let spring = Spring.physical(
                mass: try param("mass"), stiffness: try param("stiffness"), damping: try param("damping"),
                initialVelocity: try param("initialVelocity"),
                allowsOverdamping: p["allowsOverdamping"] as? Bool ?? false)
            return Plan(spring: spring, from: try param("from"), to: try param("to"))
        case "uikit.durationSpring":
            let duration = try param("duration")
            let solution = Spring.uikit(
                dampingRatio: try param("dampingRatio"), duration: duration,
                initialVelocity: try param("initialVelocity"))
            let spring = solution.spring
            return Plan(
                spring: spring, from: try param("from"), to: try param("to"), end: duration,
                derived: ["mass": spring.mass, "stiffness": spring.stiffness, "damping": spring.damping])
        case "swiftui.spring":
            let target = try param("target"), velocity = try param("initialVelocity") / target
            let spring: Spring
            switch p["init"] as? String {
            case "duration_bounce":
                spring = .perceptual(
                    duration: try param("duration"), bounce: try param("bounce"), initialVelocity: velocity)
            case "response_dampingRatio":
                spring = .response(
                    try param("response"), dampingRatio: try param("dampingRatio"), initialVelocity: velocity)
            case "mass_stiffness_damping":
                spring = .physical(
                    mass: try param("mass"), stiffness: try param("stiffness"), damping: try param("damping"),
                    initialVelocity: velocity, allowsOverdamping: p["allowOverDamping"] as? Bool ?? false)
            case let other:
                throw VectorError.malformed("SwiftUI initialiser \(other ?? "nil") in \(vector.id)")
            }
            return Plan(
                spring: spring, from: 0, to: target,
                derived: [
                    "mass": spring.mass, "stiffness": spring.stiffness, "damping": spring.damping,
                    "duration": spring.response, "bounce": spring.bounce, "dampingRatio": spring.dampingRatio,
                ])
        case "pop.spring":
            let from = try param("from"), to = try param("to")
            let velocity = (vector.param("velocity") ?? 0) / (to - from)
            let spring =
                p["origamiTension"] != nil
                ? Spring.origami(
                    tension: try param("origamiTension"), friction: try param("origamiFriction"),
                    initialVelocity: velocity)
                : Spring.pop(
                    bounciness: try param("springBounciness"), speed: try param("springSpeed"),
                    initialVelocity: velocity)
            return Plan(
                spring: spring, from: from, to: to,
                derived: ["tension": spring.stiffness, "friction": spring.damping, "mass": spring.mass])
        case "android.spring":
            let from = try param("startValue"), to = try param("finalPosition")
            let spring = Spring.android(
                stiffness: try param("stiffness"), dampingRatio: try param("dampingRatio"),
                initialVelocity: try param("startVelocity") / (to - from))
            return Plan(spring: spring, from: from, to: to)
        default:
            throw VectorError.malformed("unknown model \(model) in \(vector.id)")
        }
    }
}
