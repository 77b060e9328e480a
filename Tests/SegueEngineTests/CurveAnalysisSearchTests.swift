import Foundation
@testable import SegueEngine
import XCTest

/// `NewtonSearch`, the refinement of every halfway and settling time (docs/curves.md "Finding a
/// crossing"), where its guards matter: a crossing at a bracket end, a crossing so flat that Newton
/// crawls or has no step at all, a correction that is useless, and springs whose settling times are
/// days long. Each answer must be a point where the condition holds within one resolution of one
/// where it fails, as bisection's is.
final class CurveAnalysisSearchTests: XCTestCase {
    /// A search for the least t with f(t) ≥ 0 (f increasing) with Newton corrections from `slope`,
    /// counting its probes.
    func search(_ low: Double, _ high: Double, from start: Double, _ f: @escaping (Double) -> Double,
                slope: @escaping (Double) -> Double) -> (answer: Double, probes: Int) {
        var probes = 0
        let answer = NewtonSearch.boundary(low, high, from: start) { t in
            probes += 1
            return NewtonSearch.Probe(holds: f(t) >= 0, correction: -f(t) / slope(t))
        }
        return (answer, probes)
    }

    /// The answer holds, and a point at most one resolution before it fails (or is the bracket's start).
    func assertBoundary(_ answer: Double, low: Double, _ f: (Double) -> Double,
                        file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(f(answer), 0, "holds at the answer", file: file, line: line)
        let before = answer - NewtonSearch.resolution(answer)
        XCTAssertTrue(before <= low || f(before) < 0, "fails one resolution before \(answer)", file: file, line: line)
    }

    func testAnOrdinaryCrossingTakesAHandfulOfProbes() {
        // 1 − cos(t) = 0.5 on [0, π]: t = π/3, from the chord's estimate.
        let f = { (t: Double) in 0.5 - cos(t) }
        let (answer, probes) = search(0, .pi, from: 0.5 * .pi, f, slope: sin)
        XCTAssertEqual(answer, .pi / 3, accuracy: 1e-13)
        assertBoundary(answer, low: 0, f)
        XCTAssertLessThanOrEqual(probes, 6)
    }

    func testACrossingAtEitherEndOfTheBracket() {
        // Holds exactly from the right end: the guided steps land on it, never strictly inside,
        // so halvings close the bracket onto it and it is answered without being probed.
        let atHigh = search(0, 1, from: 0.5, { $0 >= 1 ? 0 : $0 - 1 }, slope: { _ in 1 })
        XCTAssertEqual(atHigh.answer, 1)
        // Holds everywhere after the left end: the answer is within one resolution of it.
        let f = { (t: Double) in t > 0 ? t : -1 }
        let atLow = search(0, 1, from: 0.5, f, slope: { _ in 1 })
        XCTAssertLessThanOrEqual(atLow.answer, NewtonSearch.resolution(0))
        assertBoundary(atLow.answer, low: 0, f)
        XCTAssertLessThanOrEqual(atLow.probes, NewtonSearch.newtonSteps + NewtonSearch.halvings)
    }

    func testAVeryFlatCrossingStillClosesItsBracket() {
        // (t − r)³: Newton only divides the distance by 1.5 each step, and its slope vanishes at
        // the root; after the guided steps, halvings finish.
        let r = 0.7312345678901234
        let f = { (t: Double) in (t - r) * (t - r) * (t - r) }
        let (answer, probes) = search(0, 1, from: 0.2, f, slope: { 3 * ($0 - r) * ($0 - r) })
        assertBoundary(answer, low: 0, f)
        // The computed cube has the sign of t − r, so its boundary is r itself.
        XCTAssertEqual(answer, r, accuracy: NewtonSearch.resolution(r))
        XCTAssertLessThanOrEqual(probes, NewtonSearch.newtonSteps + NewtonSearch.halvings)
        // A correction that is never usable (a flat model everywhere) leaves plain bisection.
        let g = { (t: Double) in t - r }
        let (bisected, halvings) = search(0, 1, from: .nan, g, slope: { _ in 0 })
        assertBoundary(bisected, low: 0, g)
        XCTAssertEqual(bisected, r, accuracy: NewtonSearch.resolution(r))
        XCTAssertLessThanOrEqual(halvings, NewtonSearch.halvings)
    }

    func testAnUnboundedPieceJumpsAheadUntilItHolds() {
        // e^(−t) ≤ 1e-3 from t = ln 1000, with a correction that always points backwards.
        var probes = 0
        let answer = NewtonSearch.boundary(0, .infinity, from: .nan, reach: 0.01) { t in
            probes += 1
            return NewtonSearch.Probe(holds: exp(-t) <= 1e-3, correction: -1)
        }
        XCTAssertEqual(try XCTUnwrap(answer), log(1000), accuracy: 1e-12)
        let never = NewtonSearch.boundary(0, .infinity, from: 1, reach: 1) { _ in
            NewtonSearch.Probe(holds: false, correction: 1)
        }
        XCTAssertNil(never)
    }

    /// Over-damped springs that take days or millennia to settle: the search starts at the slow
    /// exponential's crossing and must agree with bisection of the same condition (to the few ulps
    /// within which rounding makes the condition flicker at such times).
    func testHugeSettlingTimesAgreeWithBisection() throws {
        for zeta in [1e4, 1e6, 1e9] {
            let spring = Spring.response(0.3, dampingRatio: zeta, initialVelocity: 5)
            let analysis = TimingCurve.spring(spring).analysis(duration: 1)
            for (band, got) in [(0.01, analysis.settle.coarse), (0.001, analysis.settle.fine)] {
                let got = try XCTUnwrap(got, "ζ \(zeta) band \(band)")
                func inside(_ t: Double) -> Bool { abs(spring.sample(at: t).progress - 1) <= band }
                var high = 1.0
                while !inside(high) { high *= 2 }
                var low = 0.0
                while low.nextUp < high {
                    let middle = low + 0.5 * (high - low)
                    if inside(middle) { high = middle } else { low = middle }
                }
                XCTAssertTrue(inside(got), "ζ \(zeta) band \(band)")
                XCTAssertEqual(got, high, accuracy: 1e-12 * high, "ζ \(zeta) band \(band)")
                XCTAssertGreaterThan(got, 1e3, "ζ \(zeta) band \(band)")
            }
        }
    }
}
