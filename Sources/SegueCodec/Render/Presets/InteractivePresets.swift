import SegueJSON

/// The presets a finger drives: a percent-driven dismissal and a draggable pane.
extension PresetTable {
    /// A 0.25 s upward flick to 55 % of `distance`, [t, fraction of distance] — past the default
    /// threshold, so the default swipe finishes.
    static let flick: [(Double, Double)] = [(0, 0), (0.05, 0.04), (0.1, 0.12), (0.15, 0.25), (0.2, 0.4), (0.25, 0.55)]

    static let swipeUpDismiss = PresetDefinition(
        name: "swipeUpDismiss",
        about: "An interactive dismissal (UIPercentDrivenInteractiveTransition driven by a pan): the presented view follows the "
            + "finger up out of the container, then finishes or cancels on release.",
        parameters: [
            duration(0.3, "seconds: the dismissal animation's duration, which the percent scrubs"),
            PresetParameter("timing", .timing(springs: .none), default: .string("linear"),
                            "the dismissal's curve (linear keeps the view under the finger)"),
            PresetParameter("distance", .number(.length), default: .computed(.number(.h), why: "the container's height"),
                            "points of upward translation that complete the dismissal"),
            PresetParameter("threshold", .number(.unit), default: .number(0.5),
                            "the transition finishes when the last percent exceeds it, else cancels"),
            PresetParameter("samples", .panLog,
                            default: .computed(.array(flick.map { [.number(.constant($0.0)), .number($0.1 * .parameter("distance", component: nil))] }),
                                               why: "a 0.25 s flick to 55 % of distance, which finishes at the default threshold"),
                            "the pan's log, translations upward in points"),
            PresetParameter("completionSpeed", .number(.positive), default: .number(1),
                            "the speed of the finish or cancel after the release (UIPercentDrivenInteractiveTransition's)"),
            PresetParameter("completionCurve", .timing(springs: .none), default: .string("easeInOut"),
                            "the curve of the finish or cancel after the release"),
        ],
        views: [
            PresetView(name: "to", placement: .frame(.container)),
            PresetView(name: "from", placement: .frame(.container)),
        ],
        animations: [block("dismiss", on: "from", [("to", .object([("frame", .frame(dy: -1 * .h))]))])],
        interaction: .object([
            ("animations", ["dismiss"]),
            ("gesture", .object([("kind", "pan"), ("distance", .parameter("distance")), ("threshold", .parameter("threshold")),
                                 ("samples", .parameter("samples"))])),
            ("completionSpeed", .parameter("completionSpeed")),
            ("completionCurve", .parameter("completionCurve")),
        ]),
        remark: "Translations are measured upward (toward finishing).")

    /// An upward flick from `closed`, [t, dy] — 100 points in 0.2 s, which opens the pane.
    static let paneFlick: [(Double, Double)] = [(0, 0), (0.05, -10), (0.1, -30), (0.15, -60), (0.2, -100)]

    static let pane = PresetDefinition(
        name: "pane",
        about: "A draggable panel on a UIKit Dynamics attachment (the objc.io interactive pane): dragged by the finger, released "
            + "toward one of its two positions, and toggled between them by each tap, keeping its velocity.",
        parameters: [
            PresetParameter("open", .position, default: .computed(.numbers([.midX, .y + 0.6 * .h]),
                                                                   why: "the pane's top 10 % of the height below the container's top"),
                            "the pane's centre when open"),
            PresetParameter("closed", .position, default: .computed(.numbers([.midX, .y + 1.4 * .h]),
                                                                     why: "a strip of 10 % of the height showing at the bottom"),
                            "the pane's centre when closed, where it starts"),
            PresetParameter("samples", .dragLog(x: "closed"),
                            default: .computed(.array(paneFlick.map { step in
                                .numbers([.constant(step.0), .parameter("closed", component: 0),
                                          .parameter("closed", component: 1) + .constant(step.1)])
                            }), why: "an upward flick from closed, which opens the pane"),
                            "the drag's finger log"),
            PresetParameter("taps", .times, default: .array([]), "taps, each toggling the pane to the other position"),
            PresetParameter("frequency", .number(.positive), default: .number(3.5), "the attachment's frequency in Hz"),
            PresetParameter("damping", .number(.nonNegative), default: .number(0.4), "the attachment's damping ratio"),
        ],
        views: [PresetView(name: "pane", placement: .center(.parameter("closed")))],
        animations: [
            PresetAnimation("pane", on: "pane", [
                ("to", .object([("center", .parameter("closed"))])),
                ("dynamics", .object([("model", "attachment"), ("frequency", .parameter("frequency")),
                                      ("damping", .parameter("damping"))])),
                ("autostart", false),
            ]),
        ],
        commands: DragAndTaps(animation: "pane", channel: "center", samples: "samples", taps: "taps", resting: "closed",
                              raised: "open", deciding: 1))
}
