import Foundation

/// A legacy sRGB colour as `rgb()` writes it: r, g, b in 0…255 and alpha in 0…1.
public struct CSSColor: Equatable, Sendable {
    public var red, green, blue, alpha: Double

    public init(_ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// [r, g, b, a].
    public var components: [Double] { [red, green, blue, alpha] }

    /// Parses `rgb()`/`rgba()` in the modern (`rgb(255 0 0 / 0.5)`) or legacy comma form, `#rgb`,
    /// `#rgba`, `#rrggbb`, `#rrggbbaa` or `transparent` (CSS Color 4 §5 "sRGB Colors", §6.1 hex,
    /// §6.2 `transparent`). Components may be numbers or percentages; out-of-range values are clamped
    /// at parse time, as §5.1 says.
    public static func parse(_ text: String) throws -> CSSColor {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.lowercased() == "transparent" { return CSSColor(0, 0, 0, 0) }
        if trimmed.hasPrefix("#") { return try hex(String(trimmed.dropFirst()), text) }
        guard let (name, inner) = CSSText.function(trimmed), name == "rgb" || name == "rgba" else {
            throw WebFormatError("unsupported colour: \(text)")
        }
        var parts = CSSText.split(inner, on: ",")
        if parts.count == 1 {
            let halves = CSSText.split(inner, on: "/")
            parts = CSSText.words(halves[0]) + halves.dropFirst()
        }
        guard (3...4).contains(parts.count) else { throw WebFormatError("rgb() takes three components and an alpha: \(text)") }
        var values: [Double] = []
        for (index, part) in parts.enumerated() {
            guard let (value, unit) = CSSText.dimension(part), unit.isEmpty || unit == "%" else {
                throw WebFormatError("bad colour component \(part): \(text)")
            }
            let full: Double = index == 3 ? 1 : 255
            let number = unit == "%" ? value / 100 * full : value
            values.append(min(max(number, 0), full))
        }
        return CSSColor(values[0], values[1], values[2], values.count == 4 ? values[3] : 1)
    }

    static func hex(_ digits: String, _ text: String) throws -> CSSColor {
        let nibbles = digits.map { $0.hexDigitValue }
        guard [3, 4, 6, 8].contains(nibbles.count), nibbles.allSatisfy({ $0 != nil }) else {
            throw WebFormatError("bad hex colour: \(text)")
        }
        let n: [Double] = nibbles.map { Double($0!) }
        var bytes: [Double] = []
        if n.count <= 4 {
            bytes = n.map { (nibble: Double) -> Double in nibble * 17 }
        } else {
            for index in stride(from: 0, to: n.count, by: 2) { bytes.append(n[index] * 16 + n[index + 1]) }
        }
        return CSSColor(bytes[0], bytes[1], bytes[2], bytes.count == 4 ? bytes[3] / 255 : 1)
    }
}

/// How a property's values parse and interpolate (Web Animations 1 §"Animation types", with the types of
/// the CSS properties Segue writes).
public enum CSSPropertyType: Equatable, Sendable {
    /// A `<number>`, interpolated as a real number, clamped to `range` in the computed value.
    case number(range: ClosedRange<Double>?)
    /// An `<integer>`: interpolated as a real number, then rounded to the nearest integer (ties toward +∞).
    case integer
    /// A `<length>` in px, clamped to `range`.
    case length(range: ClosedRange<Double>?)
    /// A `<color>`, interpolated in premultiplied sRGB for legacy colours (CSS Color 4 §"Color Interpolation").
    case color
    /// A `transform` list (CSS Transforms 1 §"Interpolation of Transforms").
    case transform
    /// Animated discretely: the start value for p < 0.5, else the end value. An unregistered custom
    /// property (`--x`) is of this type (CSS Properties and Values API 1 §"Animation behavior of custom
    /// properties").
    case discrete

    /// The types of the longhands Segue animates (CSS Positioned Layout: `left`, `top`; CSS Sizing:
    /// `width`, `height`, not negative; CSS Color 4: `opacity` in [0, 1], `background-color`, `color`;
    /// CSS Backgrounds: `border-radius`, not negative, read as one length although it is a shorthand;
    /// CSS Transforms 1: `transform`).
    public static let known: [String: CSSPropertyType] = [
        "left": .length(range: nil), "top": .length(range: nil), "right": .length(range: nil), "bottom": .length(range: nil),
        "width": .length(range: 0...Double.infinity), "height": .length(range: 0...Double.infinity),
        "border-radius": .length(range: 0...Double.infinity), "opacity": .number(range: 0...1),
        "background-color": .color, "color": .color, "transform": .transform, "z-index": .integer,
    ]

    /// The type for a registered custom property's `syntax` descriptor (CSS Properties and Values API 1):
    /// `<number>`, `<integer>`, `<length>`, `<color>`, `<transform-list>` or `*`.
    public static func registered(syntax: String) throws -> CSSPropertyType {
        switch syntax.trimmingCharacters(in: .whitespaces) {
        case "<number>": return .number(range: nil)
        case "<integer>": return .integer
        case "<length>": return .length(range: nil)
        case "<color>": return .color
        case "<transform-list>": return .transform
        case "*": return .discrete
        default: throw WebFormatError("unsupported @property syntax \(syntax)")
        }
    }
}

/// A property's computed value, as the evaluators hold it between parsing and interpolation.
public enum CSSPropertyValue: Equatable, Sendable {
    case number(Double)
    case color(CSSColor)
    case transform(CSSTransformList)
    case discrete(String)

    /// Parses `text` as a value of `type`.
    public static func parse(_ text: String, as type: CSSPropertyType) throws -> CSSPropertyValue {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch type {
        case .number, .integer:
            guard let number = CSSText.number(trimmed) else { throw WebFormatError("not a <number>: \(text)") }
            return .number(number)
        case .length:
            guard let (value, unit) = CSSText.dimension(trimmed), unit == "px" || (unit.isEmpty && value == 0) else {
                throw WebFormatError("not a px <length>: \(text)")
            }
            return .number(value)
        case .color: return .color(try CSSColor.parse(trimmed))
        case .transform: return .transform(try CSSTransformList.parse(trimmed))
        case .discrete: return .discrete(trimmed)
        }
    }
}

/// An animated property's value as the evaluators report it: numbers and px lengths as a Double,
/// colours as [r, g, b, a] (0–255, alpha 0–1), transforms as the matrix [a, b, c, d, e, f], discretely
/// animated values as their text.
public enum WebAnimatedValue: Equatable, Sendable, CustomStringConvertible {
    case number(Double)
    case color([Double])
    case matrix([Double])
    case discrete(String)

    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    public var color: [Double]? { if case .color(let value) = self { value } else { nil } }
    public var matrix: [Double]? { if case .matrix(let value) = self { value } else { nil } }
    public var text: String? { if case .discrete(let value) = self { value } else { nil } }

    public var description: String {
        switch self {
        case .number(let value): return "\(value)"
        case .color(let value): return "rgb(\(value[0]) \(value[1]) \(value[2]) / \(value[3]))"
        case .matrix(let value): return "matrix(" + value.map { "\($0)" }.joined(separator: ", ") + ")"
        case .discrete(let value): return value
        }
    }
}

/// The interpolation procedures of the animation types (Web Animations 1 §"Animation types"; CSS Color 4
/// §"Color Interpolation"; CSS Transforms 1 §"Interpolation of Transforms").
public enum WebInterpolation {
    /// "Vres = (1 − p) × Vstart + p × Vend" (Web Animations 1 §"Animatable as real number").
    public static func number(_ start: Double, _ end: Double, _ p: Double) -> Double {
        (1 - p) * start + p * end
    }

    /// Legacy sRGB colours interpolate in gamma-encoded sRGB (CSS Color 4 §"Color Space for Interpolation")
    /// with premultiplied alpha (§"Interpolating with Alpha"): each of r·α, g·α, b·α and α is interpolated,
    /// then divided by the interpolated α. The interpolated α is clamped to [0, 1] first (the computed
    /// value's range); when it is 0 the colour is transparent black; r, g, b are clamped to [0, 255].
    public static func color(_ start: CSSColor, _ end: CSSColor, _ p: Double) -> CSSColor {
        let alpha = min(max(number(start.alpha, end.alpha, p), 0), 1)
        guard alpha > 0 else { return CSSColor(0, 0, 0, 0) }
        func channel(_ s: Double, _ e: Double) -> Double {
            min(max(number(s * start.alpha, e * end.alpha, p) / alpha, 0), 255)
        }
        return CSSColor(channel(start.red, end.red), channel(start.green, end.green), channel(start.blue, end.blue), alpha)
    }

    /// The interpolated value of a property of `type` at `p`, reported as a `WebAnimatedValue`, its range
    /// applied (a computed value is clamped; Web Animations 1 lets interpolation leave the range).
    public static func value(_ start: CSSPropertyValue, _ end: CSSPropertyValue, _ p: Double,
                             type: CSSPropertyType) -> WebAnimatedValue {
        switch (start, end, type) {
        case let (.number(s), .number(e), .integer):
            return .number((number(s, e, p) + 0.5).rounded(.down))
        case let (.number(s), .number(e), .number(range)), let (.number(s), .number(e), .length(range)):
            return .number(clamp(number(s, e, p), range))
        case let (.color(s), .color(e), _):
            return .color(color(s, e, p).components)
        case let (.transform(s), .transform(e), _):
            return .matrix(TransformInterpolation.interpolate(s, e, p).values)
        default:
            return report(p < 0.5 ? start : end, type: type)
        }
    }

    /// A value reported as it stands (a keyframe's own value), its range applied.
    public static func report(_ value: CSSPropertyValue, type: CSSPropertyType) -> WebAnimatedValue {
        switch (value, type) {
        case let (.number(v), .number(range)), let (.number(v), .length(range)): return .number(clamp(v, range))
        case let (.number(v), _): return .number(v)
        case let (.color(c), _): return .color(c.components)
        case let (.transform(t), _): return .matrix(t.matrix.values)
        case let (.discrete(text), _): return .discrete(text)
        }
    }

    static func clamp(_ value: Double, _ range: ClosedRange<Double>?) -> Double {
        guard let range else { return value }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
