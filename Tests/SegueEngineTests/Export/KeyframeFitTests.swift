import XCTest
import SegueTestSupport
@testable import SegueEngine

/// The keyframe fit against its truth over continuous time, read as a CSS `linear()` reads its
/// stops (docs/exports.md "The error rule"): between two stops the output is their linear mix by
/// the input position; at a repeated position the later stop holds from there on.
final class KeyframeFitTests: XCTestCase {
    /// Output of a `linear()` given as (position, value) stops at position x (CSS Easing 2 §3.3,
    /// inputs already in order; the last stop whose input is ≤ x starts the interval).
    static func linearEasing(_ stops: [(Double, Double)], at x: Double) -> Double {
        guard let first = stops.first, x > first.0 else { return stops.first?.1 ?? 0 }
        var k = stops.count - 1
        while k > 0 && stops[k].0 > x { k -= 1 }
        guard k < stops.count - 1 else { return stops[k].1 }
        let (x0, y0) = stops[k], (x1, y1) = stops[k + 1]
        return x1 == x0 ? y1 : y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    }

    /// The largest |linear(t) − truth(t)| over `points` even times and as many random ones in
    /// [0, window], leaving out ±`exclude` around each time in `jumps`.
    static func continuousError(_ fit: KeyframeFit, window: Double, points: Int = 20_000, jumps: [Double] = [],
                                exclude: Double = 0, truth: (Double) -> Double) -> Double {
        let stops = fit.keyframes.map { ($0.position, $0.parameters[0]) }
        var generator = SplitMix64(seed: 7)
        var times = (0...points).map { window * Double($0) / Double(points) }
        times += (0..<points).map { _ in Double.random(in: 0...window, using: &generator) }
        var worst = 0.0
        for t in times where !jumps.contains(where: { abs($0 - t) <= exclude }) {
            worst = max(worst, abs(linearEasing(stops, at: t / window * 100) - truth(t)))
        }
        return worst
    }

    /// Springs in every parametrisation, at 1e-3 and 1e-4: the bound holds between the stops, the
    /// stated error is the one found, and the count is within 10 % of the greedy minimum.
    func testSpringsStayWithinTheBoundOverContinuousTime() {
        let springs: [(String, Spring)] = [
            ("physical m1 k100 c10", .physical(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)),
            ("physical overdamped", .physical(mass: 1, stiffness: 100, damping: 40, initialVelocity: 0, allowsOverdamping: true)),
            ("android", .android(stiffness: 1500, dampingRatio: 0.2, initialVelocity: 0)),
            ("response", .response(0.55, dampingRatio: 0.825, initialVelocity: 2)),
            ("perceptual", .perceptual(duration: 0.5, bounce: 0.3, initialVelocity: 0)),
            ("pop", .pop(bounciness: 12, speed: 8, initialVelocity: 0)),
            ("origami", .origami(tension: 40, friction: 7, initialVelocity: 0)),
            ("critical with velocity", .physical(mass: 2, stiffness: 300, damping: 2 * (600.0).squareRoot(), initialVelocity: -3,
                                                 allowsOverdamping: false)),
        ]
        for (name, spring) in springs {
            let window = spring.settlingDuration
            let target = FitTarget.linear(scale: [1]) { [spring.progress(at: $0)] }
            for tolerance in [1e-3, 1e-4] {
                let fit = KeyframeFit(target, start: 0, end: window, tolerance: tolerance, unitsPerSecond: 100 / window)
                let measured = Self.continuousError(fit, window: window) { spring.progress(at: $0) }
                XCTAssertLessThanOrEqual(measured, tolerance, "\(name) at \(tolerance)")
                XCTAssertLessThanOrEqual(measured, fit.maxError * 1.001 + 1e-12, "\(name): the stated error is the largest")
                let minimum = KeyframeFit.greedyMinimum(target, start: 0, end: window, tolerance: tolerance)
                XCTAssertLessThanOrEqual(Double(fit.keyframes.count), 1.1 * Double(minimum) + 1,
                                         "\(name) at \(tolerance): \(fit.keyframes.count) stops, greedy minimum \(minimum)")
            }
        }
    }

    /// A target's scalar form (`FitTarget.scalar`) is read without arrays but must fit exactly as
    /// its one-component array form does: the same stops, digits and stated error, bit for bit.
    func testTheScalarFormFitsExactlyAsTheArrayForm() {
        let springs: [Spring] = [
            .physical(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false),
            .android(stiffness: 1500, dampingRatio: 0.2, initialVelocity: 0),
            .response(0.55, dampingRatio: 0.825, initialVelocity: 2),
            .physical(mass: 1, stiffness: 100, damping: 40, initialVelocity: 0, allowsOverdamping: true),
        ]
        // Each spring as a timing curve, read point by point and a column at a time (as the
        // `linear()` export reads it), and as a UIKit spring that ends at its duration.
        let curves = springs.flatMap { spring in
            [(TimingCurve.spring(spring), spring.settlingDuration), (.durationSpring(spring, duration: 0.5), 0.5)]
        }
        for (curve, window) in curves {
            let progress: @Sendable (Double) -> Double = { curve.sample(at: $0, duration: window).progress }
            for tolerance in [1e-2, 1e-3, 1e-4] {
                let arrays = KeyframeFit(.linear(scale: [1]) { [progress($0)] }, start: 0, end: window,
                                         tolerance: tolerance, unitsPerSecond: 100 / window)
                let scalar = KeyframeFit(.scalar(scale: 1, progress) { curve.progress(at: $0, duration: window) },
                                         start: 0, end: window, tolerance: tolerance, unitsPerSecond: 100 / window)
                XCTAssertEqual(scalar.keyframes, arrays.keyframes, "\(curve) at \(tolerance)")
                XCTAssertEqual(scalar.maxError.bitPattern, arrays.maxError.bitPattern, "\(curve) at \(tolerance)")
                XCTAssertEqual(scalar.timeDecimals, arrays.timeDecimals)
                XCTAssertEqual(scalar.parameterDecimals, arrays.parameterDecimals)
                XCTAssertGreaterThan(scalar.keyframes.count, 2, "a spring that swings needs stops between its ends")
            }
        }
    }

    /// The yardstick: mass 1, stiffness 100, damping 10 at 0.001 takes about 35 stops
    /// (the best generators in use need 36 for 0.0047).
    func testTheReferenceSpringNeedsAboutThirtyFiveStops() {
        let spring = Spring.physical(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)
        let window = spring.settlingDuration
        let fit = KeyframeFit(.linear(scale: [1]) { [spring.progress(at: $0)] }, start: 0, end: window,
                              tolerance: 1e-3, unitsPerSecond: 100 / window)
        XCTAssertLessThanOrEqual(fit.keyframes.count, 35)
        XCTAssertLessThanOrEqual(fit.maxError, 1e-3)
    }

    /// A jump (a step at 0.3 s) gives two keyframes at one time, the value before then after, and
    /// the bound holds everywhere but at the jump itself.
    func testAJumpBecomesTwoKeyframesAtOneTime() {
        let truth: @Sendable (Double) -> Double = { t in t < 0.3 ? t : 2 + t }
        let fit = KeyframeFit(.linear(scale: [1]) { [truth($0)] }, start: 0, end: 1, tolerance: 1e-3, unitsPerSecond: 100, gridIntervals: 4096)
        let pairs = zip(fit.keyframes, fit.keyframes.dropFirst()).filter { $0.time == $1.time }
        XCTAssertEqual(pairs.count, 1)
        XCTAssertEqual(pairs.first?.0.time ?? 0, 0.3, accuracy: 1e-9)
        XCTAssertEqual(pairs.first?.0.parameters[0] ?? 0, 0.3, accuracy: 1e-3)
        XCTAssertEqual(pairs.first?.1.parameters[0] ?? 0, 2.3, accuracy: 1e-3)
        XCTAssertLessThanOrEqual(Self.continuousError(fit, window: 1, jumps: [0.3], exclude: 1e-9, truth: truth), 1e-3)
        XCTAssertLessThanOrEqual(fit.keyframes.count, 6, "two straight pieces need four keyframes")
    }

    /// A Bézier-timed piece the truth follows exactly is kept as one keyframe pair with its curve;
    /// the holds around it need no other keyframe.
    func testAnExactPieceKeepsItsCurve() {
        let bezier = CubicBezier(x1: 0.3, y1: 1.4, x2: 0.6, y2: 0.9)
        let truth: @Sendable (Double) -> Double = { t in
            t < 0.2 ? 10 : t >= 0.7 ? 50 : 10 + 40 * bezier.progress((t - 0.2) / 0.5)
        }
        let piece = ExactPiece(start: 0.2, end: 0.7, easing: .curve(.cubicBezier(bezier)))
        let fit = KeyframeFit(.linear(scale: [40]) { [truth($0)] }, start: 0, end: 1, tolerance: 1e-3, unitsPerSecond: 100,
                              exactPieces: [piece])
        XCTAssertEqual(fit.keyframes.map(\.time), [0, 0.2, 0.7, 1])
        XCTAssertEqual(fit.keyframes[1].easing, .curve(.cubicBezier(bezier)))
        XCTAssertEqual(fit.keyframes.map { $0.parameters[0] }, [10, 10, 50, 50])
        XCTAssertLessThan(fit.maxError, 1e-9)
        // A candidate the truth does not follow is not taken.
        let wrong = ExactPiece(start: 0.2, end: 0.7, easing: .curve(.cubicBezier(.easeIn)))
        let refused = KeyframeFit(.linear(scale: [40]) { [truth($0)] }, start: 0, end: 1, tolerance: 1e-3, unitsPerSecond: 100,
                                  exactPieces: [wrong])
        XCTAssertTrue(refused.keyframes.allSatisfy { $0.easing == .linear })
        XCTAssertGreaterThan(refused.keyframes.count, 4)
    }

    /// Rounding: the stated decimals are what the keyframes hold, and fewer would break the bound
    /// (the fit reports the fewest that keep it).
    func testKeyframesHoldTheirStatedDecimals() {
        let spring = Spring.physical(mass: 1, stiffness: 170, damping: 26, initialVelocity: 0, allowsOverdamping: false)
        let window = spring.settlingDuration
        let fit = KeyframeFit(.linear(scale: [1]) { [spring.progress(at: $0)] }, start: 0, end: window,
                              tolerance: 1e-3, unitsPerSecond: 100 / window)
        let decimals = fit.parameterDecimals[0]
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        for keyframe in fit.keyframes {
            let scaled = keyframe.parameters[0] * power
            XCTAssertEqual(scaled, scaled.rounded(), accuracy: 1e-6 * max(1, abs(scaled)))
        }
        XCTAssertLessThan(decimals, 6)
    }

    /// The fallback fit recovers a Bézier it is given, and beats every CSS keyword on a spring.
    func testCubicBezierFitIsMinimax() {
        let given = CubicBezier(x1: 0.2, y1: 0.7, x2: 0.4, y2: 1)
        let recovered = CubicBezierFit { given.progress($0) }
        XCTAssertLessThan(recovered.maxError, 2e-3)
        let spring = Spring.physical(mass: 1, stiffness: 200, damping: 28, initialVelocity: 0, allowsOverdamping: false)
        let window = spring.settlingDuration
        let fit = CubicBezierFit { spring.progress(at: $0 * window) }
        for keyword in [CubicBezier.ease, .easeIn, .easeOut, .easeInOut, .linear] {
            XCTAssertLessThan(fit.maxError, CubicBezierFit.checkedError(keyword) { spring.progress(at: $0 * window) })
        }
        XCTAssertEqual(fit.maxError, CubicBezierFit.checkedError(fit.bezier) { spring.progress(at: $0 * window) })
    }

    /// The transform functions give back every invertible matrix, reflections included, with the
    /// angle on the branch asked for.
    func testTransformFunctionsRoundTrip() {
        var generator = SplitMix64(seed: 11)
        for _ in 0..<1000 {
            let m = (0..<6).map { _ in Double.random(in: -3...3, using: &generator) }
            let matrix = AffineTransform(m)
            guard abs(matrix.determinant) > 1e-3 else { continue }
            let reference = Double.random(in: -20...20, using: &generator)
            let p = TransformFunctions.parameters(matrix, near: reference)
            XCTAssertLessThanOrEqual(abs(p[2] - reference), .pi + 1e-12)
            XCTAssertGreaterThanOrEqual(p[4], 0)
            for (got, want) in zip(TransformFunctions.matrix(p), m) { XCTAssertEqual(got, want, accuracy: 1e-9) }
        }
    }
}
