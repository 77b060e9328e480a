import SegueEngine
import SegueJSON

/// A motion token of a design-token document, read for conversion (docs/tokens.md): its easing
/// as a curve request, its duration and delay in milliseconds.
///
/// - `cubicBezier`: `$value` [x1, y1, x2, y2]; an easing, no duration.
/// - `duration`: `$value` `{"value", "unit": "ms" | "s"}` or the text `"200ms"` / `"0.2s"`; a
///   duration, no easing.
/// - `transition`: `$value` `{duration, delay?, timingFunction}`; both.
/// - Any of these with `$extensions["dev.segue"].timing`: that Segue timing is the easing. A UIKit
///   spring (`dampingRatio` alone) takes the token's duration; every other spring runs for its
///   settling duration, which replaces a duration the token gives (a note says so).
struct MotionToken {
    static let types: Set<String> = ["cubicBezier", "duration", "transition"]

    var token: DesignTokenDocument.Token
    /// The curve of the easing, nil for a duration alone.
    var curve: CurveRequest?
    /// Where the easing was given, for the curve's problems.
    var easingAt: JSONPointer?
    var durationMs: Double?
    var delayMs: Double?
    /// What the conversion changed of the token as given.
    var note: String?

    /// nil for a token that is not a motion token (another `$type`, or none).
    init?(_ token: DesignTokenDocument.Token, limits: Limits) throws(Problem) {
        guard let type = token.type, Self.types.contains(type) else { return nil }
        self.token = token
        let at = token.pointer / "$value"
        var timing: (value: JSONValue, at: JSONPointer)?
        switch type {
        case "cubicBezier":
            timing = (try Self.bezier(token.value, at: at), at)
        case "duration":
            durationMs = try Self.milliseconds(token.value, at: at, limits: limits)
        default:
            var object = try ObjectReader(token.value, at: at)
            guard let duration = object.value("duration") else { throw Problem.invalid("a transition needs `duration`", at: at / "duration") }
            durationMs = try Self.milliseconds(duration, at: at / "duration", limits: limits)
            if let delay = object.value("delay") { delayMs = try Self.milliseconds(delay, at: at / "delay", limits: limits) }
            guard let function = object.value("timingFunction") else {
                throw Problem.invalid("a transition needs `timingFunction`", at: at / "timingFunction")
            }
            timing = (try Self.bezier(function, at: at / "timingFunction"), at / "timingFunction")
        }
        if case .object(let members)? = token.extensions, case .object(let segue)? = members.first(where: { $0.key == "dev.segue" })?.value,
           let given = segue.first(where: { $0.key == "timing" })?.value {
            timing = (given, token.pointer / "$extensions" / "dev.segue" / "timing")
        }
        guard let timing else { return }
        easingAt = timing.at
        try read(timing.value, at: timing.at, limits: limits)
    }

    /// The easing as a curve request over the token's duration (a UIKit spring's) or the curve's
    /// own window, its problems pointed into the document.
    private mutating func read(_ timing: JSONValue, at pointer: JSONPointer, limits: Limits) throws(Problem) {
        let spec = try TimingDecoder.decode(timing, at: pointer)
        var body: [JSONValue.Member] = [.init("timing", timing)]
        if case .spring(let spring) = spec, spring.takesDuration {
            guard let durationMs else {
                throw Problem.invalid("the UIKit spring (dampingRatio) needs the token's duration", at: pointer)
            }
            body.append(.init("duration", .number(durationMs / 1000)))
        }
        do {
            curve = try CurveRequest.decode(.object(body), limits: limits)
        } catch {
            var problem = error
            if let inner = problem.pointer, inner.hasPrefix("/timing") {
                problem.pointer = pointer.description + inner.dropFirst("/timing".count)
            } else {
                problem.pointer = (token.pointer / "$value").description
            }
            throw problem
        }
        if case .spring(let spring) = spec, !spring.takesDuration, let curve {
            let own = curve.duration * 1000
            if let given = durationMs, given != own {
                note = "the token's duration \(CSSText.number(given))ms is replaced by the spring's settling duration"
            }
            durationMs = own
        }
    }

    /// `[x1, y1, x2, y2]` as the CSS text the timing decoder reads (which checks it).
    static func bezier(_ value: JSONValue, at pointer: JSONPointer) throws(Problem) -> JSONValue {
        guard case .array(let elements) = value, elements.count == 4 else {
            throw Problem.invalid("a cubic Bézier token is [x1, y1, x2, y2]", at: pointer)
        }
        var numbers: [String] = []
        for (i, element) in elements.enumerated() {
            guard case .number(let x) = element else { throw Problem.wrongType(at: pointer / i, expected: "a number", found: element) }
            numbers.append(CSSText.number(x))
        }
        return .string("cubic-bezier(" + numbers.joined(separator: ", ") + ")")
    }

    /// A duration in milliseconds: `{"value", "unit"}` (the current format) or `"200ms"` /
    /// `"0.2s"` (the older one); finite, ≥ 0 and within the duration limit.
    static func milliseconds(_ value: JSONValue, at pointer: JSONPointer, limits: Limits) throws(Problem) -> Double {
        let number: Double, unit: Substring
        switch value {
        case .object:
            var object = try ObjectReader(value, at: pointer)
            guard let given = try object.number("value") else { throw Problem.invalid("a duration needs `value`", at: pointer / "value") }
            guard case .string(let text)? = object.value("unit") else {
                throw Problem.invalid("a duration needs `unit`: \"ms\" or \"s\"", at: pointer / "unit")
            }
            (number, unit) = (given, Substring(text))
        case .string(let text):
            let digits = text.hasSuffix("ms") ? text.dropLast(2) : text.hasSuffix("s") ? text.dropLast() : Substring(text)
            // A decimal number only (`Double` would also read hexadecimal floats, "inf" and "nan").
            guard digits.allSatisfy({ "0123456789.+-eE".contains($0) }), let parsed = Double(String(digits)), parsed.isFinite else {
                throw Problem.invalid("a duration is `{\"value\", \"unit\"}` or a text such as \"200ms\"", at: pointer)
            }
            (number, unit) = (parsed, text.dropFirst(digits.count))
        default:
            throw Problem.wrongType(at: pointer, expected: "an object or a string", found: value)
        }
        let factor: Double
        switch unit {
        case "ms": factor = 1
        case "s": factor = 1000
        default: throw Problem.invalid("unknown duration unit `\(unit.prefix(20))`: \"ms\" or \"s\"", at: pointer)
        }
        let ms = number * factor
        guard ms.isFinite, ms >= 0, ms <= limits.maxDuration * 1000 else {
            throw Problem.invalid("a duration must be ≥ 0 and at most the duration limit of \(CSSText.number(limits.maxDuration)) s",
                                  at: pointer)
        }
        return ms
    }
}
