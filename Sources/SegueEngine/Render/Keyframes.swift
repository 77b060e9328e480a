/// `CAKeyframeAnimation.calculationMode` (docs/keyframes.md "Calculation modes").
public enum CalculationMode: String, Sendable, CaseIterable {
    case linear, discrete, paced, cubic, cubicPaced

    /// Paced modes generate their own key times and ignore `keyTimes`, `timingFunctions` and the
    /// whole-animation timing function.
    public var isPaced: Bool { self == .paced || self == .cubicPaced }
}

/// A `CAKeyframeAnimation` over vectors of numbers (a scalar is a vector of length 1), following
/// the numbered definitions of docs/keyframes.md "Calculation modes":
///
/// 1. the caller maps time by the whole-animation timing function first, except in the paced
///    modes (`ignoresTiming`), and passes the fraction to `value(at:)`;
/// 2. linear: key times K (valid `keyTimes`, else i/(n−1)); segment i = the last i ≤ n−2 with
///    K[i] ≤ t (so equal key times jump, the later value winning); u = (t − K[i])/(K[i+1] − K[i])
///    (1 for a zero-length segment), then the segment's timing function; lerp. t outside [0, 1]
///    (an overshooting whole-animation timing) extrapolates the first or last segment: u leaves
///    [0, 1] and the segment's timing function takes it unclamped, as Web Animations chains
///    easings (docs/curves.md "Keyframe easing chains") — a Bézier along its end tangents, steps
///    and `linear()` as CSS Easing defines them outside [0, 1];
/// 3. discrete: K has n or n + 1 entries (default i/n); the value of the last i with K[i] ≤ t;
/// 4. paced: K[i] = cumulative Euclidean distance / total (all equal: even spacing), then linear;
/// 5. cubic: Kochanek–Bartels Hermite segments over the linear mode's (i, u), tangents from
///    tension/continuity/bias (default 0 = Catmull-Rom), end points reflected
///    (P₋₁ = 2P₀ − P₁, Pₙ = 2Pₙ₋₁ − Pₙ₋₂), tangents not rescaled for unequal intervals;
/// 6. cubicPaced: the spline of 5 at constant speed (`ArcLengthTable`), t clamped to [0, 1].
///
/// Ignored structure, each with a warning about its `KeyframeSubject`: `keyTimes` whose count does not fit the mode
/// (linear/cubic: one per value; discrete: that or one more), that do not start at 0 or end at 1,
/// or that decrease (even spacing instead); `timingFunctions` whose count is not n − 1 (linear
/// segments); TCB arrays whose count is not n (zeros). Paced modes ignore `keyTimes` and
/// `timingFunctions` by definition, without a warning. Values of unequal lengths are cut to the
/// shortest (the caller validates lengths); no values give `[]`.
public struct KeyframeTrack: Sendable {
    public let mode: CalculationMode
    public let warnings: [Warning<KeyframeSubject>]
    /// The key times in use: nil in cubicPaced, which has none.
    public let effectiveKeyTimes: [Double]?
    let values: [[Double]]
    /// One per segment, or empty: time-fraction curves (Bézier, steps, `linear()`; the caller
    /// refuses springs), nil for a linear segment.
    let timingFunctions: [TimingCurve?]
    /// Cubic modes: per segment, per component, the power-basis coefficients (c₀, c₁, c₂, c₃) of
    /// P(u) = c₀ + c₁u + c₂u² + c₃u³.
    let spline: [[SIMD4<Double>]]
    let arcLength: ArcLengthTable?

    /// True in the paced modes: the caller passes the raw time fraction, not the timing
    /// function's output.
    public var ignoresTiming: Bool { mode.isPaced }

    public init(
        values: [[Double]], keyTimes: [Double]?, timingFunctions: [TimingCurve?]?, mode: CalculationMode,
        tension: [Double]?, continuity: [Double]?, bias: [Double]?
    ) {
        let width = values.map(\.count).min() ?? 0
        let values = values.map { Array($0.prefix(width)) }
        let n = values.count
        var warnings: [Warning<KeyframeSubject>] = []
        func warn(_ member: KeyframeSubject.Member, _ detail: String) {
            warnings.append(Warning(subject: KeyframeSubject(member), detail: detail))
        }

        switch mode {
        case .paced:
            effectiveKeyTimes = Self.pacedKeyTimes(values)
        case .cubicPaced:
            effectiveKeyTimes = nil
        case .linear, .discrete, .cubic:
            let problem = keyTimes.flatMap { Self.problem(keyTimes: $0, valueCount: n, mode: mode) }
            if let problem {
                warn(.keyTimes, "\(problem); Core Animation ignores them and spaces the keyframes evenly")
            }
            effectiveKeyTimes =
                (problem == nil ? keyTimes : nil) ?? Self.evenKeyTimes(count: mode == .discrete ? n + 1 : n)
        }

        var segmentTiming: [TimingCurve?] = []
        if !mode.isPaced, let timingFunctions {
            if timingFunctions.count == max(n - 1, 0) {
                segmentTiming = timingFunctions
            } else {
                warn(
                    .timingFunctions,
                    "\(timingFunctions.count) timing functions for \(n) values; Core Animation needs one per "
                        + "segment (\(max(n - 1, 0))), ignores them and runs every segment linearly")
            }
        }
        self.timingFunctions = segmentTiming

        func perKey(_ given: [Double]?, _ member: KeyframeSubject.Member) -> [Double] {
            let zeros = [Double](repeating: 0, count: n)
            guard let given else { return zeros }
            if given.count == n { return given }
            warn(
                member,
                "\(given.count) entries for \(n) values; Core Animation needs one per value and uses 0 for every key")
            return zeros
        }
        let tcb = (perKey(tension, .tensionValues), perKey(continuity, .continuityValues), perKey(bias, .biasValues))

        spline = mode == .cubic || mode == .cubicPaced ? Self.spline(values, tcb) : []
        arcLength = mode == .cubicPaced ? ArcLengthTable(spline) : nil
        self.mode = mode
        self.values = values
        self.warnings = warnings
    }

    /// The value at animation fraction `t` (after the whole-animation timing function, except in
    /// the paced modes).
    public func value(at t: Double) -> [Double] {
        guard values.count >= 2 else { return values.first ?? [] }
        if let arcLength {
            let (i, u) = arcLength.locate(t)
            return Self.evaluate(spline[i], u)
        }
        let (i, u) = position(at: t)
        switch mode {
        case .discrete: return values[i]
        case .cubic: return Self.evaluate(spline[i], u)
        // cubicPaced was answered by `arcLength` above.
        case .linear, .paced, .cubicPaced: return zip(values[i], values[i + 1]).map { $0 + ($1 - $0) * u }
        }
    }

    /// Where `t` falls: in discrete mode the index of the value shown (fraction 0); otherwise the
    /// segment i (from value i to i + 1) and the local progress u after the segment's timing
    /// function. (0, 0) with fewer than two values or in cubicPaced.
    func position(at t: Double) -> (index: Int, fraction: Double) {
        guard values.count >= 2, let keyTimes = effectiveKeyTimes, keyTimes.count >= values.count else { return (0, 0) }
        if mode == .discrete { return (Self.lastIndex(in: keyTimes, upTo: values.count - 1, atOrBefore: t), 0) }
        let i = Self.lastIndex(in: keyTimes, upTo: values.count - 2, atOrBefore: t)
        let span = keyTimes[i + 1] - keyTimes[i]
        let u = span > 0 ? (t - keyTimes[i]) / span : 1
        guard i < timingFunctions.count, let curve = timingFunctions[i] else { return (i, u) }
        return (i, curve.sample(at: u, duration: 1).progress)
    }

    /// Why `keyTimes` is ignored, or nil when it is valid for `mode` (docs/keyframes.md "Calculation modes").
    static func problem(keyTimes k: [Double], valueCount n: Int, mode: CalculationMode) -> String? {
        let discrete = mode == .discrete
        if k.count != n && !(discrete && k.count == n + 1) {
            let needed = discrete ? "\(n) or \(n + 1)" : "\(n), one per value"
            return "\(k.count) key times for \(n) values; \(mode.rawValue) mode needs \(needed)"
        }
        if let first = k.first, first != 0 { return "key times start at \(first), not 0" }
        if let last = k.last, last != 1 { return "key times end at \(last), not 1" }
        if let i = k.indices.dropFirst().first(where: { !(k[$0 - 1] <= k[$0]) }) {
            return "key time \(i) is below the one before it (or not a number)"
        }
        return nil
    }

    /// i/(count − 1) for i = 0 … count − 1 ([0] for one, [] for none).
    static func evenKeyTimes(count: Int) -> [Double] {
        guard count >= 2 else { return count == 1 ? [0] : [] }
        return (0..<count).map { Double($0) / Double(count - 1) }
    }

    /// Definition 4: cumulative Euclidean distance over the total; even spacing when the total
    /// is not positive (all values equal).
    static func pacedKeyTimes(_ values: [[Double]]) -> [Double] {
        var cumulative: [Double] = values.isEmpty ? [] : [0]
        for (a, b) in zip(values, values.dropFirst()) {
            var squared = 0.0
            for (x, y) in zip(a, b) { squared += (y - x) * (y - x) }
            cumulative.append((cumulative.last ?? 0) + squared.squareRoot())
        }
        guard let total = cumulative.last, total > 0 else { return evenKeyTimes(count: values.count) }
        return cumulative.map { $0 / total }
    }

    /// The last index i in 0…upper with k[i] ≤ t, or 0 (binary search; `k` non-decreasing).
    static func lastIndex(in k: [Double], upTo upper: Int, atOrBefore t: Double) -> Int {
        var low = 0
        var high = min(upper, k.count - 1)
        while low < high {
            let middle = low + (high - low + 1) / 2
            if k[middle] <= t { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Definition 5: per segment i the Hermite cubic from Pᵢ to Pᵢ₊₁ with the outgoing tangent
    /// TSᵢ = (1−T)(1+C)(1+B)/2·(Pᵢ − Pᵢ₋₁) + (1−T)(1−C)(1−B)/2·(Pᵢ₊₁ − Pᵢ) and the incoming
    /// TDᵢ₊₁ = (1−T)(1−C)(1+B)/2·(Pᵢ₊₁ − Pᵢ) + (1−T)(1+C)(1−B)/2·(Pᵢ₊₂ − Pᵢ₊₁) (T, C, B of
    /// the key), reflected end points, in power form: c₀ = P₀, c₁ = m₀,
    /// c₂ = −3P₀ + 3P₁ − 2m₀ − m₁, c₃ = 2P₀ − 2P₁ + m₀ + m₁.
    static func spline(_ p: [[Double]], _ tcb: ([Double], [Double], [Double])) -> [[SIMD4<Double>]] {
        let n = p.count
        guard n >= 2 else { return [] }
        let width = p[0].count
        var outgoing: [[Double]] = []
        var incoming: [[Double]] = []
        for i in 0..<n {
            let t = tcb.0[i]
            let c = tcb.1[i]
            let b = tcb.2[i]
            let before = i > 0 ? i - 1 : 0
            let after = i < n - 1 ? i + 1 : n - 1
            // Reflected phantom points make the end chords the adjacent ones.
            let back = (0..<width).map { i > 0 ? p[i][$0] - p[before][$0] : p[1][$0] - p[0][$0] }
            let ahead = (0..<width).map { i < n - 1 ? p[after][$0] - p[i][$0] : p[n - 1][$0] - p[n - 2][$0] }
            outgoing.append(
                zip(back, ahead).map {
                    (1 - t) * (1 + c) * (1 + b) / 2 * $0 + (1 - t) * (1 - c) * (1 - b) / 2 * $1
                })
            incoming.append(
                zip(back, ahead).map {
                    (1 - t) * (1 - c) * (1 + b) / 2 * $0 + (1 - t) * (1 + c) * (1 - b) / 2 * $1
                })
        }
        return (0..<(n - 1)).map { i in
            (0..<width).map { k in
                let p0 = p[i][k]
                let p1 = p[i + 1][k]
                let m0 = outgoing[i][k]
                let m1 = incoming[i + 1][k]
                return SIMD4(p0, m0, -3 * p0 + 3 * p1 - 2 * m0 - m1, 2 * p0 - 2 * p1 + m0 + m1)
            }
        }
    }

    /// P(u) of one spline segment, by Horner.
    static func evaluate(_ segment: [SIMD4<Double>], _ u: Double) -> [Double] {
        segment.map { c in ((c.w * u + c.z) * u + c.y) * u + c.x }
    }
}
