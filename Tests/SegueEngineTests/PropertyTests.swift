@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Points from [input, output] pairs.
func points(_ pairs: [Double]...) -> [PiecewiseLinear.Point] {
    pairs.map { PiecewiseLinear.Point(input: $0[0], output: $0[1]) }
}

/// Central difference (f(x + h) − f(x − h)) / 2h.
func numericalDerivative(_ f: (Double) -> Double, at x: Double, step h: Double) -> Double {
    (f(x + h) - f(x - h)) / (2 * h)
}

final class PropertyTests: XCTestCase {
    static let hostileInputs: [Double] = [1e308, -1e308, 0, -0.0, .nan, .infinity, -.infinity]

    func testBezierSlopeIsTheDerivativeOfProgress() {
        var random = SplitMix64(state: 1)
        for _ in 0..<200 {
            let curve = CubicBezier(
                x1: .random(in: 0.05...0.95, using: &random), y1: .random(in: -1...2, using: &random),
                x2: .random(in: 0.05...0.95, using: &random), y2: .random(in: -1...2, using: &random))
            for _ in 0..<20 {
                let x = Double.random(in: 0.01...0.99, using: &random)
                let (progress, slope) = curve.sample(x)
                XCTAssertEqual(progress, curve.progress(x))
                XCTAssertEqual(slope, curve.slope(x))
                let numerical = numericalDerivative(curve.progress, at: x, step: 1e-6)
                XCTAssertEqual(numerical, slope, accuracy: 1e-4 * max(1, abs(slope)), "\(curve) at \(x)")
            }
        }
    }

    func testBezierEdges() {
        // Identity curves are exact, also outside [0, 1].
        for curve in [CubicBezier.linear, CubicBezier(x1: 0.3, y1: 0.3, x2: 0.9, y2: 0.9)] {
            for x in [-2.5, 0.1, 0.7, 3.0] { XCTAssert(curve.sample(x) == (x, 1)) }
        }
        // Vertical tangents report ±greatestFiniteMagnitude; 0/0 takes the second-derivative limit.
        XCTAssertEqual(CubicBezier(x1: 0, y1: 0.5, x2: 1, y2: 0.5).slope(0), .greatestFiniteMagnitude)
        XCTAssertEqual(CubicBezier(x1: 0, y1: 0.5, x2: 1, y2: 0.5).slope(1), .greatestFiniteMagnitude)
        XCTAssertEqual(CubicBezier(x1: 1, y1: 0.45, x2: 0, y2: 0.55).slope(0.5), .greatestFiniteMagnitude)
        XCTAssertEqual(CubicBezier.easeIn.slope(0), 0)
        XCTAssertEqual(CubicBezier.easeOut.slope(1), 0)
        XCTAssertEqual(CubicBezier(x1: 0, y1: 0, x2: 0.5, y2: 0.2).slope(0), 0.4, accuracy: 1e-15)
        // Presets and endpoints.
        XCTAssertEqual(CubicBezier.ease, CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1))
        XCTAssertEqual(CubicBezier.easeInOut.progress(0.5), 0.5, accuracy: 1e-12)
        for curve in [CubicBezier.ease, .easeIn, .easeOut, .easeInOut] {
            XCTAssertEqual(curve.progress(0), 0)
            XCTAssertEqual(curve.progress(1), 1)
        }
    }

    func testSpringVelocityIsTheDerivativeOfProgress() {
        // Under-, critically and over-damped (both over-damped forms: ωo·t crosses 20).
        for damping in [0, 3, 19.99, 20, 20.01, 45, 400] {
            for velocity in [-4.0, 0, 6] {
                let spring = Spring(
                    mass: 1, stiffness: 100, damping: damping, initialVelocity: velocity, allowsOverdamping: true)
                for t in stride(from: 0.01, through: 5, by: 0.07) {
                    let numerical = numericalDerivative({ spring.progress(at: $0) }, at: t, step: 1e-6)
                    let analytic = spring.velocity(at: t)
                    XCTAssertEqual(
                        numerical, analytic, accuracy: 1e-6 * max(1, abs(analytic)), "c=\(damping) v0=\(velocity) t=\(t)")
                }
            }
        }
    }

    /// A run (`TimingCurve.sample(at:duration:progress:velocity:)`, what the curve route samples
    /// through, and `Spring.sample(at:endingAt:progress:velocity:)` under it) gives the same bits as
    /// the curve sample by sample, for every form of the oscillator: under-damped (its own loop),
    /// undamped, critical, both over-damped forms; a spring with no end and a UIKit one (before,
    /// at and after its end); before 0, NaN and infinite times.
    func testASpringRunGivesTheBitsOfEachSample() {
        var times = Array(stride(from: -0.3, through: 6, by: 0.013)) + [0, -0.0, .nan, .infinity, -.infinity, 1e300]
        let end = 0.75
        times.append(contentsOf: [end.nextDown, end, end.nextUp])
        for damping in [0, 3, 19.99, 20, 20.01, 45, 400] {
            for velocity in [-4.0, 0, 6] {
                let spring = Spring(
                    mass: 1, stiffness: 100, damping: damping, initialVelocity: velocity, allowsOverdamping: true)
                for curve in [TimingCurve.spring(spring), .durationSpring(spring, duration: end)] {
                    var progress = [Double](repeating: 7, count: times.count), speed = progress
                    curve.sample(at: times, duration: 1, progress: &progress, velocity: &speed)
                    for (i, t) in times.enumerated() {
                        let one = curve.sample(at: t, duration: 1)
                        XCTAssertEqual(progress[i].bitPattern, one.progress.bitPattern, "c=\(damping) v0=\(velocity) t=\(t) \(curve)")
                        XCTAssertEqual(speed[i].bitPattern, one.velocity.bitPattern, "c=\(damping) v0=\(velocity) t=\(t) \(curve)")
                    }
                }
            }
        }
    }

    func testOverdampedFormsAgreeAtTheSwitch() {
        let oscillator = DampedOscillator(mass: 1, stiffness: 100, damping: 30)  // ζ = 1.5
        let switchTime = 20 / (10 * (1.5 * 1.5 - 1).squareRoot())
        let below = oscillator.state(y0: -1, v0: 2, at: switchTime.nextDown)
        let above = oscillator.state(y0: -1, v0: 2, at: switchTime)
        XCTAssertEqual(below.position, above.position, accuracy: 1e-13)
        XCTAssertEqual(below.velocity, above.velocity, accuracy: 1e-12)
    }

    func testSpringStartsAtRestBeforeZero() {
        let spring = Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 3, allowsOverdamping: false)
        XCTAssert(spring.sample(at: -0.5) == (0, 0))
        XCTAssertEqual(spring.progress(at: 0), 0)
        XCTAssertEqual(spring.velocity(at: 0), 3, accuracy: 1e-15)
    }

    func testOscillatorStaysFinite() {
        for mass in [1e-3, 1, 1e3] {
            for stiffness in [1e-3, 1, 1e4] {
                let critical = 2 * (mass * stiffness).squareRoot()
                for zeta in [0, 1e-9, 0.5, 1 - 1e-12, 1, 1 + 1e-12, 2, 1e3, 1e6] {
                    let oscillator = DampedOscillator(mass: mass, stiffness: stiffness, damping: zeta * critical)
                    for t in [0, 1e-9, 0.1, 1, 100, 3600] {
                        for (y0, v0) in [(1.0, 0.0), (-1, 1e3), (0, -1e3)] {
                            let state = oscillator.state(y0: y0, v0: v0, at: t)
                            XCTAssert(
                                state.position.isFinite && state.velocity.isFinite,
                                "m=\(mass) k=\(stiffness) ζ=\(zeta) t=\(t) y0=\(y0) v0=\(v0): \(state)")
                        }
                    }
                }
            }
        }
    }

    func testHostileInputsDoNotTrap() {
        let curves = [
            CubicBezier.ease, .linear, CubicBezier(x1: 0, y1: 1.5, x2: 1, y2: 1.5), CubicBezier(x1: 1, y1: 0, x2: 0, y2: 1),
        ]
        let linear = [
            PiecewiseLinear(points: []), PiecewiseLinear(points: [.init(input: 0.5, output: 2)]),
            PiecewiseLinear(points: points([0, 0], [0, 1], [1, 0])),
        ]
        for x in Self.hostileInputs {
            for curve in curves { _ = curve.sample(x) }
            for curve in linear { _ = (curve.progress(x), curve.slope(x)) }
            for position in StepPosition.allCases {
                for count in [1, 2, 7, 0, -3, .max, .min] {
                    _ = Steps(count: count, position: position).progress(x, before: true)
                    _ = Steps(count: count, position: position).progress(x)
                }
            }
            _ = Spring(mass: 1, stiffness: 100, damping: 10, allowsOverdamping: false).sample(at: x)
        }
        // NaN and huge control points.
        for value in Self.hostileInputs {
            _ = CubicBezier(x1: value, y1: value, x2: 0.5, y2: value).sample(0.3)
            _ = CubicBezier(x1: 0.5, y1: 1, x2: value, y2: 0).sample(0.7)
        }
        XCTAssertEqual(Steps(count: 4).progress(-0.0), 0)
        // Beyond [0, 1] steps keep climbing (x·n overflows to ±infinity here, without a trap).
        XCTAssertGreaterThan(Steps(count: 4).progress(1e308), 1)
        XCTAssertLessThan(Steps(count: 4, position: .jumpStart).progress(-1e308), 0)
    }

    func testPiecewiseLinearResolution() throws {
        XCTAssertNil(PiecewiseLinear(stops: []))
        XCTAssertNil(PiecewiseLinear(stops: [.init(output: 0)]))
        // Runs of missing inputs are spaced evenly; the last stop defaults to max(1, largest).
        let stops: [PiecewiseLinear.Stop] = [
            .init(output: 0), .init(output: 0.3), .init(output: 0.6, input: 0.9), .init(output: 0.1), .init(output: 1),
        ]
        let curve = try XCTUnwrap(PiecewiseLinear(stops: stops))
        XCTAssertEqual(curve.points.map(\.input), [0, 0.45, 0.9, 0.95, 1])
        XCTAssertEqual(curve.points.map(\.output), [0, 0.3, 0.6, 0.1, 1])
        // Right-continuous at a duplicated input; slope 0 on the vertical segment.
        let jump = PiecewiseLinear(points: points([0, 0], [0.5, 0], [0.5, 1], [1, 1]))
        XCTAssertEqual(jump.progress(0.5), 1)
        XCTAssertEqual(jump.progress(0.4999), 0)
        XCTAssertEqual(jump.slope(0.25), 0)
        XCTAssertEqual(PiecewiseLinear(points: points([0, 0], [0.5, 1], [1, 0])).slope(2), -2)
    }

    func testSettlingDurationTerminates() {
        let extremes: [(Double, Double, Double, Double)] = [
            (1, 100, 1e-9, 0), (1, 100, 20, 1e6), (1, 100, 20, -1e6), (1e6, 1e-6, 1e9, 0), (1, 1e9, 1e9, 0),
            (1e-9, 1e9, 1e6, 5), (1, 1e-9, 1, 0), (1, 100, 1e12, 0), (1, 100, .nan, 0), (.nan, 1, 1, 0),
        ]
        for (mass, stiffness, damping, velocity) in extremes {
            let spring = Spring(
                mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity, allowsOverdamping: true)
            let duration = spring.settlingDuration
            XCTAssertFalse(duration.isNaN, "\(mass) \(stiffness) \(damping) \(velocity)")
            XCTAssertGreaterThanOrEqual(duration, 0)
        }
        XCTAssertEqual(Spring(mass: 1, stiffness: 100, damping: 0, allowsOverdamping: false).settlingDuration, .infinity)
        // A very slow over-damped spring: the walk stops at its 3600 s cap.
        let slow = Spring(mass: 1, stiffness: 1, damping: 1e6, allowsOverdamping: true).settlingDuration
        XCTAssertEqual(slow, 3600, accuracy: 0.2)
    }
}
