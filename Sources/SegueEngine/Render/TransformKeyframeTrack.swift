/// A `CAKeyframeAnimation` on `transform`: the key times, timing functions, modes and warnings of
/// `KeyframeTrack`, with transforms as values.
///
/// - linear: each segment interpolates its two neighbouring keyframes with `TransformInterpolator`
///   (shortest arc per segment, CSS flip rule, the singular-end rule of docs/rules.md rule 6), so a
///   UIView keyframe block turns exactly as consecutive `to` animations would (docs/keyframes.md "Transforms in keyframe tracks");
/// - discrete: the keyframe matrices as given;
/// - paced, cubic, cubicPaced: these need one vector space for distances and splines, so each
///   keyframe becomes the component vector of its CSS unmatrix (translation, rotation, scale,
///   residual; components are converted to a matrix first, singular components kept as given),
///   each angle unwrapped to within π of the previous keyframe's and the flip rule applied
///   pairwise (`DecomposedTransform.unwrapped(after:)`); the vectors go through `KeyframeTrack`
///   and are recomposed. Paced distances are Euclidean in that space (points and radians mixed;
///   Core Animation's metric for transforms is not documented).
///
/// Singular keyframes (determinant 0) add a `values` warning naming the keyframe: in linear mode
/// where a neighbouring segment becomes discrete, in the vector modes where a matrix is decomposed
/// with an undefined angle.
public struct TransformKeyframeTrack: Sendable {
    public let warnings: [Warning<KeyframeSubject>]
    let timing: KeyframeTrack
    private let keyframes: [AffineTransform]
    /// Linear mode: the interpolators from keyframe i to i + 1.
    private let segments: [TransformInterpolator]

    /// True in the paced modes: the caller passes the raw time fraction (`KeyframeTrack`).
    public var ignoresTiming: Bool { timing.ignoresTiming }

    public init(
        values: [TransformEnd], keyTimes: [Double]?, timingFunctions: [TimingCurve?]?, mode: CalculationMode,
        tension: [Double]?, continuity: [Double]?, bias: [Double]?
    ) {
        keyframes = values.map(\.affineTransform)
        var singular: [Int] = []
        let vectors: [[Double]]
        switch mode {
        case .linear, .discrete:
            segments =
                mode == .linear
                ? zip(values, values.dropFirst()).map { TransformInterpolator(from: $0, to: $1, directRotation: false) }
                : []
            for (i, segment) in segments.enumerated() {
                switch segment.singularEnd {
                case .from: singular.append(i)
                case .to: singular.append(i + 1)
                case .both: singular += [i, i + 1]
                case nil: break
                }
            }
            // Key times only: the values are interpolated by `segments`.
            vectors = [[Double]](repeating: [], count: values.count)
        case .paced, .cubic, .cubicPaced:
            segments = []
            var parts: [DecomposedTransform] = []
            for (i, end) in values.enumerated() {
                var part: DecomposedTransform
                switch end {
                case .components(let given):
                    part = DecomposedTransform(given.matrix) ?? given
                case .matrix(let matrix), .operations(let matrix, _):
                    if DecomposedTransform(matrix) == nil { singular.append(i) }
                    part = DecomposedTransform.unmatrix(matrix)
                }
                if let previous = parts.last { part = part.unwrapped(after: previous) }
                parts.append(part)
            }
            vectors = parts.map(\.components)
        }
        timing = KeyframeTrack(
            values: vectors, keyTimes: keyTimes, timingFunctions: timingFunctions, mode: mode,
            tension: tension, continuity: continuity, bias: bias)
        let consequence =
            mode == .linear
            ? "the segments next to it switch at their midpoint instead of interpolating"
            : "its components are read as the CSS unmatrix leaves them"
        warnings =
            timing.warnings
            + Set(singular).sorted().map {
                Warning(subject: KeyframeSubject(.values, index: $0),
                        detail: "values[\($0)] is singular (determinant 0), so its rotation is undefined; \(consequence)")
            }
    }

    /// The transform at animation fraction `t` (after the whole-animation timing function, except
    /// in the paced modes); the identity for no values.
    public func value(at t: Double) -> AffineTransform {
        guard let first = keyframes.first else { return .identity }
        switch timing.mode {
        case .linear:
            guard !segments.isEmpty else { return first }
            let (i, u) = timing.position(at: t)
            return segments[i].value(u)
        case .discrete:
            return keyframes[timing.position(at: t).index]
        case .paced, .cubic, .cubicPaced:
            return DecomposedTransform(components: timing.value(at: t)).matrix
        }
    }
}
