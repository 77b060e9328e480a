#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A 2-D matrix as the CSS function list `translate(tx, ty) rotate(θ) skewX(φ) scale(sx, sy)`
/// (docs/exports.md "Transforms"), whose keyframes CSS interpolates function by function — each
/// argument linearly — when every keyframe has the same list.
///
/// With M = [[a, c], [b, d]] (CSS `matrix(a, b, c, d, tx, ty)`), the list's matrix is
/// R(θ) · K(φ) · S with K = [[1, tan φ], [0, 1]] and S = diag(sx, sy). Its inverse is a QR
/// factorisation: θ = atan2(b, a), sx = |(a, b)|, and Rᵀ·M = [[sx, r12], [0, r22]] with
/// r12 = (a·c + b·d)/sx, r22 = (a·d − b·c)/sx, so sy = r22 and tan φ = r12/r22. For
/// translate/rotate/scale matrices φ = 0, θ and (sx, |sy|) are Segue's own decomposition
/// (docs/transforms.md), and a block animation between two of them is linear in these arguments,
/// so its keyframes are exact. A reflection shows as sy < 0 (sx is never negative), so the
/// arguments stay continuous where the matrix is.
///
/// Parameters are `[tx, ty, θ, φ, sx, sy]` (points, radians, factors).
public enum TransformFunctions {
    public static let parameterCount = 6

    /// The parameters of `m`, θ taken among its values θ + 2πk as the one nearest `reference`
    /// (the angle a continuous path had just before). Singular matrices (sx or sy 0) give φ 0.
    public static func parameters(_ m: AffineTransform, near reference: Double) -> [Double] {
        let sx = (m.a * m.a + m.b * m.b).squareRoot()
        var theta = sx > 0 ? atan2(m.b, m.a) : 0
        theta += 2 * .pi * ((reference - theta) / (2 * .pi)).rounded()
        let r12 = sx > 0 ? (m.a * m.c + m.b * m.d) / sx : 0
        let r22 = sx > 0 ? m.determinant / sx : (m.c * m.c + m.d * m.d).squareRoot()
        let phi = r22 != 0 ? atan(r12 / r22) : 0
        return [m.tx, m.ty, theta, phi, sx, r22]
    }

    /// The matrix `[a, b, c, d, tx, ty]` of parameters.
    public static func matrix(_ p: [Double]) -> [Double] {
        let cosine = cos(p[2]), sine = sin(p[2]), shear = tan(p[3])
        let sx = p[4], sy = p[5]
        return [cosine * sx, sine * sx, (cosine * shear - sine) * sy, (sine * shear + cosine) * sy, p[0], p[1]]
    }
}

/// `TransformFunctions` along a timeline (docs/exports.md "Transforms"): the angle θ taken at
/// every point of a grid on the branch nearest its value at the point before, so that a whole turn
/// reads 2π and not a jump back to 0; at any time t, θ is taken nearest its value at the grid point
/// at or before t. Also what the grid shows of the path: the largest scale factor and whether a
/// skew occurs.
public struct TransformPath: Sendable {
    /// |φ| above which a grid point counts as skewed (radians).
    public static let skewSlack = 1e-9

    let times: [Double]
    let angles: [Double]
    /// max |sx|, |sy| over the grid (at least 1e-6).
    public let largestScale: Double
    /// Whether some grid point has a skew.
    public let isSkewed: Bool

    /// - grid: sorted times; `matrix` is read once at each.
    public init(grid: [Double], _ matrix: (Double) -> AffineTransform) {
        var angles: [Double] = []
        angles.reserveCapacity(grid.count)
        var largest = 1e-6, skewed = false
        for t in grid {
            let p = TransformFunctions.parameters(matrix(t), near: angles.last ?? 0)
            angles.append(p[2])
            largest = max(largest, abs(p[4]), abs(p[5]))
            if abs(p[3]) > Self.skewSlack { skewed = true }
        }
        times = grid
        self.angles = angles
        largestScale = largest
        isSkewed = skewed
    }

    /// The parameters of `m`, the matrix at t, with θ on the path's branch.
    public func parameters(_ m: AffineTransform, at t: Double) -> [Double] {
        var low = 0, high = times.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if times[middle] <= t { low = middle } else { high = middle - 1 }
        }
        return TransformFunctions.parameters(m, near: angles.isEmpty ? 0 : angles[low])
    }
}
