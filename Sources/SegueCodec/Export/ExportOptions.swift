import SegueJSON

/// The query parameters that shape an export (docs/exports.md "Export parameters"): each read from
/// its text, each refused with a 422 naming the parameter (`"parameter"` in the problem).
///
/// | parameter | values | default | for |
/// |---|---|---|---|
/// | `tolerance` | a number in [1e-6, 0.1] | 0.001 | every approximating export (rule 26) |
/// | `prefix` | a lowercase ASCII letter, then lowercase letters, digits, `-`, `_`; at most 64 | `segue` | render css, waapi (rule 43) |
/// | `trigger` | a selector (`CSSSelector`), at most 200 characters | none | render css (rule 43) |
/// | `geometry` | `transform`, `layout` | `transform` | render css, waapi (rule 42) |
/// | `units` | `px`, `container` (needs the request's `container`) | `px` | render css, waapi (rule 42) |
public struct ExportOptions: Sendable, Equatable {
    /// How a view's frame reaches the page (rule 42).
    public enum Geometry: String, Sendable, CaseIterable {
        /// Placed once at the first frame; moved and sized by `transform` on the compositor.
        case transform
        /// `left`, `top`, `width` and `height` animated (rule 28).
        case layout
    }

    /// What lengths are written in (rule 42).
    public enum Units: String, Sendable, CaseIterable {
        case px
        /// `cqw` and `cqh`: percentages of the container's width and height.
        case container
    }

    public var tolerance: Double = ExportTolerance.default
    /// Names the keyframes `P-<view>` and the attribute `data-P` (rule 43).
    public var prefix: String = Self.defaultPrefix
    /// A selector the animated rules wait under (rule 43); nil animates at once.
    public var trigger: String?
    public var geometry: Geometry = .transform
    public var units: Units = .px

    public static let defaultPrefix = "segue"
    public static let maximumPrefixLength = 64

    public init(tolerance: Double = ExportTolerance.default, prefix: String = Self.defaultPrefix, trigger: String? = nil,
                geometry: Geometry = .transform, units: Units = .px) {
        self.tolerance = tolerance
        self.prefix = prefix
        self.trigger = trigger
        self.geometry = geometry
        self.units = units
    }

    /// The options from the query's texts (nil: not given).
    public static func parse(tolerance: String?, prefix: String? = nil, trigger: String? = nil, geometry: String? = nil,
                             units: String? = nil) throws(Problem) -> ExportOptions {
        var options = ExportOptions(tolerance: try ExportTolerance.parse(tolerance))
        options.geometry = try keyword(geometry, "geometry", default: .transform)
        options.units = try keyword(units, "units", default: .px)
        if let prefix {
            guard isPrefix(prefix) else {
                throw invalid("prefix", "`prefix` is a lowercase ASCII letter followed by lowercase letters, digits, `-` or `_`, at most "
                              + "\(maximumPrefixLength) characters (it names `@keyframes` and a `data-` attribute), not `\(prefix.prefix(70))`")
            }
            options.prefix = prefix
        }
        if let trigger {
            guard CSSSelector.isValid(trigger) else {
                throw invalid("trigger", "`trigger` is one CSS selector of at most \(CSSSelector.maximumLength) characters: "
                              + "type, `*`, `#id`, `.class`, `:pseudo-class` and `[attribute]` selectors joined by "
                              + "combinators (no list, no function, no escape), not `\(trigger.prefix(70))`")
            }
            options.trigger = trigger
        }
        return options
    }

    static func keyword<Value: RawRepresentable<String> & CaseIterable>(_ text: String?, _ parameter: String,
                                                                        default value: Value) throws(Problem) -> Value {
        guard let text else { return value }
        guard let parsed = Value(rawValue: text) else {
            throw invalid(parameter, "`\(parameter)` is " + Value.allCases.map { "`\($0.rawValue)`" }.joined(separator: " or ")
                          + ", not `\(text.prefix(50))`")
        }
        return parsed
    }

    /// Lowercase letters, digits, `-` and `_` after a lowercase ASCII letter: a CSS identifier that
    /// is also a valid custom data attribute name's suffix in HTML, which allows no uppercase.
    static func isPrefix(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, bytes.count <= maximumPrefixLength, isLowercaseLetter(first) else { return false }
        return bytes.allSatisfy { isLowercaseLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F }
    }

    private static func isLowercaseLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }

    static func invalid(_ parameter: String, _ detail: String) -> Problem {
        Problem(.invalidRequest, detail: detail, extensions: [.init("parameter", .string(parameter))])
    }
}
