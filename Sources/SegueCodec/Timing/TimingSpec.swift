import SegueEngine
import SegueJSON

/// A `timing` member as the client described it (docs/rules.md "Timing curves"), kept for the normalised echo, with
/// the engine curve it denotes.
public enum TimingSpec: Sendable, Equatable {
    /// `linear`, `ease`, `easeIn`, `easeOut`, `easeInOut` (CSS keywords normalise to these), and
    /// Core Animation's `default` (rule 46).
    case named(NamedCurve)
    case cubicBezier(CubicBezier)
    case steps(Steps)
    case piecewiseLinear(PiecewiseLinear)
    case spring(SpringSpec)

    public enum NamedCurve: String, Sendable, CaseIterable {
        case linear, ease, easeIn, easeOut, easeInOut
        /// `kCAMediaTimingFunctionDefault`, the curve of implicit layer animations: the same
        /// control points as `ease`, echoed under its own name.
        case `default`

        /// CSS Easing 1 §2.1 and Core Animation's named functions (docs/curves.md "Named curves").
        public var bezier: CubicBezier {
            switch self {
            case .linear: .linear
            case .ease, .default: .ease
            case .easeIn: .easeIn
            case .easeOut: .easeOut
            case .easeInOut: .easeInOut
            }
        }
    }

    /// The engine curve of a time-fraction timing (every type but springs, whose curve depends
    /// on their parameter set and duration).
    public var fractionCurve: TimingCurve? {
        switch self {
        case .named(let name): .cubicBezier(name.bezier)
        case .cubicBezier(let bezier): .cubicBezier(bezier)
        case .steps(let steps): .steps(steps)
        case .piecewiseLinear(let curve): .piecewiseLinear(curve)
        case .spring: nil
        }
    }

    /// The normalised `type`: a UIKit curve name (`ease`, `easeIn`, …), `cubicBezier`, `steps`,
    /// `piecewiseLinear` or `spring`.
    public var typeName: String {
        switch self {
        case .named(let name): name.rawValue
        case .cubicBezier: "cubicBezier"
        case .steps: "steps"
        case .piecewiseLinear: "piecewiseLinear"
        case .spring: "spring"
        }
    }

    /// Writes the normalised object form (docs/rules.md "The curve route", rule 24): `type`, then
    /// the curve's own members. Written straight into the writer, with no `JSONValue` tree in
    /// between: every curve response echoes it (docs/http.md "Where the CPU time goes, measured").
    public func write(into w: inout TextWriter) {
        if case .spring(let spec) = self {
            w.value(spec.json)
            return
        }
        w.raw("{")
        w.key("type", first: true)
        w.string(typeName)
        switch self {
        case .named, .spring:
            break
        case .cubicBezier(let b):
            w.key("p1")
            pair(b.x1, b.y1, into: &w)
            w.key("p2")
            pair(b.x2, b.y2, into: &w)
        case .steps(let steps):
            w.key("count")
            w.number(Double(steps.count))
            w.key("position")
            w.string(steps.position.rawValue)
        case .piecewiseLinear(let curve):
            w.key("points")
            w.raw("[")
            for (i, point) in curve.points.enumerated() {
                if i > 0 { w.byte(0x2C) }
                pair(point.input, point.output, into: &w)
            }
            w.raw("]")
        }
        w.raw("}")
    }

    /// The normalised object form as compact JSON text (`write(into:)`).
    public var text: [UInt8] {
        var w = TextWriter()
        write(into: &w)
        return w.bytes
    }

    /// `[a,b]`.
    private func pair(_ a: Double, _ b: Double, into w: inout TextWriter) {
        w.raw("[")
        w.number(a)
        w.byte(0x2C)
        w.number(b)
        w.raw("]")
    }
}
