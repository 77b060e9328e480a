/// The value of one view channel (docs/rules.md "Views and channels").
///
/// Geometry, alpha, colours, corner radius and custom channels are vectors of numbers,
/// interpolated component-wise and never clamped (rule 5). Transforms keep how they were given
/// — components or a matrix — because the singular case of rule 6 depends on it.
public enum ChannelValue: Sendable {
    case vector([Double])
    case transform(TransformEnd)

    /// The numbers reported for a frame: the vector, or the matrix `[a, b, c, d, tx, ty]`.
    public var numbers: [Double] {
        switch self {
        case .vector(let values): values
        case .transform(let end): end.affineTransform.array
        }
    }

    /// Component-wise `self + (other − base)`: the additive blend of rule 9 for vectors; for
    /// transforms the decomposed components add (scales multiply).
    func adding(_ value: ChannelValue, relativeTo base: ChannelValue) -> ChannelValue {
        switch (self, value, base) {
        case (.vector(let x), .vector(let v), .vector(let m)):
            var sum = x
            for i in sum.indices where i < v.count && i < m.count { sum[i] += v[i] - m[i] }
            return .vector(sum)
        case (.transform(let x), .transform(let v), .transform(let m)):
            return .transform(.matrix(TransformInterpolator.add(x, v, relativeTo: m)))
        default:
            return self
        }
    }
}
