import SegueEngine
import SegueJSON

/// Transition presets (docs/rules.md "Presets", rule 25): `"transition": {"preset": NAME,
/// "container": [x, y, w, h], …parameters}` stands for a whole render request — views,
/// animations and, where the preset needs them, `commands` and `interaction` — built the way an
/// iOS engineer builds that transition with UIKit.
///
/// Every preset animates inside `container`, given in the coordinate space of the reported
/// channels (with UIKit's `containerView.bounds` it is `[0, 0, w, h]`). The views are `from` and
/// `to`, the presenting and presented view controllers' views (plus `cover` for `dropDismiss`;
/// `pane` alone for `pane`). A view is given by `frame` unless it carries a transform, in which
/// case by `center` and `bounds`, as UIKit documents `frame` as undefined under a transform.
///
/// The expansions are Segue's (rule 25): the catalogue below documents each one exactly, and
/// `expand` and the catalogue read the same table, so every parameter `expand` accepts is listed
/// with its default. A default of `null` is computed from the container (or from other
/// parameters) as the parameter's description says; giving `null` is the same as leaving it out.
public enum Presets {
    /// The body of `GET /v1/presets` (docs/rules.md rule 25): `{"presets": [{"name", "description",
    /// "parameters": {name: {"default", "description"}}}]}` in the order of the contract's list.
    public static let catalogue: JSONValue = .object([
        .init("presets", .array(Preset.allCases.map { preset in
            .object([
                .init("name", .string(preset.rawValue)),
                .init("description", .string(preset.summary)),
                .init("parameters", .object(preset.parameters.map { parameter in
                    .init(parameter.name, .object([.init("default", parameter.defaultValue),
                                                   .init("description", .string(parameter.summary))]))
                })),
            ])
        })),
    ])

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

    static func expandTransition(_ value: JSONValue, limits: Limits) throws(Problem) -> [JSONValue.Member] {
        let p = JSONPointer.root / "transition"
        var object = try ObjectReader(value, at: p)
        guard let name = try object.string("preset") else {
            throw Problem.invalid("`preset` is required; expected " + Preset.names, at: p / "preset")
        }
        guard let preset = Preset(rawValue: name) else {
            throw Problem.invalid("unknown preset `\(name.prefix(100))`; expected " + Preset.names, at: p / "preset")
        }
        let accepted = ["preset", "container"] + preset.parameters.map(\.name)
        for key in object.keys where !accepted.contains(key) && object.has(key) {
            let names = preset.parameters.map { "`\($0.name)`" }.joined(separator: ", ")
            throw Problem.invalid("unknown parameter `\(key.prefix(100))` of preset \(preset.rawValue); its parameters are "
                                  + names, at: p / key)
        }
        guard let containerValue = object.value("container") else {
            throw Problem.invalid("`container` [x, y, w, h] is required for every preset", at: p / "container")
        }
        let container = try Container(containerValue, at: p / "container")
        var parameters = ParameterReader(object: object, preset: preset, limits: limits)
        let members = try preset.expand(container, &parameters)
        try parameters.object.rejectUnknown()
        return [.init("container", container.json)] + members
    }
}

// MARK: - The table

/// One catalogued parameter: its default (`null`: computed, as `summary` says) and description.
struct PresetParameter: Sendable {
    var name: String
    var defaultValue: JSONValue
    var summary: String
}

/// The presets of docs/rules.md "Presets", in the contract's order.
enum Preset: String, CaseIterable, Sendable {
    case bouncePresent, slideDismiss, zoomPush, zoomPop, dropDismiss, crossDissolve, swipeUpDismiss, pane

    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The catalogue's description: exactly what the preset expands into.
    var summary: String {
        switch self {
        case .bouncePresent:
            "A modal presentation on a UIKit spring (UIView.animate(withDuration:delay:usingSpringWithDamping:"
                + "initialSpringVelocity:)): the presented view rises from below the container and bounces into place. "
                + "Views, bottom to top: `from` {frame: container}, `to` {frame: [x, y + h, w, h]} (the container moved "
                + "down by its height). Animations: `present` on `to` {duration, timing: {type: spring, dampingRatio, "
                + "initialVelocity}, to: {frame: container}}."
        case .slideDismiss:
            "A modal dismissal: the presented view slides down out of the container, uncovering the presenting "
                + "view underneath. Views, bottom to top: `to` {frame: container}, `from` {frame: container}. Animations: `dismiss` on "
                + "`from` {duration, timing, to: {frame: [x, y + h, w, h]}}."
        case .zoomPush:
            "A push that zooms the new view in from its centre. Views, bottom to top: `from` {frame: container}, `to` {center: "
                + "[x + w/2, y + h/2], bounds: [0, 0, w, h], transform: {scale: [0, 0]}}. Animations: `push` on `to` "
                + "{duration, timing, to: {transform: {scale: [1, 1]}}} (both ends as components, so that the scale "
                + "from 0 animates)."
        case .zoomPop:
            "A pop that zooms the old view out to its centre, uncovering the view underneath. Views, bottom to top: `to` "
                + "{frame: container}, `from` {center: [x + w/2, y + h/2], bounds: [0, 0, w, h], transform: {scale: [1, 1]}}. "
                + "Animations: `pop` on `from` {duration, timing, to: {transform: {scale: [0, 0]}}}."
        case .dropDismiss:
            "The keyframed fall (UIView.animateKeyframes): the presented view turns clockwise to 90°, on to 180°, swings "
                + "past to 234°, back to 144°, then falls away, while a dimming cover fades out. Views, bottom to top: `to` "
                + "{frame: container}, `cover` {frame: container, backgroundColor: coverColor, alpha: 1}, `from` {center: "
                + "[x + w/2, y + h/2], bounds: [0, 0, w, h], transform: {rotation: 0}}. Animations: `drop` on `from` {duration, "
                + "timing, keyframes: [{start 0, duration 0.15, to transform {rotation: -1.5π}}, {start 0.15, duration "
                + "0.1, rotation: π}, {start 0.25, duration 0.2, rotation: 1.3π}, {start 0.45, duration 0.2, rotation: "
                + "0.8π}, {start 0.65, duration 0.35, transform {ops: [{translate: [180, 0]}, {rotate: 0.3π}]}}]} "
                + "(rotation along the shorter arc, the default), and `fade` on `cover` {duration, timing, to: {alpha: "
                + "0}}. The timing applies to the whole keyframe time, as UIKit's options curve does."
        case .crossDissolve:
            "A cross-dissolve (UIModalTransitionStyle.crossDissolve): the old view fades out while the new one fades in. "
                + "Views, bottom to top: `from` {frame: container, alpha: 1}, `to` {frame: container, alpha: 0}. Animations: `fadeOut` "
                + "on `from` {duration, timing, to: {alpha: 0}} and `fadeIn` on `to` {duration, timing, to: {alpha: 1}}."
        case .swipeUpDismiss:
            "An interactive dismissal (UIPercentDrivenInteractiveTransition driven by a pan): the presented view follows "
                + "the finger up out of the container, then finishes or cancels on release. Views, bottom to top: `to` "
                + "{frame: container}, `from` {frame: container}. Animations: `dismiss` on `from` {duration, timing, to: {frame: "
                + "[x, y - h, w, h]}}. Interaction: {animations: [dismiss], gesture: {kind: pan, distance, threshold, "
                + "samples}, completionSpeed, completionCurve}; translations are measured upward (toward finishing)."
        case .pane:
            "A draggable panel on a UIKit Dynamics attachment (the objc.io interactive pane): dragged by the finger, "
                + "released toward `open` when the release velocity points up (y < 0) and toward `closed` otherwise, "
                + "and toggled between the two by each tap, keeping its velocity. Views: `pane` {center: closed, bounds: "
                + "[0, 0, w, h]}. Animations: `pane` on `pane` {to: {center: closed}, dynamics: {model: attachment, "
                + "frequency, damping}, autostart: false}. Commands, in time order (a tap at the release time after "
                + "it): a `drag` at the first sample's t with the samples as [t, x, y]; a `retarget` at the last "
                + "sample's t to {center: open or closed} by the release velocity (least-squares slope of the last 100 "
                + "ms); and at each time in `taps` a `retarget` to the other position than the last "
                + "one aimed at (starting from closed). With no samples there is no drag and no release retarget."
        }
    }

    var parameters: [PresetParameter] {
        switch self {
        case .bouncePresent:
            [.init(name: "duration", defaultValue: .number(0.8), summary: "seconds; the UIKit spring's duration"),
             .init(name: "dampingRatio", defaultValue: .number(0.6),
                   summary: "the spring's damping ratio (≥ 0; below 1 it overshoots and bounces)"),
             .init(name: "initialVelocity", defaultValue: .number(0),
                   summary: "initialSpringVelocity: the whole distance per second (UIKit's convention)")]
        case .slideDismiss:
            [.init(name: "duration", defaultValue: .number(0.3), summary: "seconds"),
             .init(name: "timing", defaultValue: .string("easeIn"),
                   summary: "any timing that runs for a duration: a name, CSS text or a timing object (a spring only with `dampingRatio`)")]
        case .zoomPush, .zoomPop:
            [.init(name: "duration", defaultValue: .number(0.4), summary: "seconds"),
             .init(name: "timing", defaultValue: .string("easeInOut"),
                   summary: "any timing that runs for a duration: a name, CSS text or a timing object (a spring only with `dampingRatio`)")]
        case .dropDismiss:
            [.init(name: "duration", defaultValue: .number(1), summary: "seconds, of the whole fall and of the fade"),
             .init(name: "timing", defaultValue: .string("easeInOut"),
                   summary: "a non-spring timing over the whole keyframe time (UIKit's default options curve is "
                       + "easeInOut; `linear` keeps the keyframes' relative times exact)"),
             .init(name: "coverColor", defaultValue: .array([.number(0), .number(0), .number(0), .number(0.5)]),
                   summary: "the dimming cover's backgroundColor [r, g, b, a], components in 0…1")]
        case .crossDissolve:
            [.init(name: "duration", defaultValue: .number(0.3), summary: "seconds"),
             .init(name: "timing", defaultValue: .string("easeInOut"),
                   summary: "any timing that runs for a duration: a name, CSS text or a timing object (a spring only with `dampingRatio`)")]
        case .swipeUpDismiss:
            [.init(name: "duration", defaultValue: .number(0.3),
                   summary: "seconds: the dismissal animation's duration, which the percent scrubs"),
             .init(name: "timing", defaultValue: .string("linear"),
                   summary: "a non-spring timing for the animation (linear keeps the view under the finger)"),
             .init(name: "distance", defaultValue: .null,
                   summary: "points of upward translation that complete the dismissal (> 0); null: the container's "
                       + "height h"),
             .init(name: "threshold", defaultValue: .number(0.5),
                   summary: "in 0…1: the transition finishes when the last percent exceeds it, else cancels"),
             .init(name: "samples", defaultValue: .null,
                   summary: "the pan's log [[t, translation], …], as the pan gesture takes it: absolute times ≥ 0, never decreasing, "
                       + "translation upward in points; null: a 0.25 s flick to 55 % of distance, [[0, 0], "
                       + "[0.05, 0.04·distance], [0.1, 0.12·distance], [0.15, 0.25·distance], [0.2, 0.4·distance], "
                       + "[0.25, 0.55·distance]], which finishes at the default threshold"),
             .init(name: "completionSpeed", defaultValue: .number(1), summary: "> 0, as UIPercentDrivenInteractiveTransition"),
             .init(name: "completionCurve", defaultValue: .string("easeInOut"),
                   summary: "a non-spring timing for the finish or cancel after release")]
        case .pane:
            [.init(name: "open", defaultValue: .null,
                   summary: "the pane's centre when open: a point [x, y] or a y (x then the container's mid x); null: "
                       + "[x + w/2, y + 0.6·h], the pane's top 10 % of the height below the container's top"),
             .init(name: "closed", defaultValue: .null,
                   summary: "the pane's centre when closed, where it starts: a point [x, y] or a y; null: "
                       + "[x + w/2, y + 1.4·h], a strip of 10 % of the height showing at the bottom"),
             .init(name: "samples", defaultValue: .null,
                   summary: "the drag's finger log, [[t, y], …] (x stays closed's x) or [[t, x, y], …], in absolute "
                       + "times ≥ 0, strictly increasing, at least two; [] for no drag; null: an upward flick from "
                       + "closed (cx, cy): [[0, cx, cy], [0.05, cx, cy - 10], [0.1, cx, cy - 30], [0.15, cx, cy - 60], "
                       + "[0.2, cx, cy - 100]], which opens the pane"),
             .init(name: "taps", defaultValue: .array([]),
                   summary: "times (≥ 0, non-decreasing) of taps, each toggling the pane to the other position"),
             .init(name: "frequency", defaultValue: .number(3.5), summary: "the attachment's frequency in Hz (> 0)"),
             .init(name: "damping", defaultValue: .number(0.4), summary: "the attachment's damping ratio (≥ 0)")]
        }
    }

    func expand(_ c: Container, _ parameters: inout ParameterReader) throws(Problem) -> [JSONValue.Member] {
        switch self {
        case .bouncePresent:
            let duration = try parameters.duration("duration")
            let ratio = try parameters.number("dampingRatio")
            try Check.nonNegative(ratio, parameters.pointer / "dampingRatio")
            let velocity = try parameters.number("initialVelocity")
            return [
                .init("views", object(("from", object(("frame", c.frame))),
                                      ("to", object(("frame", c.frame(dy: c.h)))))),
                .init("animations", .array([
                    object(("id", .string("present")), ("view", .string("to")), ("duration", duration),
                           ("timing", object(("type", .string("spring")), ("dampingRatio", .number(ratio)),
                                             ("initialVelocity", .number(velocity)))),
                           ("to", object(("frame", c.frame)))),
                ])),
            ]
        case .slideDismiss:
            let duration = try parameters.duration("duration")
            let timing = try parameters.timing("timing", allowsDurationSpring: true)
            return [
                .init("views", object(("to", object(("frame", c.frame))), ("from", object(("frame", c.frame))))),
                .init("animations", .array([
                    object(("id", .string("dismiss")), ("view", .string("from")), ("duration", duration), ("timing", timing),
                           ("to", object(("frame", c.frame(dy: c.h))))),
                ])),
            ]
        case .zoomPush, .zoomPop:
            return try zoom(c, &parameters)
        case .dropDismiss:
            return try dropDismiss(c, &parameters)
        case .crossDissolve:
            let duration = try parameters.duration("duration")
            let timing = try parameters.timing("timing", allowsDurationSpring: true)
            return [
                .init("views", object(("from", object(("frame", c.frame), ("alpha", .number(1)))),
                                      ("to", object(("frame", c.frame), ("alpha", .number(0)))))),
                .init("animations", .array([
                    object(("id", .string("fadeOut")), ("view", .string("from")), ("duration", duration), ("timing", timing),
                           ("to", object(("alpha", .number(0))))),
                    object(("id", .string("fadeIn")), ("view", .string("to")), ("duration", duration), ("timing", timing),
                           ("to", object(("alpha", .number(1))))),
                ])),
            ]
        case .swipeUpDismiss:
            return try swipeUpDismiss(c, &parameters)
        case .pane:
            return try pane(c, &parameters)
        }
    }

    /// `zoomPush` / `zoomPop`: the incoming (outgoing) view scales from 0 to 1 (1 to 0) about its
    /// centre over the still one.
    private func zoom(_ c: Container, _ parameters: inout ParameterReader) throws(Problem) -> [JSONValue.Member] {
        let duration = try parameters.duration("duration")
        let timing = try parameters.timing("timing", allowsDurationSpring: true)
        let push = self == .zoomPush
        func scale(_ s: Double) -> JSONValue { object(("scale", numbers([s, s]))) }
        let zooming = object(("center", c.center), ("bounds", c.bounds), ("transform", scale(push ? 0 : 1)))
        let still = object(("frame", c.frame))
        return [
            // A push adds the incoming view above; a pop inserts the one uncovered below (rule 40).
            .init("views", push ? object(("from", still), ("to", zooming)) : object(("to", still), ("from", zooming))),
            .init("animations", .array([
                object(("id", .string(push ? "push" : "pop")), ("view", .string(push ? "to" : "from")),
                       ("duration", duration), ("timing", timing), ("to", object(("transform", scale(push ? 1 : 0))))),
            ])),
        ]
    }

    /// `dropDismiss`: the keyframed fall of the outgoing view while a cover fades out.
    private func dropDismiss(_ c: Container, _ parameters: inout ParameterReader) throws(Problem) -> [JSONValue.Member] {
        let duration = try parameters.duration("duration")
        let timing = try parameters.timing("timing", allowsDurationSpring: false)
        let color = try parameters.color("coverColor")
        // The fall (docs/transforms.md "The drop-dismiss fall"): relative starts and durations, rotations; the last
        // keyframe concatenates translate(180, 0) then rotate(0.3π).
        let pi = Double.pi
        let turns: [(start: Double, duration: Double, to: JSONValue)] = [
            (0, 0.15, object(("rotation", .number(-1.5 * pi)))),
            (0.15, 0.10, object(("rotation", .number(pi)))),
            (0.25, 0.20, object(("rotation", .number(1.3 * pi)))),
            (0.45, 0.20, object(("rotation", .number(0.8 * pi)))),
            (0.65, 0.35, object(("ops", .array([object(("translate", numbers([180, 0]))),
                                                object(("rotate", .number(0.3 * pi)))])))),
        ]
        let keyframes = turns.map { turn in
            object(("start", .number(turn.start)), ("duration", .number(turn.duration)),
                   ("to", object(("transform", turn.to))))
        }
        return [
            // Bottom to top (rule 40): the view uncovered, the dimming cover, the view that falls.
            .init("views", object(
                ("to", object(("frame", c.frame))),
                ("cover", object(("frame", c.frame), ("backgroundColor", color), ("alpha", .number(1)))),
                ("from", object(("center", c.center), ("bounds", c.bounds), ("transform", object(("rotation", .number(0)))))))),
            .init("animations", .array([
                object(("id", .string("drop")), ("view", .string("from")), ("duration", duration), ("timing", timing),
                       ("keyframes", .array(keyframes))),
                object(("id", .string("fade")), ("view", .string("cover")), ("duration", duration), ("timing", timing),
                       ("to", object(("alpha", .number(0))))),
            ])),
        ]
    }

    private func swipeUpDismiss(_ c: Container, _ parameters: inout ParameterReader) throws(Problem) -> [JSONValue.Member] {
        let p = parameters.pointer
        let duration = try parameters.duration("duration")
        let timing = try parameters.timing("timing", allowsDurationSpring: false)
        let distance = try parameters.optionalNumber("distance") ?? c.h
        try Check.positive(distance, p / "distance")
        try Check.within(distance, 0...ChannelDecoder.maxMagnitude, p / "distance")
        let threshold = try parameters.number("threshold")
        try Check.within(threshold, 0...1, p / "threshold")
        let samples: JSONValue
        if let given = try parameters.optionalArray("samples") {
            guard !given.isEmpty else { throw Problem.invalid("`samples` needs at least one [t, translation]", at: p / "samples") }
            guard given.count <= parameters.limits.maxSamples else {
                throw Problem.invalid("\(given.count) samples are over the limit of \(parameters.limits.maxSamples)", at: p / "samples")
            }
            // The pan gesture's own rules (times non-decreasing), so that the preset takes every log the gesture takes.
            _ = try InteractionDecoder.gestureSamples(given, width: 2, at: p / "samples", limits: parameters.limits)
            samples = .array(given)
        } else {
            let log: [(Double, Double)] = [(0, 0), (0.05, 0.04), (0.1, 0.12), (0.15, 0.25), (0.2, 0.4), (0.25, 0.55)]
            samples = .array(log.map { numbers([$0.0, $0.1 * distance]) })
        }
        let completionSpeed = try parameters.number("completionSpeed")
        try Check.positive(completionSpeed, p / "completionSpeed")
        let completionCurve = try parameters.timing("completionCurve", allowsDurationSpring: false)
        return [
            .init("views", object(("to", object(("frame", c.frame))), ("from", object(("frame", c.frame))))),
            .init("animations", .array([
                object(("id", .string("dismiss")), ("view", .string("from")), ("duration", duration), ("timing", timing),
                       ("to", object(("frame", c.frame(dy: -c.h))))),
            ])),
            .init("interaction", object(
                ("animations", .array([.string("dismiss")])),
                ("gesture", object(("kind", .string("pan")), ("distance", .number(distance)),
                                   ("threshold", .number(threshold)), ("samples", samples))),
                ("completionSpeed", .number(completionSpeed)),
                ("completionCurve", completionCurve))),
        ]
    }

    private func pane(_ c: Container, _ parameters: inout ParameterReader) throws(Problem) -> [JSONValue.Member] {
        let p = parameters.pointer
        let open = try parameters.position("open", in: c) ?? [c.midX, c.y + 0.6 * c.h]
        let closed = try parameters.position("closed", in: c) ?? [c.midX, c.y + 1.4 * c.h]
        var drag: [[Double]]
        if let given = try parameters.optionalArray("samples") {
            drag = try Samples.read(given, widths: [2, 3], at: p / "samples", what: "[t, y] or [t, x, y]",
                                   limits: parameters.limits)
            guard drag.isEmpty || drag.count >= 2 else {
                throw Problem.invalid("a drag needs at least two samples (or [] for none)", at: p / "samples")
            }
            drag = drag.map { $0.count == 2 ? [$0[0], closed[0], $0[1]] : $0 }
        } else {
            drag = [(0, 0), (0.05, -10), (0.1, -30), (0.15, -60), (0.2, -100)].map { [$0.0, closed[0], closed[1] + $0.1] }
        }
        var taps: [Double] = []
        for (i, element) in (try parameters.optionalArray("taps") ?? []).enumerated() {
            guard case .number(let t) = element else {
                throw Problem.wrongType(at: p / "taps" / i, expected: "a number", found: element)
            }
            try Check.within(t, 0...parameters.limits.maxDuration, p / "taps" / i)
            guard t >= (taps.last ?? 0) else { throw Problem.invalid("tap times must not decrease", at: p / "taps" / i) }
            taps.append(t)
        }
        // One animation, a drag, a release retarget and a retarget per tap.
        guard taps.count + 3 <= parameters.limits.maxAnimations else {
            throw Problem.invalid("\(taps.count) taps are over the limit of \(parameters.limits.maxAnimations) commands",
                                  at: p / "taps")
        }
        let frequency = try parameters.number("frequency")
        try Check.positive(frequency, p / "frequency")
        let damping = try parameters.number("damping")
        try Check.nonNegative(damping, p / "damping")

        func retarget(_ at: Double, _ center: [Double]) -> JSONValue {
            object(("at", .number(at)), ("animation", .string("pane")), ("op", .string("retarget")),
                   ("to", object(("center", numbers(center)))))
        }
        // The commands in time order; at equal times the drag's own commands come first.
        var commands: [JSONValue] = []
        var isOpen = false
        var pending = taps[...]
        func tapsBefore(_ time: Double) {
            while let tap = pending.first, tap < time {
                pending.removeFirst()
                isOpen.toggle()
                commands.append(retarget(tap, isOpen ? open : closed))
            }
        }
        if let first = drag.first, let last = drag.last {
            tapsBefore(first[0])
            commands.append(object(("at", .number(first[0])), ("animation", .string("pane")), ("op", .string("drag")),
                                   ("samples", .array(drag.map(numbers)))))
            tapsBefore(last[0])
            // Released moving up (screen y grows downward) → open; down or still → closed.
            let velocity = DragRelease.velocity(of: drag.map { DragSample(t: $0[0], value: [$0[1], $0[2]]) })
            isOpen = velocity.count == 2 && velocity[1] < 0
            commands.append(retarget(last[0], isOpen ? open : closed))
        }
        tapsBefore(.infinity)

        var members: [JSONValue.Member] = [
            .init("views", object(("pane", object(("center", numbers(closed)), ("bounds", c.bounds))))),
            .init("animations", .array([
                object(("id", .string("pane")), ("view", .string("pane")), ("to", object(("center", numbers(closed)))),
                       ("dynamics", object(("model", .string("attachment")), ("frequency", .number(frequency)),
                                           ("damping", .number(damping)))),
                       ("autostart", .bool(false))),
            ])),
        ]
        if !commands.isEmpty { members.append(.init("commands", .array(commands))) }
        return members
    }
}

// MARK: - Reading parameters

/// `container` [x, y, w, h] (docs/rules.md "Views and channels"): the box a render's views are
/// laid out in, given at the top of a render or in a preset's `transition`. Width and height are
/// > 0; every number is within `bound`.
public struct Container: Sendable, Equatable {
    public var x, y, w, h: Double

    /// Largest magnitude of a container number: a quarter of the channel bound, so that every
    /// position a preset computes from it (at most y + 1.4·h) stays within that bound.
    static let bound = ChannelDecoder.maxMagnitude / 4

    init(_ value: JSONValue, at pointer: JSONPointer) throws(Problem) {
        guard case .array(let elements) = value else {
            throw Problem.wrongType(at: pointer, expected: "an array [x, y, w, h]", found: value)
        }
        guard elements.count == 4 else {
            throw Problem.invalid("`container` is [x, y, w, h]: four numbers, not \(elements.count)", at: pointer)
        }
        var numbers: [Double] = []
        for (i, element) in elements.enumerated() {
            guard case .number(let number) = element else {
                throw Problem.wrongType(at: pointer / i, expected: "a number", found: element)
            }
            numbers.append(number)
        }
        for (i, number) in numbers.enumerated() { try Check.within(number, -Container.bound...Container.bound, pointer / i) }
        try Check.positive(numbers[2], pointer / 2)
        try Check.positive(numbers[3], pointer / 3)
        (x, y, w, h) = (numbers[0], numbers[1], numbers[2], numbers[3])
    }

    var json: JSONValue { numbers([x, y, w, h]) }
    var midX: Double { x + w / 2 }
    var frame: JSONValue { frame(dy: 0) }
    func frame(dy: Double) -> JSONValue { numbers([x, y + dy, w, h]) }
    var center: JSONValue { numbers([x + w / 2, y + h / 2]) }
    var bounds: JSONValue { numbers([0, 0, w, h]) }
}

/// The preset's parameters: each read once, given or at its catalogued default.
struct ParameterReader {
    var object: ObjectReader
    let preset: Preset
    let limits: Limits

    var pointer: JSONPointer { object.pointer }

    /// The given value, or the catalogued default (`nil` when that is `null`: computed).
    mutating func value(_ name: String) -> JSONValue? {
        guard let parameter = preset.parameters.first(where: { $0.name == name }) else {
            preconditionFailure("preset \(preset.rawValue) reads `\(name)`, which its catalogue does not list")
        }
        if let given = object.value(name) { return given }
        return parameter.defaultValue == .null ? nil : parameter.defaultValue
    }

    mutating func optionalNumber(_ name: String) throws(Problem) -> Double? {
        guard let value = value(name) else { return nil }
        guard case .number(let number) = value else {
            throw Problem.wrongType(at: pointer / name, expected: "a number", found: value)
        }
        return number
    }

    /// A parameter with a numeric default.
    mutating func number(_ name: String) throws(Problem) -> Double {
        guard let number = try optionalNumber(name) else {
            preconditionFailure("`\(name)` of \(preset.rawValue) has no numeric default")
        }
        return number
    }

    mutating func optionalArray(_ name: String) throws(Problem) -> [JSONValue]? {
        guard let value = value(name) else { return nil }
        guard case .array(let elements) = value else {
            throw Problem.wrongType(at: pointer / name, expected: "an array", found: value)
        }
        return elements
    }

    /// A duration in seconds (> 0, within the duration limit), as a JSON number.
    mutating func duration(_ name: String) throws(Problem) -> JSONValue {
        let seconds = try number(name)
        try Check.duration(seconds, limits: limits, pointer / name)
        return .number(seconds)
    }

    /// A timing as given (validated by the timing decoder, docs/rules.md "Timing curves"). Springs other than the
    /// UIKit `dampingRatio` set run for their settling duration and cannot take the preset's
    /// duration; keyframes and completion curves take no spring at all (rules 7, 11, 19).
    mutating func timing(_ name: String, allowsDurationSpring: Bool) throws(Problem) -> JSONValue {
        let at = pointer / name
        guard let value = value(name) else { preconditionFailure("`\(name)` has a default") }
        if case .spring(let spring) = try TimingDecoder.decode(value, at: at) {
            guard allowsDurationSpring else { throw Problem.invalid("`\(name)` cannot be a spring here", at: at) }
            guard spring.takesDuration else {
                throw Problem.invalid("`\(name)` runs for the preset's duration: only the UIKit spring (dampingRatio) "
                                      + "takes one", at: at)
            }
        }
        return value
    }

    /// A colour `[r, g, b, a]`, components in 0…1.
    mutating func color(_ name: String) throws(Problem) -> JSONValue {
        let at = pointer / name
        guard let elements = try optionalArray(name) else { preconditionFailure("`\(name)` has a default") }
        guard elements.count == 4 else { throw Problem.invalid("a colour is [r, g, b, a], not \(elements.count) numbers", at: at) }
        for (i, element) in elements.enumerated() {
            guard case .number(let component) = element else {
                throw Problem.wrongType(at: at / i, expected: "a number", found: element)
            }
            try Check.within(component, 0...1, at / i)
        }
        return .array(elements)
    }

    /// A position: a point `[x, y]`, or a number y with x the container's mid x.
    mutating func position(_ name: String, in container: Container) throws(Problem) -> [Double]? {
        guard let value = value(name) else { return nil }
        switch value {
        case .number(let y):
            try Check.within(y, -ChannelDecoder.maxMagnitude...ChannelDecoder.maxMagnitude, pointer / name)
            return [container.midX, y]
        case .array:
            let (x, y) = try Check.pair(value, pointer / name)
            try Check.within(x, -ChannelDecoder.maxMagnitude...ChannelDecoder.maxMagnitude, pointer / name / 0)
            try Check.within(y, -ChannelDecoder.maxMagnitude...ChannelDecoder.maxMagnitude, pointer / name / 1)
            return [x, y]
        default:
            throw Problem.wrongType(at: pointer / name, expected: "a point [x, y] or a number y", found: value)
        }
    }
}

/// Sample logs `[[t, v…], …]`: absolute times in [0, the duration limit], strictly increasing
/// (docs/rules.md rule 22), values within the channel bound, at most the sample limit.
enum Samples {
    static func read(_ elements: [JSONValue], widths: [Int], at pointer: JSONPointer, what: String,
                     limits: Limits) throws(Problem) -> [[Double]] {
        guard elements.count <= limits.maxSamples else {
            throw Problem.invalid("\(elements.count) samples are over the limit of \(limits.maxSamples)", at: pointer)
        }
        var rows: [[Double]] = []
        for (i, element) in elements.enumerated() {
            let at = pointer / i
            guard case .array(let entries) = element else {
                throw Problem.wrongType(at: at, expected: "an array \(what)", found: element)
            }
            guard widths.contains(entries.count), rows.first.map({ $0.count == entries.count }) ?? true else {
                throw Problem.invalid("each sample is \(what), all of one length; this one has \(entries.count) numbers", at: at)
            }
            var row: [Double] = []
            for (j, entry) in entries.enumerated() {
                guard case .number(let number) = entry else {
                    throw Problem.wrongType(at: at / j, expected: "a number", found: entry)
                }
                if j > 0 { try Check.within(number, -ChannelDecoder.maxMagnitude...ChannelDecoder.maxMagnitude, at / j) }
                row.append(number)
            }
            try Check.within(row[0], 0...limits.maxDuration, at / 0)
            if let previous = rows.last, row[0] <= previous[0] {
                throw Problem.invalid("sample times must increase strictly", at: at / 0)
            }
            rows.append(row)
        }
        return rows
    }
}

// MARK: - Building JSON

private func object(_ members: (String, JSONValue)...) -> JSONValue {
    .object(members.map { JSONValue.Member($0.0, $0.1) })
}

private func numbers(_ values: [Double]) -> JSONValue { .array(values.map(JSONValue.number)) }
