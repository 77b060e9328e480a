/// The root refinement of the analysis (docs/curves.md "Motion analysis"): every halfway and
/// settling time is the boundary of a condition on one monotone piece of a curve, where the
/// condition fails at one end and holds at the other, so bisection finds it with certainty.
///
/// Edge cases:
/// - the search stops when the bracket cannot shrink (adjacent doubles) or after `halvings`;
///   2⁻⁶⁴ of any bracket in the analysis (at most 2⁵³ s wide) is far below the 1e-9 s asked;
/// - an unbounded piece (the tail of a non-oscillating spring) is bracketed first by doubling a
///   step from its start, at most `doublings` times; a condition that never holds gives nil.
enum MonotoneSearch {
    /// Halvings of a bracket at most.
    static let halvings = 64
    /// Doublings of a step when bracketing an unbounded piece at most.
    static let doublings = 64

    /// The least point found in [low, high] where `holds` is true, for a condition false at `low`,
    /// true at `high` and true on a suffix of the bracket.
    static func boundary(_ low: Double, _ high: Double, _ holds: (Double) -> Bool) -> Double {
        var low = low, high = high
        for _ in 0..<halvings {
            let middle = 0.5 * (low + high)
            if middle <= low || middle >= high { break }
            if holds(middle) { high = middle } else { low = middle }
        }
        return high
    }

    /// The boundary on [start, ∞), for a condition true on a suffix: a bracket end found by
    /// doubling `step` from `start`, then `boundary`. Nil when no end is found.
    static func boundary(after start: Double, step: Double, _ holds: (Double) -> Bool) -> Double? {
        var step = step
        for _ in 0..<doublings {
            let high = start + step
            if holds(high) { return boundary(start, high, holds) }
            step *= 2
        }
        return nil
    }

    /// The least index in `range` where `holds` is true, for a condition true on a suffix of it;
    /// nil when it holds nowhere.
    static func firstIndex(in range: ClosedRange<Int>, where holds: (Int) -> Bool) -> Int? {
        var low = range.lowerBound, high = range.upperBound + 1
        while low < high {
            let middle = low + (high - low) / 2
            if holds(middle) { high = middle } else { low = middle + 1 }
        }
        return low <= range.upperBound ? low : nil
    }
}
