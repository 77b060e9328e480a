import SegueEngine
import SegueJSON

/// `views`: each view, its starting channels (docs/rules.md "Views and channels", rule 5) and its
/// `zIndex` (rule 40).
enum ViewDecoder {
    static func decodeAll(_ json: JSONValue, limits: Limits) throws(Problem) -> [SceneSpec.View] {
        let pointer = JSONPointer.root / "views"
        guard case .object(let members) = json else {
            throw Problem.wrongType(at: pointer, expected: "an object of views", found: json)
        }
        guard members.count <= limits.maxViews else {
            throw Problem.invalid("\(members.count) views are over the limit of \(limits.maxViews)", at: pointer)
        }
        var views: [SceneSpec.View] = []
        for member in members {
            views.append(try decode(member.value, name: member.key, at: pointer / member.key))
        }
        return views
    }

    static func decode(_ json: JSONValue, name: String, at pointer: JSONPointer) throws(Problem) -> SceneSpec.View {
        guard case .object(let members) = json else {
            throw Problem.wrongType(at: pointer, expected: "an object of channels", found: json)
        }
        var channels: [SceneSpec.Channel] = []
        var zIndex = 0
        for member in members {
            if case .null = member.value { continue }
            let at = pointer / member.key
            if member.key == "zIndex" {
                zIndex = try decodeZIndex(member.value, at: at)
                continue
            }
            var kind = ChannelKind.builtIn(member.key)
            if kind == nil { kind = try ChannelDecoder.customKind(member.value, at: at) }
            guard let kind else { continue }
            let value = try ChannelDecoder.value(member.value, name: member.key, kind: kind, at: at)
            channels.append(SceneSpec.Channel(name: member.key, kind: kind, value: value))
        }
        let names = Set(channels.map(\.name))
        if names.contains("frame"), let clash = ["center", "bounds"].first(where: names.contains) {
            throw Problem.invalid("a view gives either `frame` or `center`/`bounds`, never both", at: pointer / clash)
        }
        return SceneSpec.View(name: name, channels: channels, zIndex: zIndex)
    }

    /// CSS `z-index` is an `<integer>`, which browsers keep in 32 bits: the same range here, so
    /// every value survives the CSS and Web Animations exports unchanged.
    static let zIndexRange = -2_147_483_647...2_147_483_647

    static func decodeZIndex(_ json: JSONValue, at pointer: JSONPointer) throws(Problem) -> Int {
        guard case .number(let value) = json else { throw Problem.wrongType(at: pointer, expected: "an integer", found: json) }
        return try Check.integer(value, zIndexRange, pointer)
    }
}
