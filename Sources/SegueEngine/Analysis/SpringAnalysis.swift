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
/// oscillations. Halfway and settling times are refined by `NewtonSearch` on their piece, from a
/// closed-form start (`settleStart`, `tailStart`, or interpolation between the piece's ends).
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
/// - a free spring's peak velocity is at t = 0 or the first zero of y″ (its extrema of y′ never
///   grow), so the second is not evaluated;
/// - critical and over-damped: at most one extremum and one zero of y″; the tail after the last
///   knot is unbounded, searched from the slow exponential's crossing with steps on ln|y|
///   (a straight line for one exponential) and, failing those, jumps of the slow time constant
///   (a + ωo)/ω0² that double.
struct SpringProfile {
    let spring: Spring
    /// A UIKit spring's duration.
    let end: Double?
    let crossings: ZeroTimes, extrema: ZeroTimes, turns: ZeroTimes
    /// The first extremum and p there, evaluated once: the suprema, the halfway walk and both
    /// bands' envelopes all read it.
    private(set) var first: (time: Double, progress: Double)?

    init(_ spring: Spring, endingAt end: Double?) {
        self.spring = spring
        self.end = end
        (crossings, extrema, turns) = spring.oscillator.zeros(of: spring.motion)
        first = knot(1).map { ($0, state($0).progress) }
    }

    func analysis() -> CurveAnalysis {
        var overshoot = CurveAnalysis.Extreme(), undershoot = CurveAnalysis.Extreme(), peak = CurveAnalysis.Extreme()
        forEachCandidate(extrema) { t in
            let p = progress(t)
            overshoot.offer(p - 1, at: t)
            undershoot.offer(-p, at: t)
        }
        // A free spring's extrema of y′ never grow (a ≥ 0; their sizes change by e^(−aπ/ωd)): the
        // first is the largest, and undamped, where all are equal, it stands for all (rounding
        // must not pick a later one).
        forEachCandidate(turns, firstOnly: end == nil) { t in
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

    func progress(_ t: Double) -> Double {
        if let first, t == first.time { return first.progress }
        return state(t).progress
    }

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

    /// Calls `body`, in order, at every time where a supremum over the zeros of `zeros` can be: 0,
    /// the first two and last two zeros in the domain, and `end`; with `firstOnly`, 0 and the
    /// first zero only. No time twice, nothing allocated.
    func forEachCandidate(_ zeros: ZeroTimes, firstOnly: Bool = false, _ body: (Double) -> Void) {
        let n = count(zeros)
        body(0)
        let head = min(firstOnly ? 1 : 2, n ?? 2)
        for k in 0..<head { body(zeros.time(k)!) }
        guard !firstOnly else { return }
        if let n { for k in max(head, n - 2)..<n { body(zeros.time(k)!) } }
        if let end { body(end) }
    }

    /// The slow time constant of a non-oscillating motion, 1/|rs| = (a + ωo)/ω0²: its tail decays
    /// as e^(−t/τ) at last.
    var tailStep: Double {
        let oscillator = spring.oscillator, omega0 = oscillator.naturalFrequency
        return (oscillator.decayRate + oscillator.frequency) / omega0 / omega0
    }

    /// One probe of a search for the time where progress reaches `target`: whether `holds` is true
    /// of p there, and Halley's step towards the target, with y″ = −2a·y′ − ω0²·y from the equation
    /// of motion — on y, or for a non-oscillating motion, while y and the target's displacement
    /// share a sign, on ln|y| (a straight line for one exponential, so a tail far from its crossing
    /// converges at once).
    func probe(_ t: Double, toward target: Double, _ holds: (Double) -> Bool) -> NewtonSearch.Probe {
        let (p, velocity) = state(t)
        let position = p - 1, goal = target - 1
        let oscillator = spring.oscillator, omega0 = oscillator.naturalFrequency
        let acceleration = -2 * oscillator.decayRate * velocity - omega0 * omega0 * position
        let step: Double
        if !oscillates && (goal < 0) == (position < 0) && position != 0 {
            let rate = velocity / position
            step = NewtonSearch.halleyStep(residual: log(goal / position), slope: rate,
                                           curvature: acceleration / position - rate * rate)
        } else {
            step = NewtonSearch.halleyStep(residual: goal - position, slope: velocity, curvature: acceleration)
        }
        return NewtonSearch.Probe(holds: holds(p), correction: step)
    }

    /// Where a non-oscillating tail from `t` (progress p there) reaches `target`, as its slow
    /// exponential alone would: t + τ·ln(y/y_target).
    func tailStart(_ t: Double, _ p: Double, toward target: Double) -> Double {
        t + tailStep * log((p - 1) / (target - 1))
    }

    /// The least time with p ≥ 0.5, walking the knots: the extrema alternate in sign, so a
    /// positive one (p ≥ 1) comes within two; without one, the tail or the end reaches it. On a
    /// bounded piece the search starts where the chord meets 0.5: the chord to the first zero of y
    /// (p = 1, known in closed form) when the piece rises through it, else to the piece's end.
    func halfway() -> Double? {
        let level = CurveAnalysis.halfwayLevel
        func crossing(_ low: Double, _ pLow: Double, _ high: Double, _ pHigh: Double) -> Double {
            var (far, pFar) = (high, pHigh)
            if let zero = crossings.time(crossings.count(before: low)), zero > low, zero < high { (far, pFar) = (zero, 1) }
            let start = low + (level - pLow) / (pFar - pLow) * (far - low)
            return NewtonSearch.boundary(low, high, from: start) { probe($0, toward: level) { $0 >= level } }
        }
        var start = 0.0, before = progress(0), i = 1
        while let t = knot(i) {
            let p = progress(t)
            if p >= level { return crossing(start, before, t, p) }
            (start, before, i) = (t, p, i + 1)
        }
        if let end {
            let p = progress(end)
            return p >= level ? crossing(start, before, end, p) : end
        }
        return NewtonSearch.boundary(start, .infinity, from: tailStart(start, before, toward: level), reach: tailStep) {
            probe($0, toward: level) { $0 >= level }
        }
    }

    /// The least time from which |p − 1| ≤ `band` to the end of the domain: the crossing into the
    /// band on the piece after the last knot outside it. Nil for a motion that does not die out.
    func settle(_ band: Double) -> Double? {
        func inside(_ p: Double) -> Bool { abs(p - 1) <= band }
        if let end, !inside(progress(end)) { return end }
        guard end != nil || !oscillates || spring.oscillator.decayRate > 0 else { return nil }
        let (k, value) = lastKnotOutside(band)
        guard let start = knot(k) else { return nil }
        let target = value > 1 ? 1 + band : 1 - band
        return NewtonSearch.boundary(start, knot(k + 1) ?? end ?? .infinity, from: settleStart(k, start, value, target),
                                     reach: tailStep) { probe($0, toward: target, inside) }
    }

    /// Where the search for a band's edge `target` starts on the piece from knot k (at t, progress
    /// p there): non-oscillating, the tail's start; from an extremum of size M = |p − 1|, where
    /// M·cos(ωd·(t′ − t)) would reach the band (the decay and the phase shift cancel to first
    /// order); from t = 0, the first zero of y, which lies just past the band's edge when the first
    /// extremum overshoots (otherwise the search starts in the middle).
    func settleStart(_ k: Int, _ t: Double, _ p: Double, _ target: Double) -> Double {
        guard oscillates else { return tailStart(t, p, toward: target) }
        guard k > 0 else { return crossings.time(0) ?? .nan }
        return t + acos(abs(target - 1) / abs(p - 1)) / spring.oscillator.frequency
    }

    /// The last knot where |p − 1| > `band` (0, t = 0, when no extremum is), with p there (for
    /// decaying extrema, from the envelope, exact to a few ulps).
    func lastKnotOutside(_ band: Double) -> (index: Int, progress: Double) {
        func outside(_ p: Double) -> Bool { abs(p - 1) > band }
        func at(_ i: Int) -> Double { progress(knot(i)!) }
        let n = count(extrema)
        guard oscillates, spring.oscillator.decayRate > 0 else {
            // At most one extremum, or extrema that grow (or keep their size) up to the end.
            guard let n else { return (0, at(0)) }
            for i in stride(from: n, through: 1, by: -1) {
                let p = at(i)
                if outside(p) { return (i, p) }
                if oscillates { break }
            }
            return (0, at(0))
        }
        // Decaying extrema: y(t_k) = y(t_1)·(−1)^(k−1)·e^(−a(t_k − t_1)), t_k − t_1 = (k − 1)π/ωd.
        guard let first else { return (0, at(0)) }
        let displacement = first.progress - 1, rate = spring.oscillator.decayRate
        // p at knot i from the envelope (an exponential, not a whole evaluation), or evaluated when
        // the envelope is so close to the band that the two might disagree about the side.
        func extremum(_ i: Int) -> Double {
            guard i > 1 else { return at(i) }
            let t = knot(i)!, y = abs(displacement) * exp(-rate * (t - first.time))
            if abs(y - band) <= Self.envelopeMargin * band { return progress(t) }
            return 1 + ((i % 2 == 1) == (displacement > 0) ? y : -y)
        }
        let perExtremum = rate * .pi / spring.oscillator.frequency
        let estimate = abs(displacement) > band ? (log(abs(displacement) / band) / perExtremum).rounded(.up) : 0
        var i = Int(min(estimate, ZeroTimes.countCeiling))
        if let n { i = min(i, n) }
        var value = extremum(i)
        while n.map({ i < $0 }) ?? true {
            let next = extremum(i + 1)
            guard outside(next) else { break }
            (i, value) = (i + 1, next)
        }
        while i > 0, !outside(value) {
            i -= 1
            value = extremum(i)
        }
        return (i, value)
    }

    /// How close, relative to a band, an extremum's size from the envelope may come before it is
    /// evaluated instead: the envelope and the closed form agree to a few ulps, so beyond this they
    /// put the extremum on the same side of the band.
    static let envelopeMargin = 1e-9
}
