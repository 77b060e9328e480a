#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A spring's motion as the analysis sees it (docs/curves.md "Motion analysis"): progress
/// p = 1 + y of the closed form (docs/springs.md "The damped oscillator") with its initial
/// velocity and the regime `Spring` chose (critical clamp, `allowsOverdamping`), evaluated by
/// the same `DampedOscillator.state` the sampler uses, over t ≥ 0 or, for a UIKit spring, [0, end].
///
/// The knots are t = 0 and the zeros of y′ (`ZeroTimes`); p is monotone between them, and after
/// the last one when there are finitely many. Under-damped, the extrema of y alternate in sign
/// and their sizes change by e^(−aπ/ωd) from one to the next, and so do those of y′ at the zeros
/// of y″: a supremum is among the first two or the last two, and the last extremum outside a
/// band is found from the envelope with a few checks around it, whatever the number of
/// oscillations.
///
/// Edge cases:
/// - a UIKit spring reads 1 from `end` on: the limit of p and p′ from the left at `end` is a
///   candidate for every supremum, reported at `end`; a residual outside a band there settles
///   it at `end`; its halfway time is `end` if p stays below 0.5 until then; and the jump to 1 is
///   no sign change (it lands on 1);
/// - only a UIKit spring can have a < 0 (UIKit's solve gives ω < 0 for ζ below about 0.001): the
///   extrema grow, so the last ones matter; its domain ends, so the growth is bounded;
/// - undamped (a = 0, t ≥ 0): no settling time and infinitely many oscillations (both nil); the
///   suprema are the first extrema's;
/// - critical and over-damped: at most one extremum and one zero of y″; the tail after the last
///   knot is searched by doubling a step of the slow time constant (a + ωo)/ω0², then bisection.
struct SpringProfile {
    let spring: Spring
    /// A UIKit spring's duration.
    let end: Double?
    let crossings: ZeroTimes, extrema: ZeroTimes, turns: ZeroTimes

    init(_ spring: Spring, endingAt end: Double?) {
        self.spring = spring
        self.end = end
        (crossings, extrema, turns) = spring.oscillator.zeros(of: spring.motion)
    }

    func analysis() -> CurveAnalysis {
        var overshoot = CurveAnalysis.Extreme(), undershoot = CurveAnalysis.Extreme(), peak = CurveAnalysis.Extreme()
        for t in candidates(extrema) {
            let p = state(t).progress
            overshoot.offer(p - 1, at: t)
            undershoot.offer(-p, at: t)
        }
        // Undamped, every zero of y″ has the same |y′|: the first stands for all (rounding must
        // not pick a later one).
        let turnCandidates = candidates(turns)
        for t in spring.oscillator.decayRate == 0 ? Array(turnCandidates.prefix(2)) : turnCandidates {
            peak.offer(abs(state(t).velocity), at: t)
        }
        let fine = settle(CurveAnalysis.Settle.fineBand)
        return CurveAnalysis(
            overshoot: overshoot, undershoot: undershoot, peakVelocity: peak, halfway: halfway(),
            settle: CurveAnalysis.Settle(coarse: settle(CurveAnalysis.Settle.coarseBand), fine: fine),
            oscillations: (fine ?? end).map(crossings.count(before:)))
    }

    /// Progress and velocity of the closed form at t ≥ 0; at `end`, the limits from the left.
    func state(_ t: Double) -> (progress: Double, velocity: Double) {
        let (position, velocity) = spring.oscillator.state(spring.motion, at: t)
        return (1 + position, velocity)
    }

    func progress(_ t: Double) -> Double { state(t).progress }

    /// Whether the zeros of y′ repeat forever (under-damped).
    var oscillates: Bool {
        if case .periodic = extrema.times { return true }
        return false
    }

    /// How many zeros of `zeros` the domain holds; nil for infinitely many.
    func count(_ zeros: ZeroTimes) -> Int? {
        if let end { return zeros.count(before: end) }
        switch zeros.times {
        case .none: return 0
        case .once: return 1
        case .periodic: return nil
        }
    }

    /// Knot i: t = 0, then the zeros of y′ in the domain; nil past the last.
    func knot(_ i: Int) -> Double? {
        if i == 0 { return 0 }
        guard count(extrema).map({ i <= $0 }) ?? true else { return nil }
        return extrema.time(i - 1)
    }

    /// Where a supremum over the zeros of `zeros` can be: 0, the first two and last two zeros in
    /// the domain, and `end`.
    func candidates(_ zeros: ZeroTimes) -> [Double] {
        let n = count(zeros)
        let indices = [0, 1].filter { k in n.map { k < $0 } ?? true } + (n.map { [$0 - 2, $0 - 1] } ?? []).filter { $0 >= 0 }
        return [0] + Set(indices).sorted().compactMap(zeros.time) + (end.map { [$0] } ?? [])
    }

    /// The slow time constant of a non-oscillating motion, 1/|rs| = (a + ωo)/ω0²: the first step
    /// of the search past its last knot.
    var tailStep: Double {
        let oscillator = spring.oscillator, omega0 = oscillator.naturalFrequency
        return (oscillator.decayRate + oscillator.frequency) / omega0 / omega0
    }

    /// The least time with p ≥ 0.5, walking the knots: the extrema alternate in sign, so a
    /// positive one (p ≥ 1) comes within two; without one, the tail or the end reaches it.
    func halfway() -> Double? {
        let level = CurveAnalysis.halfwayLevel
        func reached(_ t: Double) -> Bool { progress(t) >= level }
        var start = 0.0, i = 1
        while let t = knot(i) {
            if reached(t) { return MonotoneSearch.boundary(start, t, reached) }
            (start, i) = (t, i + 1)
        }
        if let end { return reached(end) ? MonotoneSearch.boundary(start, end, reached) : end }
        return MonotoneSearch.boundary(after: start, step: tailStep, reached)
    }

    /// The least time from which |p − 1| ≤ `band` to the end of the domain: bisection on the
    /// piece after the last knot outside the band. Nil for a motion that does not die out.
    func settle(_ band: Double) -> Double? {
        func inside(_ t: Double) -> Bool { abs(progress(t) - 1) <= band }
        if let end, !inside(end) { return end }
        guard end != nil || !oscillates || spring.oscillator.decayRate > 0 else { return nil }
        let k = lastKnotOutside(band)
        guard let start = knot(k) else { return nil }
        if let next = knot(k + 1) ?? end { return MonotoneSearch.boundary(start, next, inside) }
        return MonotoneSearch.boundary(after: start, step: tailStep, inside)
    }

    /// The index of the last knot where |p − 1| > `band` (0, t = 0, when no extremum is).
    func lastKnotOutside(_ band: Double) -> Int {
        func outside(_ i: Int) -> Bool { abs(progress(knot(i)!) - 1) > band }
        let n = count(extrema)
        guard oscillates, spring.oscillator.decayRate > 0 else {
            // At most one extremum, or extrema that grow (or keep their size) up to the end.
            guard let n else { return 0 }
            return oscillates ? (outside(n) ? n : 0) : ((0...n).last(where: outside) ?? 0)
        }
        // Decaying extrema: |y(t_k)| = |y(t_0)|·e^(−a(t_k − t_0)), t_k − t_0 = kπ/ωd.
        guard let firstExtremum = knot(1) else { return 0 }
        let first = abs(progress(firstExtremum) - 1)
        let perExtremum = spring.oscillator.decayRate * .pi / spring.oscillator.frequency
        let estimate = first > band ? (log(first / band) / perExtremum).rounded(.up) : 0
        var i = Int(min(estimate, ZeroTimes.countCeiling))
        if let n { i = min(i, n) }
        while n.map({ i < $0 }) ?? true, outside(i + 1) { i += 1 }
        while i > 0, !outside(i) { i -= 1 }
        return i
    }
}
