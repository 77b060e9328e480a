import Foundation

/// Interpolation of `transform` values as CSS Transforms 1 §"Interpolation of Transforms" and
/// §"Interpolation of Matrices" write it (2-D only).
public enum TransformInterpolation {
    /// The interpolated value of `from` → `to` at `p`, as one matrix. The rules in the spec's order:
    /// none/none stays none; a `none` side becomes the identity functions of the other side; lists of
    /// equal length whose pairs share a name or a primitive interpolate pair by pair; a shorter list whose
    /// functions match the longer list's at the same positions is extended with identity functions;
    /// anything else interpolates the two lists' matrices. A pair (or the two lists) whose matrix cannot
    /// be decomposed makes the whole value discrete (§"Interpolation of Matrices": "fall-back to a
    /// discrete animation"; Web Animations 1: the start value for p < 0.5, else the end value).
    public static func interpolate(_ from: CSSTransformList, _ to: CSSTransformList, _ p: Double) -> CSSMatrix {
        let discrete = p < 0.5 ? from.matrix : to.matrix
        guard from.functions != nil || to.functions != nil else { return .identity }
        let fromList = from.functions ?? to.functions!.map(\.identity)
        let toList = to.functions ?? from.functions!.map(\.identity)
        if let (a, b) = matchedLists(fromList, toList) {
            var result = CSSMatrix.identity
            for (x, y) in zip(a, b) {
                guard let matrix = interpolatePair(x, y, p) else { return discrete }
                result = result.concatenating(matrix)
            }
            return result
        }
        return interpolateMatrices(CSSTransformList(fromList).matrix, CSSTransformList(toList).matrix, p) ?? discrete
    }

    /// Whether two functions "have either the same name, or [are] a derivative of the same primitive".
    static func match(_ x: CSSTransformFunction, _ y: CSSTransformFunction) -> Bool {
        x.name == y.name || x.primitive.name == y.primitive.name
    }

    /// The two lists made the same length by the third and fourth rules, or nil when neither applies.
    static func matchedLists(_ a: [CSSTransformFunction], _ b: [CSSTransformFunction])
        -> ([CSSTransformFunction], [CSSTransformFunction])? {
        let shared = min(a.count, b.count)
        guard zip(a.prefix(shared), b.prefix(shared)).allSatisfy(match) else { return nil }
        let extendedA = a + b.dropFirst(a.count).map(\.identity)
        let extendedB = b + a.dropFirst(b.count).map(\.identity)
        return (extendedA, extendedB)
    }

    /// §"Interpolation of primitives and derived transform functions": the same name and argument count
    /// interpolate their arguments numerically, except `matrix()`, which interpolates by decomposition;
    /// otherwise both become the common primitive first. Nil if a matrix cannot be decomposed.
    static func interpolatePair(_ x: CSSTransformFunction, _ y: CSSTransformFunction, _ p: Double) -> CSSMatrix? {
        if x.name == "matrix" && y.name == "matrix" { return interpolateMatrices(x.matrix, y.matrix, p) }
        let (a, b) = x.name == y.name && x.arguments.count == y.arguments.count ? (x, y) : (x.primitive, y.primitive)
        let arguments = zip(a.arguments, b.arguments).map { WebInterpolation.number($0, $1, p) }
        return CSSTransformFunction(a.name, arguments).matrix
    }

    /// §"Interpolation of 2D matrices": decompose both, interpolate the decomposed values, recompose.
    /// Nil if either matrix is non-invertible.
    public static func interpolateMatrices(_ from: CSSMatrix, _ to: CSSMatrix, _ p: Double) -> CSSMatrix? {
        guard from.determinant != 0, to.determinant != 0,
              let a = DecomposedMatrix(decomposing: from), let b = DecomposedMatrix(decomposing: to) else { return nil }
        return DecomposedMatrix.interpolate(a, b, p).recomposed
    }
}

/// A 2-D matrix decomposed by CSS Transforms 1 §"Decomposing a 2D matrix" (the "unmatrix" method of
/// Graphics Gems II, as the spec writes it): translation, scale (one axis negated when the determinant
/// is negative), rotation angle in degrees and the remaining 2×2 matrix m11…m22.
///
/// The spec's pseudo-code indexes a 4×4 matrix whose `matrix[0][0]`, `[0][1]`, `[1][0]`, `[1][1]`,
/// `[3][0]`, `[3][1]` are CSS's a, b, c, d, e, f (row-vector convention, the translation in row 3).
public struct DecomposedMatrix: Equatable, Sendable {
    public var translation: (Double, Double)
    public var scale: (Double, Double)
    public var angle: Double
    public var m11, m12, m21, m22: Double

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.translation == rhs.translation && lhs.scale == rhs.scale && lhs.angle == rhs.angle
            && (lhs.m11, lhs.m12, lhs.m21, lhs.m22) == (rhs.m11, rhs.m12, rhs.m21, rhs.m22)
    }

    /// The spec's decomposition, line by line. It "returns false if the matrix cannot be decomposed"
    /// without saying when; a matrix with a zero scale is refused here (the caller has already refused
    /// non-invertible matrices, which is the only case that produces one).
    public init?(decomposing matrix: CSSMatrix) {
        var row0x = matrix.a, row0y = matrix.b, row1x = matrix.c, row1y = matrix.d
        translation = (matrix.e, matrix.f)
        var scale = ((row0x * row0x + row0y * row0y).squareRoot(), (row1x * row1x + row1y * row1y).squareRoot())
        // If determinant is negative, one axis was flipped: flip the axis with the minimum unit vector
        // dot product — literally `if (row0x < row1y)`.
        if row0x * row1y - row0y * row1x < 0 {
            if row0x < row1y { scale.0 = -scale.0 } else { scale.1 = -scale.1 }
        }
        guard scale.0 != 0, scale.1 != 0 else { return nil }
        row0x *= 1 / scale.0
        row0y *= 1 / scale.0
        row1x *= 1 / scale.1
        row1y *= 1 / scale.1
        let angle = atan2(row0y, row0x)
        if angle != 0 {
            let sn = -row0y, cs = row0x
            let (m11, m12, m21, m22) = (row0x, row0y, row1x, row1y)
            row0x = cs * m11 + sn * m21
            row0y = cs * m12 + sn * m22
            row1x = -sn * m11 + cs * m21
            row1y = -sn * m12 + cs * m22
        }
        (m11, m12, m21, m22) = (row0x, row0y, row1x, row1y)
        self.scale = scale
        self.angle = angle * 180 / .pi  // "Convert into degrees because our rotation functions expect it."
    }

    /// §"Interpolation of decomposed 2D matrix values", as written: when the x axis of one matrix and the
    /// y axis of the other are flipped, A's scale is negated and A's angle moved by 180° toward zero;
    /// then "Don't rotate the long way around": an angle that is exactly 0 is replaced by 360 — so
    /// 0° → 180° turns backwards through 270° — and if the angles are more than 180° apart the larger
    /// loses 360. Every component is then interpolated linearly.
    public static func interpolate(_ a: DecomposedMatrix, _ b: DecomposedMatrix, _ p: Double) -> DecomposedMatrix {
        var a = a, b = b
        if (a.scale.0 < 0 && b.scale.1 < 0) || (a.scale.1 < 0 && b.scale.0 < 0) {
            a.scale = (-a.scale.0, -a.scale.1)
            a.angle += a.angle < 0 ? 180 : -180
        }
        if a.angle == 0 { a.angle = 360 }
        if b.angle == 0 { b.angle = 360 }
        if abs(a.angle - b.angle) > 180 {
            if a.angle > b.angle { a.angle -= 360 } else { b.angle -= 360 }
        }
        let mix = { (x: Double, y: Double) in WebInterpolation.number(x, y, p) }
        var result = a
        result.translation = (mix(a.translation.0, b.translation.0), mix(a.translation.1, b.translation.1))
        result.scale = (mix(a.scale.0, b.scale.0), mix(a.scale.1, b.scale.1))
        result.angle = mix(a.angle, b.angle)
        (result.m11, result.m12) = (mix(a.m11, b.m11), mix(a.m12, b.m12))
        (result.m21, result.m22) = (mix(a.m21, b.m21), mix(a.m22, b.m22))
        return result
    }

    /// §"Recomposing to a 2D matrix". The 2×2 part starts as m11…m22; the translation is set, as the
    /// pseudo-code writes it, to `translate[0] * m11 + translate[1] * m21` and
    /// `translate[0] * m12 + translate[1] * m22`; "matrix = multiply(matrix, rotateMatrix)" is read as
    /// the rotation applied to the rows of the 2×2 part (rotate · matrix in the row-vector convention —
    /// the order spec issue #924 leaves open; the other order would not give back the decomposed matrix,
    /// and it is Servo's); finally row 0 is scaled by scale[0] and row 1 by scale[1].
    ///
    /// For every matrix made of translations, rotations and scales (in `translate rotate scale` order)
    /// m11…m22 is the identity and this gives back the decomposed matrix exactly. When a skew leaves
    /// m11…m22 different from the identity, the spec's translation line moves the translation (WebKit
    /// does the same; Servo keeps the translation unchanged): this evaluator follows the spec text.
    public var recomposed: CSSMatrix {
        let e = translation.0 * m11 + translation.1 * m21
        let f = translation.0 * m12 + translation.1 * m22
        let radians = angle * .pi / 180
        let cosAngle = cos(radians), sinAngle = sin(radians)
        let r00 = cosAngle * m11 + sinAngle * m21, r01 = cosAngle * m12 + sinAngle * m22
        let r10 = -sinAngle * m11 + cosAngle * m21, r11 = -sinAngle * m12 + cosAngle * m22
        return CSSMatrix(r00 * scale.0, r01 * scale.0, r10 * scale.1, r11 * scale.1, e, f)
    }
}
