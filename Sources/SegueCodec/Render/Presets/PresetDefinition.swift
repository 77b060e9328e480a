import SegueJSON

/// One transition preset as data (docs/rules.md "Presets"): its parameters, its views bottom to
/// top, its animations and, where it needs them, its interaction or commands. Both the expansion
/// (`expand`) and the catalogue entry (`catalogueEntry`, `GET /v1/presets`) are produced from it,
/// so the catalogue documents exactly what the expansion holds.
struct PresetDefinition: Sendable {
    /// The name a `transition` gives in `preset`.
    let name: String
    /// What the transition is, in UIKit's terms: the opening of the catalogue's description.
    let about: String
    /// In the order they are read, which decides the first fault a request gets.
    let parameters: [PresetParameter]
    /// Bottom to top (rule 40): the order of the expansion's `views`.
    let views: [PresetView]
    let animations: [PresetAnimation]
    /// The percent-driven interaction (docs/rules.md "Interaction"), for an interactive preset.
    var interaction: Template? = nil
    /// The commands, for a preset driven by a finger and taps.
    var commands: DragAndTaps? = nil
    /// What the notation of views and animations leaves unsaid, closing the description.
    var remark: String? = nil

    /// The members the preset puts in `transition`'s place (after `container`).
    func expand(_ environment: PresetEnvironment) -> [JSONValue.Member] {
        var members: [JSONValue.Member] = [
            .init("views", .object(views.map { JSONValue.Member($0.name, Template.object($0.members).value(environment)) })),
            .init("animations", .array(animations.map { Template.object($0.members).value(environment) })),
        ]
        if let interaction { members.append(.init("interaction", interaction.value(environment))) }
        if let commands {
            let list = commands.commands(environment)
            if !list.isEmpty { members.append(.init("commands", .array(list))) }
        }
        return members
    }

    /// How many animations and commands the preset produces whatever its parameters.
    var fixedItems: Int { animations.count + (commands?.fixedCount ?? 0) }

    /// `{"name", "description", "parameters": {name: {"default", "description"}}}` (rule 25).
    var catalogueEntry: JSONValue {
        .object([
            .init("name", .string(name)),
            .init("description", .string(description)),
            .init("parameters", .object(parameters.map { parameter in
                .init(parameter.name, .object([.init("default", parameter.catalogueDefault),
                                               .init("description", .string(parameter.description))]))
            })),
        ])
    }

    /// `about`, then exactly what the preset expands into, in the notation of `Template`.
    var description: String {
        var text = about + " Views, bottom to top: "
            + views.map { "`\($0.name)` " + Template.notation($0.members) }.joined(separator: ", ") + ". "
        let animationTexts = animations.map { "`\($0.id)` on `\($0.view)` " + Template.notation($0.settings) }
        text += "Animations: " + Self.list(animationTexts) + "."
        if let interaction { text += " Interaction: " + interaction.notation + "." }
        if let commands { text += " " + commands.description }
        if let remark { text += " " + remark }
        return text
    }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}

/// One view of a preset's expansion.
struct PresetView: Sendable {
    /// Where the view is: by `frame`, or by `center` with `bounds` [0, 0, w, h] — the form for a
    /// view that carries a transform, as UIKit leaves `frame` undefined under a transform.
    enum Placement: Sendable {
        case frame(Template)
        case center(Template)
    }

    let name: String
    let placement: Placement
    /// Its `backgroundColor`, if it has one (a view without one is told apart by the exports'
    /// palette, rule 44).
    var color: Template? = nil
    /// Further channels (`alpha`, `transform`), after the placement and the colour.
    var channels: Template.Members = []

    /// The view's channels in the order the expansion gives them.
    var members: Template.Members {
        var members: Template.Members
        switch placement {
        case .frame(let frame): members = [("frame", frame)]
        case .center(let center): members = [("center", center), ("bounds", .bounds)]
        }
        if let color { members.append(("backgroundColor", color)) }
        return members + channels
    }
}

/// One animation of a preset's expansion: `{"id", "view", …settings}`.
struct PresetAnimation: Sendable {
    let id: String
    let view: String
    /// Everything after `id` and `view`, in order.
    let settings: Template.Members

    init(_ id: String, on view: String, _ settings: Template.Members) {
        self.id = id
        self.view = view
        self.settings = settings
    }

    var members: Template.Members { [("id", .literal(.string(id))), ("view", .literal(.string(view)))] + settings }
}
