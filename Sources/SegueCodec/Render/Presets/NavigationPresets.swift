import SegueJSON

/// The navigation and modal presets of rule 47 (docs/presets.md): UINavigationController's push
/// and pop, the coverVertical modal presentation and dismissal, and the iOS 13 page sheet. Each
/// pair shares one definition, the dismissal or pop being the presentation or push run backwards
/// with the leaving view on top (rule 40).
extension PresetTable {
    /// A critically damped UIKit spring: `dampingRatio` 1 over the preset's duration.
    static let criticalSpring: JSONValue = .object([.init("type", .string("spring")), .init("dampingRatio", .number(1))])

    /// The duration and timing of the navigation and modal presets: 0.5 s on the critically damped spring.
    static let navigationTiming = [duration(0.5), timing(criticalSpring)]

    /// A numeric parameter as a quantity.
    static func quantity(_ name: String) -> Quantity { .parameter(name, component: nil) }

    /// `push`: the pushed view (`to`) slides in from the trailing edge over the whole width while
    /// the view under it moves by parallax·w the same way under a `dim` view that darkens from
    /// alpha 0 to dimAlpha. `pop` runs it backwards with the popped view (`from`) on top.
    static func navigation(push: Bool) -> PresetDefinition {
        let behind = Template.frame(dx: -1 * .product(quantity("parallax"), .w))
        let beyond = Template.frame(dx: .w)
        let under = PresetView(name: push ? "from" : "to", placement: .frame(push ? .container : behind))
        let dim = PresetView(name: "dim", placement: .frame(.container), color: [0, 0, 0, 1],
                             channels: [("alpha", push ? 0 : .parameter("dimAlpha"))])
        let over = PresetView(name: push ? "to" : "from", placement: .frame(push ? beyond : .container))
        return PresetDefinition(
            name: push ? "push" : "pop",
            about: push
                ? "A navigation push (UINavigationController): the pushed view slides in from the trailing edge across the whole "
                    + "width, while the view under it slides the same way by a fraction of the width and a black dim view "
                    + "darkens it."
                : "A navigation pop (UINavigationController): the popped view slides out to the trailing edge, uncovering the "
                    + "view underneath, which slides back into place from a fraction of the width away as the dim view over it "
                    + "clears.",
            parameters: navigationTiming + [
                PresetParameter("parallax", .number(.unit), default: .number(0.3),
                                "the fraction of the width the view underneath travels, the same way as the view on top"),
                PresetParameter("dimAlpha", .number(.unit), default: .number(0.1),
                                "the black dim view's alpha when the view underneath is wholly covered"),
            ],
            views: [under, dim, over],
            animations: [
                block(push ? "push" : "pop", on: over.name, [("to", .object([("frame", push ? .container : beyond)]))]),
                block("parallax", on: under.name, [("to", .object([("frame", push ? behind : .container)]))]),
                block("dim", on: dim.name, [("to", .object([("alpha", push ? .parameter("dimAlpha") : 0)]))]),
            ],
            remark: "The trailing edge is the right one (a left-to-right layout).")
    }

    /// `coverVertical`: the presented view (`to`) rises from below the container's bottom edge
    /// over the presenting one; `coverVerticalDismiss`: the presented view (`from`) falls back.
    static func coverVertical(dismiss: Bool) -> PresetDefinition {
        let below = Template.frame(dy: .h)
        let still = PresetView(name: dismiss ? "to" : "from", placement: .frame(.container))
        let sheet = PresetView(name: dismiss ? "from" : "to", placement: .frame(dismiss ? .container : below))
        return PresetDefinition(
            name: dismiss ? "coverVerticalDismiss" : "coverVertical",
            about: dismiss
                ? "A modal dismissal (UIModalTransitionStyle.coverVertical): the presented view falls back below the container's "
                    + "bottom edge, uncovering the presenting view."
                : "A modal presentation (UIModalTransitionStyle.coverVertical): the presented view rises from below the "
                    + "container's bottom edge over the presenting view.",
            parameters: navigationTiming,
            views: [still, sheet],
            animations: [
                block(dismiss ? "dismiss" : "present", on: sheet.name, [("to", .object([("frame", dismiss ? below : .container)]))]),
            ])
    }

    /// `pageSheet`: the iOS 13 card (`to`, rounded) rises to `top` below the container's top while
    /// the presenting view (`from`) shrinks to `scale` about its centre, moves down by `inset` and
    /// rounds its corners; `pageSheetDismiss` runs it backwards with the card (`from`) on top.
    static func pageSheet(dismiss: Bool) -> PresetDefinition {
        let top = quantity("top")
        let raised = Template.numbers([.x, .y + top, .w, .h + -1 * top])
        let lowered = Template.numbers([.x, .y + .h, .w, .h + -1 * top])
        let whole: Template = .object([("translation", [0, 0]), ("scale", [1, 1])])
        let receded: Template = .object([("translation", [0, .parameter("inset")]),
                                         ("scale", [.parameter("scale"), .parameter("scale")])])
        let presenting = PresetView(name: dismiss ? "to" : "from", placement: .center(.center),
                                    channels: [("transform", dismiss ? receded : whole),
                                               ("cornerRadius", dismiss ? .parameter("cornerRadius") : 0)])
        let sheet = PresetView(name: dismiss ? "from" : "to", placement: .frame(dismiss ? raised : lowered),
                               channels: [("cornerRadius", .parameter("cornerRadius"))])
        return PresetDefinition(
            name: dismiss ? "pageSheetDismiss" : "pageSheet",
            about: dismiss
                ? "The iOS 13 card's dismissal (UIModalPresentationStyle.pageSheet): the card falls below the container's bottom "
                    + "edge while the presenting view behind it grows back to the whole container and squares its corners."
                : "The iOS 13 card (UIModalPresentationStyle.pageSheet): the card, its corners rounded, rises from below the "
                    + "container to just under its top, while the presenting view behind it shrinks about its centre, moves down "
                    + "and rounds its corners.",
            parameters: navigationTiming + [
                PresetParameter("top", .number(.insideHeight), default: .number(10),
                                "points from the container's top to the raised card's top; the card reaches the container's bottom"),
                PresetParameter("cornerRadius", .number(.nonNegativeLength), default: .number(10),
                                "the card's corner radius, and the presenting view's once it has receded"),
                PresetParameter("scale", .number(.shrink), default: .number(0.92),
                                "the presenting view's scale, about its centre, once it has receded"),
                PresetParameter("inset", .number(.channel), default: .number(10),
                                "points the presenting view moves down as it recedes"),
            ],
            views: [presenting, sheet],
            animations: [
                block(dismiss ? "dismiss" : "present", on: sheet.name, [("to", .object([("frame", dismiss ? lowered : raised)]))]),
                block(dismiss ? "restore" : "recede", on: presenting.name,
                      [("to", .object([("transform", dismiss ? whole : receded),
                                       ("cornerRadius", dismiss ? 0 : .parameter("cornerRadius"))]))]),
            ])
    }
}
