@testable import SegueEngine
import SegueTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// XCTest re-exports Foundation, whose `AffineTransform` would be ambiguous here.
private typealias AffineTransform = SegueEngine.AffineTransform

/// Transform decomposition and interpolation (docs/rules.md rules 6 and 9, docs/transforms.md).
final class TransformInterpolationTests: XCTestCase {
    /// Exact-arithmetic checks that only meet rounding.
    static let tight = 1e-12

    func testAffineInterpolateCases() throws {
        var checked = 0
        for vector in try VectorCase.load("curves.json") where vector.fields["kind"] as? String == "affine_interpolate"
        {
            let from = AffineTransform(VectorCase.numbers(vector.params["from"]))
            let to = AffineTransform(VectorCase.numbers(vector.params["to"]))
            let interpolator = TransformInterpolator(from: .matrix(from), to: .matrix(to), directRotation: false)
            XCTAssertFalse(interpolator.isDiscrete, vector.id)
            try RenderFixtures.compare(vector) { interpolator.value($0).array }
            checked += 1
        }
        XCTAssertEqual(checked, 3)
    }

    /// docs/transforms.md "The drop-dismiss fall", the drop-dismiss keyframes with a linear curve. Expectations come from the
    /// rules, not from the implementation: each keyframe ends at the principal angle of its own
    /// matrix, and turns along the shorter arc from the previous keyframe's principal angle
    /// (|Δ| > π strictly wraps); the literal angles and directions are those docs/transforms.md "The drop-dismiss fall" states.
    func testDropDismissRotation() {
        let starts = [0, 0.15, 0.25, 0.45, 0.65]
        let durations = [0.15, 0.10, 0.20, 0.20, 0.35]
        var matrices = [-1.5 * Double.pi, .pi, 1.3 * .pi, 0.8 * .pi].map { rotation($0) }
        matrices.append(
            AffineTransform(translation: (180, 0), scale: (1, 1), rotation: 0).concatenating(rotation(0.3 * .pi)))
        let keyframes = (0..<5).map {
            RelativeKeyframe(start: starts[$0], duration: durations[$0], value: TransformEnd.matrix(matrices[$0]))
        }
        let (keyTimes, values) = UIViewKeyframes.track(from: .matrix(.identity), keyframes: keyframes)
        XCTAssertEqual(keyTimes, [0, 0.15, 0.25, 0.45, 0.65, 1])
        let track = TransformKeyframeTrack(
            values: values, keyTimes: keyTimes, timingFunctions: nil, mode: .linear, tension: nil, continuity: nil,
            bias: nil)
        XCTAssertEqual(track.warnings, [])

        let endDegrees: [Double] = [90, 180, -126, 144, 54]  // 234° reads as −126°
        let clockwise = [true, true, true, false, false]
        var previous = AffineTransform.identity
        for k in 0..<5 {
            let end = starts[k] + durations[k]
            assertSameAngle(angle(track.value(at: end)), endDegrees[k] * .pi / 180, "end of keyframe \(k + 1)")
            // The rule: shortest arc between the principal angles, strict > π.
            let from = angle(previous)
            let to = angle(matrices[k])
            var delta = to - from
            if abs(delta) > .pi { delta -= delta > 0 ? 2 * .pi : -2 * .pi }
            XCTAssertEqual(delta > 0, clockwise[k], "direction of keyframe \(k + 1)")
            for fraction in [0.25, 0.5, 0.75] {
                let t = starts[k] + fraction * durations[k]
                assertSameAngle(angle(track.value(at: t)), from + fraction * delta, "keyframe \(k + 1) at \(fraction)")
            }
            previous = matrices[k]
        }
    }

    /// docs/rules.md rule 6: sin(M_PI) > 0, so rotation(π) decomposes to +π; |Δ| = π is no wrap.
    func testIdentityToRotationPiTurnsClockwise() {
        let half = TransformInterpolator(from: .matrix(.identity), to: .matrix(rotation(.pi)), directRotation: false)
        assertClose(angle(half.value(0.5)), .pi / 2, Self.tight, "identity → π at 0.5")
        assertClose(angle(half.value(0.25)), .pi / 4, Self.tight, "identity → π at 0.25")
        let back = TransformInterpolator(from: .matrix(rotation(.pi)), to: .matrix(.identity), directRotation: false)
        assertClose(angle(back.value(0.5)), .pi / 2, Self.tight, "π → identity retraces")
    }

    /// 0 → 2π: as components with the direct path it turns once; converted to matrices (the
    /// default path, or matrices on either path) it does not move.
    func testFullTurn() {
        let zero = components(rotation: 0)
        let full = components(rotation: 2 * .pi)
        let direct = TransformInterpolator(from: .components(zero), to: .components(full), directRotation: true)
        for (p, expected) in [(0.25, Double.pi / 2), (0.5, .pi), (0.75, -.pi / 2)] {
            assertSameAngle(angle(direct.value(p)), expected, "direct at \(p)")
        }
        for interpolator in [
            TransformInterpolator(from: .components(zero), to: .components(full), directRotation: false),
            TransformInterpolator(from: .matrix(zero.matrix), to: .matrix(full.matrix), directRotation: false),
            TransformInterpolator(from: .matrix(zero.matrix), to: .matrix(full.matrix), directRotation: true),
        ] {
            for p in stride(from: 0.0, through: 1, by: 0.125) {
                assertMatrix(interpolator.value(p), .identity, Self.tight, "no movement at \(p)")
            }
        }
    }

    /// `rotationPath: "direct"` with matrices: θ = atan2(b, a) of each end, interpolated as is,
    /// so 0.9π → −0.9π turns −1.8π (the default path turns +0.2π through π); a reflection keeps
    /// its matrix at the ends.
    func testDirectRotationOfMatrices() {
        let from = TransformEnd.matrix(rotation(0.9 * .pi))
        let to = TransformEnd.matrix(rotation(-0.9 * .pi))
        let direct = TransformInterpolator(from: from, to: to, directRotation: true)
        assertSameAngle(angle(direct.value(0.5)), 0, "direct at 0.5")
        assertSameAngle(angle(direct.value(0.25)), 0.45 * .pi, "direct at 0.25")
        let shortest = TransformInterpolator(from: from, to: to, directRotation: false)
        assertSameAngle(angle(shortest.value(0.5)), .pi, "shortest at 0.5")

        let mirror = AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        let flip = TransformInterpolator(from: .matrix(mirror), to: .matrix(rotation(0.5 * .pi)), directRotation: true)
        assertMatrix(flip.value(0), mirror, Self.tight, "mirror at 0")
        assertMatrix(flip.value(1), rotation(0.5 * .pi), Self.tight, "rotation at 1")
        assertClose(angle(flip.value(0.5)), 0.75 * .pi, Self.tight, "atan2 of the mirror is π")
    }

    /// Rule 6's singular case: components interpolate, anything else is discrete at 0.5.
    func testZeroScale() {
        var empty = components(rotation: 0)
        empty.scale = .init(x: 0, y: 0)
        let unit = components(rotation: 0)

        let animated = TransformInterpolator(from: .components(empty), to: .components(unit), directRotation: false)
        XCTAssertFalse(animated.isDiscrete)
        XCTAssertNil(animated.singularEnd)
        assertMatrix(
            animated.value(0.5), AffineTransform(a: 0.5, b: 0, c: 0, d: 0.5, tx: 0, ty: 0), Self.tight, "scale at 0.5")

        let cases: [(TransformEnd, TransformEnd, TransformInterpolator.Singular)] = [
            (.matrix(empty.matrix), .matrix(.identity), .from),
            (.components(empty), .matrix(.identity), .from),
            (.matrix(.identity), .components(empty), .to),
            (.matrix(empty.matrix), .matrix(AffineTransform(a: 1, b: 1, c: 2, d: 2, tx: 0, ty: 0)), .both),
        ]
        for (from, to, singular) in cases {
            let discrete = TransformInterpolator(from: from, to: to, directRotation: false)
            XCTAssertTrue(discrete.isDiscrete, "\(from) → \(to)")
            XCTAssertEqual(discrete.singularEnd, singular, "\(from) → \(to)")
            XCTAssertEqual(discrete.value(0.4999), matrix(from))
            XCTAssertEqual(discrete.value(0.5), matrix(to))
        }
        // The direct path takes components as given; a singular matrix stays discrete.
        let direct = TransformInterpolator(from: .matrix(empty.matrix), to: .matrix(.identity), directRotation: true)
        XCTAssertEqual(direct.singularEnd, .from)
        XCTAssertFalse(
            TransformInterpolator(from: .components(empty), to: .matrix(.identity), directRotation: true).isDiscrete)
    }

    /// The unmatrix recomposes exactly, reflections and skews included, and interpolating from a
    /// matrix to itself (or the ends of any pair, after the flip rule) gives the matrices back.
    func testDecompositionRoundTrip() throws {
        let samples = [
            AffineTransform(a: 1, b: 0.3, c: 0.5, d: 1.2, tx: 7, ty: -3),  // skew
            AffineTransform(a: -2, b: 0, c: 0, d: 1, tx: 0, ty: 4),  // flipped on x
            AffineTransform(a: 1, b: 0, c: 0, d: -3, tx: 0, ty: 0),  // flipped on y
            AffineTransform(a: 0.2, b: 0.9, c: 0.8, d: -0.1, tx: 5, ty: 5),  // rotation and reflection
            rotation(-0.7 * .pi), AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 1, ty: 2),
        ]
        for m in samples {
            let parts = try XCTUnwrap(DecomposedTransform(m))
            assertMatrix(parts.matrix, m, Self.tight, "round trip of \(m.array)")
            for other in samples {
                let otherParts = try XCTUnwrap(DecomposedTransform(other))
                assertMatrix(DecomposedTransform.interpolate(parts, otherParts, 0).matrix, m, Self.tight, "start")
                assertMatrix(DecomposedTransform.interpolate(parts, otherParts, 1).matrix, other, Self.tight, "end")
            }
        }
        // CSS flip rule: a reflection goes to x when a < d, else to y.
        let flippedX = try XCTUnwrap(DecomposedTransform(samples[1]))
        XCTAssertEqual(flippedX.scale, .init(x: -2, y: 1))
        XCTAssertEqual(flippedX.rotation, 0)
        let flippedY = try XCTUnwrap(DecomposedTransform(samples[2]))
        XCTAssertEqual(flippedY.scale, .init(x: 1, y: -3))
        XCTAssertNil(DecomposedTransform(AffineTransform(a: 1, b: 1, c: 2, d: 2, tx: 0, ty: 0)))
    }

    /// docs/rules.md rule 9: base ⊕ (value ⊖ model): translations and angles add, scales multiply.
    func testAdditive() {
        let base = components(rotation: 0.25 * .pi)
        let model = components(rotation: 0)
        let value = DecomposedTransform(translation: .init(x: 10, y: 0), rotation: 0.5 * .pi, scale: .init(x: 2, y: 2))
        assertMatrix(
            TransformInterpolator.add(.components(base), .components(value), relativeTo: .components(model)),
            AffineTransform(translation: (10, 0), scale: (2, 2), rotation: 0.75 * .pi), Self.tight, "sum")
        let m = AffineTransform(a: 1, b: 0.3, c: 0.5, d: 1.2, tx: 7, ty: -3)
        let v = rotation(2)
        assertMatrix(
            TransformInterpolator.add(.matrix(m), .matrix(v), relativeTo: .matrix(m)), v, Self.tight, "x ⊕ (v ⊖ x) = v")
        let collapsed = AffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)
        assertMatrix(
            TransformInterpolator.add(.matrix(m), .matrix(collapsed), relativeTo: .matrix(collapsed)), m, Self.tight,
            "a zero scale relative to itself is neutral")
    }

    /// No input traps; non-finite inputs give non-finite numbers (which the caller rejects).
    func testNoTrapOnNonFiniteInput() {
        let odd: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 0, 1]
        let ends: [TransformEnd] =
            odd.map { .matrix(AffineTransform(a: $0, b: 1, c: $0, d: 1, tx: $0, ty: 0)) }
            + odd.map {
                .components(
                    DecomposedTransform(translation: .init(x: $0, y: 0), rotation: $0, scale: .init(x: $0, y: 1)))
            }
        for from in ends {
            for to in ends.prefix(3) {
                for direct in [false, true] {
                    let interpolator = TransformInterpolator(from: from, to: to, directRotation: direct)
                    for p in odd { _ = interpolator.value(p) }
                }
                _ = TransformInterpolator.add(from, to, relativeTo: to)
            }
        }
        _ = AffineTransform([1, 2])
        for mode in CalculationMode.allCases {
            let track = TransformKeyframeTrack(
                values: ends, keyTimes: [.nan], timingFunctions: [nil], mode: mode, tension: [1], continuity: nil,
                bias: nil)
            XCTAssertFalse(track.warnings.isEmpty)
            for t in odd { _ = track.value(at: t) }
            let empty = TransformKeyframeTrack(
                values: [], keyTimes: nil, timingFunctions: nil, mode: mode, tension: nil, continuity: nil, bias: nil)
            XCTAssertEqual(empty.value(at: 0.5), .identity)
        }
    }

    // MARK: - Helpers

    private func rotation(_ theta: Double) -> AffineTransform {
        AffineTransform(translation: (0, 0), scale: (1, 1), rotation: theta)
    }

    private func components(rotation: Double) -> DecomposedTransform {
        DecomposedTransform(translation: .init(x: 0, y: 0), rotation: rotation, scale: .init(x: 1, y: 1))
    }

    private func matrix(_ end: TransformEnd) -> AffineTransform { end.affineTransform }

    /// atan2(b, a): the on-screen angle of the x axis.
    private func angle(_ m: AffineTransform) -> Double { atan2(m.b, m.a) }

    private func assertSameAngle(_ actual: Double, _ expected: Double, _ message: String, line: UInt = #line) {
        assertClose(remainder(actual - expected, 2 * .pi), 0, 1e-9, "\(message): \(actual) vs \(expected)", line: line)
    }

    private func assertMatrix(
        _ actual: AffineTransform, _ expected: AffineTransform, _ tolerance: Double, _ message: String,
        line: UInt = #line
    ) {
        for (i, (a, e)) in zip(actual.array, expected.array).enumerated() {
            assertClose(a, e, tolerance, "\(message) [\(i)]", line: line)
        }
    }
}
