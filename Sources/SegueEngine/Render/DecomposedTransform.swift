#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A 2-D affine transform as translation, rotation, scale and a residual linear map: the
/// representation of the CSS Transforms 1 2-D matrix decomposition
/// (https://drafts.csswg.org/css-transforms-1/#interpolation-of-2d-matrices, "Decomposing a 2D
/// matrix"), which docs/rules.md rule 6 prescribes and docs/transforms.md "Decomposition" calls the reference rule.
///
/// In column-vector form the linear part is M = Q · R(θ) · S: first the scale S = diag(sx, sy),
/// then the rotation R(θ) = [[cosθ, −sinθ], [sinθ, cosθ]], then the residual Q, and the
/// translation last. For translate/rotate/scale transforms Q is the identity; a skew or a
/// non-orthogonal matrix leaves the rest of the spec's 2×2 "m11 m12 m21 m22" in Q.
///
/// Recomposition puts the translation outermost (T · Q · R · S), the exact inverse of the
/// decomposition, which reads the translation straight off the matrix. The spec's recomposition
/// pseudo-code multiplies the translation by Q, which does not give the matrix back once Q is not
/// the identity; for every translate/rotate/scale transform the two agree.
public struct DecomposedTransform: Sendable, Equatable {
    /// A pair of numbers: a translation in points or a scale factor per axis.
    public struct Vector: Sendable, Equatable {
        public var x: Double, y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    public var translation: Vector
    /// Radians; positive turns clockwise on screen (UIKit's y axis points down).
    public var rotation: Double
    /// Per-axis scale; the CSS flip rule puts a reflection into one negative factor.
    public var scale: Vector
    /// The residual linear map Q (`tx`, `ty` unused and 0): the identity unless the matrix has skew.
    public var residual: AffineTransform

    /// Components as a client gives them (docs/rules.md "Transforms"): Q is the identity.
    public init(translation: Vector, rotation: Double, scale: Vector, residual: AffineTransform = .identity) {
        self.translation = translation
        self.rotation = rotation
        self.scale = scale
        self.residual = residual
    }

    /// The CSS unmatrix of `m`; nil when `m` is singular (determinant 0: a zero scale axis or
    /// parallel axes), where the rotation is undefined and docs/rules.md rule 6 falls back.
    public init?(_ m: AffineTransform) {
        guard m.determinant != 0 else { return nil }
        self = Self.unmatrix(m)
    }

    /// The spec's decomposition, total (as the spec's 2-D algorithm: a zero axis is left as is):
    /// 1. scales are the column lengths sx = |(a, b)|, sy = |(c, d)|;
    /// 2. flip rule: if the determinant is negative, negate sx when a < d, else sy;
    /// 3. divide each column by its (non-zero) scale; θ = atan2 of the first column;
    /// 4. Q = N · R(−θ), N the normalised columns.
    static func unmatrix(_ m: AffineTransform) -> DecomposedTransform {
        var sx = (m.a * m.a + m.b * m.b).squareRoot()
        var sy = (m.c * m.c + m.d * m.d).squareRoot()
        if m.determinant < 0 {
            if m.a < m.d { sx = -sx } else { sy = -sy }
        }
        let x = sx != 0 ? 1 / sx : 1
        let y = sy != 0 ? 1 / sy : 1
        let normalized = AffineTransform(a: m.a * x, b: m.b * x, c: m.c * y, d: m.d * y, tx: 0, ty: 0)
        let theta = atan2(normalized.b, normalized.a)
        let unrotate = AffineTransform(translation: (0, 0), scale: (1, 1), rotation: -theta)
        return DecomposedTransform(
            translation: Vector(x: m.tx, y: m.ty), rotation: theta, scale: Vector(x: sx, y: sy),
            residual: unrotate.concatenating(normalized))
    }

    /// T · Q · R(θ) · S, i.e. in `CGAffineTransformConcat` order scale, rotate, residual, translate.
    public var matrix: AffineTransform {
        var m = AffineTransform(translation: (0, 0), scale: (scale.x, scale.y), rotation: rotation)
            .concatenating(residual)
        m.tx = translation.x
        m.ty = translation.y
        return m
    }

    /// Core Animation's transform interpolation (docs/rules.md rule 6), CSS "Interpolation of
    /// decomposed 2D matrix values" without its "0 → 360" substitution:
    /// 1. if `from` is flipped on x and `to` on y, or the reverse, `from` becomes the same matrix
    ///    with both scales negated and θ moved by π towards 0 (`flipped`);
    /// 2. if |θ_to − θ_from| > π (strictly), 2π is added to the smaller angle, so rotations take
    ///    the short way and identity → rotation(π) turns +π;
    /// 3. every component (translation, θ, scale, Q) is interpolated linearly.
    public static func interpolate(
        _ from: DecomposedTransform, _ to: DecomposedTransform, _ progress: Double
    ) -> DecomposedTransform {
        let (a, b) = aligned(from, to)
        return lerp(a, b, progress)
    }

    /// Steps 1 and 2 of `interpolate`.
    static func aligned(_ from: DecomposedTransform, _ to: DecomposedTransform) -> (
        DecomposedTransform, DecomposedTransform
    ) {
        var a = flipsDiffer(from, to) ? from.flipped : from
        var b = to
        if abs(b.rotation - a.rotation) > .pi {
            if a.rotation < b.rotation { a.rotation += 2 * .pi } else { b.rotation += 2 * .pi }
        }
        return (a, b)
    }

    /// Each component linearly, with no angle adjustment (`rotationPath: "direct"`, and the
    /// components of singular ends).
    public static func lerp(_ from: DecomposedTransform, _ to: DecomposedTransform, _ progress: Double)
        -> DecomposedTransform
    {
        DecomposedTransform(components: zip(from.components, to.components).map { $0 + ($1 - $0) * progress })
    }

    /// Additive blending (docs/rules.md rule 9): `self ⊕ (value ⊖ model)` per component —
    /// translation, rotation and the residual entries add the difference value − model; scales
    /// multiply by the ratio value / model (1 where the two are equal, so a zero scale over itself
    /// stays neutral; a zero model scale under a different value gives ±∞ or NaN, which the
    /// caller rejects). With `self == model` the result is `value`.
    public func adding(_ value: DecomposedTransform, relativeTo model: DecomposedTransform) -> DecomposedTransform {
        let x = components
        let v = value.components
        let m = model.components
        return DecomposedTransform(
            components: x.indices.map { i in
                if Self.scaleIndices.contains(i) { return x[i] * (v[i] == m[i] ? 1 : v[i] / m[i]) }
                return x[i] + v[i] - m[i]
            })
    }

    /// This decomposition moved to lie after `previous` in a chain of keyframes: the flip rule
    /// of `interpolate` applied to this end, then θ moved by whole turns to within π of the
    /// previous angle (a difference of exactly π is kept, as in `interpolate`).
    func unwrapped(after previous: DecomposedTransform) -> DecomposedTransform {
        var next = Self.flipsDiffer(previous, self) ? flipped : self
        let delta = next.rotation - previous.rotation
        if abs(delta) > .pi { next.rotation -= (delta / (2 * .pi)).rounded() * 2 * .pi }
        return next
    }

    /// The same matrix with both scales negated and θ moved by π towards 0 (R(θ ± π) = −R(θ)).
    var flipped: DecomposedTransform {
        var result = self
        result.scale = Vector(x: -scale.x, y: -scale.y)
        result.rotation += rotation < 0 ? .pi : -.pi
        return result
    }

    /// One end reflected on x and the other on y (the CSS flip rule's condition).
    static func flipsDiffer(_ a: DecomposedTransform, _ b: DecomposedTransform) -> Bool {
        (a.scale.x < 0 && b.scale.y < 0) || (a.scale.y < 0 && b.scale.x < 0)
    }

    /// Positions of sx and sy in `components`.
    static let scaleIndices = 3...4

    /// [tx, ty, θ, sx, sy, Q.a, Q.b, Q.c, Q.d]: the vector the interpolations work on.
    var components: [Double] {
        [translation.x, translation.y, rotation, scale.x, scale.y, residual.a, residual.b, residual.c, residual.d]
    }

    /// From `components`; missing entries (never produced here) read as the identity's.
    init(components v: [Double]) {
        let entry = { (i: Int, fallback: Double) in i < v.count ? v[i] : fallback }
        self.init(
            translation: Vector(x: entry(0, 0), y: entry(1, 0)), rotation: entry(2, 0),
            scale: Vector(x: entry(3, 1), y: entry(4, 1)),
            residual: AffineTransform(a: entry(5, 1), b: entry(6, 0), c: entry(7, 0), d: entry(8, 1), tx: 0, ty: 0))
    }
}
