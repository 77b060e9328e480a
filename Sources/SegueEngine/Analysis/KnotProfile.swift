/// A curve on [0, end] cut by a few knots into monotone pieces, as the analysis of a Bézier or a
/// `linear()` sees it (docs/curves.md "Motion analysis"). Between two knots progress is
/// continuous and monotone, so every supremum is at a knot, a level is crossed at most once
/// per piece, and sign changes of progress − 1 show at the knots.
///
/// Edge cases:
/// - a knot may be a jump: `left` is the limit from the left, `value` the value there (equal
///   elsewhere); a supremum reached only as a left limit is reported at the jump;
/// - a jump that passes 0.5 is the halfway time, one that enters the band is the settling time,
///   and one across 1 is a sign change at its time;
/// - touching 1 without crossing it is no sign change (zeros are skipped when signs are compared);
/// - the curve may end outside a band: that band's settling time is nil.
struct KnotProfile {
    struct Knot {
        var time: Double
        var left: Double
        var value: Double
    }

    /// Sorted by time; the first at 0, the last at the end of the domain.
    var knots: [Knot]
    /// |velocity| at every time where its supremum can be (progress per second).
    var speeds: [(time: Double, speed: Double)]
    /// The time in piece i (between knots i and i + 1) where progress equals a level strictly
    /// between the value at knot i and the left limit at knot i + 1.
    var crossing: (_ piece: Int, _ level: Double) -> Double

    /// Where a band's settling time falls, with what the sign changes before it are counted from.
    struct Settling {
        var time: Double
        /// Knots wholly before `time`.
        var knotsBefore: Int
        /// Progress just before `time`, when something precedes it.
        var tail: Double?
    }

    func analysis() -> CurveAnalysis {
        var overshoot = CurveAnalysis.Extreme(), undershoot = CurveAnalysis.Extreme()
        for knot in knots {
            overshoot.offer(max(knot.left, knot.value) - 1, at: knot.time)
            undershoot.offer(-min(knot.left, knot.value), at: knot.time)
        }
        var peak = CurveAnalysis.Extreme()
        for (time, speed) in speeds { peak.offer(speed, at: time) }
        let coarse = settling(CurveAnalysis.Settle.coarseBand), fine = settling(CurveAnalysis.Settle.fineBand)
        return CurveAnalysis(
            overshoot: overshoot, undershoot: undershoot, peakVelocity: peak, halfway: halfway(),
            settle: CurveAnalysis.Settle(coarse: coarse?.time, fine: fine?.time), oscillations: signChanges(before: fine))
    }

    /// The least time with progress ≥ 0.5: in the first piece that rises past it, or at the jump
    /// that passes it.
    func halfway() -> Double? {
        let level = CurveAnalysis.halfwayLevel
        for (i, knot) in knots.enumerated() {
            if knot.left >= level { return i == 0 ? knot.time : crossing(i - 1, level) }
            if knot.value >= level { return knot.time }
        }
        return nil
    }

    /// From the end back to the last knot outside the band: its piece crosses into the band, or,
    /// if that knot is a jump into the band, the jump is the settling time.
    func settling(_ band: Double) -> Settling? {
        func outside(_ progress: Double) -> Bool { abs(progress - 1) > band }
        for i in knots.indices.reversed() {
            let knot = knots[i]
            if outside(knot.value) {
                guard i < knots.count - 1 else { return nil }
                let level = knot.value > 1 ? 1 + band : 1 - band
                return Settling(time: crossing(i, level), knotsBefore: i + 1, tail: level)
            }
            if outside(knot.left) { return Settling(time: knot.time, knotsBefore: i, tail: knot.left) }
        }
        return Settling(time: knots[0].time, knotsBefore: 0, tail: nil)
    }

    /// Sign changes of progress − 1 before the settling time (over the whole domain without one):
    /// each monotone piece changes sign at most once, so the knots' signs tell them all.
    func signChanges(before settling: Settling?) -> Int {
        var changes = 0, sign = 0.0
        func see(_ p: Double) {
            guard p != 1 else { return }
            let current: Double = p > 1 ? 1 : -1
            if sign != 0 && current != sign { changes += 1 }
            sign = current
        }
        for knot in knots.prefix(settling?.knotsBefore ?? knots.count) {
            see(knot.left)
            see(knot.value)
        }
        if let tail = settling?.tail { see(tail) }
        return changes
    }
}
