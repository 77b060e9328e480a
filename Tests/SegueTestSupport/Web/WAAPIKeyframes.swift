import Foundation

/// A Web Animations export: `{"duration": ms, "views": {"card": {"keyframes": [{"offset": 0, "easing":
/// "linear", "left": "0px", "backgroundColor": "rgb(…)", "--glow": "0", …}, …], "options": {"duration":
/// 800, "fill": "both", "easing": "linear", "iterations": 1}}}, "warnings": []}` — each view's keyframes
/// and options as `element.animate(keyframes, options)` takes them, evaluated as Web Animations 1 says.
///
/// Property names are IDL names (camelCase, `cssFloat` excepted) or custom properties; values are
/// reported under their CSS names (`backgroundColor` → `background-color`). Times are given in
/// milliseconds and evaluated in seconds.
public struct WAAPIDocument: Sendable {
    /// The document's `duration`, in seconds (nil if absent).
    public let duration: Double?
    public let effects: [String: WebKeyframeEffect]
    public let warnings: [String]

    /// Reads the document. `registrations` types custom properties (CSS Properties and Values API 1,
    /// as `CSS.registerProperty` would: syntax and initial value); other custom properties are discrete.
    public init(json: Data, registrations: [String: (syntax: String, initialValue: String?)] = [:]) throws {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let views = root["views"] as? [String: Any] else {
            throw WebFormatError("a WAAPI document is an object with \"views\"")
        }
        duration = (root["duration"] as? NSNumber).map { $0.doubleValue / 1000 }
        warnings = (root["warnings"] as? [Any] ?? []).map { "\($0)" }
        var effects: [String: WebKeyframeEffect] = [:]
        for (id, view) in views {
            guard let view = view as? [String: Any], let keyframes = view["keyframes"] as? [[String: Any]] else {
                throw WebFormatError("view \(id) needs a \"keyframes\" array")
            }
            let timing = try Self.timing(view["options"], id)
            effects[id] = try Self.effect(keyframes, timing, registrations, id)
        }
        self.effects = effects
    }

    /// The view ids, sorted.
    public var viewIDs: [String] { effects.keys.sorted() }

    /// Every animated property's value for `view` at `t` seconds (empty when not in effect).
    public func values(view: String, at t: Double) throws -> [String: WebAnimatedValue] {
        guard let effect = effects[view] else { throw WebFormatError("no view \(view)") }
        return try effect.values(at: t)
    }

    /// `backgroundColor` → `background-color` ("IDL attribute name to animation property name", Web
    /// Animations 1 §"Processing a keyframes argument"; CSSOM's camel-case rule); `cssFloat` → `float`;
    /// custom properties unchanged.
    public static func cssName(_ idlName: String) -> String {
        if idlName.hasPrefix("--") { return idlName }
        if idlName == "cssFloat" { return "float" }
        return idlName.reduce(into: "") { name, char in
            if char.isUppercase { name += "-" + char.lowercased() } else { name.append(char) }
        }
    }
}

extension WAAPIDocument {
    /// `KeyframeEffectOptions` (Web Animations 1 §"The EffectTiming dictionaries"): duration, delay and
    /// endDelay in ms, iterations, iterationStart, direction, fill (`auto` is `none` for a keyframe
    /// effect) and easing. A number instead of a dictionary is the duration.
    static func timing(_ options: Any?, _ id: String) throws -> WebEffectTiming {
        if let number = options as? NSNumber { return WebEffectTiming(duration: number.doubleValue / 1000) }
        let options = options as? [String: Any] ?? [:]
        func number(_ key: String, _ fallback: Double) throws -> Double {
            guard let value = options[key] else { return fallback }
            guard let number = value as? NSNumber else { throw WebFormatError("\(id): options.\(key) is not a number") }
            return number.doubleValue
        }
        var timing = WebEffectTiming(duration: try number("duration", 0) / 1000)
        timing.delay = try number("delay", 0) / 1000
        timing.endDelay = try number("endDelay", 0) / 1000
        timing.iterations = options["iterations"] as? String == "Infinity" ? .infinity : try number("iterations", 1)
        timing.iterationStart = try number("iterationStart", 0)
        if let direction = options["direction"] as? String {
            guard let parsed = WebEffectTiming.Direction(rawValue: direction) else { throw WebFormatError("\(id): direction \(direction)") }
            timing.direction = parsed
        }
        if let fill = options["fill"] as? String {
            guard let parsed = WebEffectTiming.FillMode(rawValue: fill) else { throw WebFormatError("\(id): fill \(fill)") }
            timing.fill = parsed == .auto ? .none : parsed
        }
        if let easing = options["easing"] as? String { timing.easing = try CSSEasing.parse(easing) }
        return timing
    }

    /// The keyframes of one view: values parsed by property type, each keyframe's `easing` (default
    /// `linear`), offsets completed by "compute missing keyframe offsets" (Web Animations 1 §"Calculating
    /// computed keyframes"). Offsets must be in [0, 1] and not decrease, as `setKeyframes()` requires.
    static func effect(_ list: [[String: Any]], _ timing: WebEffectTiming,
                       _ registrations: [String: (syntax: String, initialValue: String?)], _ id: String) throws -> WebKeyframeEffect {
        var types: [String: CSSPropertyType] = [:]
        var underlying: [String: CSSPropertyValue] = [:]
        for (name, registration) in registrations {
            let type = try CSSPropertyType.registered(syntax: registration.syntax)
            types[name] = type
            if let initial = registration.initialValue { underlying[name] = try CSSPropertyValue.parse(initial, as: type) }
        }
        var frames: [WebKeyframe] = []
        var offsets: [Double?] = []
        for (index, object) in list.enumerated() {
            var values: [String: CSSPropertyValue] = [:]
            for (key, raw) in object where !["offset", "easing", "composite"].contains(key) {
                let name = cssName(key)
                let type = try types[name] ?? (name.hasPrefix("--") ? .discrete : knownType(name, id))
                types[name] = type
                values[name] = try CSSPropertyValue.parse(raw as? String ?? "\(raw)", as: type)
            }
            if let composite = object["composite"] as? String, composite != "replace", composite != "auto" {
                throw WebFormatError("\(id) keyframe \(index): only replace composition is supported")
            }
            let easing = try (object["easing"] as? String).map(CSSEasing.parse) ?? .linear
            offsets.append((object["offset"] as? NSNumber)?.doubleValue)
            frames.append(WebKeyframe(offset: 0, easing: easing, values: values))
        }
        for (index, offset) in computeMissingOffsets(offsets).enumerated() { frames[index].offset = offset }
        guard zip(frames, frames.dropFirst()).allSatisfy({ $0.offset <= $1.offset }),
              frames.allSatisfy({ (0...1).contains($0.offset) }) else {
            throw WebFormatError("\(id): keyframe offsets must be in [0, 1] and in order")
        }
        for (name, type) in types where underlying[name] == nil && CSSPropertyType.known[name] != nil {
            underlying[name] = initialValue(name, type)
        }
        return WebKeyframeEffect(keyframes: frames, timing: timing, types: types, underlying: underlying)
    }

    static func knownType(_ name: String, _ id: String) throws -> CSSPropertyType {
        guard let type = CSSPropertyType.known[name] else { throw WebFormatError("\(id): unsupported property \(name)") }
        return type
    }

    /// The initial value of a known property where it is a value the evaluators can interpolate
    /// (`opacity` 1, `transform` none, `background-color` transparent, `border-radius` 0), else nil.
    static func initialValue(_ name: String, _ type: CSSPropertyType) -> CSSPropertyValue? {
        switch name {
        case "opacity": return .number(1)
        case "transform": return .transform(CSSTransformList(nil))
        case "background-color": return .color(CSSColor(0, 0, 0, 0))
        case "border-radius": return .number(0)
        default: return nil
        }
    }

    /// "Compute missing keyframe offsets": a first keyframe without offset gets 0 (when there are
    /// several keyframes), a last one 1, and each run without offsets is spaced evenly between its
    /// neighbours.
    static func computeMissingOffsets(_ offsets: [Double?]) -> [Double] {
        var computed = offsets
        if computed.count > 1, computed[0] == nil { computed[0] = 0 }
        if let last = computed.indices.last, computed[last] == nil { computed[last] = 1 }
        var previous = 0
        for index in computed.indices.dropFirst() where computed[index] != nil {
            let a = computed[previous]!, b = computed[index]!
            let n = Double(index - previous)
            for between in (previous + 1)..<index { computed[between] = a + (b - a) * Double(between - previous) / n }
            previous = index
        }
        return computed.map { $0 ?? 0 }
    }
}

/// The curve form of a Web Animations export: `{"easing": "<easing-function>", "duration": ms, …}` —
/// one timing function over one iteration, filling both ways (progress = easing(t / duration)).
public struct WAAPICurve: Sendable {
    public let easing: CSSEasing
    /// In seconds.
    public let duration: Double

    public init(json: Data) throws {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let easing = root["easing"] as? String, let duration = root["duration"] as? NSNumber else {
            throw WebFormatError("a WAAPI curve is an object with \"easing\" and \"duration\"")
        }
        self.easing = try CSSEasing.parse(easing)
        self.duration = duration.doubleValue / 1000
    }

    public init(easing: CSSEasing, duration: Double) {
        self.easing = easing
        self.duration = duration
    }

    /// The progress at `t` seconds, through the Web Animations timing model with `fill: both`.
    public func progress(at t: Double) -> Double {
        WebEffectTiming(duration: duration, fill: .both, easing: easing).progress(at: t).progress!
    }
}
