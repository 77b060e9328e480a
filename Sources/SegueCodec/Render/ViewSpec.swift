import SegueEngine
import SegueJSON

/// A view and its starting channels (API.md §4 "Views and channels", §6 rule 5).
struct ViewSpec: Sendable {
    struct Channel: Sendable {
        var name: String
        var kind: ChannelKind
        var value: ChannelValue
    }

    var name: String
    var channels: [Channel]

    func channel(_ name: String) -> Channel? { channels.first { $0.name == name } }

    static func decodeAll(_ json: JSONValue, limits: Limits) throws(Problem) -> [ViewSpec] {
        let pointer = JSONPointer.root / "views"
        guard case .object(let members) = json else {
            throw Problem.wrongType(at: pointer, expected: "an object of views", found: json)
        }
        guard members.count <= limits.maxViews else {
            throw Problem.invalid("\(members.count) views are over the limit of \(limits.maxViews)", at: pointer)
        }
        var views: [ViewSpec] = []
        for member in members {
            views.append(try decode(member.value, name: member.key, at: pointer / member.key))
        }
        return views
    }

    static func decode(_ json: JSONValue, name: String, at pointer: JSONPointer) throws(Problem) -> ViewSpec {
        guard case .object(let members) = json else {
            throw Problem.wrongType(at: pointer, expected: "an object of channels", found: json)
        }
        var channels: [Channel] = []
        for member in members {
            if case .null = member.value { continue }
            let at = pointer / member.key
            var kind = ChannelKind.builtIn(member.key)
            if kind == nil { kind = try ChannelDecoder.customKind(member.value, at: at) }
            guard let kind else { continue }
            channels.append(Channel(name: member.key, kind: kind, value: try ChannelDecoder.value(member.value, name: member.key, kind: kind, at: at)))
        }
        let names = Set(channels.map(\.name))
        if names.contains("frame"), let clash = ["center", "bounds"].first(where: names.contains) {
            throw Problem.invalid("a view gives either `frame` or `center`/`bounds`, never both", at: pointer / clash)
        }
        return ViewSpec(name: name, channels: channels)
    }
}
