@testable import SegueEngine
import SegueTestSupport
import XCTest

/// The cost model (`SceneCost`, docs/cost.md), the cooperative cancellation (`WorkCancellation`)
/// and the stable spring formulas for extreme parameters (docs/rules.md "Conventions").
final class WorkTests: XCTestCase {
    // MARK: Cost model

    static func keyframed(_ mode: CalculationMode, width: Int, count: Int) -> SceneSpec {
        var values: [[Double]] = []
        for i in 0..<count {
            var value: [Double] = []
            for k in 0..<width { value.append(Double((i * 7 + k * 3) % 11) - 5) }
            values.append(value)
        }
        let channel = SceneSpec.Channel(name: "c", kind: .of("c", count: width), value: .vector([Double](repeating: 0, count: width)))
        return SceneSpec(views: [SceneSpec.View(name: "v", channels: [channel])],
                         animations: [.values(id: "a", view: "v", channel: "c", values, duration: 1, mode: mode)])
    }

    func testWorkGrowsWithFramesVelocitiesAndTheDearerModes() throws {
        let linear = try compile(Self.keyframed(.linear, width: 4, count: 10))
        let cubic = try compile(Self.keyframed(.cubic, width: 4, count: 10))
        let paced = try compile(Self.keyframed(.cubicPaced, width: 4, count: 10))
        let wide = try compile(Self.keyframed(.cubicPaced, width: 64, count: 10))
        XCTAssertEqual(SceneCost.render(linear, frames: 200, velocities: false),
                       2 * SceneCost.render(linear, frames: 100, velocities: false), accuracy: 1e-6)
        XCTAssertGreaterThan(SceneCost.render(linear, frames: 100, velocities: true),
                             SceneCost.render(linear, frames: 100, velocities: false))
        XCTAssertGreaterThan(SceneCost.render(cubic, frames: 100, velocities: false),
                             SceneCost.render(linear, frames: 100, velocities: false))
        // The arc-length inversion (a quadrature panel and a speed per Newton step) is dearer than a
        // Hermite segment, and grows with the width.
        XCTAssertGreaterThan(SceneCost.render(paced, frames: 100, velocities: false),
                             SceneCost.render(cubic, frames: 100, velocities: false))
        XCTAssertGreaterThan(SceneCost.render(wide, frames: 100, velocities: false),
                             3 * SceneCost.render(paced, frames: 100, velocities: false))
        // A numeric velocity evaluates the channel three more times (and prints as many numbers
        // again): four evaluations against one.
        XCTAssertGreaterThan(SceneCost.render(paced, frames: 100, velocities: true),
                             2 * SceneCost.render(paced, frames: 100, velocities: false))
    }

    /// The arc-length table's nodes do not grow with the width (the speed's extrema are at most
    /// three per segment), so its bound is linear in the width, and far above the cubic spline's.
    func testTrackBuildBoundsCubicPacedLinearlyInTheWidth() {
        let narrow = SceneCost.keyframeTrackBuild(values: 100, width: 8, mode: .cubicPaced)
        let wide = SceneCost.keyframeTrackBuild(values: 100, width: 64, mode: .cubicPaced)
        XCTAssertEqual(wide / narrow, 8, accuracy: 0.05)
        XCTAssertLessThan(SceneCost.keyframeTrackBuild(values: 100, width: 64, mode: .cubic), wide / 10)
    }

    func testCurveWorkIsSamplesTimesAnEvaluation() {
        let bezier = SceneCost.curve(.cubicBezier(.ease), samples: 1000)
        XCTAssertEqual(SceneCost.curve(.cubicBezier(.ease), samples: 2000), 2 * bezier, accuracy: 1e-6)
        XCTAssertGreaterThan(bezier, SceneCost.curve(.steps(Steps(count: 3, position: .jumpEnd)), samples: 1000))
    }

    // MARK: Cancellation

    /// A long physics simulation stops at its next look at a raised flag.
    func testARaisedCancellationStopsTheCompile() {
        let spec = SceneSpec(views: [.init("v", .numbers("c", 0))],
                             animations: [.physics(id: "p", view: "v", channel: "c",
                                                   model: .spring(mass: 1, stiffness: 100, damping: 0), target: [100],
                                                   integrator: .rk4(tickRate: 1000))],
                             until: 600)
        let cancellation = WorkCancellation()
        XCTAssertFalse(cancellation.isCancelled)
        cancellation.cancel()
        XCTAssertTrue(cancellation.isCancelled)
        XCTAssertThrowsError(try SceneCompiler.compile(spec, limits: SceneLimits(maxSimulationSteps: 100_000_000),
                                                       cancellation: cancellation)) { error in
            XCTAssertEqual(error as? SceneError, .cancelled)
        }
        // Without a flag (or with one never raised) the same scene compiles.
        XCTAssertNoThrow(try SceneCompiler.compile(spec, limits: SceneLimits(maxSimulationSteps: 100_000_000),
                                                   cancellation: WorkCancellation()))
    }

    // MARK: Stable spring formulas

    func testRootsOfExtremeProductsAndQuotientsStayFinite() throws {
        // Subnormal values, parsed: as literals the compiler warns that they lose precision.
        let subnormal = try XCTUnwrap(Double("1e-310")), tolerance = try XCTUnwrap(Double("1e-314"))
        XCTAssertEqual(DampedOscillator.rootOfProduct(subnormal, 1), 1e-155, accuracy: 1e-169)
        XCTAssertEqual(DampedOscillator.rootOfProduct(1e300, 1e300), 1e300, accuracy: 1e286)
        XCTAssertEqual(DampedOscillator.rootOfQuotient(1, subnormal), 1e155, accuracy: 1e141)
        XCTAssertEqual(DampedOscillator.rootOfQuotient(1e-300, 1e300), 1e-300, accuracy: tolerance)
        // Ordinary arguments keep the plain formula's rounding (the recorded answers depend on it).
        for (a, b) in [(100.0, 1.0), (190.21, 1.331), (0.3, 7.0)] {
            XCTAssertEqual(DampedOscillator.rootOfProduct(a, b), (a * b).squareRoot())
            XCTAssertEqual(DampedOscillator.rootOfQuotient(a, b), (a / b).squareRoot())
        }
    }

    /// The issue's `{"stiffness": 1e-310, "damping": 1}`: every quantity is finite — response
    /// 2π·10¹⁵⁵, critically damped after Core Animation's clamp.
    func testATinyStiffnessHasAFiniteResponse() throws {
        let stiffness = try XCTUnwrap(Double("1e-310"))     // subnormal: parsed, not a literal
        let spring = Spring.physical(mass: 1, stiffness: stiffness, damping: 1, initialVelocity: 0, allowsOverdamping: false)
        XCTAssertNil(spring.nonFiniteQuantity)
        XCTAssertEqual(spring.response, 2 * .pi * 1e155, accuracy: 1e142)
        XCTAssertEqual(spring.dampingRatio, 1)
        XCTAssertEqual(spring.bounce, 0)
        XCTAssertTrue(spring.progress(at: 1).isFinite)
        // Huge mass and stiffness together: ζ is c/(2√k√m), not c/∞ = 0.
        let heavy = Spring.physical(mass: 1e300, stiffness: 1e300, damping: 1e300, initialVelocity: 0, allowsOverdamping: true)
        XCTAssertNil(heavy.nonFiniteQuantity)
        XCTAssertEqual(heavy.dampingRatio, 0.5, accuracy: 1e-15)
    }

    func testOverflowsWithoutAStableFormAreNamed() {
        // ζ·ω0 and the frequency overflow with a damping ratio of 1e300 on a stiff spring.
        let runaway = Spring.android(stiffness: 1e300, dampingRatio: 1e300, initialVelocity: 0)
        XCTAssertNotNil(runaway.nonFiniteQuantity)
        XCTAssertNil(Spring.response(0.5, dampingRatio: 0.8, initialVelocity: 0).nonFiniteQuantity)
    }
}
