import SegueJSON

/// Transition presets (docs/rules.md "Presets", rule 25): `"transition": {"preset": NAME,
/// "container": [x, y, w, h], …parameters}` stands for a whole render request — views,
/// animations and, where the preset needs them, `commands` and `interaction` — built the way an
/// iOS engineer builds that transition with UIKit.
///
/// Every preset animates inside `container`, given in the coordinate space of the reported
/// channels (with UIKit's `containerView.bounds` it is `[0, 0, w, h]`). The views are `from` and
/// `to`, the presenting and presented view controllers' views (plus `cover` for `dropDismiss`;
/// `pane` alone for `pane`).
///
/// Each preset is one `PresetDefinition` (`PresetTable`); the expansion and the catalogue entry
/// are both produced from it, so every parameter `expand` accepts is listed with its default and
/// its range, and each description states exactly what the expansion holds. A default of `null`
/// is computed from the container (or from other parameters) as the parameter's description
/// says; giving `null` is the same as leaving it out.
public enum Presets {
    /// The body of `GET /v1/presets` (docs/rules.md rule 25): `{"presets": [{"name", "description",
    /// "parameters": {name: {"default", "description"}}}]}` in the order of the contract's list.
    public static let catalogue: JSONValue = .object([.init("presets", .array(PresetTable.all.map(\.catalogueEntry)))])

    /// The top-level members a preset produces; a request with `transition` gives none of them.
    static let expandedMembers = ["container", "views", "animations", "commands", "interaction"]

    /// Expands a render request holding `"transition": {"preset": NAME, "container": [x, y, w, h],
    /// …parameters}` into the same request without `transition`: `container`, `views`, `animations`
    /// and, where the preset needs them, `commands` / `interaction`, in that order, in `transition`'s
    /// place.
    /// Every other top-level member (fps, until, at, velocities, …) passes through unchanged, in
    /// order, so the expansion is deterministic (docs/rules.md "Caching and CORS").
    ///
    /// A request without `transition` (or with `"transition": null`, or that is not an object)
    /// comes back unchanged: the render decoder reports what is wrong with it. A request with
    /// `transition` that also gives `container`, `views`, `animations`, `commands` or `interaction` is a 422 at
    /// that member. Unknown preset → 422 at `/transition/preset`; unknown parameter → 422 at
    /// `/transition/<name>` naming it; bad values → 422 at `/transition/<param>`; a member of the
    /// wrong JSON type → 400 (docs/rules.md "Conventions"). Durations, times and counts are checked against
    /// `limits`, and positions against the channel bound, here, so that a problem points into the
    /// request as given rather than into its expansion.
    public static func expand(_ request: JSONValue, limits: Limits = Limits()) throws(Problem) -> JSONValue {
        guard case .object(let members) = request,
              let transition = members.first(where: { $0.key == "transition" }), transition.value != .null else {
            return request
        }
        for name in expandedMembers {
            if let clash = members.first(where: { $0.key == name && $0.value != .null }) {
                throw Problem.invalid("`\(clash.key)` comes from the preset: a request with `transition` does not give it",
                                      at: .root / clash.key)
            }
        }
        let expansion = try expandTransition(transition.value, limits: limits)
        var out: [JSONValue.Member] = []
        for member in members {
            if member.key == "transition" {
                out += expansion
            } else if !expandedMembers.contains(member.key) {  // a `null` one is dropped: the preset gives it
                out.append(member)
            }
        }
        return .object(out)
    }

    /// `container` and the preset's members for the `transition` object: the preset named, its
    /// parameters all known, the container, then each parameter in the preset's order.
    static func expandTransition(_ value: JSONValue, limits: Limits) throws(Problem) -> [JSONValue.Member] {
        let p = JSONPointer.root / "transition"
        var object = try ObjectReader(value, at: p)
        guard let name = try object.string("preset") else {
            throw Problem.invalid("`preset` is required; expected " + PresetTable.names, at: p / "preset")
        }
        guard let preset = PresetTable.named(name) else {
            throw Problem.invalid("unknown preset `\(name.prefix(100))`; expected " + PresetTable.names, at: p / "preset")
        }
        let accepted = ["preset", "container"] + preset.parameters.map(\.name)
        for key in object.keys where !accepted.contains(key) && object.has(key) {
            let names = preset.parameters.map { "`\($0.name)`" }.joined(separator: ", ")
            throw Problem.invalid("unknown parameter `\(key.prefix(100))` of preset \(preset.name); its parameters are "
                                  + names, at: p / key)
        }
        guard let containerValue = object.value("container") else {
            throw Problem.invalid("`container` [x, y, w, h] is required for every preset", at: p / "container")
        }
        let container = try Container(containerValue, at: p / "container")
        var reading = PresetReading(object: object, limits: limits, fixedItems: preset.fixedItems,
                                    environment: PresetEnvironment(container: container))
        for parameter in preset.parameters { try reading.read(parameter) }
        try reading.object.rejectUnknown()
        return [.init("container", container.json)] + preset.expand(reading.environment)
    }
}
