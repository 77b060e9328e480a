import SegueEngine
import SegueJSON

/// CSS text for numbers and easing functions (docs/exports.md "Writing CSS").
enum CSSText {
    /// The shortest round-trip text of a number (`TextWriter.number`: integers without a point,
    /// no exponent below 1e16 or above 1e-5 in magnitude). Fit parameters are already rounded to
    /// their decimals, so this prints exactly those decimals.
    static func number(_ x: Double) -> String {
        var w = TextWriter(capacity: 24)
        // CSS has no `-0`; a negative zero prints as 0.
        w.number(x == 0 ? 0 : x)
        let text = String(decoding: w.bytes, as: UTF8.self)
        // CSS numbers take an exponent (`1e-7`), but not a `+` sign after it in every engine.
        return text.replacingPlusExponent()
    }

    /// An error for a comment: rounded up to two significant digits, so never understated.
    static func error(_ e: Double) -> String {
        guard e > 0 else { return "0" }
        var scale = 1.0
        while e * scale < 10 { scale *= 10 }
        while e * scale >= 100 { scale /= 10 }
        return number((e * scale).rounded(.up) / scale)
    }

    /// The CSS `<easing-function>` of a curve CSS can write exactly (nil for springs): a keyword
    /// where one names the Bézier, else `cubic-bezier()`; `steps()`; `linear()` with every input.
    static func easing(_ curve: TimingCurve) -> String? {
        switch curve {
        case .cubicBezier(let b): return bezier(b)
        case .steps(let steps): return "steps(\(steps.count), \(stepPosition(steps.position)))"
        case .piecewiseLinear(let curve):
            return linear(curve.points.map { (output: $0.output, position: $0.input * 100) })
        case .spring, .durationSpring: return nil
        }
    }

    static func bezier(_ b: CubicBezier) -> String {
        let keywords: [(CubicBezier, String)] = [(.linear, "linear"), (.ease, "ease"), (.easeIn, "ease-in"),
                                                 (.easeOut, "ease-out"), (.easeInOut, "ease-in-out")]
        if let keyword = keywords.first(where: { $0.0 == b }) { return keyword.1 }
        return "cubic-bezier(\(number(b.x1)), \(number(b.y1)), \(number(b.x2)), \(number(b.y2)))"
    }

    static func stepPosition(_ position: StepPosition) -> String {
        switch position {
        case .jumpStart: "jump-start"
        case .jumpEnd: "jump-end"
        case .jumpNone: "jump-none"
        case .jumpBoth: "jump-both"
        case .start: "start"
        case .end: "end"
        }
    }

    /// `linear(o1 p1%, o2 p2%, …)`.
    static func linear(_ stops: [(output: Double, position: Double)]) -> String {
        "linear(" + stops.map { "\(number($0.output)) \(number($0.position))%" }.joined(separator: ", ") + ")"
    }
}

extension String {
    /// `1e+21` → `1e21`.
    func replacingPlusExponent() -> String {
        guard contains("e+") else { return self }
        return split(separator: "+", omittingEmptySubsequences: false).joined()
    }
}
