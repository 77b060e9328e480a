import SegueEngine

/// One easing per block (docs/exports.md "One easing per block", rule 41): a block animation on a
/// spring moves every property it targets as from + (to − from) · p(u), p the spring's progress
/// over the block's duration. CSS has no spring, so the block is written as two keyframes whose
/// `animation-timing-function` is p's `linear()` — one `linear()` for the block, shared by every
/// property and component it moves, so the keyframes of one block merge into one rule.
///
/// The `linear()` is fitted once per block to a progress tolerance ε small enough for every
/// property the block moves: a progress error δ moves component k of a property by at most
/// L_k · δ, L_k the largest slope of that component against progress over the range progress
/// takes (for a number L_k = |to − from|; a transform's angle bends it), and rule 26 allows
/// tolerance × scale_k, so
///
///     ε = share × tolerance × 2^⌊log₂ min(1, min over properties and k of scale_k / L_k)⌋
///
/// with `share` < 1 leaving room for the keyframes' rounding; the power of two lets views on one
/// spring share one fit. The fit then measures each
/// property's error over continuous time with the `linear()` as the browser plays it
/// (`KeyframeFit`, step 4); a piece still over the bound is split into fitted keyframes, never
/// written wrong. A block whose spring no `linear()` can follow (one of megahertz) is fitted like
/// any other motion.
struct BlockEasings: Sendable {
    /// Of the tolerance, what the `linear()` may take.
    static let share = 0.9
    /// Points at which the progress and the slopes of a property are read.
    static let progressSamples = 64

    /// Each block's `linear()`, and its text as the curve export writes it.
    private(set) var written: [(curve: PiecewiseLinear, text: String)] = []
    /// Every fit made, by spring and progress tolerance: views on the same spring share one.
    private var fitted: [(easing: KeyframeEasing, epsilon: Double, result: Written?)] = []

    /// What a block's piece is written as, and δ: its largest progress error over continuous time.
    struct Written: Sendable {
        var easing: KeyframeEasing
        var error: Double
    }

    /// `properties` with each spring piece written as its block's `linear()`, or left out where
    /// none can follow it; the other pieces as they are. `cancellation` stops the fits.
    mutating func resolve(_ properties: [ExportProperty], tolerance: Double,
                          cancellation: WorkCancellation? = nil) -> [ExportProperty] {
        // The blocks, and the smallest share of the tolerance any of their properties allows.
        var blocks: [(piece: ExactPiece, ratio: Double)] = []
        for property in properties {
            for piece in property.exactPieces {
                guard case .timed = piece.easing else { continue }
                let ratio = Self.ratio(piece, property.target)
                if let k = blocks.firstIndex(where: { $0.piece == piece }) {
                    blocks[k].ratio = min(blocks[k].ratio, ratio)
                } else {
                    blocks.append((piece, ratio))
                }
            }
        }
        let replaced = blocks.map { block in
            (piece: block.piece, written: written(block.piece, ratio: block.ratio, tolerance: tolerance, cancellation: cancellation))
        }
        return properties.map { property in
            var property = property
            property.exactPieces = property.exactPieces.compactMap { piece in
                guard case .timed = piece.easing else { return piece }
                guard let easing = replaced.first(where: { $0.piece == piece })?.written?.easing else { return nil }
                var piece = piece
                piece.written = easing
                return piece
            }
            return property
        }
    }

    /// How `piece` is written when the smallest scale_k / L_k of the properties it moves is
    /// `ratio`: a curve the target writes as it is (δ = 0), a spring as its `linear()` at
    /// ε = share × tolerance × 2^⌊log₂ min(1, ratio)⌋ (δ the fit's measured error); nil when no
    /// `linear()` can follow the spring.
    mutating func written(_ piece: ExactPiece, ratio: Double, tolerance: Double, cancellation: WorkCancellation?) -> Written? {
        guard case .timed(let curve, let duration) = piece.easing else { return Written(easing: piece.easing, error: 0) }
        let epsilon = Self.share * tolerance * Self.powerOfTwoAtMost(min(1, ratio))
        if let done = fitted.first(where: { $0.easing == piece.easing && $0.epsilon == epsilon }) { return done.result }
        let easing = Self.linear(curve, duration: duration, tolerance: epsilon, cancellation: cancellation)
        if let easing { written.append((easing.curve, easing.text)) }
        let result = easing.map { Written(easing: .curve(.piecewiseLinear($0.curve)), error: $0.error) }
        fitted.append((piece.easing, epsilon, result))
        return result
    }

    /// The text of a written easing: a block's `linear()` as fitted, else the curve's own.
    func text(_ curve: TimingCurve) -> String? {
        if case .piecewiseLinear(let linear) = curve, let block = written.first(where: { $0.curve == linear }) { return block.text }
        return CSSText.easing(curve)
    }

    /// The largest power of two at most `x` (> 0): blocks on one spring whose properties allow
    /// nearly the same tolerance share one fit at the smaller.
    static func powerOfTwoAtMost(_ x: Double) -> Double {
        x >= 1 ? 1 : Double(sign: .plus, exponent: x.exponent, significand: 1)
    }

    /// min over the components of scale_k / L_k for one property of the block.
    static func ratio(_ piece: ExactPiece, _ target: FitTarget) -> Double {
        let from = target.sample(piece.start).parameters, to = target.sample(piece.end).parameters
        var low = 0.0, high = 1.0
        for i in 0...progressSamples {
            let p = piece.easing.progress(Double(i) / Double(progressSamples))
            (low, high) = (min(low, p), max(high, p))
        }
        var slopes = [Double](repeating: 0, count: target.scale.count)
        let step = (high - low) / Double(progressSamples)
        var previous = target.interpolate(from, to, low)
        for i in 1...progressSamples {
            let next = target.interpolate(from, to, low + step * Double(i))
            for k in slopes.indices { slopes[k] = max(slopes[k], abs(next[k] - previous[k]) / step) }
            previous = next
        }
        return slopes.indices.map { target.scale[$0] / max(slopes[$0], .leastNormalMagnitude) }.min() ?? 1
    }

    /// The spring's progress over [0, duration] as the `linear()` with the fewest stops within
    /// `tolerance` (its last output exactly 1 when the spring ends within the tolerance of 1, as
    /// the curve export's), with that text and its largest error; nil when no `linear()` can
    /// follow it. A cancelled fit gives nil too; the property fits that follow notice the cancellation.
    static func linear(_ curve: TimingCurve, duration: Double, tolerance: Double,
                       cancellation: WorkCancellation?) -> (curve: PiecewiseLinear, text: String, error: Double)? {
        guard let fit = try? LinearEasing.fit(curve, duration: duration, tolerance: tolerance, cancellation: cancellation) else {
            return nil
        }
        let points = fit.keyframes.map { PiecewiseLinear.Point(input: $0.position / 100, output: $0.parameters[0]) }
        return (PiecewiseLinear(points: points), LinearEasing.text(fit), fit.maxError)
    }
}

/// A timing curve as a CSS `linear()` easing within a tolerance (docs/exports.md "Curves"): the
/// fewest stops over the sampling window [0, duration], positions as percentages of it, the last
/// output exactly 1 when the curve ends within the tolerance of 1. The curve export and the render
/// export's spring blocks (`BlockEasings`) write their springs with it.
enum LinearEasing {
    /// The stops as a keyframe fit of progress; a 413 when no `linear()` can follow the curve —
    /// before any fitting when its swings say so (`checkFollowable`) — and the 503 once
    /// `cancellation` is raised.
    static func fit(_ curve: TimingCurve, duration: Double, tolerance: Double,
                    cancellation: WorkCancellation? = nil) throws(Problem) -> KeyframeFit {
        try checkFollowable(curve, duration: duration, tolerance: tolerance)
        let progress: @Sendable (Double) -> Double = { curve.sample(at: $0, duration: duration).progress }
        let target = FitTarget.scalar(scale: 1, progress) { curve.progress(at: $0, duration: duration) }
        let end = progress(duration)
        return try KeyframeFit(target, start: 0, end: duration, tolerance: tolerance, unitsPerSecond: 100 / duration,
                               endValue: abs(end - 1) <= tolerance ? [1] : nil, cancellation: cancellation).checked("the curve")
    }

    /// The stops its swings need at least (`Spring.leastKeyframes`), 0 for a curve that does not swing.
    static func leastStops(_ curve: TimingCurve, duration: Double, tolerance: Double) -> Double {
        curve.spring?.leastKeyframes(tolerance: tolerance, over: duration) ?? 0
    }

    /// A 413 when the curve's swings need more stops than a fit on the default grid can give (it
    /// gives up beyond half as many keyframes as the grid has intervals).
    static func checkFollowable(_ curve: TimingCurve, duration: Double, tolerance: Double) throws(Problem) {
        let needed = leastStops(curve, duration: duration, tolerance: tolerance)
        let most = Double(KeyframeFit.gridIntervals / 2)
        guard needed <= most else {
            let count = needed < 1e15 ? String(Int(needed)) : "more than 10^15"
            throw Problem.tooLarge("the curve swings beyond tolerance \(tolerance) for too long: following it over its \(duration) s "
                                   + "takes at least \(count) stops, over the \(Int(most)) a `linear()` export can have (give a "
                                   + "larger tolerance, a shorter duration or more damping)")
        }
    }

    /// `linear(o1 p1%, …)` of a fit's stops.
    static func text(_ fit: KeyframeFit) -> String {
        CSSText.linear(fit.keyframes.map { (output: $0.parameters[0], position: $0.position) })
    }
}
