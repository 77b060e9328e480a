#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A transform as the client gave it: the singular case of docs/rules.md rule 6 and the `direct`
/// rotation path depend on the form.
public enum TransformEnd: Sendable, Equatable {
    case components(DecomposedTransform)
    case matrix(AffineTransform)
    /// `ops` composed into their matrix, with the sum of their `rotate` angles for the `direct`
    /// rotation path (rule 6). Everywhere else it is a matrix.
    case operations(AffineTransform, rotation: Double)

    /// The matrix of any form (components scale, then rotate, then translate).
    public var affineTransform: AffineTransform {
        switch self {
        case .components(let parts): parts.matrix
        case .matrix(let matrix), .operations(let matrix, _): matrix
        }
    }

    /// What the interpolation works on: the CSS unmatrix of the end's matrix (components are
    /// converted to a matrix first, rule 6), or with `direct` the angle as given — the
    /// components unchanged, or for a matrix its unmatrix with any reflection on the y axis and
    /// θ = atan2(b, a). Nil for a singular matrix.
    func decomposition(direct: Bool) -> DecomposedTransform? {
        switch self {
        case .components(let parts):
            return direct ? parts : DecomposedTransform(parts.matrix)
        case .matrix(let matrix), .operations(let matrix, _):
            guard var parts = DecomposedTransform(matrix) else { return nil }
            guard direct else { return parts }
            // −S and R(θ + π) make the same matrix: the reflection moves to y, θ to atan2(b, a).
            if parts.scale.x < 0 { parts.scale = .init(x: -parts.scale.x, y: -parts.scale.y) }
            parts.rotation = atan2(matrix.b, matrix.a)
            if case .operations(_, let turned) = self {
                // The sum of the rotate ops, as whole turns added to the matrix's own angle, so
                // the recomposed matrix is unchanged: rotate(2π) turns once.
                parts.rotation += 2 * .pi * ((turned - parts.rotation) / (2 * .pi)).rounded()
            }
            return parts
        }
    }
}

/// Interpolates two transform ends as Core Animation does (docs/rules.md "Transforms", rule 6;
/// docs/transforms.md):
/// - both ends decomposable: `DecomposedTransform.interpolate` (shortest arc, CSS flip rule),
///   recomposed;
/// - an end singular (determinant 0, e.g. scale 0): when both ends were given as components, the
///   components as given are interpolated linearly (scale 0 → 1 animates); otherwise the value
///   is discrete — `from` below progress 0.5, `to` from 0.5 on — and `singularEnd` names the
///   singular end(s) for the caller's warning;
/// - `directRotation` (`rotationPath: "direct"`, like animating `transform.rotation`): every
///   component linearly with θ as given (`TransformEnd.decomposition(direct:)`), so 0 → 2π given
///   as components turns once; singular matrices are discrete as above.
public struct TransformInterpolator: Sendable {
    public enum Singular: Sendable, Equatable {
        case from, to, both
    }

    private enum Path: Sendable {
        /// Ends already aligned: a plain lerp per frame.
        case continuous(DecomposedTransform, DecomposedTransform)
        case discrete(AffineTransform, AffineTransform)
    }

    private let path: Path
    /// The singular end that made the interpolation discrete; nil when it is continuous.
    public let singularEnd: Singular?

    public var isDiscrete: Bool { singularEnd != nil }

    public init(from: TransformEnd, to: TransformEnd, directRotation: Bool) {
        let start = from.decomposition(direct: directRotation)
        let end = to.decomposition(direct: directRotation)
        if let start, let end {
            let (a, b) = directRotation ? (start, end) : DecomposedTransform.aligned(start, end)
            path = .continuous(a, b)
            singularEnd = nil
        } else if case .components(let start) = from, case .components(let end) = to {
            path = .continuous(start, end)
            singularEnd = nil
        } else {
            path = .discrete(from.affineTransform, to.affineTransform)
            singularEnd = start == nil ? (end == nil ? .both : .from) : .to
        }
    }

    /// The transform at `progress` (0 = from, 1 = to; values outside extrapolate the components).
    public func value(_ progress: Double) -> AffineTransform {
        switch path {
        case .continuous(let start, let end):
            DecomposedTransform.lerp(start, end, progress).matrix
        case .discrete(let start, let end):
            progress < 0.5 ? start : end
        }
    }

    /// Additive blending of transforms (docs/rules.md rule 9): `base ⊕ (value ⊖ model)` with the
    /// components of `DecomposedTransform.adding`. Components are used as given; matrices are
    /// decomposed by the total CSS unmatrix, so a singular matrix still blends (its undefined
    /// angle reads as the unmatrix leaves it).
    public static func add(_ base: TransformEnd, _ value: TransformEnd, relativeTo model: TransformEnd)
        -> AffineTransform
    {
        func parts(_ end: TransformEnd) -> DecomposedTransform {
            switch end {
            case .components(let parts): parts
            case .matrix(let matrix), .operations(let matrix, _): DecomposedTransform.unmatrix(matrix)
            }
        }
        return parts(base).adding(parts(value), relativeTo: parts(model)).matrix
    }
}
