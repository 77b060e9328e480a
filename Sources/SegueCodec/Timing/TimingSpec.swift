import SegueEngine
import SegueJSON

/// A `timing` member as the client described it (docs/rules.md "Timing curves"), kept for the normalised echo, with
/// the engine curve it denotes.
public enum TimingSpec: Sendable, Equatable {
    /// `linear`, `ease`, `easeIn`, `easeOut`, `easeInOut` (CSS keywords normalise to these).
    case named(NamedCurve)
    case cubicBezier(CubicBezier)
    case steps(Steps)
    case piecewiseLinear(PiecewiseLinear)
    case spring(SpringSpec)

    public enum NamedCurve: String, Sendable, CaseIterable {
        case linear, ease, easeIn, easeOut, easeInOut

        /// CSS Easing 1 §2.1 and Core Animation's named functions (docs/curves.md "Named curves").
        public var bezier: CubicBezier {
            switch self {
            case .linear: .linear
            case .ease: .ease
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

    /// The normalised object form (docs/rules.md "The curve route", rule 24).
    public var json: JSONValue {
        switch self {
        case .named(let name):
            return .object([.init("type", .string(name.rawValue))])
        case .cubicBezier(let b):
            return .object([
                .init("type", .string("cubicBezier")),
                .init("p1", .array([.number(b.x1), .number(b.y1)])),
                .init("p2", .array([.number(b.x2), .number(b.y2)])),
            ])
        case .steps(let steps):
            return .object([
                .init("type", .string("steps")),
                .init("count", .number(Double(steps.count))),
                .init("position", .string(steps.position.rawValue)),
            ])
        case .piecewiseLinear(let curve):
            return .object([
                .init("type", .string("piecewiseLinear")),
                .init("points", .array(curve.points.map { .array([.number($0.input), .number($0.output)]) })),
            ])
        case .spring(let spec):
            return spec.json
        }
    }
}
