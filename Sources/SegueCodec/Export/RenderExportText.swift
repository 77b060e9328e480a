import SegueEngine
import SegueJSON

/// The text of a render export (docs/exports.md "Renders"): each view's properties merged into
/// one keyframe list — keyframes at the same position with the same easing share a block — as
/// CSS `@keyframes` or Web Animations keyframes with the same values.
extension RenderExport {
    /// One keyframe block: a position (percent of the timeline), its easing (nil: linear) and
    /// the properties it sets, as (CSS name, Web Animations key, value text).
    struct Block: Sendable {
        var position: Double
        var positionText: String
        var easing: String?
        var values: [(css: String, waapi: String, text: String)]
    }

    /// A property's keyframes as entries. CSS `@keyframes` merges blocks at one position, so a
    /// jump (two keyframes at one time) becomes a hold: the keyframe before it moves back by
    /// 10^−(d+2) % (d the fit's position decimals) and eases with `step-end`.
    func entries(_ fit: KeyframeFit) -> [(position: Double, easing: String?, parameters: [Double])] {
        var keyframes = fit.keyframes
        if keyframes.count == 1 {
            keyframes.append(keyframes[0])
            keyframes[1].position = 100
        }
        var out: [(position: Double, easing: String?, parameters: [Double])] = []
        var lead = 0.01
        for _ in 0..<min(fit.timeDecimals, 12) { lead /= 10 }
        for (k, keyframe) in keyframes.enumerated() {
            let jumps = k + 1 < keyframes.count && keyframes[k + 1].position == keyframe.position
            var position = keyframe.position
            var easing: String?
            if jumps {
                // At the 9 decimals jump positions have, rounded down (no noise of the subtraction).
                position = max(out.last?.position ?? 0, ((position - lead) * 1e9).rounded(.down) / 1e9)
                easing = "step-end"
            } else if case .curve(let curve) = keyframe.easing, let text = blockEasings.text(curve), text != "linear" {
                easing = text
            }
            out.append((position, easing, keyframe.parameters))
        }
        return out
    }

    /// The merged blocks of a view, in position order. A property that never changes holds the
    /// same value under any easing, so it joins the block at its position whatever that block's
    /// easing (rather than standing in a rule of its own).
    func blocks(_ view: View) -> [Block] {
        var all: [(position: Double, occurrence: Int, constant: Bool, easing: String?, property: Int, text: String)] = []
        for (index, fit) in view.fits.enumerated() {
            var previous: Double?, occurrence = 0
            let constant = fit.keyframes.allSatisfy { $0.parameters == fit.keyframes[0].parameters }
            for entry in entries(fit) {
                occurrence = entry.position == previous ? occurrence + 1 : 0
                previous = entry.position
                all.append((entry.position, occurrence, constant, constant ? nil : entry.easing, index,
                            view.properties[index].text(entry.parameters)))
            }
        }
        all.sort { a, b in
            (a.position, a.occurrence, a.constant ? 1 : 0, a.easing ?? "", a.property)
                < (b.position, b.occurrence, b.constant ? 1 : 0, b.easing ?? "", b.property)
        }
        var blocks: [Block] = []
        var last: (position: Double, occurrence: Int, easing: String?)?
        for entry in all {
            let property = view.properties[entry.property]
            if let last, last.position == entry.position, last.occurrence == entry.occurrence,
               entry.constant || last.easing == entry.easing {
                blocks[blocks.count - 1].values.append((property.css, property.waapi, entry.text))
                continue
            }
            blocks.append(Block(position: entry.position, positionText: CSSText.number(entry.position), easing: entry.easing,
                                values: [(property.css, property.waapi, entry.text)]))
            last = (entry.position, entry.occurrence, entry.easing)
        }
        return blocks
    }

    var warnings: [RequestWarning] { request.warnings + notes }

    /// `P-<view>`: the keyframes' name and the WAAPI animation's id (rule 43).
    func animationName(_ view: View) -> String { options.prefix + "-" + CSSIdentifier.escape(view.id) }

    /// `[data-P="<view>"]` (rule 43).
    func selector(_ view: View) -> String { "[data-\(options.prefix)=\(CSSIdentifier.string(view.id))]" }

    /// What every view's element needs besides its keyframes: absolute positioning in its
    /// container, UIKit's centre anchor point, its place in the stacking (rule 40) and, under
    /// `geometry=transform`, its box (rule 42).
    func style(_ view: View) -> [(String, String)] {
        [("position", "absolute"), ("transform-origin", "50% 50%"), ("z-index", String(view.layer))] + view.placement
    }

    /// The values of the first keyframe: where a view waits for its `trigger` (rule 43).
    func firstValues(_ view: View) -> [(String, String)] {
        zip(view.properties, view.fits).map { property, fit in (property.css, property.text(fit.keyframes[0].parameters)) }
    }

    /// `text/css`: comments, the container rule (container units), `@property` rules, then per view
    /// `@keyframes P-<view>` and its rule — split in two under a `trigger`: the view placed at its
    /// first frame, and the animation under the trigger's selector.
    public func css() -> [UInt8] {
        let end = CSSText.number(request.scene.end)
        var lines = CSSComment.warnings(warnings)
        lines.insert(CSSComment.line("Segue render; duration \(end)s; tolerance \(CSSText.number(tolerance)); "
            + "max error \(CSSText.error(maxError)) with \(keyframeCount) keyframes"), at: 0)
        if options.units == .container {
            lines.append("[data-\(options.prefix)-container] { container-type: size; position: relative; }")
        }
        var registered: Set<String> = []
        for property in views.flatMap(\.properties) {
            guard let initial = property.registered, registered.insert(property.css).inserted else { continue }
            lines.append("@property \(property.css) { syntax: '<number>'; inherits: false; initial-value: \(CSSText.number(initial)); }")
        }
        for view in views {
            let name = animationName(view)
            lines.append("@keyframes \(name) {")
            for block in blocks(view) {
                var body = block.values.map { "\($0.css): \($0.text);" }
                if let easing = block.easing { body.append("animation-timing-function: \(easing);") }
                lines.append("  \(block.positionText)% { " + body.joined(separator: " ") + " }")
            }
            lines.append("}")
            let animation = "animation: \(name) \(end)s linear both;"
            let style = style(view).map { "\($0.0): \($0.1);" }.joined(separator: " ")
            if let trigger = options.trigger {
                let waiting = firstValues(view).map { "\($0.0): \($0.1);" }
                lines.append("\(selector(view)) { " + ([style] + waiting).joined(separator: " ") + " }")
                lines.append("\(trigger) \(selector(view)) { \(animation) }")
            } else {
                lines.append("\(selector(view)) { \(animation) \(style) }")
            }
        }
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// `application/json`: `{"duration", "maxError", "views": {id: {"selector", "style", "zIndex",
    /// "keyframes", "options"}}, "properties", "warnings"}`; `options.id` is the CSS export's
    /// keyframes name; `style` what the element needs before it animates (camel-cased, for
    /// `Object.assign(element.style, style)`); `properties` the custom properties to register
    /// (`CSS.registerProperty`) before animating.
    public func waapi() -> [UInt8] {
        let duration = JSONValue.number(request.scene.end * 1000)
        let views = views.map { view in
            let keyframes = blocks(view).map { block in
                JSONValue.object([.init("offset", .number(Self.fraction(block.positionText, block.position))),
                                  .init("easing", .string(block.easing ?? "linear"))]
                                 + block.values.map { .init($0.waapi, .string($0.text)) })
            }
            let options = JSONValue.object([.init("id", .string(animationName(view))), .init("duration", duration),
                                            .init("fill", .string("both")), .init("easing", .string("linear")),
                                            .init("iterations", .number(1))])
            let style = JSONValue.object(style(view).map { .init(Self.camelCase($0.0), .string($0.1)) })
            return JSONValue.Member(view.id, .object([.init("selector", .string(selector(view))), .init("style", style),
                                                      .init("zIndex", .number(Double(view.layer))),
                                                      .init("keyframes", .array(keyframes)), .init("options", options)]))
        }
        // What `CSS.registerProperty` needs for the custom properties to interpolate as numbers
        // (the CSS export declares them with `@property`).
        var registered: Set<String> = []
        let properties = self.views.flatMap(\.properties).compactMap { property -> JSONValue? in
            guard let initial = property.registered, registered.insert(property.waapi).inserted else { return nil }
            return .object([.init("name", .string(property.waapi)), .init("syntax", .string("<number>")),
                            .init("inherits", .bool(false)), .init("initialValue", .string(CSSText.number(initial)))])
        }
        var w = TextWriter()
        w.value(.object([.init("duration", duration), .init("maxError", .number(maxError)), .init("views", .object(views)),
                         .init("properties", .array(properties)), .init("warnings", .array(warnings.map(\.json)))]))
        return w.bytes
    }

    /// `transform-origin` → `transformOrigin`: the CSSOM's camel-cased attribute of a property.
    static func camelCase(_ property: String) -> String {
        let parts = property.split(separator: "-")
        return parts.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
    }

    /// A percentage as a fraction of 1 with the same digits: the decimal point of its shortest
    /// text moved two places (`12.5` → 0.125), so no binary noise is added.
    static func fraction(_ text: String, _ position: Double) -> Double {
        guard !text.contains("e") else { return position / 100 }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0]), decimals = parts.count > 1 ? String(parts[1]) : ""
        let padded = String(repeating: "0", count: max(0, 2 - whole.count)) + whole
        let shifted = "0" + padded.dropLast(2) + "." + padded.suffix(2) + decimals
        return Double(shifted) ?? position / 100
    }
}
