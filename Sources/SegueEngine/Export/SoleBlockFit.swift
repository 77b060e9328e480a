/// The keyframes of a value that one block animation alone moves (docs/exports.md "One easing per
/// block"): it holds, follows the block's piece, and holds again (`Scene.Channel.soleBlock`), so
/// its keyframes are known without a search — the value at the window's start, the piece's two
/// ends with the piece's written easing between them, and the window's end — and so is their
/// error, without scanning the timeline.
///
/// The error rule is rule 26's (docs/exports.md "The error rule"): component k of the target's
/// value, against Segue's, in units of `scale[k]`, over continuous time.
/// - Holds: the target holds the keyframe's parameters, Segue the exact ones: the error is the
///   rounding's.
/// - The piece: at fraction u the target shows f(W(u)), Segue f(E(u)), where f(q) is the target's
///   mix of the two ends at progress q, E the block's easing and W the written one. With
///   δ = max over u of |W(u) − E(u)| (0 where the target writes E itself; a spring's `linear()`
///   measures its own over continuous time), the mean value theorem gives
///
///       |f_k(W(u)) − f_k(E(u))| ≤ δ · max |f_k′(q)| over the progress both take,
///
///   For a number, a length or a colour the target knows max |f_k′| in closed form
///   (`FitTarget.mixSlope`: |Δ_k|, which clamping only lowers); for a transform, whose angle
///   bends f smoothly, it is bounded by the largest secant slope on `slopeSteps` even steps plus
///   one step's worth of the largest second difference (the curvature the secants can hide).
/// - Rounding: each parameter is rounded to the decimals its share of what the piece leaves
///   allows (`FitTarget.parameterTolerance`), and what the rounded ends move f by, over the
///   progress range, is added.
///
/// Edge cases: the caller's values at `checks` (the render's frames) must agree with the model to
/// `KeyframeFit.exactPieceSlack` — a target that interpolates otherwise than the engine (a
/// rotation unwrapped differently) gives nil, as does a piece outside the window or a bound the
/// written easing cannot meet; the caller then fits the value like any other.
extension KeyframeFit {
    /// Even steps over the progress range on which the slopes and the rounding are read.
    public static let slopeSteps = 64

    /// The keyframes of `target` over [start, end] when its value follows `piece` alone.
    /// - easingError: δ, the largest |W − E| of the piece's written easing over continuous time.
    /// - checks: Segue's values (`FitTarget.sample(t).output`) at some times of the window.
    /// - expandsLinear: the target has no `linear()` easing (Lottie): a written piecewise-linear
    ///   easing becomes a keyframe at each of its stops, parameters mixed at the stop's output,
    ///   which the target's linear interpolation between keyframes plays as the same W.
    public init?(soleBlock piece: ExactPiece, target: FitTarget, start: Double, end: Double, tolerance: Double,
                 unitsPerSecond: Double, easingError: Double, checks: [(time: Double, output: [Double])],
                 expandsLinear: Bool = false) {
        guard start <= piece.start, piece.start < piece.end, piece.end <= end, easingError.isFinite, easingError >= 0 else {
            return nil
        }
        let from = target.sample(start).parameters, to = target.sample(piece.end).parameters
        func mix(_ q: Double) -> [Double] { target.interpolate(from, to, q) }
        // 1. The model agrees with Segue's values where the caller has them.
        for check in checks where check.time >= start && check.time <= end {
            let q = check.time < piece.start ? 0 : check.time >= piece.end ? 1
                : piece.easing.progress((check.time - piece.start) / (piece.end - piece.start))
            let expected = mix(q)
            guard expected.count == check.output.count, expected.indices.allSatisfy({
                abs(expected[$0] - check.output[$0]) <= Self.exactPieceSlack * max(1, target.scale[$0])
            }) else { return nil }
        }
        // 2. The progress both easings take, and the piece's error.
        let range = Self.progressRange(piece, widenedBy: easingError)
        let slope = target.mixSlope.map { known in
            zip(known(from, to), target.scale).map { $0 / $1 }.max() ?? 0
        } ?? Self.slopeBound(mix, over: range, scale: target.scale)
        let pieceError = easingError == 0 ? 0 : slope * easingError
        guard pieceError < tolerance else { return nil }
        // 3. The fewest decimals whose rounding keeps the sum within the tolerance.
        guard var rounded = Self.rounding(from, to, target: target, range: range, slack: tolerance - pieceError) else {
            return nil
        }
        // 4. The keyframes: positions are exact conversions, so the times add no error.
        func keyframe(_ t: Double, _ parameters: [Double], _ easing: KeyframeEasing = .linear) -> Keyframe {
            var k = Keyframe(time: t, parameters: parameters, easing: easing)
            k.position = t == start ? 0 : (t - start) * unitsPerSecond
            return k
        }
        var keyframes: [Keyframe]
        if rounded.from == rounded.to {
            keyframes = [keyframe(start, rounded.from), keyframe(end, rounded.to)]
        } else {
            keyframes = [keyframe(start, rounded.from, piece.start == start ? piece.written : .linear)]
            if piece.start > start { keyframes.append(keyframe(piece.start, rounded.from, piece.written)) }
            if expandsLinear, case .curve(.piecewiseLinear(let stops)) = piece.written {
                keyframes[keyframes.count - 1].easing = .linear
                guard let inner = Self.stops(stops, piece: piece, from: rounded.from, to: rounded.to, target: target,
                                             decimals: rounded.decimals) else { return nil }
                // The stops' positions to `endDecimals` decimals: W's stops move by at most half a
                // unit there, which moves W by its steepest slope times that.
                let unit = 0.5 / KeyframeRounding.powerOfTen(KeyframeRounding.endDecimals) / unitsPerSecond / (piece.end - piece.start)
                keyframes += inner.stops.map { stop in
                    var k = keyframe(stop.time, stop.parameters)
                    k.position = KeyframeRounding.round(k.position, decimals: KeyframeRounding.endDecimals)
                    return k
                }
                rounded.error += inner.moved + slope * Self.steepest(stops) * unit
            }
            keyframes.append(keyframe(piece.end, rounded.to))
            if piece.end < end { keyframes.append(keyframe(end, rounded.to)) }
        }
        guard pieceError + rounded.error <= tolerance else { return nil }
        keyframes[keyframes.count - 1].position = KeyframeRounding.round((end - start) * unitsPerSecond,
                                                                         decimals: KeyframeRounding.endDecimals)
        self.init(keyframes: keyframes, maxError: pieceError + rounded.error, tolerance: tolerance,
                  timeDecimals: KeyframeRounding.maximumDecimals + 1, parameterDecimals: rounded.decimals)
    }

    /// A piecewise-linear easing's stops over the piece but its first (0, 0) and last (1, 1),
    /// which are the piece's ends: each at its time, the ends mixed at its output and rounded to
    /// `decimals` (a stop that shares its input with the next is a jump, two keyframes at one
    /// time); with the largest move of the shown value that rounding causes at a stop, doubled as
    /// a margin for between them (the target mixes neighbouring stops linearly), in units of
    /// scale. nil when the easing does not run from (0, 0) to (1, 1).
    static func stops(_ easing: PiecewiseLinear, piece: ExactPiece, from: [Double], to: [Double], target: FitTarget,
                      decimals: [Int]) -> (stops: [(time: Double, parameters: [Double])], moved: Double)? {
        guard let first = easing.points.first, let last = easing.points.last, easing.points.count >= 2,
              first.input == 0, first.output == 0, last.input == 1, last.output == 1 else { return nil }
        var out: [(time: Double, parameters: [Double])] = []
        var moved = 0.0
        for point in easing.points.dropFirst().dropLast() {
            let exact = zip(from, to).map { $0 + ($1 - $0) * point.output }
            let rounded = KeyframeRounding.round(exact, decimals: decimals)
            let a = target.interpolate(exact, exact, 0), b = target.interpolate(rounded, rounded, 0)
            for k in a.indices where k < b.count && k < target.scale.count { moved = max(moved, abs(a[k] - b[k]) / target.scale[k]) }
            out.append((piece.start + point.input * (piece.end - piece.start), rounded))
        }
        return (out, 2 * moved)
    }

    /// The largest |Δoutput / Δinput| between a piecewise-linear easing's distinct inputs.
    static func steepest(_ easing: PiecewiseLinear) -> Double {
        zip(easing.points, easing.points.dropFirst()).reduce(0) { worst, pair in
            pair.1.input > pair.0.input ? max(worst, abs(pair.1.output - pair.0.output) / (pair.1.input - pair.0.input)) : worst
        }
    }

    /// [low, high] ⊇ every progress E takes over the piece (read on `slopeSteps` points, with 0
    /// and 1), widened by δ so that it holds W's too.
    static func progressRange(_ piece: ExactPiece, widenedBy delta: Double) -> ClosedRange<Double> {
        var low = 0.0, high = 1.0
        for i in 0...slopeSteps {
            let p = piece.easing.progress(Double(i) / Double(slopeSteps))
            if p.isFinite { (low, high) = (min(low, p), max(high, p)) }
        }
        return (low - delta)...(high + delta)
    }

    /// max over k of (largest |f_k′| over `range`) / scale_k: the largest secant slope on
    /// `slopeSteps` steps plus one step times the largest second difference.
    static func slopeBound(_ f: (Double) -> [Double], over range: ClosedRange<Double>, scale: [Double]) -> Double {
        let h = (range.upperBound - range.lowerBound) / Double(slopeSteps)
        let values = (0...slopeSteps).map { f(range.lowerBound + h * Double($0)) }
        var bound = 0.0
        for k in scale.indices {
            var secant = 0.0, curvature = 0.0
            for i in 1...slopeSteps {
                secant = max(secant, abs(values[i][k] - values[i - 1][k]) / h)
                if i < slopeSteps {
                    curvature = max(curvature, abs(values[i + 1][k] - 2 * values[i][k] + values[i - 1][k]) / (h * h))
                }
            }
            bound = max(bound, (secant + h * curvature) / scale[k])
        }
        return bound
    }

    /// The ends rounded to the fewest decimals (each parameter its share of `slack`), with the
    /// largest move of the mix the rounding causes over `range`, in units of scale; nil when even
    /// unrounded ends leave no slack.
    static func rounding(_ from: [Double], _ to: [Double], target: FitTarget, range: ClosedRange<Double>,
                         slack: Double) -> (from: [Double], to: [Double], error: Double, decimals: [Int])? {
        guard slack > 0 else { return nil }
        let count = Double(max(1, from.count))
        var decimals = target.parameterTolerance.map {
            KeyframeRounding.decimals(halfUnitAtMost: Self.roundingShare * slack * $0 / count)
        }
        while true {
            let a = KeyframeRounding.round(from, decimals: decimals), b = KeyframeRounding.round(to, decimals: decimals)
            let error = Self.moved(target, (from, to), (a, b), over: range)
            if error <= slack { return (a, b, error, decimals) }
            guard decimals.contains(where: { $0 <= KeyframeRounding.maximumDecimals }) else { return nil }
            decimals = decimals.map { $0 + 1 }
        }
    }

    /// Of the slack, what the rounding aims for (the rest covers the secant reading of its move).
    static let roundingShare = 0.5

    /// The largest |mix(exact) − mix(rounded)| / scale on `range`'s even steps, doubled as a margin
    /// for between them: the move is the mix's slope times a parameter change that is affine in q,
    /// so it varies as slowly as the mix itself.
    private static func moved(_ target: FitTarget, _ exact: ([Double], [Double]), _ rounded: ([Double], [Double]),
                              over range: ClosedRange<Double>) -> Double {
        if exact.0 == rounded.0 && exact.1 == rounded.1 { return 0 }
        var worst = 0.0
        let h = (range.upperBound - range.lowerBound) / Double(slopeSteps)
        for i in 0...slopeSteps {
            let q = range.lowerBound + h * Double(i)
            let a = target.interpolate(exact.0, exact.1, q), b = target.interpolate(rounded.0, rounded.1, q)
            for k in a.indices where k < b.count && k < target.scale.count {
                worst = max(worst, abs(a[k] - b[k]) / target.scale[k])
            }
        }
        return 2 * worst
    }
}
