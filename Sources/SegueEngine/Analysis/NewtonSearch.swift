/// The root refinement of the analysis (docs/curves.md "Motion analysis"): every halfway and
/// settling time is the boundary of a condition on one monotone piece of a curve, false at the
/// piece's start and true from the boundary on. A safeguarded Newton-type iteration finds it,
/// keeping a bracket [low, high] with the condition false at `low` and true at `high`.
///
/// The caller's `probe` evaluates the curve once at a time and answers whether the condition holds
/// there, and a correction: the step its local model of the level crossing says reaches the
/// boundary (the closed forms give value, slope and curvature together, so a Halley step,
/// `halleyStep`, costs no more than a Newton one).
///
/// - Each probe moves one end of the bracket to itself.
/// - The next point is the last probe plus its correction when that lies strictly inside the
///   bracket and guided steps remain (`newtonSteps`); otherwise the middle of the bracket.
/// - A correction shorter than half the resolution is replaced by half the resolution, towards
///   the boundary (left of a probe that holds, right of one that fails): that point lies past the
///   boundary, so the bracket closes on it.
/// - The search ends when the bracket is at most `resolution(high)` wide or its ends are adjacent
///   doubles, and answers `high`: within one resolution of where the computed condition changes.
///
/// Edge cases:
/// - a zero, infinite or NaN correction (a probe at an extremum, a flat crossing, a model that
///   overflows) gives no guided point, and the bracket is halved instead;
/// - a boundary at a bracket end: guided points that would leave the bracket are halvings instead,
///   and the bracket closes onto that end; the boundary at `high` itself answers `high` without
///   probing it (the caller knows the condition holds there), as bisection would;
/// - a very flat crossing (guided steps converging slowly, or thrown about by rounding): at most
///   `newtonSteps` guided points, then halvings only, at most `halvings` of them, so the search
///   ends with the bracket of plain bisection at worst;
/// - rounding near the boundary may flip the computed condition within a few ulps: whatever it
///   answers, `high` held and `low` failed, one resolution apart;
/// - an unbounded piece (`high` = ∞, the tail of a non-oscillating spring): until a probe holds, a
///   point that is not ahead of `low` is replaced by `low` plus a reach that doubles each time, at
///   most `doublings` times; nil when no probe holds.
enum NewtonSearch {
    /// What one probe tells: whether the condition holds, and the step to the boundary that the
    /// local model gives (any value; only a finite one inside the bracket is used).
    struct Probe {
        var holds: Bool
        var correction: Double
    }

    /// Guided points (the start included) per search at most; a search normally takes four or five.
    static let newtonSteps = 12
    /// Halvings of the bracket per search at most: 2⁻⁶⁴ of any bracket in the analysis (at most
    /// 2⁵³ s wide) is far below the 1e-9 s asked.
    static let halvings = 64
    /// Doublings of the reach on an unbounded piece at most.
    static let doublings = 64
    /// The bracket width that ends a search near t: 1e-13, or 1e-15·|t| for large t (a few ulps).
    static let absoluteResolution = 1e-13, relativeResolution = 1e-15

    static func resolution(_ t: Double) -> Double {
        max(absoluteResolution, relativeResolution * abs(t))
    }

    /// The step that reaches `residual` (level − value) for a curve of this slope and curvature:
    /// Halley's, 2·r·f′/(2·f′² + r·f″), whose error shrinks with the cube of the last one, or
    /// Newton's, r/f′, when the curvature would change that by more than a factor of two either way
    /// (its denominator outside (f′², 4·f′²)). One division either way.
    static func halleyStep(residual: Double, slope: Double, curvature: Double) -> Double {
        let square = slope * slope, denominator = 2 * square + residual * curvature
        return denominator > square && denominator < 4 * square ? 2 * residual * slope / denominator : residual / slope
    }

    /// The boundary in [low, high] (`high` finite), starting from `start` (the middle when it is
    /// not inside).
    static func boundary(_ low: Double, _ high: Double, from start: Double, _ probe: (Double) -> Probe) -> Double {
        boundary(low, high, from: start, reach: 0, probe) ?? high
    }

    /// The boundary in [low, high], `high` possibly ∞ (then `reach` > 0 is the first jump ahead of
    /// `low`); nil when an unbounded piece shows no probe that holds.
    static func boundary(_ low: Double, _ high: Double, from start: Double, reach: Double,
                         _ probe: (Double) -> Probe) -> Double? {
        var bracket = Bracket(low: low, high: high, reach: reach)
        var guess = start
        while let point = bracket.next(guess) {
            let answer = probe(point)
            bracket.take(point, holds: answer.holds)
            if bracket.isClosed { return bracket.high }
            let half = 0.5 * resolution(point)
            let step = abs(answer.correction) < half ? (answer.holds ? -half : half) : answer.correction
            guess = point + step
        }
        return bracket.high.isFinite ? bracket.high : nil
    }

    /// The bracket and what is left of each budget.
    struct Bracket {
        var low: Double, high: Double
        /// The next jump ahead of `low` while `high` is ∞.
        var reach: Double
        var newtonSteps = NewtonSearch.newtonSteps, halvings = NewtonSearch.halvings, doublings = NewtonSearch.doublings

        var isClosed: Bool {
            high.isFinite && (high - low <= NewtonSearch.resolution(high) || low.nextUp >= high)
        }

        mutating func take(_ point: Double, holds: Bool) {
            if holds { high = point } else { low = point }
        }

        /// `guess` as a guided point if it lies strictly inside (NaN does not); else the middle,
        /// or on an unbounded piece the next jump; nil when the budget for it is spent.
        mutating func next(_ guess: Double) -> Double? {
            if newtonSteps > 0, guess > low, guess < high {
                newtonSteps -= 1
                return guess
            }
            if high.isFinite {
                guard halvings > 0 else { return nil }
                halvings -= 1
                return low + 0.5 * (high - low)
            }
            guard doublings > 0 else { return nil }
            doublings -= 1
            defer { reach *= 2 }
            return low + reach
        }
    }
}
