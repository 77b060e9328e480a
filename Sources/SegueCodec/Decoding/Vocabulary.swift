/// Errors that teach (rule 46): a refusal of an unknown keyword, member or channel lists the names
/// that exist where it was given, and when the unknown name is another platform's word for one of
/// them — a CSS property, a Core Animation key path or property, a UIKit or SwiftUI spelling —
/// says which name to use instead.
enum Vocabulary {
    /// Another platform's name for something Segue calls `ours`.
    struct Synonym {
        /// The foreign name, as that platform spells it.
        var foreign: String
        /// The Segue name it corresponds to; the hint is given only where this name exists.
        var ours: String
        /// What to write instead, when more than the bare name (`` `transform` with `scale: [sx, sy]` ``).
        var use: String
        /// Whose name `foreign` is ("Core Animation's key path").
        var origin: String

        init(_ foreign: String, _ ours: String, use: String? = nil, origin: String) {
            self.foreign = foreign
            self.ours = ours
            self.use = use ?? "`\(ours)`"
            self.origin = origin
        }
    }

    /// The foreign names Segue recognises, channels first, then animation and spring members, then
    /// timing names. A name that differs from a Segue name only in case, hyphens, underscores or
    /// dots needs no entry (`background-color`, `ease_in`): `hint(for:among:)` matches those itself.
    static let synonyms: [Synonym] = channelSynonyms + memberSynonyms + timingSynonyms

    private static let coreAnimationPath = "Core Animation's key path"

    private static let channelSynonyms: [Synonym] = {
        let scale = "`transform` with `scale: [sx, sy]`"
        let rotation = "`transform` with `rotation: θ` (radians)"
        let translation = "`transform` with `translation: [x, y]`"
        let paths: [(String, String, String)] = [
            ("position", "center", "`center` [x, y]"), ("position.x", "center", "`center` [x, y]"),
            ("position.y", "center", "`center` [x, y]"), ("bounds.size", "bounds", "`bounds` [x, y, w, h]"),
            ("bounds.origin", "bounds", "`bounds` [x, y, w, h]"), ("bounds.size.width", "bounds", "`bounds` [x, y, w, h]"),
            ("bounds.size.height", "bounds", "`bounds` [x, y, w, h]"), ("transform.scale", "transform", scale),
            ("transform.scale.x", "transform", scale), ("transform.scale.y", "transform", scale),
            ("transform.rotation", "transform", rotation), ("transform.rotation.z", "transform", rotation),
            ("transform.translation", "transform", translation), ("transform.translation.x", "transform", translation),
            ("transform.translation.y", "transform", translation),
        ]
        return [Synonym("opacity", "alpha", origin: "the CSS property and Core Animation's key path")]
            + paths.map { Synonym($0.0, $0.1, use: $0.2, origin: coreAnimationPath) }
            + [Synonym("scale", "transform", use: scale, origin: "the CSS property"),
               Synonym("rotate", "transform", use: rotation, origin: "the CSS property"),
               Synonym("translate", "transform", use: translation, origin: "the CSS property"),
               Synonym("background", "backgroundColor", use: "`backgroundColor` [r, g, b, a]", origin: "the CSS property"),
               Synonym("border-radius", "cornerRadius", origin: "the CSS property"),
               Synonym("left", "frame", use: "`frame` [x, y, w, h]", origin: "the CSS property"),
               Synonym("top", "frame", use: "`frame` [x, y, w, h]", origin: "the CSS property"),
               Synonym("width", "frame", use: "`frame` [x, y, w, h] or `bounds`", origin: "the CSS property"),
               Synonym("height", "frame", use: "`frame` [x, y, w, h] or `bounds`", origin: "the CSS property")]
    }()

    private static let memberSynonyms: [Synonym] = [
        Synonym("beginTime", "delay", origin: "CAAnimation's"),
        Synonym("timingFunction", "timing", origin: "CAAnimation's"),
        Synonym("toValue", "to", origin: "CABasicAnimation's"),
        Synonym("keyPath", "channel", origin: "CAPropertyAnimation's"),
        Synonym("easing", "timing", origin: "Web Animations'"),
        Synonym("iterations", "repeatCount", origin: "Web Animations'"),
        Synonym("animation-timing-function", "timing", origin: "the CSS property"),
        Synonym("transition-timing-function", "timing", origin: "the CSS property"),
        Synonym("animation-delay", "delay", origin: "the CSS property"),
        Synonym("transition-delay", "delay", origin: "the CSS property"),
        Synonym("animation-duration", "duration", origin: "the CSS property"),
        Synonym("transition-duration", "duration", origin: "the CSS property"),
        Synonym("animation-iteration-count", "repeatCount", origin: "the CSS property"),
        Synonym("initialSpringVelocity", "initialVelocity", origin: "UIKit's"),
        Synonym("usingSpringWithDamping", "dampingRatio", origin: "UIKit's"),
        Synonym("velocity", "initialVelocity", origin: "POP's"),
    ]

    private static let timingSynonyms: [Synonym] = {
        let coreAnimation: [(String, String)] = [("Linear", "linear"), ("EaseIn", "easeIn"), ("EaseOut", "easeOut"),
                                                 ("EaseInEaseOut", "easeInEaseOut"), ("Default", "default")]
        let uikit: [(String, String)] = [("Linear", "linear"), ("EaseIn", "easeIn"), ("EaseOut", "easeOut"),
                                         ("EaseInOut", "easeInOut")]
        let presets = SwiftUISpringPreset.allCases.map { preset in
            Synonym(preset.rawValue, "spring", use: "`{\"type\": \"spring\", \"preset\": \"\(preset.rawValue)\"}` "
                        + "or the string \"\(preset.rawValue)\"", origin: "SwiftUI's spring")
        }
        return [Synonym("easeInEaseOut", "easeInOut", origin: "Core Animation's name")]
            + coreAnimation.map { Synonym("kCAMediaTimingFunction" + $0.0, $0.1, origin: "Core Animation's constant") }
            + uikit.map { Synonym("UIViewAnimationCurve" + $0.0, $0.1, origin: "UIKit's constant") }
            + uikit.map { Synonym("curve" + $0.0, $0.1, origin: "UIKit's option") }
            + presets
            + [Synonym("spring", "smooth", use: "an object `{\"type\": \"spring\", …}` or SwiftUI's `smooth`, `snappy` or "
                        + "`bouncy`", origin: "a spring as a keyword")]
    }()

    /// The sentence that says which name to use for `name`, when it is another platform's name of
    /// one of `known` (or differs from one only in case, `-`, `_`, `.` or spaces); nil otherwise.
    static func hint(for name: String, among known: [String]) -> String? {
        if let synonym = synonyms.first(where: { $0.foreign == name && known.contains($0.ours) }) {
            return "use \(synonym.use) (\(synonym.origin) `\(synonym.foreign)`)"
        }
        let folded = fold(name)
        if let synonym = synonyms.first(where: { fold($0.foreign) == folded && known.contains($0.ours) }) {
            return "use \(synonym.use) (\(synonym.origin) `\(synonym.foreign)`)"
        }
        if let same = known.first(where: { fold($0) == folded }) { return "use `\(same)`" }
        return nil
    }

    /// The refusal of an unknown name: "unknown `what` `name`", the hint when there is one, then
    /// the names that exist (`listing` introduces them: "the members here are") — beyond
    /// `listedAtMost`, the first that many and how many more — or "there are none".
    static func unknown(_ what: String, _ name: String, known: [String], listing: String,
                        listedAtMost: Int = .max) -> String {
        let shown = "unknown \(what) `\(name.prefix(100))`"
        let hint = hint(for: name, among: known).map { ": " + $0 } ?? ""
        guard !known.isEmpty else { return shown + hint + "; there are none" }
        guard known.count > listedAtMost else { return shown + hint + "; " + listing + " " + list(known) }
        let shownNames = known.prefix(listedAtMost).map { "`\($0.prefix(100))`" }.joined(separator: ", ")
        return shown + hint + "; " + listing + " " + shownNames + " and \(known.count - listedAtMost) more"
    }

    /// The most names a refusal lists of a request's own (views, animation ids): there can be
    /// thousands of those.
    static let requestNamesListed = 20

    /// `` `a`, `b` and `c` `` (each name once, in the order given).
    static func list(_ names: [String], conjunction: String = "and") -> String {
        var seen: Set<String> = []
        let unique = names.filter { seen.insert($0).inserted }.map { "`\($0)`" }
        guard unique.count > 1 else { return unique.first ?? "none" }
        return unique.dropLast().joined(separator: ", ") + " \(conjunction) " + unique[unique.count - 1]
    }

    /// Lower case without `-`, `_`, `.` and spaces: the spellings one name takes across platforms.
    private static func fold(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != "." && $0 != " " })
    }
}
