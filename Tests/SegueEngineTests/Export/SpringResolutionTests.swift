import XCTest
import SegueEngine
import SegueTestSupport

/// `Spring.leastKeyframes` (docs/cost.md "Exports"): the stops a spring's swings need, known before
/// fitting, against the stops `KeyframeFit` finds for the spring's progress.
final class SpringResolutionTests: XCTestCase {
    /// (ζ, ω₀ rad/s, window s): damped swings of many kinds, slow and fast.
    static let springs: [(zeta: Double, omega: Double, window: Double)] = [
        (0.1, 10, 3), (0.2, 20, 2), (0.3, 12, 1.5), (0.5, 12.6, 0.8), (0.6, 15, 0.8), (0.7, 30, 0.5), (0.15, 60, 1),
        (0.05, 25, 4), (0.4, 100, 0.3),
    ]

    /// The estimate stays under the stops found and within a quarter of them (the first rise, which
    /// is no swing, takes a few stops of its own on the most damped).
    func testTheEstimateFollowsTheFittedStops() {
        for (zeta, omega, window) in Self.springs {
            let spring = Spring.physical(mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega, initialVelocity: 0,
                                         allowsOverdamping: false)
            for tolerance in [1e-3, 1e-4] {
                let target = FitTarget.linear(scale: [1]) { [spring.progress(at: $0)] }
                let stops = Double(KeyframeFit(target, start: 0, end: window, tolerance: tolerance, unitsPerSecond: 100 / window).keyframes.count)
                let least = spring.leastKeyframes(tolerance: tolerance, over: window)
                XCTAssertLessThanOrEqual(least, stops, "ζ \(zeta), ω \(omega), ε \(tolerance): the estimate is a lower bound")
                XCTAssertGreaterThanOrEqual(least, 0.75 * stops, "ζ \(zeta), ω \(omega), ε \(tolerance): the estimate follows the stops")
            }
        }
    }

    func testNoSwingNoStops() {
        let critical = Spring.physical(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0, allowsOverdamping: false)
        XCTAssertEqual(critical.leastKeyframes(tolerance: 1e-3, over: 2), 0)
        let over = Spring.physical(mass: 1, stiffness: 100, damping: 40, initialVelocity: 0, allowsOverdamping: true)
        XCTAssertEqual(over.leastKeyframes(tolerance: 1e-3, over: 2), 0)
    }

    /// Issue 29's probe: stiffness 10⁶, damping 1, 100 s — tens of thousands of stops, refused before fitting.
    func testTheStiffSpringNeedsMoreThanAnyGridGives() {
        let stiff = Spring.physical(mass: 1, stiffness: 1e6, damping: 1, initialVelocity: 0, allowsOverdamping: false)
        XCTAssertGreaterThan(stiff.leastKeyframes(tolerance: 1e-3, over: 100), Double(KeyframeFit.gridIntervals / 2))
        let undamped = Spring.physical(mass: 1, stiffness: 100, damping: 0, initialVelocity: 0, allowsOverdamping: false)
        // ω₀ = 10, amplitude 1: 10 · √(1/(8 · 10⁻³)) pieces a second for 10 s, times the share.
        XCTAssertEqual(undamped.leastKeyframes(tolerance: 1e-3, over: 10), 0.5 * 10 * (1 / 8e-3).squareRoot() * 10, accuracy: 1e-6)
    }
}
