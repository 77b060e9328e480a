import Foundation

/// A CSS style sheet of `@property` rules, `@keyframes` rules and style rules that run animations
/// (`[data-segue="card"] { animation: segue-card 0.8s linear both; … }`), evaluated per view at a time in
/// seconds as a browser would: CSS Animations 1 and 2 build each animation's keyframes and timing, Web
/// Animations 1 evaluates them.
///
/// Read: comments anywhere; `@property` (`syntax`, `initial-value`); `@keyframes` with `from`, `to` and
/// percentage selectors, several selectors per block, repeated offsets, `animation-timing-function` in
/// a block; the `animation` shorthand (several animations separated by commas) — not its longhands.
/// A style rule's other declarations are the view's underlying values.
public struct CSSKeyframesDocument: Sendable {
    /// An `@property` rule (CSS Properties and Values API 1).
    public struct PropertyRegistration: Equatable, Sendable {
        public let name: String
        public let syntax: String
        public let initialValue: String?
    }

    /// One keyframe block as written: its offsets (selectors divided by 100) and declarations in order.
    public struct KeyframeBlock: Equatable, Sendable {
        public let offsets: [Double]
        public let declarations: [(name: String, value: String)]

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.offsets == rhs.offsets && lhs.declarations.elementsEqual(rhs.declarations, by: ==)
        }
    }

    /// One item of an `animation` shorthand (CSS Animations 1 §"The animation shorthand property").
    public struct Animation: Equatable, Sendable {
        public var name: String
        public var timing: WebEffectTiming
        /// `animation-timing-function`: the keyframes' default timing function (CSS Animations 2
        /// §"Keyframes"); the effect's own timing function is `linear`.
        public var keyframeEasing: CSSEasing
    }

    public let registrations: [String: PropertyRegistration]
    /// The blocks of the last `@keyframes` rule of each name ("the last one in document order wins").
    public let keyframes: [String: [KeyframeBlock]]
    /// The style rules by view id (`card` for `[data-segue="card"]`, else the selector text).
    public let views: [String: [(name: String, value: String)]]

    public init(css: String) throws {
        var registrations: [String: PropertyRegistration] = [:]
        var keyframes: [String: [KeyframeBlock]] = [:]
        var views: [String: [(name: String, value: String)]] = [:]
        for rule in try CSSRule.rules(in: CSSText.strippingComments(css)) {
            let prelude = rule.prelude
            if prelude.lowercased().hasPrefix("@property") {
                let registration = try Self.registration(rule)
                registrations[registration.name] = registration
            } else if prelude.lowercased().hasPrefix("@keyframes") {
                let name = CSSText.unquoted(prelude.dropFirst("@keyframes".count))
                keyframes[name] = try Self.keyframeBlocks(rule.block ?? "")
            } else if prelude.hasPrefix("@") {
                continue  // other at-rules are not Segue's
            } else if let block = rule.block {
                views[Self.viewID(prelude), default: []] += CSSRule.declarations(block)
            }
        }
        self.registrations = registrations
        self.keyframes = keyframes
        self.views = views
    }

    /// The view ids, sorted.
    public var viewIDs: [String] { views.keys.sorted() }

    /// `[data-segue="card"]` → `card`; any other selector is its own id.
    static func viewID(_ selector: String) -> String {
        let trimmed = selector.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("[data-segue="), trimmed.hasSuffix("]") else { return trimmed }
        return CSSText.unquoted(trimmed.dropFirst("[data-segue=".count).dropLast())
    }

    static func registration(_ rule: CSSRule) throws -> PropertyRegistration {
        let name = rule.prelude.dropFirst("@property".count).trimmingCharacters(in: .whitespacesAndNewlines)
        let descriptors = Dictionary(CSSRule.declarations(rule.block ?? "").map { ($0.name, $0.value) }) { $1 }
        guard name.hasPrefix("--"), let syntax = descriptors["syntax"] else {
            throw WebFormatError("@property \(name) needs a custom property name and a syntax")
        }
        return PropertyRegistration(name: name, syntax: CSSText.unquoted(syntax), initialValue: descriptors["initial-value"])
    }

    /// The keyframe blocks of a `@keyframes` rule; `from` is 0%, `to` 100%; a block with a selector
    /// outside 0%…100% is ignored (CSS Animations 1 §"Keyframes").
    static func keyframeBlocks(_ body: String) throws -> [KeyframeBlock] {
        try CSSRule.rules(in: body).compactMap { rule in
            let offsets = try CSSText.split(rule.prelude, on: ",").map { selector -> Double in
                switch selector.lowercased() {
                case "from": return 0
                case "to": return 1
                default:
                    guard let (value, unit) = CSSText.dimension(selector), unit == "%" else {
                        throw WebFormatError("bad keyframe selector \(selector)")
                    }
                    return value / 100
                }
            }
            guard offsets.allSatisfy({ (0...1).contains($0) }) else { return nil }
            let declarations = CSSRule.declarations(rule.block ?? "").filter { !$0.value.lowercased().contains("!important") }
            return KeyframeBlock(offsets: offsets, declarations: declarations)
        }
    }
}

// MARK: - Evaluation

extension CSSKeyframesDocument {
    /// Every animated property's computed value for `view` at `t` seconds after the animations started.
    /// Animations later in the `animation` list win for the properties they set (CSS Animations 2
    /// §"Animation composite order"); an animation not in effect contributes nothing.
    public func values(view: String, at t: Double) throws -> [String: WebAnimatedValue] {
        var result: [String: WebAnimatedValue] = [:]
        for effect in try effects(view: view) {
            result.merge(try effect.values(at: t)) { $1 }
        }
        return result
    }

    /// One property's value for `view` at `t`, nil if no animation sets it at that time.
    public func value(of property: String, view: String, at t: Double) throws -> WebAnimatedValue? {
        try values(view: view, at: t)[property]
    }

    /// The keyframe effects of `view`'s animations, in the order of its `animation` list.
    public func effects(view: String) throws -> [WebKeyframeEffect] {
        guard let declarations = views[view] else { throw WebFormatError("no style rule for view \(view)") }
        guard let shorthand = declarations.last(where: { $0.name == "animation" }) else { return [] }
        let underlying = try underlyingValues(declarations)
        return try CSSText.split(shorthand.value, on: ",").compactMap { item in
            let animation = try Self.animation(item)
            guard let blocks = keyframes[animation.name] else { return nil }  // no @keyframes: no animation
            return try effect(animation, blocks, underlying: underlying)
        }
    }

    /// The property types: the known longhands, registered custom properties by their syntax, other
    /// custom properties discrete.
    func type(of property: String) throws -> CSSPropertyType {
        if let registration = registrations[property] { return try CSSPropertyType.registered(syntax: registration.syntax) }
        if property.hasPrefix("--") { return .discrete }
        guard let type = CSSPropertyType.known[property] else { throw WebFormatError("unsupported property \(property)") }
        return type
    }

    /// The values a property has without animations: the view rule's declaration, else a registered
    /// property's initial value, else the initial value of `opacity` (1), `transform` (none),
    /// `background-color` (transparent) or `border-radius` (0). A declaration the evaluators cannot hold
    /// (`left: auto`) is left out: a keyframe set that needs it fails when evaluated.
    func underlyingValues(_ declarations: [(name: String, value: String)]) throws -> [String: CSSPropertyValue] {
        var values: [String: CSSPropertyValue] = [
            "opacity": .number(1), "transform": .transform(CSSTransformList(nil)),
            "background-color": .color(CSSColor(0, 0, 0, 0)), "border-radius": .number(0),
        ]
        for registration in registrations.values {
            guard let initial = registration.initialValue else { continue }
            values[registration.name] = try CSSPropertyValue.parse(initial, as: try type(of: registration.name))
        }
        for (name, value) in declarations {
            guard let type = try? type(of: name), let parsed = try? CSSPropertyValue.parse(value, as: type) else { continue }
            values[name] = parsed
        }
        return values
    }
}

// MARK: - CSS Animations → keyframe effect

extension CSSKeyframesDocument {
    /// Parses one `<single-animation>` (CSS Animations 1 §"The animation shorthand property"): the first
    /// time is the duration and the second the delay; keywords go to the timing function, iteration
    /// count, direction, fill mode and play state; the remaining identifier is the name. Omitted values
    /// are the initial ones (0s, ease, 0s, 1, normal, none).
    static func animation(_ text: String) throws -> Animation {
        var timing = WebEffectTiming(duration: 0)
        var easing = CSSEasing.ease
        var times: [Double] = []
        var name: String?
        for word in CSSText.words(text) {
            let lower = word.lowercased()
            if let (value, unit) = CSSText.dimension(word), unit == "s" || unit == "ms" {
                times.append(unit == "s" ? value : value / 1000)
            } else if CSSEasing.keywords[lower] != nil || CSSText.function(word) != nil {
                easing = try CSSEasing.parse(word)
            } else if let count = CSSText.number(word) {
                timing.iterations = count
            } else if lower == "infinite" {
                timing.iterations = .infinity
            } else if let direction = WebEffectTiming.Direction(rawValue: lower) {
                timing.direction = direction
            } else if let fill = WebEffectTiming.FillMode(rawValue: lower), fill != .auto {
                timing.fill = fill
            } else if lower == "running" || lower == "paused" {
                continue
            } else {
                name = CSSText.unquoted(word)
            }
        }
        guard let name, times.count <= 2 else { throw WebFormatError("not a <single-animation>: \(text)") }
        timing.duration = times.first ?? 0
        timing.delay = times.count == 2 ? times[1] : 0
        return Animation(name: name, timing: timing, keyframeEasing: easing)
    }

    /// CSS Animations 2 §"Keyframes", step by step: the blocks (one entry per selector) are stably sorted
    /// by offset and visited in reverse; a block joins the keyframe that already has its offset and
    /// (computed) timing function, else a new keyframe is prepended; a property already present in that
    /// keyframe is skipped, so the last declaration in document order wins. Then a keyframe at 0 and at 1
    /// receives the underlying value of every animated property no keyframe at that offset sets.
    func effect(_ animation: Animation, _ blocks: [KeyframeBlock],
                underlying: [String: CSSPropertyValue]) throws -> WebKeyframeEffect {
        let entries = blocks.flatMap { block in block.offsets.map { (offset: $0, block: block) } }
        let sorted = entries.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }
        var frames: [WebKeyframe] = []
        var types: [String: CSSPropertyType] = [:]
        for (offset, block) in sorted.map(\.element).reversed() {
            let easing = try block.declarations.last { $0.name == "animation-timing-function" }
                .map { try CSSEasing.parse($0.value) } ?? animation.keyframeEasing
            var values: [String: CSSPropertyValue] = [:]
            for (name, value) in block.declarations where !name.hasPrefix("animation") {
                let type = try type(of: name)
                types[name] = type
                values[name] = try CSSPropertyValue.parse(value, as: type)
            }
            if let index = frames.firstIndex(where: { $0.offset == offset && $0.easing == easing }) {
                frames[index].values.merge(values) { existing, _ in existing }
            } else {
                frames.insert(WebKeyframe(offset: offset, easing: easing, values: values), at: 0)
            }
        }
        for offset in [0.0, 1.0] {
            try completeKeyframes(&frames, at: offset, animation.keyframeEasing, Set(types.keys), underlying)
        }
        var timing = animation.timing
        timing.easing = .linear
        return WebKeyframeEffect(keyframes: frames, timing: timing, types: types, underlying: underlying)
    }

    /// The last two steps of CSS Animations 2 §"Keyframes" for `offset` 0 or 1: the keyframe with that
    /// offset and the default timing function (else a new one placed after the last keyframe with that
    /// offset) gets the underlying value of each animated property that no keyframe at the offset sets.
    func completeKeyframes(_ frames: inout [WebKeyframe], at offset: Double, _ easing: CSSEasing,
                           _ properties: Set<String>, _ underlying: [String: CSSPropertyValue]) throws {
        let present = Set(frames.filter { $0.offset == offset }.flatMap(\.values.keys))
        let missing = properties.subtracting(present)
        guard !missing.isEmpty || !frames.contains(where: { $0.offset == offset }) else { return }
        var index = frames.firstIndex { $0.offset == offset && $0.easing == easing }
        if index == nil {
            let position = (frames.lastIndex { $0.offset == offset }).map { $0 + 1 } ?? (offset == 0 ? 0 : frames.count)
            frames.insert(WebKeyframe(offset: offset, easing: easing, values: [:]), at: position)
            index = position
        }
        for property in missing {
            guard let value = underlying[property] else {
                throw WebFormatError("\(property) has no keyframe at \(offset * 100)% and no underlying value")
            }
            frames[index!].values[property] = value
        }
    }
}

/// A rule of a style sheet or of a `@keyframes` body: its prelude and the text of its `{}` block
/// (nil for a statement ended by `;`).
struct CSSRule {
    let prelude: String
    let block: String?

    /// The rules of `text` in order (CSS Syntax 3 §5.4.1 "consume a list of rules", simplified).
    static func rules(in text: String) throws -> [CSSRule] {
        var rules: [CSSRule] = []
        var prelude = ""
        var index = text.startIndex
        while index < text.endIndex {
            let char = text[index]
            if char == "{" {
                let (block, end) = try CSSRule.block(in: text, openingAt: index)
                rules.append(CSSRule(prelude: prelude.trimmingCharacters(in: .whitespacesAndNewlines), block: block))
                prelude = ""
                index = end
            } else if char == ";" {
                let statement = prelude.trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty { rules.append(CSSRule(prelude: statement, block: nil)) }
                prelude = ""
                index = text.index(after: index)
            } else {
                prelude.append(char)
                index = text.index(after: index)
            }
        }
        guard prelude.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw WebFormatError("unterminated rule: \(prelude.prefix(60))")
        }
        return rules
    }

    /// The text inside the block whose `{` is at `open`, and the index after its matching `}`.
    static func block(in text: String, openingAt open: String.Index) throws -> (String, String.Index) {
        var depth = 0
        var quote: Character?
        var index = open
        while index < text.endIndex {
            let char = text[index]
            if let q = quote {
                if char == q { quote = nil }
            } else if char == "\"" || char == "'" {
                quote = char
            } else if char == "{" {
                depth += 1
            } else if char == "}" {
                depth -= 1
                if depth == 0 {
                    return (String(text[text.index(after: open)..<index]), text.index(after: index))
                }
            }
            index = text.index(after: index)
        }
        throw WebFormatError("unclosed block")
    }

    /// The declarations of a block in order: `name: value` pieces between top-level semicolons; names are
    /// lower-cased except custom property names, which are case-sensitive.
    static func declarations(_ block: String) -> [(name: String, value: String)] {
        CSSText.split(block, on: ";").compactMap { piece in
            guard let colon = piece.firstIndex(of: ":") else { return nil }
            let name = piece[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
            let value = piece[piece.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            return (name.hasPrefix("--") ? name : name.lowercased(), value)
        }
    }
}
