/// The search over whole numbers of the analysis (docs/curves.md "Motion analysis"): the first
/// step of a `steps()` curve whose output satisfies a condition that, once true, stays true.
/// (Searches over time are `NewtonSearch`'s.)
///
/// Edge cases:
/// - a condition true nowhere in the range gives nil; true everywhere, the range's start.
enum MonotoneSearch {
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
