import SegueEngine
import SegueJSON

/// `/v1/curve` as a CSS easing function (docs/exports.md "Curves"): exact for Béziers (a keyword
/// or `cubic-bezier()`), steps (`steps()`) and piecewise-linear curves (`linear()`); for springs a
/// `linear()` over the sampling window [0, D] with the fewest stops within `tolerance`, and for
/// every `linear()` the `cubic-bezier()` fallback with the smallest largest error Segue finds.
public struct CurveExport: Sendable {
    public let request: CurveRequest
    /// The `<easing-function>`.
    public let easing: String
    public let maxError: Double
    /// Stops of a `linear()`; 0 for the other functions.
    public let stops: Int
    public let fallback: (easing: String, maxError: Double)?
    /// The fallback's Bézier itself.
    public let fallbackBezier: CubicBezier?

    /// - cancellation: raised by the caller (a deadline, a client gone): the fit stops with the
    ///   503 `cancelled`.
    public init(_ request: CurveRequest, tolerance: Double, cancellation: WorkCancellation? = nil) throws(Problem) {
        self.request = request
        let curve = request.curve, duration = request.duration
        let progress: @Sendable (Double) -> Double = { curve.sample(at: $0, duration: duration).progress }
        if let exact = CSSText.easing(curve) {
            easing = exact
            maxError = 0
            if case .piecewiseLinear(let linear) = curve { stops = linear.points.count } else { stops = 0 }
        } else {
            let fit = try LinearEasing.fit(curve, duration: duration, tolerance: tolerance, cancellation: cancellation)
            easing = LinearEasing.text(fit)
            maxError = fit.maxError
            stops = fit.keyframes.count
        }
        if easing.hasPrefix("linear(") {
            let fitted = CubicBezierFit { progress($0 * duration) }
            fallback = (CSSText.bezier(fitted.bezier), fitted.maxError)
            fallbackBezier = fitted.bezier
        } else {
            fallback = nil
            fallbackBezier = nil
        }
    }

    /// The request's work with the export's (docs/cost.md "Exports"), within `maxWork` (413), and
    /// a curve no `linear()` can follow (413) — both before any fitting.
    public static func plan(_ request: CurveRequest, tolerance: Double, limits: Limits) throws(Problem) -> Double {
        let curve = request.curve, duration = request.duration
        let exact = CSSText.easing(curve) != nil
        if !exact { try LinearEasing.checkFollowable(curve, duration: duration, tolerance: tolerance) }
        let work = request.work + SceneCost.curveExport(curve, fitted: !exact, gridPoints: KeyframeFit.gridIntervals + 1,
                                                        keyframes: LinearEasing.leastStops(curve, duration: duration,
                                                                                           tolerance: tolerance))
        try Check.work(work, limits: limits, what: "exporting this curve")
        return work
    }

    /// `text/css`: the warnings and the summary as comments, then the easing function on its own line.
    public func css() -> [UInt8] {
        var lines = CSSComment.warnings(request.warnings)
        lines.append(CSSComment.line("\(request.timing.typeName); duration \(CSSText.number(request.duration))s; "
            + "max error \(CSSText.error(maxError)) with \(stops) stops"))
        if let fallback {
            lines.append(CSSComment.line("fallback: \(fallback.easing); max error \(CSSText.error(fallback.maxError))"))
        }
        lines.append(easing)
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// `application/json`: `{"easing", "duration" (ms), "maxError", "fallback", "warnings"}`.
    public func waapi() -> [UInt8] {
        var w = TextWriter()
        w.value(.object([
            .init("easing", .string(easing)),
            .init("duration", .number(request.duration * 1000)),
            .init("maxError", .number(maxError)),
            .init("fallback", fallback.map { .object([.init("easing", .string($0.easing)), .init("maxError", .number($0.maxError))]) } ?? .null),
            .init("warnings", .array(request.warnings.map(\.json))),
        ]))
        return w.bytes
    }
}

/// CSS comments: text made safe for `/* … */`.
enum CSSComment {
    static func line(_ text: String) -> String {
        "/* " + text.split(separator: "*/", omittingEmptySubsequences: false).joined(separator: "* /") + " */"
    }

    static func warnings(_ warnings: [RequestWarning]) -> [String] {
        warnings.map { line("warning \($0.pointer.description): \($0.detail)") }
    }
}
