import SegueEngine
import SegueJSON

/// The two forms of a token export (docs/tokens.md).
extension TokenExport {
    /// `text/css`: one `:root` block — per motion token, a comment (its path, its easing's max
    /// error and stops, what was replaced), then `--name-easing`, `--name-duration` and `--name`
    /// (`<duration>ms <easing>[ <delay>ms]`, for the `transition` and `animation` shorthands), each
    /// where the token has what it needs — and an `@supports not (animation-timing-function:
    /// linear(0, 1))` block giving every `linear()` easing its `cubic-bezier()` fallback.
    public func css() -> [UInt8] {
        var lines = [":root {"]
        var fallbacks: [String] = []
        for c in converted {
            let name = Self.propertyName(c.token.token.path)
            var comment = c.token.token.path.joined(separator: ".")
            if c.easing != nil { comment += ": max error \(CSSText.error(c.maxError)) with \(c.stops) stops" }
            if let note = c.token.note { comment += "; " + note }
            lines.append("  " + CSSComment.line(comment))
            if let easing = c.easing { lines.append("  \(name)-easing: \(easing);") }
            if let ms = c.token.durationMs { lines.append("  \(name)-duration: \(CSSText.number(ms))ms;") }
            if let easing = c.easing, let ms = c.token.durationMs {
                lines.append("  \(name): \(Self.shorthand(ms, easing, delay: c.token.delayMs));")
            }
            // Only a `linear()` has a fallback.
            if let fallback = c.fallback {
                fallbacks.append("    \(name)-easing: \(fallback);")
                if let ms = c.token.durationMs {
                    fallbacks.append("    \(name): \(Self.shorthand(ms, fallback, delay: c.token.delayMs));")
                }
            }
        }
        lines.append("}")
        lines.append("@supports not (animation-timing-function: linear(0, 1)) {")
        lines.append("  :root {")
        lines += fallbacks
        lines.append("  }")
        lines.append("}")
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// `<duration>ms <easing>`, then the delay when there is one.
    static func shorthand(_ ms: Double, _ easing: String, delay: Double?) -> String {
        var text = "\(CSSText.number(ms))ms \(easing)"
        if let delay, delay != 0 { text += " \(CSSText.number(delay))ms" }
        return text
    }

    /// `application/json`: the document with each motion token resolved in place. A token with an
    /// easing and a duration becomes a `transition` — `duration` and `delay` in ms,
    /// `timingFunction` the exact or fallback Bézier; an easing alone stays a `cubicBezier` (that
    /// Bézier), so that a transition elsewhere can still name it as its `timingFunction`; a
    /// duration alone stays a `duration` in ms. `$extensions["dev.segue"]` gains `easing`,
    /// `maxError`, `stops` and `durationMs`.
    public func json() -> [UInt8] {
        var byPointer: [String: Converted] = [:]
        for c in converted { byPointer[c.token.token.pointer.description] = c }
        var writer = TextWriter()
        writer.value(Self.rewrite(plan.document, at: .root, byPointer))
        return writer.bytes
    }

    static func rewrite(_ value: JSONValue, at pointer: JSONPointer, _ byPointer: [String: Converted]) -> JSONValue {
        guard case .object(let members) = value else { return value }
        if let c = byPointer[pointer.description] { return resolved(members, c) }
        return .object(members.map { member in
            member.key.hasPrefix("$") ? member : .init(member.key, rewrite(member.value, at: pointer / member.key, byPointer))
        })
    }

    static func resolved(_ members: [JSONValue.Member], _ c: Converted) -> JSONValue {
        func ms(_ x: Double) -> JSONValue { .object([.init("value", .number(x)), .init("unit", .string("ms"))]) }
        var type = "duration", value = c.token.durationMs.map(ms) ?? .null
        if let bezier = c.bezier, c.token.durationMs == nil {
            type = "cubicBezier"
            value = .array([bezier.x1, bezier.y1, bezier.x2, bezier.y2].map(JSONValue.number))
        } else if let bezier = c.bezier {
            type = "transition"
            value = .object([.init("duration", ms(c.token.durationMs ?? 0)), .init("delay", ms(c.token.delayMs ?? 0)),
                             .init("timingFunction", .array([bezier.x1, bezier.y1, bezier.x2, bezier.y2].map(JSONValue.number)))])
        }
        var segue: [JSONValue.Member] = []
        var extensions: [JSONValue.Member] = []
        if case .object(let given)? = members.first(where: { $0.key == "$extensions" })?.value {
            extensions = given.filter { $0.key != "dev.segue" }
            if case .object(let own)? = given.first(where: { $0.key == "dev.segue" })?.value { segue = own }
        }
        let added = ["easing", "maxError", "stops", "durationMs"]
        segue = segue.filter { !added.contains($0.key) }
        if let easing = c.easing {
            segue += [.init("easing", .string(easing)), .init("maxError", .number(c.maxError)), .init("stops", .number(Double(c.stops)))]
        }
        if let duration = c.token.durationMs { segue.append(.init("durationMs", .number(duration))) }
        extensions.append(.init("dev.segue", .object(segue)))
        var out = members.filter { !["$type", "$value", "$extensions"].contains($0.key) }
        out += [.init("$type", .string(type)), .init("$value", value), .init("$extensions", .object(extensions))]
        return .object(out)
    }
}
