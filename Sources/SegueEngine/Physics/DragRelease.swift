/// One finger sample of a `drag`: absolute timeline time and absolute channel value
/// (docs/rules.md rule 22).
public struct DragSample: Sendable, Equatable {
    public var t: Double
    public var value: [Double]

    public init(t: Double, value: [Double]) {
        self.t = t
        self.value = value
    }
}

/// The velocity a drag hands back to the forces when the finger lifts (docs/rules.md rule 22), the
/// way a pan gesture recogniser's `velocity(in:)` looks at its last samples:
///
/// - the samples with t ≥ t_last − 0.1 s (inclusive) form the window;
/// - with three or more of them, per component the least-squares slope
///       v = Σ (tᵢ − t̄)(xᵢ − x̄) / Σ (tᵢ − t̄)²        (t̄, x̄ the window's means);
/// - with fewer (one or two), the slope of the last segment, (x_n − x_{n−1}) / (t_n − t_{n−1}),
///   even when that segment starts before the window;
/// - a single sample releases at rest (zero).
///
/// Samples are validated by the caller: strictly increasing t, equal widths.
public enum DragRelease {
    /// How far back from the last sample the estimate looks, seconds (inclusive).
    public static let window = 0.1
    /// Times are written in decimal and t_last − 0.1 is rounded (0.4 − 0.1 = 0.30000000000000004):
    /// a sample within a nanosecond of the window's edge counts as on it, so the edge is inclusive
    /// as written.
    static let edgeSlack = 1e-9

    public static func velocity(of samples: [DragSample]) -> [Double] {
        guard let last = samples.last else { return [] }
        guard samples.count >= 2 else { return [Double](repeating: 0, count: last.value.count) }
        let edge = last.t - window - edgeSlack
        // Times increase, so the window is a suffix.
        let first = samples.lastIndex { $0.t < edge }.map { $0 + 1 } ?? 0
        let recent = samples[first...]
        guard recent.count >= 3 else {
            let previous = samples[samples.count - 2]
            return last.value.indices.map { (last.value[$0] - previous.value[$0]) / (last.t - previous.t) }
        }
        // Times relative to the last sample keep the sums exact to rounding at any timeline offset.
        let count = Double(recent.count)
        let meanTime = recent.reduce(0) { $0 + ($1.t - last.t) } / count
        let spread = recent.reduce(0) { $0 + (($1.t - last.t) - meanTime) * (($1.t - last.t) - meanTime) }
        return last.value.indices.map { i in
            let meanValue = recent.reduce(0) { $0 + $1.value[i] } / count
            let covariance = recent.reduce(0) { $0 + (($1.t - last.t) - meanTime) * ($1.value[i] - meanValue) }
            return covariance / spread
        }
    }
}
