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

    /// The normalised object form (docs/rules.md "The curve route", rule 24): `write(to:)`'s
    /// bytes read back, so that the two cannot differ.
    public var json: JSONValue {
        if case .spring(let spec) = self { return spec.json }
        var writer = JSONWriter(capacity: 128)
        write(to: &writer)
        // Bytes this type wrote: always valid JSON, and every number reads back to the same double
        // (the writer prints the shortest text that does).
        guard let value = try? JSONReader.parse(writer.bytes, maxDepth: 8) else {
            preconditionFailure("TimingSpec.write(to:) wrote text that is not JSON")
        }
        return value
    }

    /// Writes the normalised object form into `writer`, with no tree in between (the curve
    /// body's head writes it for every request).
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .named(let name):
            writer.raw(#"{"type":"#)
            writer.string(name.rawValue)
            writer.byte(0x7D)
        case .cubicBezier(let b):
            writer.raw(#"{"type":"cubicBezier","p1":"#)
            Self.writePair(b.x1, b.y1, to: &writer)
            writer.raw(#","p2":"#)
            Self.writePair(b.x2, b.y2, to: &writer)
            writer.byte(0x7D)
        case .steps(let steps):
            writer.raw(#"{"type":"steps","count":"#)
            writer.integer(Int64(steps.count))
            writer.raw(#","position":"#)
            writer.string(steps.position.rawValue)
            writer.byte(0x7D)
        case .piecewiseLinear(let curve):
            writer.raw(#"{"type":"piecewiseLinear","points":["#)
            for (i, point) in curve.points.enumerated() {
                if i > 0 { writer.byte(0x2C) }
                Self.writePair(point.input, point.output, to: &writer)
            }
            writer.raw("]}")
        case .spring(let spec):
            writer.value(spec.json)
        }
    }

    /// `[a,b]`.
    private static func writePair(_ a: Double, _ b: Double, to writer: inout JSONWriter) {
        writer.byte(0x5B)
        writer.number(a)
        writer.byte(0x2C)
        writer.number(b)
        writer.byte(0x5D)
    }
}
