@testable import SegueEngine
import XCTest

/// Numbers stated by Apple, POP and Rebound, as quoted in docs/springs.md.
final class DocumentedNumbersTests: XCTestCase {
    /// CASpringAnimation.settlingDuration doc (mass 1, stiffness 100): "approximately 2.85 seconds"
    /// for damping 5, "just over 1 second" for damping 15 (docs/springs.md "Settling duration": 2.85497 s, 1.02209 s).
    func testCoreAnimationSettlingDuration() {
        let soft = Spring(mass: 1, stiffness: 100, damping: 5, allowsOverdamping: false)
        let firm = Spring(mass: 1, stiffness: 100, damping: 15, allowsOverdamping: false)
        XCTAssertEqual(soft.settlingDuration, 2.85497, accuracy: 5e-6)
        XCTAssertEqual(firm.settlingDuration, 1.02209, accuracy: 5e-6)
    }

    /// docs/springs.md "UIKit duration-based springs" table (v = 0). Its 1.0 s / ζ 0.2 row lists damping 10.636, which does not
    /// fit its own stiffness: 2ζ√707.222 = 10.6375 (the closed form gives ω = 26.5937), so that
    /// row is checked against 10.6375.
    func testUIKitDurationSprings() {
        let table: [(duration: Double, zeta: Double, stiffness: Double, damping: Double)] = [
            (0.5, 0.5, 646.878, 25.434), (1.0, 0.2, 707.222, 10.6375), (0.3, 1.0, 947.288, 61.556),
        ]
        for row in table {
            let solution = Spring.uikit(dampingRatio: row.zeta, duration: row.duration, initialVelocity: 0)
            XCTAssertEqual(solution.spring.stiffness, row.stiffness, accuracy: 5e-4, "\(row)")
            XCTAssertEqual(solution.spring.damping, row.damping, accuracy: 5e-4, "\(row)")
            XCTAssertEqual(solution.spring.mass, 1)
            XCTAssertEqual(solution.spring.initialVelocity, 0)
            XCTAssertFalse(solution.clampedDampingRatio || solution.clampedDuration)
        }
        let clamped = Spring.uikit(dampingRatio: 1.5, duration: 20, initialVelocity: 0)
        XCTAssertTrue(clamped.clampedDampingRatio && clamped.clampedDuration)
        XCTAssertEqual(clamped.spring.dampingRatio, 1, accuracy: 1e-12)
        XCTAssertEqual(clamped.spring, Spring.uikit(dampingRatio: 1, duration: 10, initialVelocity: 0).spring)
    }

    /// POP defaults bounciness 4, speed 12 (docs/springs.md "POP and Origami springs"); Rebound's default Origami (40, 7).
    func testPopAndOrigami() {
        let pop = Spring.pop(bounciness: 4, speed: 12, initialVelocity: 0)
        XCTAssertEqual(pop.stiffness, 342.10059, accuracy: 1e-5)
        XCTAssertEqual(pop.damping, 30.48698, accuracy: 1e-5)
        XCTAssertEqual(pop.dampingRatio, 0.824, accuracy: 5e-4)
        let origami = Spring.origami(tension: 40, friction: 7, initialVelocity: 0)
        XCTAssertEqual(origami.stiffness, 230.2, accuracy: 1e-9)
        XCTAssertEqual(origami.damping, 22, accuracy: 1e-9)
    }

    /// SwiftUI docs: Spring(duration: 0.5, bounce: 0.3) is (1.0, 157.9, 17.6);
    /// Spring(mass: 1, stiffness: 100, damping: 10) has duration 0.63 and bounce 0.5.
    func testSwiftUIExamples() {
        let bouncy = Spring.perceptual(duration: 0.5, bounce: 0.3, initialVelocity: 0)
        XCTAssertEqual(bouncy.mass, 1)
        XCTAssertEqual(bouncy.stiffness, 157.914, accuracy: 5e-4)
        XCTAssertEqual(bouncy.damping, 17.593, accuracy: 5e-4)
        let physical = Spring.physical(
            mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)
        XCTAssertEqual(physical.response, 0.6283, accuracy: 5e-5)
        XCTAssertEqual(physical.bounce, 0.5, accuracy: 1e-12)
        // Over-damping is clamped to critical unless allowed.
        let clamped = Spring(mass: 1, stiffness: 100, damping: 40, allowsOverdamping: false)
        XCTAssertEqual(clamped.damping, 20)
        XCTAssertEqual(clamped.dampingRatio, 1)
        let overdamped = Spring(mass: 1, stiffness: 100, damping: 40, allowsOverdamping: true)
        XCTAssertEqual(overdamped.bounce, -0.5, accuracy: 1e-12)
    }
}
