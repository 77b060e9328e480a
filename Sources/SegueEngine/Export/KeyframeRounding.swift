/// The fewest digits of a keyframe fit (docs/exports.md "Fitting", step 5).
///
/// Keyframe times are written as positions in the target's unit (a percentage of the window for
/// CSS, a frame number for Lottie) and parameters as decimals; both are rounded here to the fewest
/// decimals for which the continuous check still holds, so what is printed is exactly what was
/// checked:
/// 1. times: the fewest decimals d_t (0 … `maximumDecimals`) for which the fit, its parameters
///    taken at the rounded times, stays within `timeShare` of the bound; keyframes sharing a time
///    (a jump) and the window's ends keep their exact times;
/// 2. parameters: each parameter starts at the decimals whose half unit fits in the share of the
///    bound left over; all then step down together while the check holds, and up together until
///    it holds (beyond `maximumDecimals`, parameters are left unrounded).
struct KeyframeRounding: Sendable {
    static let maximumDecimals = 15
    static let timeShare = 0.985
    /// Decimals of the positions of the window's end (100 %, a frame count) and of jumps, whose
    /// conversion from seconds adds noise in the last bits.
    static let endDecimals = 9

    let target: FitTarget
    let checker: SegmentError
    let start: Double, end: Double
    /// Target time units per second (100 / window for percentages).
    let unitsPerSecond: Double

    struct Rounded {
        var keyframes: [Keyframe]
        var timeDecimals: Int
        var parameterDecimals: [Int]
    }

    func fewestDigits(_ knots: [Keyframe]) -> Rounded {
        let tolerance = checker.tolerance
        var timeDecimals = Self.maximumDecimals + 1
        var timed = roundingTimes(knots, decimals: Self.maximumDecimals + 1)
        for d in 0...Self.maximumDecimals {
            let candidate = roundingTimes(knots, decimals: d)
            if checker.holds(candidate, within: Self.timeShare * tolerance) {
                timed = candidate
                timeDecimals = d
                break
            }
        }
        let slack = max(tolerance - checker.maxError(timed), tolerance * 1e-3)
        var decimals = target.parameterTolerance.map { unit in Self.decimals(halfUnitAtMost: slack * unit / 2) }
        var best = roundingParameters(timed, decimals: decimals)
        while decimals.contains(where: { $0 > 0 }) {
            let fewer = decimals.map { max(0, $0 - 1) }
            let candidate = roundingParameters(timed, decimals: fewer)
            guard checker.holds(candidate, within: tolerance) else { break }
            decimals = fewer
            best = candidate
        }
        while !checker.holds(best, within: tolerance) && decimals.contains(where: { $0 <= Self.maximumDecimals }) {
            decimals = decimals.map { $0 + 1 }
            best = roundingParameters(timed, decimals: decimals)
        }
        return Rounded(keyframes: best, timeDecimals: timeDecimals, parameterDecimals: decimals)
    }

    /// The keyframes at times rounded to `decimals` in the target's unit, each keeping its offset
    /// there; jump pairs and the window's ends keep their times.
    /// Beyond `maximumDecimals` positions are exact conversions and times unchanged.
    func roundingTimes(_ knots: [Keyframe], decimals: Int) -> [Keyframe] {
        var result = knots
        for k in result.indices {
            let t = knots[k].time
            let shared = (k > 0 && knots[k - 1].time == t) || (k + 1 < knots.count && knots[k + 1].time == t)
            let exact = (t - start) * unitsPerSecond
            guard !shared, t != start, t != end else {
                // The ends are whole positions (0, 100 %, the last frame) up to rounding noise; a
                // jump keeps its time to `endDecimals`, rounded down, so that at its exact time
                // the value after it shows (right-hand values: a jump at 0.1 s of 0.7 s is at
                // 14.285714285 %, not after 0.1 s).
                result[k].position = t == start ? 0 : t == end ? Self.round(exact, decimals: Self.endDecimals)
                    : Self.round(exact, decimals: Self.endDecimals, rule: .down)
                continue
            }
            let position = Self.round(exact, decimals: decimals)
            let rounded = min(max(start + position / unitsPerSecond, start), end)
            // Rounding must not carry a keyframe past its neighbours: it then keeps its time.
            let next = k + 1 < knots.count ? knots[k + 1].time : end
            guard rounded >= result[k - 1].time, rounded <= next else {
                result[k].position = exact
                continue
            }
            result[k].position = position
            if rounded != t {
                // The keyframe keeps its offset from the curve (the greedy pass may set it off).
                let before = target.sample(t).parameters, after = target.sample(rounded).parameters
                result[k].time = rounded
                result[k].parameters = after.indices.map { after[$0] + knots[k].parameters[$0] - before[$0] }
            }
        }
        return result
    }

    func roundingParameters(_ knots: [Keyframe], decimals: [Int]) -> [Keyframe] {
        knots.map { knot in
            var rounded = knot
            rounded.parameters = Self.round(knot.parameters, decimals: decimals)
            return rounded
        }
    }

    /// Each parameter rounded to its decimals (those without decimals unrounded).
    static func round(_ parameters: [Double], decimals: [Int]) -> [Double] {
        parameters.indices.map { i in i < decimals.count ? round(parameters[i], decimals: decimals[i]) : parameters[i] }
    }

    /// The fewest decimals d with 0.5 · 10^−d ≤ `bound`.
    static func decimals(halfUnitAtMost bound: Double) -> Int {
        var d = 0
        var halfUnit = 0.5
        while halfUnit > bound && d <= maximumDecimals {
            d += 1
            halfUnit /= 10
        }
        return d
    }

    /// x rounded to `decimals` decimals (the double nearest to the decimal, so that its shortest
    /// form prints at most that many decimals); unrounded beyond `maximumDecimals` or when the
    /// scaled value is beyond exact integers.
    static func round(_ x: Double, decimals: Int, rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Double {
        guard decimals <= maximumDecimals else { return x }
        let power = powerOfTen(decimals)
        let scaled = x * power
        guard abs(scaled) < 9e15 else { return x }
        return scaled.rounded(rule) / power
    }

    /// 10^n for a whole n ≥ 0, by exact multiplications (exact up to 10^22).
    static func powerOfTen(_ n: Int) -> Double {
        var power = 1.0
        for _ in 0..<n { power *= 10 }
        return power
    }
}
