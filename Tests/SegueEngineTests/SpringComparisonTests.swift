import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// Compare mode's engines (docs/springs.md "Compare mode", rule 35): the springs.json cases the
/// conformance checker also sends through `compare` (objc.io, Motion's physics springs, Rebound),
/// and hand-checked cases for what no vector covers — webkit's curve and its end, Android's
/// equilibrium test at ticks, the per-tick hold, 0 before 0, the deviation, and the work bound.
final class SpringComparisonTests: XCTestCase {
    /// The families whose cases go through compare, with their engine and case count (as the
    /// checker picks them: Motion only for physics springs without duration, bounce or visual duration).
    static let families: [String: (engine: SpringEngine, count: Int)] = [
        "objcio.euler": (.objcio, 1), "motion.spring": (.motion, 2), "rebound.spring.rk4": (.rebound, 1),
    ]

    func comparison(_ engines: [SpringEngine], _ spring: Spring, distance: Double = 100, tickRate: Double = 60,
                    through latest: Double = 3) -> SpringComparison {
        SpringComparison(engines: engines, spring: spring, distance: distance, tickRate: tickRate, through: latest,
                         longest: 3600)
    }

    func testEveryVectorCaseTheCheckerCompares() throws {
        var checked: [String: Int] = [:]
        for vector in try VectorCase.load("springs.json") {
            let model = vector.fields["model"] as? String ?? ""
            guard let family = Self.families[model], let played = try self.played(model, vector) else { continue }
            let (comparison, start, end) = played
            let times = vector.numbers("times")
            let expect = try XCTUnwrap(vector.fields["expect"] as? [String: Any])
            let values = VectorCase.numbers(expect["value"])
            let tolerance = try XCTUnwrap(vector.number("tolerance"))
            let play = comparison.play(family.engine, at: times, reference: times.map { _ in 0 })
            XCTAssertEqual(play.progress.count, times.count)
            for (i, t) in times.enumerated() {
                // The models are symmetric under reflection: value = start + (end − start) · progress.
                assertClose(start + (end - start) * play.progress[i], values[i], tolerance, "\(vector.id) t=\(t)")
            }
            if let settling = vector.number("settlingDuration") {
                let got = try XCTUnwrap(play.settlingDuration, vector.id)
                assertClose(got, settling, try XCTUnwrap(vector.number("settlingTolerance")), "\(vector.id) settles")
            }
            checked[model, default: 0] += 1
        }
        XCTAssertEqual(checked, Self.families.mapValues(\.count))
    }

    /// The comparison the checker's request makes for a case, with the case's start and end; nil
    /// for a Motion case it does not send (time-defined springs).
    private func played(_ model: String, _ vector: VectorCase) throws -> (SpringComparison, Double, Double)? {
        func param(_ key: String) throws -> Double { try XCTUnwrap(vector.param(key), "\(vector.id) \(key)") }
        switch model {
        case "objcio.euler":
            let (start, end) = (try param("from"), try param("to"))
            let spring = Spring.physical(mass: try param("mass"), stiffness: try param("k"), damping: try param("mu"),
                                         initialVelocity: try param("initialVelocity") / (end - start), allowsOverdamping: true)
            return (comparison([.objcio], spring, distance: abs(end - start), tickRate: 1 / (try param("dt"))), start, end)
        case "motion.spring":
            let given = vector.params.keys
            guard given.contains(where: ["stiffness", "damping", "mass"].contains),
                  !given.contains(where: ["duration", "bounce", "visualDuration"].contains) else { return nil }
            let keyframes = VectorCase.numbers(vector.params["keyframes"])
            let (start, end) = (keyframes[0], keyframes[1])
            let spring = Spring.physical(mass: vector.param("mass") ?? 1, stiffness: vector.param("stiffness") ?? 100,
                                         damping: vector.param("damping") ?? 10,
                                         initialVelocity: (vector.param("velocity") ?? 0) / (end - start), allowsOverdamping: true)
            return (comparison([.motion], spring, distance: abs(end - start)), start, end)
        default:
            let (start, end) = (try param("from"), try param("to"))
            let spring = Spring.pop(bounciness: try param("bounciness"), speed: try param("speed"),
                                    initialVelocity: try param("velocity") / (end - start))
            return (comparison([.rebound], spring, distance: abs(end - start), tickRate: 1 / (try param("frameInterval"))),
                    start, end)
        }
    }

    /// webkit is the Core Animation curve until its settling duration and exactly 1 from then.
    func testWebkitIsTheCoreAnimationCurveUntilItsSettlingDuration() {
        let spring = Spring.physical(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0.5, allowsOverdamping: false)
        // ζ = 0.5, ω0 = 10: p(t) = 1 − e^(−5t)(cos ωd·t + B sin ωd·t), B = (5 − 0.5)/ωd.
        let wd = (75.0).squareRoot(), b = (5 - 0.5) / wd
        let settling = log((1 + b) / 0.001) / 5
        let times = [-0.5, 0, 0.05, 0.3, 1, settling - 1e-9, settling, settling + 0.2, 5]
        let play = comparison([.webkit], spring).play(.webkit, at: times, reference: times.map(spring.progress))
        assertClose(play.settlingDuration ?? -1, settling, 1e-12, "settling")
        for (i, t) in times.enumerated() {
            let expected = t < 0 ? 0 : t >= settling ? 1 : 1 - exp(-5 * t) * (cos(wd * t) + b * sin(wd * t))
            assertClose(play.progress[i], expected, 1e-12, "t=\(t)")
        }
        // Against the same curve the deviation is the residual snapped away at the end.
        let residual = times.filter { $0 >= settling }.map { abs(1 - spring.progress(at: $0)) }.max() ?? 0
        assertClose(play.maxDeviation, residual, 1e-15, "deviation")
        XCTAssertGreaterThan(play.maxDeviation, 0)
        XCTAssertLessThanOrEqual(play.maxDeviation, 0.001)
    }

    /// An over-damped spring (allowed by its parameter set) plays critically damped in webkit.
    func testWebkitTreatsOverDampingAsCritical() {
        let spring = Spring.physical(mass: 1, stiffness: 100, damping: 40, initialVelocity: 0, allowsOverdamping: true)
        let times = [0.1, 0.25, 0.5]
        let play = comparison([.webkit], spring).play(.webkit, at: times, reference: times.map(spring.progress))
        for (i, t) in times.enumerated() {
            assertClose(play.progress[i], 1 - (1 + 10 * t) * exp(-10 * t), 1e-12, "t=\(t)")
        }
        XCTAssertGreaterThan(play.maxDeviation, 0.01, "the true over-damped curve lags the critical one")
    }

    /// Android: the closed form shown per tick, the equilibrium test (|v| < 46.875, |x − d| < 0.75)
    /// at ticks n ≥ 1, and 1 from the first tick that passes it.
    func testAndroidTestsEquilibriumAtTicks() throws {
        let (k, c, d) = (200.0, 12.0, 100.0)
        let spring = Spring.physical(mass: 1, stiffness: k, damping: c, initialVelocity: 0, allowsOverdamping: true)
        // Written out here: y = −d·e^(−at)(cos ωt + (a/ω) sin ωt), v = d·e^(−at)·(ω0²/ω) sin ωt.
        let a = c / 2, w = (k - a * a).squareRoot()
        func state(_ t: Double) -> (x: Double, v: Double) {
            (d - d * exp(-a * t) * (cos(w * t) + a / w * sin(w * t)), d * exp(-a * t) * k / w * sin(w * t))
        }
        let rest = try XCTUnwrap((1...600).first { n in
            let s = state(Double(n) / 60)
            return abs(s.v) < 46.875 && abs(s.x - d) < 0.75
        })
        let times = [0, 0.5 / 60, 1.0 / 60, 1.7 / 60, Double(rest - 1) / 60 + 0.001, Double(rest) / 60, Double(rest) / 60 + 0.01]
        let play = comparison([.android], spring, distance: d).play(.android, at: times, reference: times.map { _ in 0 })
        XCTAssertEqual(play.settlingDuration, Double(rest) * (1 / 60), "rests on tick \(rest)")
        XCTAssertEqual(play.progress[0], 0)
        XCTAssertEqual(play.progress[1], 0, "the start shows until the first tick")
        assertClose(play.progress[2], state(1.0 / 60).x / d, 1e-12, "tick 1")
        assertClose(play.progress[3], state(1.0 / 60).x / d, 1e-12, "between ticks 1 and 2")
        assertClose(play.progress[4], state(Double(rest - 1) / 60).x / d, 1e-12, "the tick before the rest")
        XCTAssertNotEqual(play.progress[4], 1)
        XCTAssertEqual(play.progress[5], 1)
        XCTAssertEqual(play.progress[6], 1)
        // The tick before failed the test, on one of its two conditions.
        let before = state(Double(rest - 1) / 60)
        XCTAssertFalse(abs(before.v) < 46.875 && abs(before.x - d) < 0.75)
    }

    /// objc.io: the semi-implicit Euler ticks, written out here, held between ticks.
    func testObjcioIsEulerTicksHeldBetweenTicks() {
        let spring = Spring.physical(mass: 2, stiffness: 150, damping: 9, initialVelocity: 1.5, allowsOverdamping: true)
        let d = 80.0, h = 1 / 30.0
        var x = 0.0, v = 1.5 * d, ticks: [Double] = [0]
        for _ in 1...12 {
            v += (150 * (d - x) - 9 * v) / 2 * h
            x += v * h
            ticks.append(x)
        }
        let times = (0..<24).map { Double($0) * h / 2 }
        let play = comparison([.objcio], spring, distance: d, tickRate: 30).play(.objcio, at: times, reference: times)
        for (i, t) in times.enumerated() {
            assertClose(play.progress[i], ticks[i / 2] / d, 1e-12, "t=\(t)")
        }
    }

    /// Before the start every engine reads 0; at its settling duration every engine reads 1, and
    /// per-tick engines settle on a tick.
    func testEveryEngineStartsAtZeroAndEndsAtOne() throws {
        let spring = Spring.physical(mass: 1, stiffness: 170, damping: 14, initialVelocity: -0.4, allowsOverdamping: false)
        let all = SpringEngine.allCases
        XCTAssertEqual(all.map(\.rawValue), ["webkit", "pop", "rebound", "motion", "android", "objcio"])
        let compare = comparison(all, spring, tickRate: 120)
        for engine in all {
            let first = compare.play(engine, at: [-1, 0], reference: [0, 0])
            XCTAssertEqual(first.progress, [0, 0], "\(engine)")
            let settling = try XCTUnwrap(first.settlingDuration, "\(engine) rests")
            let last = compare.play(engine, at: [settling, settling + 10], reference: [1, 1])
            XCTAssertEqual(last.progress, [1, 1], "\(engine)")
            XCTAssertEqual(last.maxDeviation, 0, "\(engine)")
            if engine != .webkit && engine != .motion {
                assertClose(settling * 120, (settling * 120).rounded(), 1e-9, "\(engine) rests on a tick")
            }
        }
        // Motion's completion is on its 50 ms grid.
        let motion = try XCTUnwrap(compare.play(.motion, at: [0], reference: [0]).settlingDuration)
        assertClose(motion / 0.05, (motion / 0.05).rounded(), 1e-9, "motion rests on its grid")
    }

    /// The deviation is the largest |engine − reference| over the times.
    func testMaxDeviationIsTheLargestGap() {
        let spring = Spring.physical(mass: 1, stiffness: 300, damping: 20, initialVelocity: 0, allowsOverdamping: true)
        let times = [0.1, 0.2, 0.3, 0.4]
        let reference = [0.2, 0.9, 1.3, 0.5]
        let play = comparison([.pop], spring).play(.pop, at: times, reference: reference)
        let gaps = zip(play.progress, reference).map { abs($0 - $1) }
        XCTAssertEqual(play.maxDeviation, gaps.max())
    }

    /// `simulationSteps` bounds, before the simulation, the budget units each physics engine
    /// spends, at tick rates that are fast, slow, and around POP's solver step.
    func testSimulationStepsBoundTheWorkDone() throws {
        let springs = [
            Spring.physical(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: true),
            Spring.physical(mass: 3, stiffness: 40, damping: 60, initialVelocity: 2, allowsOverdamping: true),
            Spring.physical(mass: 1, stiffness: 500, damping: 0.5, initialVelocity: -1, allowsOverdamping: true),
        ]
        for spring in springs {
            for rate in [1000, 999, 120, 60, 7.5, 0.5] {
                let compare = comparison([.pop, .rebound, .motion, .objcio], spring, tickRate: rate)
                for engine in [SpringEngine.pop, .rebound, .motion, .objcio] {
                    let budget = PhysicsBudget(Int.max / 2)
                    _ = compare.motion(engine, budget: budget)
                    XCTAssertLessThanOrEqual(Double(budget.spent), compare.simulationSteps(engine), "\(engine) at \(rate) Hz")
                    XCTAssertGreaterThan(budget.spent, 0)
                }
                XCTAssertLessThanOrEqual(compare.horizon, 3600)
                XCTAssertGreaterThanOrEqual(compare.horizon, 3)
            }
        }
    }

    /// A spring that barely loses energy is simulated no further than the longest horizon, and
    /// reports no settling duration where it has not come to rest.
    func testHorizonIsCapped() {
        let spring = Spring.physical(mass: 1, stiffness: 100, damping: 1e-6, initialVelocity: 0, allowsOverdamping: true)
        let compare = SpringComparison(engines: [.objcio, .android], spring: spring, distance: 100, tickRate: 60, through: 1,
                                       longest: 20)
        XCTAssertEqual(compare.horizon, 20)
        XCTAssertNil(compare.play(.android, at: [1], reference: [0]).settlingDuration)
        XCTAssertEqual(compare.simulationSteps(.objcio), 20 * 60)
        XCTAssertEqual(compare.simulationSteps(.android), 20 * 60)
    }

    /// Compare mode's work estimate grows with the tick rate and the engines asked for.
    func testWorkEstimateCountsEnginesAndTicks() {
        let spring = Spring.physical(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)
        let slow = SceneCost.springComparison(comparison([.pop], spring, tickRate: 60), samples: 10)
        let fast = SceneCost.springComparison(comparison([.pop], spring, tickRate: 1000), samples: 10)
        let both = SceneCost.springComparison(comparison([.pop, .rebound], spring, tickRate: 60), samples: 10)
        XCTAssertGreaterThan(fast, slow)
        XCTAssertGreaterThan(both, slow)
        XCTAssertGreaterThan(slow, 0)
    }
}
