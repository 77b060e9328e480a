@testable import SegueEngine
import XCTest

/// cubicPaced's arc-length table (`ArcLengthTable`, docs/keyframes.md "cubicPaced"): every sample's
/// parameter has the arc length t · L within `ArcLengthTable.tolerance` · L — far inside the
/// reference vectors' 1e-6 — measured against lengths the table does not compute: in one
/// dimension the closed form (the sum of |p(b) − p(a)| between the roots of p′), in more by
/// adaptive Simpson. And the edge cases its comment lists.
final class ArcLengthTableTests: XCTestCase {
    private func table(
        _ values: [[Double]], tension: [Double]? = nil, continuity: [Double]? = nil, bias: [Double]? = nil
    ) throws -> ArcLengthTable {
        let track = KeyframeTrack(
            values: values, keyTimes: nil, timingFunctions: nil, mode: .cubicPaced, tension: tension,
            continuity: continuity, bias: bias)
        return try XCTUnwrap(track.arcLength)
    }

    /// Deterministic values in [−range, range] (a linear congruential generator).
    private func pseudoRandom(count: Int, width: Int, range: Double, seed: UInt64) -> [[Double]] {
        var state = seed
        return (0..<count).map { _ in
            (0..<width).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * range
            }
        }
    }

    // MARK: The error bound

    func testSampledLengthsMatchTheExactOnesInOneDimension() throws {
        let tracks: [(String, ArcLengthTable)] = [
            ("Apple's example", try table([[310], [60], [120], [60], [310]])),
            ("TCB", try table([[0], [8], [2], [10], [0]], tension: [0, 0.5, -0.5, 1, 0], continuity: [0, 0.3, 0, -0.3, 0],
                              bias: [0, -1, 1, 0, 0])),
            ("speed 0 at every key", try table([[0], [1], [0], [1], [0]], tension: [1, 1, 1, 1, 1])),
            ("random", try table(pseudoRandom(count: 12, width: 1, range: 100, seed: 7))),
        ]
        for (name, table) in tracks {
            assertBound(table, name) { segment, u in Self.closedFormLength(segment, u) }
        }
    }

    func testSampledLengthsMatchTheExactOnesInMoreDimensions() throws {
        let tracks: [(String, ArcLengthTable)] = [
            ("zigzag", try table([[3, 165], [43, 350], [83, 50], [123, 235], [163, 420]])),
            ("2-D TCB", try table([[0, 0], [50, 100], [200, 50], [300, 300]], tension: [0.2, 0.2, 0.2, 0.2],
                                  continuity: [0, 0, 0, 0], bias: [0.5, 0, -0.5, 0])),
            ("cusps: a path back and forth along a line", try table([[0, 0], [1, 2], [0.2, 0.4], [1, 2]])),
            ("near cusps", try table([[0, 0], [1, 2], [0, 0.001], [1, 2.000_01], [0, 0]])),
            ("nearer cusps", try table([[0, 0], [1, 2], [0.200_001, 0.4], [1, 2.000_001], [0.1, 0.2]])),
            ("9-D random", try table(pseudoRandom(count: 6, width: 9, range: 3, seed: 11))),
            ("2-D random", try table(pseudoRandom(count: 20, width: 2, range: 100, seed: 5))),
        ]
        for (name, table) in tracks {
            assertBound(table, name) { segment, u in Self.simpson(segment, 0, u) }
        }
    }

    /// Where the speed nearly vanishes (here to about 1e-7 of its scale, the deepest refinement)
    /// the steps shrink towards that point, within half the cap.
    func testNearCuspsAreRefinedWithinTheCap() throws {
        let near = try table([[0, 0], [1, 2], [0.200_001, 0.4], [1, 2.000_001], [0.1, 0.2]])
        for segment in [1, 2] {
            let steps = near.steps.filter { $0.segment == segment }
            let minimum = steps.map { $0.u1 - $0.u0 }.filter { $0 > 1e-15 }.min() ?? 0
            XCTAssertLessThan(minimum, 1e-6, "segment \(segment): refined towards the turn")
            XCTAssertLessThan(steps.count, ArcLengthTable.uniformSteps + 3 + ArcLengthTable.maxRefinements / 2,
                              "segment \(segment)")
        }
    }

    /// |s(locate(t)) − t·L| ≤ tolerance · L on a grid of t, `exact(segment, u)` giving the length
    /// of a segment from its start to u.
    private func assertBound(
        _ table: ArcLengthTable, _ name: String, file: StaticString = #filePath, line: UInt = #line,
        _ exact: ([SIMD4<Double>], Double) -> Double
    ) {
        let lengths = table.spline.map { exact($0, 1) }
        let total = lengths.reduce(0, +)
        XCTAssertEqual(table.total, total, accuracy: ArcLengthTable.tolerance * total, "\(name) L", file: file, line: line)
        var worst = 0.0
        for k in 0...200 {
            let t = Double(k) / 200
            let (i, u) = table.locate(t)
            let s = lengths[..<i].reduce(0, +) + exact(table.spline[i], u)
            worst = max(worst, abs(s - t * total) / total)
        }
        XCTAssertLessThanOrEqual(worst, ArcLengthTable.tolerance, name, file: file, line: line)
    }

    /// ∫₀ᵘ |p′| of a 1-D cubic: the sum of |p(b) − p(a)| between consecutive roots of p′.
    static func closedFormLength(_ segment: [SIMD4<Double>], _ u: Double) -> Double {
        let c = segment[0]
        func p(_ x: Double) -> Double { ((c.w * x + c.z) * x + c.y) * x + c.x }
        let roots = SplineSpeed.quadraticRoots(3 * c.w, 2 * c.z, c.y).filter { $0 > 0 && $0 < u }.sorted()
        let ends = [0] + roots + [u]
        return zip(ends, ends.dropFirst()).reduce(0) { $0 + abs(p($1.1) - p($1.0)) }
    }

    /// ∫ₐᵇ |P′| by adaptive Simpson with Richardson's correction, to 1e-15 of the speed's scale.
    static func simpson(_ segment: [SIMD4<Double>], _ a: Double, _ b: Double) -> Double {
        func f(_ u: Double) -> Double { SplineSpeed.speed(segment, u) }
        func refine(_ a: Double, _ b: Double, _ fa: Double, _ fm: Double, _ fb: Double, _ whole: Double,
                    _ tolerance: Double, _ depth: Int) -> Double {
            let m = 0.5 * (a + b), lm = 0.5 * (a + m), rm = 0.5 * (m + b)
            let flm = f(lm), frm = f(rm)
            let left = (m - a) / 6 * (fa + 4 * flm + fm), right = (b - m) / 6 * (fm + 4 * frm + fb)
            let delta = left + right - whole
            if depth == 0 || abs(delta) <= 15 * tolerance { return left + right + delta / 15 }
            return refine(a, m, fa, flm, fm, left, tolerance / 2, depth - 1)
                + refine(m, b, fm, frm, fb, right, tolerance / 2, depth - 1)
        }
        guard b > a else { return 0 }
        let scale = (0...8).map { f(Double($0) / 8) }.max() ?? 0
        let fa = f(a), fm = f(0.5 * (a + b)), fb = f(b)
        return refine(a, b, fa, fm, fb, (b - a) / 6 * (fa + 4 * fm + fb), 1e-15 * max(scale, .leastNormalMagnitude), 40)
    }

    // MARK: Edge cases

    func testASingleValueAndEqualValuesLocateAtTheStart() throws {
        let single = KeyframeTrack(values: [[4, 2]], keyTimes: nil, timingFunctions: nil, mode: .cubicPaced,
                                   tension: nil, continuity: nil, bias: nil)
        XCTAssertEqual(single.arcLength?.steps.count, 0)
        XCTAssertEqual(single.value(at: 0.3), [4, 2])
        let equal = try table([[5, 5], [5, 5], [5, 5]])
        XCTAssertEqual(equal.total, 0)
        for t in [0, 0.5, 1] { XCTAssertTrue(equal.locate(t) == (0, 0), "t=\(t)") }
    }

    func testTwoValuesRunAStraightLineEvenly() throws {
        let two = try table([[0, 0], [3, 4]])
        XCTAssertEqual(two.total, 5, accuracy: 1e-15)
        for k in 0...20 {
            let t = Double(k) / 20
            let (i, u) = two.locate(t)
            XCTAssertEqual(i, 0)
            XCTAssertEqual(u, t, accuracy: 1e-15, "t=\(t)")
        }
        // Outside [0, 1] t is clamped.
        XCTAssertTrue(two.locate(-1) == (0, 0))
        XCTAssertEqual(two.locate(2).u, 1, accuracy: 1e-15)
    }

    /// Equal values with zero tangents (tension 1) make a segment of no length: no time lands
    /// inside it, and the value holds across it.
    func testASegmentOfNoLengthIsPassedOver() throws {
        let values: [[Double]] = [[0], [5], [5], [10]]
        let table = try table(values, tension: [1, 1, 1, 1])
        XCTAssertTrue(table.steps.contains { $0.segment == 1 })
        XCTAssertTrue(table.steps.filter { $0.segment == 1 }.allSatisfy { $0.s0 == $0.s1 })
        for k in 0...100 {
            XCTAssertNotEqual(table.locate(Double(k) / 100).segment, 1, "t=\(Double(k) / 100)")
        }
        assertBound(table, "no-length segment") { segment, u in Self.closedFormLength(segment, u) }
        let track = KeyframeTrack(values: values, keyTimes: nil, timingFunctions: nil, mode: .cubicPaced,
                                  tension: [1, 1, 1, 1], continuity: nil, bias: nil)
        XCTAssertEqual(track.value(at: 0.5)[0], 5, accuracy: 1e-12)
    }

    /// A zero of the speed — at a key with tension 1, or inside a segment where a path turns back
    /// along itself — is a node of the table, and the search never divides by it unguarded.
    func testCuspsAreNodes() throws {
        let line = try table([[0, 0], [1, 2], [0.2, 0.4], [1, 2]])
        for (i, segment) in line.spline.enumerated() {
            for root in SplineSpeed.extrema(segment) where SplineSpeed.speed(segment, root) < 1e-9 {
                XCTAssertTrue(line.steps.contains { $0.segment == i && $0.u0 == root }, "segment \(i) at \(root)")
            }
        }
        XCTAssertTrue(line.steps.contains { $0.v0 < 1e-9 && $0.u0 > 0 }, "an interior cusp")
        for k in 0...400 {
            let (i, u) = line.locate(Double(k) / 400)
            XCTAssertTrue(u.isFinite && u >= 0 && u <= 1 && line.spline.indices.contains(i))
        }
    }

    /// In one dimension every root of p′ (a kink of |p′|) is among the speed's extrema.
    func testExtremaHoldEveryKinkInOneDimension() throws {
        let table = try table(pseudoRandom(count: 12, width: 1, range: 100, seed: 3))
        for segment in table.spline {
            let c = segment[0]
            let kinks = SplineSpeed.quadraticRoots(3 * c.w, 2 * c.z, c.y).filter { $0 > 0 && $0 < 1 }
            let extrema = SplineSpeed.extrema(segment)
            for kink in kinks {
                XCTAssertTrue(extrema.contains { abs($0 - kink) <= 1e-14 }, "\(kink) in \(extrema)")
            }
        }
    }

    func testTheSameTrackSamplesToTheSameBits() throws {
        let values = pseudoRandom(count: 9, width: 3, range: 50, seed: 9)
        let first = try table(values), second = try table(values)
        XCTAssertEqual(first.steps, second.steps)
        for k in 0...50 {
            let a = first.locate(Double(k) / 50), b = second.locate(Double(k) / 50)
            XCTAssertTrue(a == b && a.u.bitPattern == b.u.bitPattern)
        }
    }
}
