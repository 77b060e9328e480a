import SegueJSON

/// The presets of docs/rules.md "Presets" and of rule 47 (docs/presets.md), in the contract's
/// order: each one's whole definition.
/// Views are listed bottom to top as UIKit's transition code stacks them (rule 40): a presentation
/// or push adds `to` above `from`; a dismissal or pop inserts `to` below `from`, so the view that
/// leaves is the one seen moving; a dimming cover sits between them.
enum PresetTable {
    static let all: [PresetDefinition] = [
        bouncePresent, slideDismiss, zoom(push: true), zoom(push: false), dropDismiss, crossDissolve, swipeUpDismiss, pane,
        navigation(push: true), navigation(push: false), coverVertical(dismiss: false), coverVertical(dismiss: true),
        pageSheet(dismiss: false), pageSheet(dismiss: true),
    ]

    static func named(_ name: String) -> PresetDefinition? { all.first { $0.name == name } }

    static var names: String { all.map(\.name).joined(separator: ", ") }

    /// A duration in seconds with its default.
    static func duration(_ seconds: Double, _ summary: String = "seconds") -> PresetParameter {
        PresetParameter("duration", .number(.duration), default: .number(seconds), summary)
    }

    /// A timing that runs for the preset's duration: a name, or a timing object.
    static func timing(_ name: String) -> PresetParameter { timing(.string(name)) }

    static func timing(_ value: JSONValue) -> PresetParameter {
        PresetParameter("timing", .timing(springs: .dampingRatioOnly), default: value)
    }

    /// `{duration, timing, …to}`: a block animation on the preset's duration and timing.
    static func block(_ id: String, on view: String, _ change: Template.Members) -> PresetAnimation {
        PresetAnimation(id, on: view, [("duration", .parameter("duration")), ("timing", .parameter("timing"))] + change)
    }

    static let bouncePresent = PresetDefinition(
        name: "bouncePresent",
        about: "A modal presentation on a UIKit spring (UIView.animate(withDuration:delay:usingSpringWithDamping:"
            + "initialSpringVelocity:)): the presented view rises from just below the container and bounces into place.",
        parameters: [
            duration(0.8, "seconds: the UIKit spring's duration"),
            PresetParameter("dampingRatio", .number(.nonNegative), default: .number(0.6),
                            "the spring's damping ratio: below 1 it overshoots and bounces"),
            PresetParameter("initialVelocity", .number(.any), default: .number(0),
                            "initialSpringVelocity: the whole distance per second (UIKit's convention)"),
        ],
        views: [
            PresetView(name: "from", placement: .frame(.container)),
            PresetView(name: "to", placement: .frame(.frame(dy: .h))),
        ],
        animations: [
            PresetAnimation("present", on: "to", [
                ("duration", .parameter("duration")),
                ("timing", .object([("type", "spring"), ("dampingRatio", .parameter("dampingRatio")),
                                    ("initialVelocity", .parameter("initialVelocity"))])),
                ("to", .object([("frame", .container)])),
            ]),
        ])

    static let slideDismiss = PresetDefinition(
        name: "slideDismiss",
        about: "A modal dismissal: the presented view slides down out of the container, uncovering the presenting view "
            + "underneath.",
        parameters: [duration(0.3), timing("easeIn")],
        views: [
            PresetView(name: "to", placement: .frame(.container)),
            PresetView(name: "from", placement: .frame(.container)),
        ],
        animations: [block("dismiss", on: "from", [("to", .object([("frame", .frame(dy: .h))]))])])

    /// `zoomPush` zooms the incoming view in from its centre over the still one; `zoomPop` zooms
    /// the outgoing one out to its centre, uncovering the view underneath.
    static func zoom(push: Bool) -> PresetDefinition {
        func scale(_ s: Template) -> Template { .object([("scale", [s, s])]) }
        let still = PresetView(name: push ? "from" : "to", placement: .frame(.container))
        let zooming = PresetView(name: push ? "to" : "from", placement: .center(.center),
                                 channels: [("transform", scale(push ? 0 : 1))])
        return PresetDefinition(
            name: push ? "zoomPush" : "zoomPop",
            about: push ? "A push that zooms the new view in from its centre."
                : "A pop that zooms the old view out to its centre, uncovering the view underneath.",
            parameters: [duration(0.4), timing("easeInOut")],
            views: [still, zooming],
            animations: [block(push ? "push" : "pop", on: zooming.name, [("to", .object([("transform", scale(push ? 1 : 0))]))])],
            remark: "Both ends of the scale are components, so that a scale of 0 animates.")
    }

    /// The keyframed fall (docs/transforms.md "The drop-dismiss fall"): relative starts and
    /// durations, rotations along the shorter arc; the last keyframe concatenates translate(180,
    /// 0) then rotate(0.3π).
    static let fall: Template = [
        keyframe(0, 0.15, .object([("rotation", .number(.pi(-1.5)))])),
        keyframe(0.15, 0.1, .object([("rotation", .number(.pi(1)))])),
        keyframe(0.25, 0.2, .object([("rotation", .number(.pi(1.3)))])),
        keyframe(0.45, 0.2, .object([("rotation", .number(.pi(0.8)))])),
        keyframe(0.65, 0.35, .object([("ops", [.object([("translate", [180, 0])]), .object([("rotate", .number(.pi(0.3)))])])])),
    ]

    static func keyframe(_ start: Double, _ duration: Double, _ transform: Template) -> Template {
        .object([("start", .number(.constant(start))), ("duration", .number(.constant(duration))),
                 ("to", .object([("transform", transform)]))])
    }

    static let dropDismiss = PresetDefinition(
        name: "dropDismiss",
        about: "The keyframed fall (UIView.animateKeyframes): the presented view turns clockwise to 90°, on to 180°, swings "
            + "past to 234°, back to 144°, then falls away, while a dimming cover fades out.",
        parameters: [
            duration(1, "seconds, of the whole fall and of the fade"),
            PresetParameter("timing", .timing(springs: .none), default: .string("easeInOut"),
                            "the curve over the whole keyframe time (UIKit's default options curve is easeInOut; `linear` keeps "
                                + "the keyframes' relative times exact)"),
            PresetParameter("coverColor", .color, default: .array([.number(0), .number(0), .number(0), .number(0.5)]),
                            "the dimming cover's backgroundColor"),
        ],
        views: [
            PresetView(name: "to", placement: .frame(.container)),
            PresetView(name: "cover", placement: .frame(.container), color: .parameter("coverColor"), channels: [("alpha", 1)]),
            PresetView(name: "from", placement: .center(.center), channels: [("transform", .object([("rotation", 0)]))]),
        ],
        animations: [
            block("drop", on: "from", [("keyframes", fall)]),
            block("fade", on: "cover", [("to", .object([("alpha", 0)]))]),
        ],
        remark: "Rotations take the shorter arc (no rotationPath); the timing applies to the whole keyframe time, as UIKit's "
            + "options curve does.")

    static let crossDissolve = PresetDefinition(
        name: "crossDissolve",
        about: "A cross-dissolve (UIModalTransitionStyle.crossDissolve): the old view fades out while the new one fades in.",
        parameters: [duration(0.3), timing("easeInOut")],
        views: [
            PresetView(name: "from", placement: .frame(.container), channels: [("alpha", 1)]),
            PresetView(name: "to", placement: .frame(.container), channels: [("alpha", 0)]),
        ],
        animations: [
            block("fadeOut", on: "from", [("to", .object([("alpha", 0)]))]),
            block("fadeIn", on: "to", [("to", .object([("alpha", 1)]))]),
        ])
}
