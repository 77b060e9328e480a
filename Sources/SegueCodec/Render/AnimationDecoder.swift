import SegueEngine
import SegueJSON

/// Where each animation named its channels in the request (`to`, a keyframe, `values`,
/// `channel`), so that the scene's warnings point into it.
struct TargetPointers {
    struct Key: Hashable {
        var animation: Int
        var channel: String
    }

    private var pointers: [Key: JSONPointer] = [:]

    mutating func record(_ pointer: JSONPointer, animation: Int, channel: String) {
        pointers[Key(animation: animation, channel: channel)] = pointer
    }

    /// The JSON Pointer of a scene warning's subject.
    func pointer(of subject: SceneSubject) -> JSONPointer {
        switch subject {
        case .target(let animation, let channel):
            pointers[Key(animation: animation, channel: channel)] ?? JSONPointer.root / "animations" / animation
        case .addedTarget(let command, let channel): JSONPointer.root / "commands" / command / "to" / channel
        case .command(let index): JSONPointer.root / "commands" / index
        case .interaction: JSONPointer.root / "interaction"
        }
    }
}

/// One entry of `animations` (docs/rules.md "Animations", rules 7–12), validated into the
/// engine's typed form: a block (`to`), UIView keyframes, CAKeyframeAnimation `values`, or
/// physics (`dynamics`, `PhysicsDecoder`).
enum AnimationDecoder {
    /// The three curve-driven forms, by the member that names them.
    enum FormName: String, CaseIterable {
        case to, keyframes, values
    }

    /// `work` is the running total of the request's work so far (`SceneCost`); building a
    /// `values` track adds to it, refused (413) before the build when it would pass the limit.
    /// `plansOnly` weighs the tracks without building them (a batch's plan).
    static func decode(_ json: JSONValue, index: Int, views: [SceneSpec.View], limits: Limits, warnings: inout [RequestWarning],
                       pointers: inout TargetPointers, work: inout Double,
                       plansOnly: Bool = false) throws(Problem) -> SceneSpec.Animation {
        let p = JSONPointer.root / "animations" / index
        var object = try ObjectReader(json, at: p)
        let id = try object.string("id") ?? "a\(index)"
        guard let viewName = try object.string("view") else { throw Problem.invalid("`view` is required", at: p / "view") }
        guard let view = views.first(where: { $0.name == viewName }) else {
            throw Problem.invalid(Vocabulary.unknown("view", viewName, known: views.map(\.name), listing: "the views are",
                                                   listedAtMost: Vocabulary.requestNamesListed),
                                  at: p / "view")
        }
        if object.has("dynamics") || object.has("velocity") {
            return try PhysicsDecoder.decode(&object, index: index, id: id, view: view, limits: limits, warnings: &warnings,
                                             pointers: &pointers)
        }
        let forms = FormName.allCases.filter { object.has($0.rawValue) }
        guard forms.count == 1 else {
            throw Problem.invalid(forms.isEmpty ? "an animation needs `to`, `keyframes` or `values`"
                                                : "give one of `to`, `keyframes` and `values`, not several",
                                  at: p / (forms.dropFirst().first?.rawValue ?? "to"))
        }
        let form = forms[0]
        object.accepts(FormName.allCases.map(\.rawValue) + ["dynamics"])
        let (curve, duration, givenDuration) = try curveAndDuration(&object, form: form, limits: limits, warnings: &warnings)
        let members = try AnimatorMembers(&object, limits: limits)
        let (repeatCount, autoreverses) = try repeats(&object)
        let additive: Bool
        switch try object.string("blend") ?? "replace" {
        case "replace": additive = false
        case "additive": additive = true
        case let other: throw Problem.invalid("unknown blend `\(other.prefix(50))`; expected replace or additive", at: p / "blend")
        }
        let direct: Bool
        switch try object.string("rotationPath") ?? "shortest" {
        case "shortest": direct = false
        case "direct": direct = true
        case let other:
            throw Problem.invalid("unknown rotationPath `\(other.prefix(50))`; expected shortest or direct", at: p / "rotationPath")
        }
        let mode = try calculationMode(&object, form: form)
        // Paced keyframe modes ignore the timing curve and use the raw time fraction (rule 11).
        let timing = ActiveTiming(curve: curve, duration: duration, repeatCount: repeatCount, autoreverses: autoreverses,
                                  ignoresCurve: form != .to && mode.isPaced)

        let context = TargetContext(view: view, pointer: p, plansOnly: plansOnly)
        let shape: SceneSpec.Form
        switch form {
        case .to:
            let targets = try context.to(object.value("to") ?? .null)
            for target in targets { pointers.record(target.pointer, animation: index, channel: target.value.channel) }
            shape = .block(SceneSpec.Block(timing: timing, to: targets.map(\.value), directRotation: direct))
        case .keyframes:
            let channels = try context.keyframes(object.array("keyframes") ?? [])
            for channel in channels { pointers.record(channel.pointer, animation: index, channel: channel.value.channel) }
            shape = .keyframes(SceneSpec.Keyframes(timing: timing, mode: mode, channels: channels.map(\.value)))
        case .values:
            let values = try context.values(&object, timing: timing, mode: mode, warnings: &warnings, work: &work,
                                            limits: limits)
            pointers.record(p / "values", animation: index, channel: values.channel)
            shape = .values(values)
        }
        try object.rejectUnknown()

        // The whole animation — delay, repeats, reversals, a spring's settling — ends within the
        // duration limit (an unbounded one needs `until`, checked with the timeline).
        let ends = members.delay + timing.activeDuration
        guard !ends.isFinite || ends <= limits.maxDuration else {
            let member = repeatCount != 1 || autoreverses ? "repeatCount" : (givenDuration == nil ? "timing" : "duration")
            throw Problem.invalid("this animation ends at \(ends) s, beyond the limit of \(limits.maxDuration) s", at: p / member)
        }
        return SceneSpec.Animation(id: id, view: view.name, form: shape, delay: members.delay, autostart: members.autostart,
                                   pausesOnCompletion: members.pausesOnCompletion, scrubsLinearly: members.scrubsLinearly,
                                   blend: additive ? .additive : .replace)
    }

    /// `timing` and `duration` (rules 7, 11): the curve and one pass's duration. UIView
    /// animations default to easeInOut, a CAKeyframeAnimation's `values` to linear; only the
    /// UIKit spring takes a duration, and springs drive only `to`.
    static func curveAndDuration(_ object: inout ObjectReader, form: FormName, limits: Limits, warnings: inout [RequestWarning])
        throws(Problem) -> (curve: TimingCurve, duration: Double, given: Double?) {
        let p = object.pointer
        let spec = try object.value("timing").map { value throws(Problem) in try TimingDecoder.decode(value, at: p / "timing") }
            ?? .named(form == .values ? .linear : .easeInOut)
        let givenDuration = try object.number("duration")
        if let givenDuration { try Check.duration(givenDuration, limits: limits, p / "duration") }
        if case .spring(let spring) = spec {
            guard form == .to else {
                throw Problem.invalid("a spring timing cannot drive \(form == .keyframes ? "keyframes" : "`values`")",
                                      at: p / "timing")
            }
            guard spring.takesDuration || givenDuration == nil else {
                throw Problem.invalid("only the UIKit spring (dampingRatio) takes a `duration`; this spring runs for its "
                                      + "settling duration", at: p / "duration")
            }
        }
        let resolved = try TimingResolver(timingAt: p / "timing", durationAt: p / "duration")
            .resolve(spec, duration: givenDuration, warnings: &warnings)
        guard let duration = resolved.ownDuration ?? givenDuration else {
            throw Problem.invalid("`duration` is required for this timing", at: p / "duration")
        }
        return (resolved.curve, duration, givenDuration)
    }

    /// `repeatCount` (a number ≥ 0 or "infinite") and `autoreverses` (rule 10).
    static func repeats(_ object: inout ObjectReader) throws(Problem) -> (count: Double, autoreverses: Bool) {
        let p = object.pointer
        var repeatCount = 1.0
        if let value = object.value("repeatCount") {
            switch value {
            case .string("infinite"):
                repeatCount = .infinity
            case .string(let other):
                throw Problem.invalid("`repeatCount` is a number ≥ 0 or \"infinite\", not \"\(other.prefix(50))\"",
                                      at: p / "repeatCount")
            case .number(let count):
                try Check.nonNegative(count, p / "repeatCount")
                repeatCount = count
            default:
                throw Problem.wrongType(at: p / "repeatCount", expected: "a number or \"infinite\"", found: value)
            }
        }
        return (repeatCount, try object.bool("autoreverses") ?? false)
    }

    /// `calculationMode` (keyframes and `values` only; default linear).
    static func calculationMode(_ object: inout ObjectReader, form: FormName) throws(Problem) -> CalculationMode {
        let p = object.pointer
        guard let name = try object.string("calculationMode") else { return .linear }
        guard form != .to else { throw Problem.invalid("`calculationMode` applies to keyframes", at: p / "calculationMode") }
        guard let mode = CalculationMode(rawValue: name) else {
            throw Problem.invalid("unknown calculationMode `\(name.prefix(50))`; expected linear, discrete, paced, cubic or "
                                  + "cubicPaced", at: p / "calculationMode")
        }
        return mode
    }
}

/// The members every animator has: `delay` (≥ 0, within the duration limit), `autostart`
/// (default true), `pausesOnCompletion` (default false) and `scrubsLinearly` (default true).
struct AnimatorMembers {
    var delay: Double
    var autostart: Bool
    var pausesOnCompletion: Bool
    var scrubsLinearly: Bool

    init(_ object: inout ObjectReader, limits: Limits) throws(Problem) {
        let p = object.pointer
        delay = try object.number("delay") ?? 0
        try Check.nonNegative(delay, p / "delay")
        guard delay <= limits.maxDuration else {
            throw Problem.invalid("`delay` must be ≤ the limit of \(limits.maxDuration) s, not \(delay)", at: p / "delay")
        }
        autostart = try object.bool("autostart") ?? true
        pausesOnCompletion = try object.bool("pausesOnCompletion") ?? false
        scrubsLinearly = try object.bool("scrubsLinearly") ?? true
    }
}

/// Resolves channel names against a view: kinds, defaults and the geometry rules of
/// docs/rules.md rule 5.
struct TargetContext {
    /// A decoded channel value and where it was named.
    struct Located<Value> {
        var value: Value
        var pointer: JSONPointer
    }

    let view: SceneSpec.View
    let pointer: JSONPointer
    /// A plan (`RenderRequest.plannedWork`): `values` tracks are weighed but not built.
    var plansOnly = false

    func kind(of channel: String, at: JSONPointer) throws(Problem) -> ChannelKind {
        if let given = view.channel(channel) { return given.kind }
        switch channel {
        case "frame", "center", "bounds":
            let gave = view.channel("frame") != nil ? "frame" : (view.channel("center") != nil || view.channel("bounds") != nil
                ? "center/bounds" : "no geometry")
            throw Problem.invalid("view `\(view.name)` gave \(gave): `\(channel)` has no default and cannot be animated",
                                  at: at)
        default:
            guard let kind = ChannelKind.builtIn(channel) else { throw unknownChannel(channel, at: at) }
            return kind
        }
    }

    /// The built-in channels (docs/rules.md "Views and channels").
    static let builtInChannels = ["frame", "center", "bounds", "alpha", "transform", "backgroundColor", "cornerRadius"]

    /// A channel the view does not give and that is not built in: which name to use when it is a
    /// CSS or Core Animation name of one that exists, and the channels that do (rule 46).
    func unknownChannel(_ channel: String, at: JSONPointer) -> Problem {
        let custom = view.channels.map(\.name).filter { ChannelKind.builtIn($0) == nil }
        let known = Self.builtInChannels + custom
        let listing = "the channels are " + Vocabulary.list(Self.builtInChannels)
            + (custom.isEmpty ? "" : ", and view `\(view.name)`'s own " + Vocabulary.list(custom))
        if let hint = Vocabulary.hint(for: channel, among: known) {
            return Problem.invalid("unknown channel `\(channel.prefix(100))`: \(hint); \(listing)", at: at)
        }
        return Problem.invalid("custom channel `\(channel.prefix(100))` must be given in view `\(view.name)`; \(listing)",
                               at: at)
    }

    func to(_ json: JSONValue) throws(Problem) -> [Located<SceneSpec.Target>] {
        let p = pointer / "to"
        guard case .object(let members) = json, !members.isEmpty else {
            throw Problem.invalid("`to` is an object of one or more channel values", at: p)
        }
        var targets: [Located<SceneSpec.Target>] = []
        for member in members {
            let at = p / member.key
            let kind = try kind(of: member.key, at: at)
            let value = try ChannelDecoder.value(member.value, name: member.key, kind: kind, at: at)
            targets.append(Located(value: SceneSpec.Target(channel: member.key, value: value), pointer: at))
        }
        return targets
    }

    /// UIView keyframes: `[{"start", "duration", "to"}]` with relative times (rule 11), per
    /// channel in the order each is first named.
    func keyframes(_ entries: [JSONValue]) throws(Problem) -> [Located<SceneSpec.Keyframes.Channel>] {
        let p = pointer / "keyframes"
        guard !entries.isEmpty else { throw Problem.invalid("`keyframes` needs at least one keyframe", at: p) }
        var order: [String] = []
        var byChannel: [String: [RelativeKeyframe<ChannelValue>]] = [:]
        var pointers: [String: JSONPointer] = [:]
        for (i, entry) in entries.enumerated() {
            var keyframe = try ObjectReader(entry, at: p / i)
            let start = try keyframe.requiredNumber("start", "in every keyframe")
            let duration = try keyframe.requiredNumber("duration", "in every keyframe")
            try Check.within(start, 0...1, p / i / "start")
            try Check.within(duration, 0...1, p / i / "duration")
            guard start + duration <= 1 + 1e-12 else {
                throw Problem.invalid("a keyframe must end by 1: start \(start) + duration \(duration) > 1", at: p / i / "duration")
            }
            guard case .object(let members)? = keyframe.value("to"), !members.isEmpty else {
                throw Problem.invalid("each keyframe needs `to`, an object of channel values", at: p / i / "to")
            }
            try keyframe.rejectUnknown()
            for member in members {
                let at = p / i / "to" / member.key
                let value = try ChannelDecoder.value(member.value, name: member.key, kind: kind(of: member.key, at: at), at: at)
                if byChannel[member.key] == nil {
                    order.append(member.key)
                    pointers[member.key] = at
                }
                byChannel[member.key, default: []].append(RelativeKeyframe(start: start, duration: duration, value: value))
            }
        }
        return order.map { channel in
            Located(value: SceneSpec.Keyframes.Channel(channel: channel, keyframes: byChannel[channel] ?? []),
                    pointer: pointers[channel] ?? p)
        }
    }

    /// A CAKeyframeAnimation on one `channel`: `values`, `keyTimes`, `timingFunctions`,
    /// `tensionValues`, `continuityValues`, `biasValues`. Structure Core Animation ignores
    /// becomes a warning (rule 12).
    func values(_ object: inout ObjectReader, timing: ActiveTiming, mode: CalculationMode,
                warnings: inout [RequestWarning], work: inout Double, limits: Limits) throws(Problem) -> SceneSpec.Values {
        guard let channel = try object.string("channel") else {
            throw Problem.invalid("a `values` animation names its `channel`", at: pointer / "channel")
        }
        let kind = try kind(of: channel, at: pointer / "channel")
        let entries = try object.array("values") ?? []
        guard !entries.isEmpty else { throw Problem.invalid("`values` needs at least one value", at: pointer / "values") }
        var values: [ChannelValue] = []
        for (i, entry) in entries.enumerated() {
            values.append(try ChannelDecoder.value(entry, name: channel, kind: kind, at: pointer / "values" / i))
        }
        func numbers(_ name: String) throws(Problem) -> [Double]? {
            try object.value(name).map { value throws(Problem) in try ChannelDecoder.numberArray(value, at: pointer / name) }
        }
        let keyTimes = try numbers("keyTimes")
        let tension = try numbers("tensionValues"), continuity = try numbers("continuityValues"), bias = try numbers("biasValues")
        var functions: [TimingCurve?]?
        if let list = try object.array("timingFunctions") {
            // CAMediaTimingFunction's Béziers, and CSS Easing's steps() and linear() as Web
            // Animations keyframes take them (docs/curves.md "Keyframe easing chains").
            var curves: [TimingCurve?] = []
            for (i, entry) in list.enumerated() {
                let at = pointer / "timingFunctions" / i
                guard let curve = try TimingDecoder.decode(entry, at: at).fractionCurve else {
                    throw Problem.invalid("segment timing functions are Béziers, steps or linear(), not springs", at: at)
                }
                curves.append(curve)
            }
            functions = curves
        }
        let width = kind == .transform ? SceneCost.transformVectorWidth : kind.width
        work += SceneCost.keyframeTrackBuild(values: values.count, width: width, mode: mode)
        try Check.work(work, limits: limits, what: "building the keyframe tracks", at: pointer / "values")
        if plansOnly {
            // Weighed, not built: a one-value track stands in for it in the plan's scene.
            let held = KeyframeTrack(values: [values[0].numbers], keyTimes: nil, timingFunctions: nil, mode: .linear,
                                     tension: nil, continuity: nil, bias: nil)
            return SceneSpec.Values(timing: timing, channel: channel, track: .vector(held), last: values[values.count - 1])
        }
        let track: SceneSpec.Values.Track
        let trackWarnings: [Warning<KeyframeSubject>]
        if kind == .transform {
            let ends = values.map { value -> TransformEnd in
                if case .transform(let end) = value { return end }
                return .matrix(.identity)
            }
            let transforms = TransformKeyframeTrack(values: ends, keyTimes: keyTimes, timingFunctions: functions, mode: mode,
                                                    tension: tension, continuity: continuity, bias: bias)
            trackWarnings = transforms.warnings
            track = .transform(transforms)
        } else {
            let vectors = KeyframeTrack(values: values.map(\.numbers), keyTimes: keyTimes, timingFunctions: functions, mode: mode,
                                        tension: tension, continuity: continuity, bias: bias)
            trackWarnings = vectors.warnings
            track = .vector(vectors)
        }
        warnings += trackWarnings.map { warning in
            warning.relocated { subject in
                let member = pointer / subject.member.rawValue
                return subject.index.map { member / $0 } ?? member
            }
        }
        return SceneSpec.Values(timing: timing, channel: channel, track: track, last: values[values.count - 1])
    }
}
