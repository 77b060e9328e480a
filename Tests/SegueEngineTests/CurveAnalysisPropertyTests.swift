@testable import SegueEngine
import SegueTestSupport
import XCTest

/// `TimingCurve.analysis(duration:)` (docs/curves.md "Motion analysis") against an oracle written
/// here from the sampler alone: a dense grid of `sample(at:duration:)`, every local maximum
/// refined by ternary search and moved back to the earliest point of its plateau, halfway and
/// settling times refined by bisection between grid points, sign changes counted on the grid.
/// Random curves of every family come from a seeded generator, so every run checks the same ones.
final class CurveAnalysisPropertyTests: XCTestCase {
    /// Grid intervals over the oracle's window.
    static let gridIntervals = 20_000

    /// The curve on a window as the oracle sees it: progress and velocity at each grid time.
    struct Oracle {
        let curve: TimingCurve
        let duration: Double
        /// Grid times, ending at the end of the domain (a UIKit spring: its end, just after the
        /// last time before it) or far enough into a free spring's rest.
        let times: [Double]

        init(_ curve: TimingCurve, duration: Double, window: Double) {
            self.curve = curve
            self.duration = duration
            let intervals = CurveAnalysisPropertyTests.gridIntervals
            var times = (0..<intervals).map { window * Double($0) / Double(intervals) } + [window]
            if case .durationSpring(_, let end) = curve {
                times.removeLast()
                times += [end.nextDown, end]
            }
            self.times = times
        }

        func progress(_ t: Double) -> Double { curve.sample(at: t, duration: duration).progress }
        func speed(_ t: Double) -> Double { abs(curve.sample(at: t, duration: duration).velocity) }

        /// Every local maximum of `g` on the grid, refined: (earliest location, value).
        func maxima(_ g: (Double) -> Double) -> [(time: Double, value: Double)] {
            let values = times.map(g)
            var found: [(time: Double, value: Double)] = []
            for i in values.indices {
                let before = i > 0 ? values[i - 1] : -.infinity, after = i + 1 < values.count ? values[i + 1] : -.infinity
                guard values[i] >= before && values[i] >= after, values[i] > before || values[i] > after else { continue }
                let low = times[max(i - 1, 0)], high = times[min(i + 1, times.count - 1)]
                var (a, b) = (low, high)
                for _ in 0..<200 {
                    let m1 = a + (b - a) / 3, m2 = b - (b - a) / 3
                    if g(m1) < g(m2) { a = m1 } else { b = m2 }
                }
                // The bracket keeps the top inside: from the right after an upward jump.
                let (top, topValue) = [(a, g(a)), (b, g(b)), (times[i], values[i])].max { $0.1 < $1.1 }!
                // The earliest point of the plateau or flat top the maximum belongs to: back over
                // the grid points as high, then bisection up to the top.
                let level = topValue - 1e-12 * max(1, abs(topValue))
                var k = top >= times[i] ? i : i - 1
                while k >= 0 && values[k] >= level { k -= 1 }
                found.append((k < 0 ? times[0] : bisect(times[k], top) { g($0) >= level }, topValue))
            }
            return found
        }

        /// The boundary of a condition false at `low` and true at `high`.
        func bisect(_ low: Double, _ high: Double, _ holds: (Double) -> Bool) -> Double {
            var (low, high) = (low, high)
            for _ in 0..<200 {
                let middle = 0.5 * (low + high)
                if middle <= low || middle >= high { break }
                if holds(middle) { high = middle } else { low = middle }
            }
            return high
        }

        func halfway() -> Double? {
            guard let i = times.firstIndex(where: { progress($0) >= 0.5 }) else { return nil }
            return i == 0 ? 0 : bisect(times[i - 1], times[i]) { progress($0) >= 0.5 }
        }

        func settle(_ band: Double) -> Double? {
            guard let i = times.lastIndex(where: { abs(progress($0) - 1) > band }) else { return 0 }
            guard i < times.count - 1 else { return nil }
            return bisect(times[i], times[i + 1]) { abs(progress($0) - 1) <= band }
        }

        func signChanges(before limit: Double?) -> Int {
            var values = times.filter { $0 < limit ?? .infinity }.map(progress)
            if let limit { values.append(progress(limit)) }
            var changes = 0, sign = 0.0
            for p in values where p != 1 {
                let current: Double = p > 1 ? 1 : -1
                if sign != 0 && current != sign { changes += 1 }
                sign = current
            }
            return changes
        }
    }

    /// The analysis of `curve` checked against the oracle over [0, window].
    func check(_ curve: TimingCurve, duration: Double, window: Double, settles: Bool = true, _ label: String,
               file: StaticString = #filePath, line: UInt = #line) {
        let analysis = curve.analysis(duration: duration)
        let oracle = Oracle(curve, duration: duration, window: window)
        let scale = max(window, 1)
        checkSupremum(analysis.overshoot, oracle, { oracle.progress($0) - 1 }, tolerance: 1e-9, scale, "\(label) overshoot", file, line)
        checkSupremum(analysis.undershoot, oracle, { -oracle.progress($0) }, tolerance: 1e-9, scale, "\(label) undershoot", file, line)
        checkSupremum(analysis.peakVelocity, oracle, oracle.speed,
                      tolerance: 1e-9 * max(1, analysis.peakVelocity.value), scale, "\(label) peakVelocity", file, line)
        expect(analysis.halfway, oracle.halfway(), 1e-9 * scale, "\(label) halfway", file, line)
        guard settles else {
            XCTAssertNil(analysis.settle.coarse, label, file: file, line: line)
            XCTAssertNil(analysis.settle.fine, label, file: file, line: line)
            XCTAssertNil(analysis.oscillations, label, file: file, line: line)
            return
        }
        let fine = oracle.settle(CurveAnalysis.Settle.fineBand)
        expect(analysis.settle.coarse, oracle.settle(CurveAnalysis.Settle.coarseBand), 1e-9 * scale, "\(label) settle 0.01", file, line)
        expect(analysis.settle.fine, fine, 1e-9 * scale, "\(label) settle 0.001", file, line)
        XCTAssertEqual(analysis.oscillations, oracle.signChanges(before: fine), "\(label) oscillations", file: file, line: line)
    }

    func checkSupremum(_ got: CurveAnalysis.Extreme, _ oracle: Oracle, _ g: (Double) -> Double, tolerance: Double,
                       _ scale: Double, _ label: String, _ file: StaticString, _ line: UInt) {
        let maxima = oracle.maxima(g)
        let supremum = max(0, maxima.map(\.value).max() ?? 0)
        if supremum >= 1e300 {
            // An infinite Bézier slope: the sampler's largest finite double, possibly divided by D.
            XCTAssertEqual(got.value, .greatestFiniteMagnitude, label, file: file, line: line)
            return
        }
        XCTAssertEqual(got.value, supremum, accuracy: tolerance, label, file: file, line: line)
        guard supremum > 1e-12 else { return }
        guard let time = got.time else { return XCTFail("\(label): no time for \(supremum)", file: file, line: line) }
        let reached = maxima.filter { $0.value >= supremum - max(tolerance, 1e-10) }
        guard let first = reached.min(by: { $0.time < $1.time }) else { return XCTFail(label, file: file, line: line) }
        XCTAssertEqual(time, first.time, accuracy: 1e-5 * scale, "\(label): earliest of \(reached)", file: file, line: line)
    }

    func expect(_ got: Double?, _ want: Double?, _ tolerance: Double, _ label: String, _ file: StaticString, _ line: UInt) {
        switch (got, want) {
        case (nil, nil): break
        case let (got?, want?): XCTAssertEqual(got, want, accuracy: tolerance, label, file: file, line: line)
        default: XCTFail("\(label): got \(String(describing: got)), expected \(String(describing: want))", file: file, line: line)
        }
    }

    // MARK: - Families

    func testCubicBeziersIncludingBackAndSteepOnes() {
        var random = SplitMix64(seed: 0x5E6E_A1A1)
        for i in 0..<60 {
            let x1 = i % 7 == 0 ? 0 : Double.random(in: 0...1, using: &random)
            let x2 = i % 5 == 0 ? 1 : Double.random(in: 0...1, using: &random)
            let y1 = Double.random(in: -1...2, using: &random), y2 = Double.random(in: -1...2, using: &random)
            let duration = Double.random(in: 0.2...3, using: &random)
            let bezier = CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)
            check(.cubicBezier(bezier), duration: duration, window: duration, "bezier(\(x1), \(y1), \(x2), \(y2)) over \(duration)")
        }
    }

    func testStepsInEveryPosition() {
        var random = SplitMix64(seed: 0x57E9_5000)
        for position in StepPosition.allCases {
            for _ in 0..<6 {
                let count = Int.random(in: position == .jumpNone ? 2...12 : 1...12, using: &random)
                let duration = Double.random(in: 0.2...3, using: &random)
                check(.steps(Steps(count: count, position: position)), duration: duration, window: duration,
                      "steps(\(count), \(position)) over \(duration)")
            }
        }
    }

    func testLinearWithJumpsAndEndsOutsideTheBand() {
        var random = SplitMix64(seed: 0x11_4EA2)
        for i in 0..<60 {
            var inputs = (0..<Int.random(in: 1...5, using: &random)).map { _ in Double.random(in: 0.02...0.98, using: &random) }.sorted()
            if i % 3 == 0, let jump = inputs.first { inputs.insert(jump, at: 0) }  // a jump
            var pairs = [(0.0, Double.random(in: -0.3...0.3, using: &random))]
            pairs += inputs.map { ($0, Double.random(in: -0.5...1.5, using: &random)) }
            pairs.append((1, i % 4 == 0 ? Double.random(in: 0.95...1.05, using: &random) : 1))
            if i % 5 == 0 { pairs.append((1, 1)) }  // a jump at the end
            let curve = PiecewiseLinear(points: pairs.map { PiecewiseLinear.Point(input: $0.0, output: $0.1) })
            let duration = Double.random(in: 0.2...3, using: &random)
            check(.piecewiseLinear(curve), duration: duration, window: duration, "linear \(pairs) over \(duration)")
        }
    }

    func testFreeSpringsEveryRegimeWithInitialVelocity() {
        var random = SplitMix64(seed: 0x5991_6600)
        for i in 0..<45 {
            let mass = Double.random(in: 0.5...3, using: &random), stiffness = Double.random(in: 20...400, using: &random)
            let critical = 2 * (mass * stiffness).squareRoot()
            let ratio: Double
            switch i % 3 {
            case 0: ratio = Double.random(in: 0.08...0.95, using: &random)
            case 1: ratio = Double.random(in: 1...3, using: &random)  // clamped to critical below
            default: ratio = Double.random(in: 1.05...4, using: &random)
            }
            let velocity = Double.random(in: -12...12, using: &random)
            let spring = Spring(mass: mass, stiffness: stiffness, damping: ratio * critical, initialVelocity: velocity,
                                allowsOverdamping: i % 3 == 2)
            let window = 1.5 * spring.settlingDuration + 1
            check(.spring(spring), duration: 1, window: window, "spring m \(mass) k \(stiffness) ζ \(spring.dampingRatio) v0 \(velocity)")
        }
    }

    func testUndampedSpringsNeverSettle() {
        var random = SplitMix64(seed: 0x0DA3_9ED)
        for _ in 0..<6 {
            let stiffness = Double.random(in: 20...200, using: &random), velocity = Double.random(in: -6...6, using: &random)
            let spring = Spring(mass: 1, stiffness: stiffness, damping: 0, initialVelocity: velocity, allowsOverdamping: false)
            check(.spring(spring), duration: 1, window: 8 * spring.response, settles: false, "undamped k \(stiffness) v0 \(velocity)")
        }
    }

    /// UIKit springs end with a jump to 1 at their duration, some far from rest there.
    func testUIKitSpringsThatEndWithAJump() {
        var random = SplitMix64(seed: 0x0111_C17)
        for _ in 0..<30 {
            let ratio = Double.random(in: 0.05...1, using: &random), duration = Double.random(in: 0.1...1.5, using: &random)
            let velocity = Double.random(in: -6...6, using: &random)
            let spring = Spring.uikit(dampingRatio: ratio, duration: duration, initialVelocity: velocity).spring
            check(.durationSpring(spring, duration: duration), duration: duration, window: duration,
                  "UIKit ζ \(ratio) T \(duration) v0 \(velocity)")
        }
    }

    /// The mirror (1 − x2, 1 − y2, 1 − x1, 1 − y1) is the curve turned half a turn about (½, ½):
    /// overshoot and undershoot trade places, and their times mirror about the middle.
    func testAMirroredBezierSwapsOvershootAndUndershoot() {
        var random = SplitMix64(seed: 0x3199_09)
        for _ in 0..<40 {
            let x1 = Double.random(in: 0.05...0.95, using: &random), x2 = Double.random(in: 0.05...0.95, using: &random)
            let y1 = Double.random(in: -1...2, using: &random), y2 = Double.random(in: -1...2, using: &random)
            let duration = Double.random(in: 0.2...3, using: &random)
            let curve = TimingCurve.cubicBezier(CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2)).analysis(duration: duration)
            let mirror = TimingCurve.cubicBezier(CubicBezier(x1: 1 - x2, y1: 1 - y2, x2: 1 - x1, y2: 1 - y1)).analysis(duration: duration)
            let label = "(\(x1), \(y1), \(x2), \(y2))"
            XCTAssertEqual(curve.overshoot.value, mirror.undershoot.value, accuracy: 1e-9, label)
            XCTAssertEqual(curve.undershoot.value, mirror.overshoot.value, accuracy: 1e-9, label)
            XCTAssertEqual(curve.overshoot.time == nil, mirror.undershoot.time == nil, label)
            XCTAssertEqual(curve.undershoot.time == nil, mirror.overshoot.time == nil, label)
            if let at = curve.overshoot.time, let mirrored = mirror.undershoot.time {
                XCTAssertEqual(at, duration - mirrored, accuracy: 1e-9, label)
            }
            XCTAssertEqual(curve.peakVelocity.value, mirror.peakVelocity.value, accuracy: 1e-9 * curve.peakVelocity.value, label)
        }
    }

    /// Springs far from the usual ranges finish at once (no walk over their millions of swings)
    /// with finite numbers, and count their oscillations as their frequency says.
    func testExtremeSpringsStayFiniteWithoutWalkingEverySwing() throws {
        let light = Spring(mass: 1, stiffness: 400, damping: 1e-6, initialVelocity: 0, allowsOverdamping: false)
        let uikit = Spring.uikit(dampingRatio: 1e-7, duration: 10, initialVelocity: 0).spring
        let cases: [(TimingCurve, frequency: Double?)] = [
            (.spring(light), 20),
            (.durationSpring(uikit, duration: 10), uikit.oscillator.frequency),
            (.spring(Spring.response(0.3, dampingRatio: 1e6, initialVelocity: 5)), nil),
            (.spring(Spring.response(1, dampingRatio: 0.999_999_9, initialVelocity: -3)), nil),
        ]
        for (curve, frequency) in cases {
            let analysis = curve.analysis(duration: 10)
            XCTAssertTrue(analysis.isFinite, "\(curve)")
            let halfway = try XCTUnwrap(analysis.halfway), coarse = try XCTUnwrap(analysis.settle.coarse)
            let fine = try XCTUnwrap(analysis.settle.fine), oscillations = try XCTUnwrap(analysis.oscillations)
            XCTAssertLessThanOrEqual(halfway, fine, "\(curve)")
            XCTAssertLessThanOrEqual(coarse, fine, "\(curve)")
            if let frequency {
                // Zeros of y every half period: about ωd·T/π of them before T.
                XCTAssertEqual(Double(oscillations), frequency * fine / .pi, accuracy: 1, "\(curve)")
            }
        }
        XCTAssertEqual(TimingCurve.durationSpring(uikit, duration: 10).analysis(duration: 10).settle.fine, 10)
    }

    /// Spot values any reader can check by hand.
    func testHandCheckedCases() {
        // linear(0, 1.2 50%, 1 50%, 1) over 2 s: a jump down from 1.2 at 1 s, a left limit only.
        let jump = PiecewiseLinear(points: [.init(input: 0, output: 0), .init(input: 0.5, output: 1.2),
                                            .init(input: 0.5, output: 1), .init(input: 1, output: 1)])
        let analysis = TimingCurve.piecewiseLinear(jump).analysis(duration: 2)
        XCTAssertEqual(analysis.overshoot.value, 0.2, accuracy: 1e-15)
        XCTAssertEqual(analysis.overshoot.time, 1)
        XCTAssertEqual(analysis.settle.fine, 1)
        XCTAssertEqual(analysis.oscillations, 1)
        XCTAssertEqual(analysis.peakVelocity.value, 1.2)
        XCTAssertEqual(analysis.peakVelocity.time, 0)
        // steps(4, jump-none) over 1 s: outputs 0, 1/3, 2/3, 1 from 0, 0.25, 0.5, 0.75.
        let steps = TimingCurve.steps(Steps(count: 4, position: .jumpNone)).analysis(duration: 1)
        XCTAssertEqual(steps.halfway, 0.5)
        XCTAssertEqual(steps.settle.coarse, 0.75)
        XCTAssertNil(steps.peakVelocity.time)
        // cubic-bezier(1, 0, 0, 1): X′ vanishes at s = ½, an infinite slope at t = D/2.
        let vertical = TimingCurve.cubicBezier(CubicBezier(x1: 1, y1: 0, x2: 0, y2: 1)).analysis(duration: 4)
        XCTAssertEqual(vertical.peakVelocity.value, .greatestFiniteMagnitude)
        XCTAssertEqual(vertical.peakVelocity.time, 2)
        XCTAssertEqual(vertical.halfway ?? 0, 2, accuracy: 1e-9)
    }
}
