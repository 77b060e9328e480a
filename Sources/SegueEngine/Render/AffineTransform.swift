#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A 2-D affine transform with `CGAffineTransform`'s fields, which are also CSS `matrix(a, b, c, d, tx, ty)`.
///
/// A point maps as x′ = a·x + c·y + tx, y′ = b·x + d·y + ty: in column-vector form the matrix
/// [[a, c, tx], [b, d, ty], [0, 0, 1]]. (a, b) is the image of the x axis, (c, d) that of the y axis.
public struct AffineTransform: Sendable, Equatable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// From `[a, b, c, d, tx, ty]`; the caller validates the count. Missing entries (a caller
    /// error) are taken from the identity and extra ones are ignored, so no input traps.
    public init(_ m: [Double]) {
        let identity = Self.identity.array
        let entry = { (i: Int) in i < m.count ? m[i] : identity[i] }
        self.init(a: entry(0), b: entry(1), c: entry(2), d: entry(3), tx: entry(4), ty: entry(5))
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// docs/rules.md "Transforms" components: scale, then rotate (radians; positive turns clockwise on
    /// screen, UIKit's y axis pointing down), then translate:
    /// a = sx·cosθ, b = sx·sinθ, c = −sy·sinθ, d = sy·cosθ, (tx, ty) = translation.
    public init(translation: (Double, Double), scale: (Double, Double), rotation: Double) {
        let cosine = cos(rotation)
        let sine = sin(rotation)
        self.init(
            a: scale.0 * cosine, b: scale.0 * sine, c: -scale.1 * sine, d: scale.1 * cosine,
            tx: translation.0, ty: translation.1)
    }

    /// `CGAffineTransformConcat(self, other)`: `self` applied first, then `other`. In row-vector
    /// form [x y 1]·M this is the product self·other:
    /// a = a₁a₂ + b₁c₂, b = a₁b₂ + b₁d₂, c = c₁a₂ + d₁c₂, d = c₁b₂ + d₁d₂,
    /// tx = tx₁a₂ + ty₁c₂ + tx₂, ty = tx₁b₂ + ty₁d₂ + ty₂.
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// `[a, b, c, d, tx, ty]`.
    public var array: [Double] { [a, b, c, d, tx, ty] }

    /// a·d − b·c: the signed area scale; negative for a reflection, 0 for a singular transform.
    public var determinant: Double { a * d - b * c }
}
