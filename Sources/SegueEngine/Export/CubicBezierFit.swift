/// The `cubic-bezier()` closest to a curve in the largest error: the fallback of a `linear()`
/// export for browsers without `linear()` (docs/exports.md "The cubic-bezier() fallback").
///
/// Minimises E(x1, y1, x2, y2) = max over u in [0, 1] of |B(u) − f(u)| with x1, x2 in [0, 1], f the
/// curve over the unit window. The search runs on the curve's own parameter: for s on an even grid
/// of `searchPoints`, the point (X(s), Y(s)) of the Bézier is compared with f(X(s)), which needs no
/// solve for x. A Nelder–Mead simplex (Nelder & Mead 1965; reflection 1, expansion 2, contraction
/// ½, shrink ½) runs from each of a few starts — the CSS keywords and a start matching f's end
/// slopes — for `iterations` steps; the best result is then measured on `checkPoints` even x with
/// the Bézier solved for x, refined around its worst point, and that is the error reported.
public struct CubicBezierFit: Sendable {
    static let searchPoints = 96
    static let iterations = 240
    static let checkPoints = 2048

    public let bezier: CubicBezier
    /// The largest |B(u) − f(u)| over [0, 1].
    public let maxError: Double

    public init(_ f: (Double) -> Double) {
        let slope0 = (f(1e-4) - f(0)) / 1e-4, slope1 = (f(1) - f(1 - 1e-4)) / 1e-4
        let starts: [[Double]] = [
            [0.25, 0.1, 0.25, 1], [0.42, 0, 0.58, 1], [0, 0, 0.58, 1], [0.42, 0, 1, 1],
            [1.0 / 3, slope0 / 3, 2.0 / 3, 1 - slope1 / 3],
        ]
        var best: (point: [Double], error: Double) = ([0, 0, 1, 1], .infinity)
        for start in starts {
            let found = Self.simplex(from: start) { Self.searchError($0, f) }
            if found.error < best.error { best = found }
        }
        let p = Self.admissible(best.point)
        let full = CubicBezier(x1: p[0], y1: p[1], x2: p[2], y2: p[3])
        let fullError = Self.checkedError(full, f)
        (bezier, maxError) = Self.fewestDigits(p, f, allowance: fullError * Self.roundingAllowance) ?? (full, fullError)
    }

    /// Share of the error that rounding the control points may add.
    static let roundingAllowance = 0.01

    /// The control points at the fewest decimals (2 … 8) whose error stays within `allowance` of
    /// the unrounded fit's, and that error.
    static func fewestDigits(_ p: [Double], _ f: (Double) -> Double, allowance: Double) -> (CubicBezier, Double)? {
        let unrounded = checkedError(CubicBezier(x1: p[0], y1: p[1], x2: p[2], y2: p[3]), f)
        for decimals in 2...8 {
            let q = p.map { KeyframeRounding.round($0, decimals: decimals) }
            let bezier = CubicBezier(x1: q[0], y1: q[1], x2: q[2], y2: q[3])
            let error = checkedError(bezier, f)
            if error <= unrounded + allowance { return (bezier, error) }
        }
        return nil
    }

    /// Control points with x1, x2 clamped into [0, 1].
    static func admissible(_ p: [Double]) -> [Double] {
        [min(max(p[0], 0), 1), p[1], min(max(p[2], 0), 1), p[3]]
    }

    /// The largest error at the Bézier's own points (X(s), Y(s)).
    static func searchError(_ raw: [Double], _ f: (Double) -> Double) -> Double {
        let p = admissible(raw)
        var worst = 0.0
        for k in 0...searchPoints {
            let s = Double(k) / Double(searchPoints), r = 1 - s
            let x = 3 * r * r * s * p[0] + 3 * r * s * s * p[2] + s * s * s
            let y = 3 * r * r * s * p[1] + 3 * r * s * s * p[3] + s * s * s
            let e = abs(y - f(x))
            if !(e <= worst) { worst = e.isNaN ? .infinity : e }
        }
        return worst
    }

    /// The largest |B(u) − f(u)| on an even grid of u, refined by bisection-free local search.
    static func checkedError(_ b: CubicBezier, _ f: (Double) -> Double) -> Double {
        var worst = 0.0, at = 0
        for k in 0...checkPoints {
            let u = Double(k) / Double(checkPoints)
            let e = abs(b.progress(u) - f(u))
            if e > worst { worst = e; at = k }
        }
        // Golden-section search on the two grid intervals around the worst point.
        var low = Double(max(at - 1, 0)) / Double(checkPoints), high = Double(min(at + 1, checkPoints)) / Double(checkPoints)
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<40 {
            let x1 = high - ratio * (high - low), x2 = low + ratio * (high - low)
            let e1 = abs(b.progress(x1) - f(x1)), e2 = abs(b.progress(x2) - f(x2))
            worst = max(worst, e1, e2)
            if e1 > e2 { high = x2 } else { low = x1 }
        }
        return worst
    }

    /// Nelder–Mead minimisation of `objective` from `start` (initial steps of 0.1).
    static func simplex(from start: [Double], _ objective: ([Double]) -> Double) -> (point: [Double], error: Double) {
        let n = start.count
        var points = [start] + (0..<n).map { i in var p = start; p[i] += 0.1; return p }
        var values = points.map(objective)
        for _ in 0..<iterations {
            let order = values.indices.sorted { values[$0] < values[$1] }
            points = order.map { points[$0] }
            values = order.map { values[$0] }
            let centroid = (0..<n).map { i in points.dropLast().reduce(0) { $0 + $1[i] } / Double(n) }
            func along(_ factor: Double) -> [Double] { (0..<n).map { centroid[$0] + factor * (points[n][$0] - centroid[$0]) } }
            let reflected = along(-1), fr = objective(reflected)
            if fr < values[0] {
                let expanded = along(-2), fe = objective(expanded)
                (points[n], values[n]) = fe < fr ? (expanded, fe) : (reflected, fr)
            } else if fr < values[n - 1] {
                (points[n], values[n]) = (reflected, fr)
            } else {
                let contracted = along(0.5), fc = objective(contracted)
                if fc < values[n] {
                    (points[n], values[n]) = (contracted, fc)
                } else {
                    for k in 1...n {
                        points[k] = (0..<n).map { points[0][$0] + 0.5 * (points[k][$0] - points[0][$0]) }
                        values[k] = objective(points[k])
                    }
                }
            }
        }
        let best = values.indices.min { values[$0] < values[$1] }!
        return (points[best], values[best])
    }
}
