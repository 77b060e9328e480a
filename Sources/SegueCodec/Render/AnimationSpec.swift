import SegueEngine
import SegueJSON

/// One entry of `animations` (API.md §4 "Animations", §6 rules 7–12), validated.
struct AnimationSpec: Sendable {
    /// What the animation does to one channel.
    struct Target: Sendable {
        var channel: String
        var motion: ChannelAnimation.Motion
        var target: ChannelValue
        /// Where the channel is named, for warnings.
        var pointer: JSONPointer
    }

    var index: Int
    var id: String
    var view: String
    var delay: Double
    var autostart: Bool
    var pausesOnCompletion: Bool
    var scrubsLinearly: Bool
    var additive: Bool
    var timing: ActiveTiming
    var targets: [Target]
    /// Why the animation may never end, and the member that says so.
    var unboundedBecause = ""
    var unboundedMember = "repeatCount"

    /// A physics animation (`dynamics`): comes to rest by its forces; the animator reports no
    /// fraction (§6 rule 18).
    var isPhysics = false
    /// A physics decay: no target to retarget (§6 rule 22).
    var isDecay = false

    static func decode(_ json: JSONValue, index: Int, views: [ViewSpec], limits: Limits,
                       warnings: inout [Warning]) throws(Problem) -> AnimationSpec {
        let p = JSONPointer.root / "animations" / index
        var object = try ObjectReader(json, at: p)
        let id = try object.string("id") ?? "a\(index)"
        guard let viewName = try object.string("view") else { throw Problem.invalid("`view` is required", at: p / "view") }
        guard let view = views.first(where: { $0.name == viewName }) else {
            throw Problem.invalid("unknown view `\(viewName.prefix(100))`", at: p / "view")
        }
        if object.has("dynamics") || object.has("velocity") {
            return try physics(&object, index: index, id: id, view: view, limits: limits)
        }
        let forms = ["to", "keyframes", "values"].filter(object.has)
        guard forms.count == 1 else {
            throw Problem.invalid(forms.isEmpty ? "an animation needs `to`, `keyframes` or `values`"
                                                : "give one of `to`, `keyframes` and `values`, not several",
                                  at: p / (forms.dropFirst().first ?? "to"))
        }
        let form = forms[0]

        // Timing (§6 rule 7).
        // UIView animations default to easeInOut; a CAKeyframeAnimation's `values` to linear (§6 rule 11).
        let spec = try object.value("timing").map { value throws(Problem) in try TimingDecoder.decode(value, at: p / "timing") }
            ?? .named(form == "values" ? .linear : .easeInOut)
        let givenDuration = try object.number("duration")
        if let givenDuration { try Check.duration(givenDuration, limits: limits, p / "duration") }
        let curve: TimingCurve
        let duration: Double
        switch spec {
        case .spring(let springSpec):
            guard form == "to" else {
                throw Problem.invalid("a spring timing cannot drive \(form == "keyframes" ? "keyframes" : "`values`")",
                                      at: p / "timing")
            }
            if springSpec.takesDuration {
                guard let givenDuration else {
                    throw Problem.invalid("the UIKit spring (dampingRatio) needs the animation's `duration`", at: p / "duration")
                }
                curve = .durationSpring(springSpec.resolve(duration: givenDuration, warnings: &warnings, at: p / "timing",
                                                           durationAt: p / "duration"),
                                        duration: givenDuration)
                duration = givenDuration
            } else {
                guard givenDuration == nil else {
                    throw Problem.invalid("only the UIKit spring (dampingRatio) takes a `duration`; this spring runs for its "
                                          + "settling duration", at: p / "duration")
                }
                let spring = springSpec.resolve(duration: nil, warnings: &warnings, at: p / "timing", durationAt: p / "duration")
                curve = .spring(spring)
                duration = spring.settlingDuration
            }
        case .named, .cubicBezier, .steps, .piecewiseLinear:
            curve = spec.fractionCurve ?? .cubicBezier(.linear)
            duration = try required(givenDuration, p)
        }

        let (delay, autostart, pausesOnCompletion, scrubsLinearly) = try animatorMembers(&object, limits: limits)
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
        let autoreverses = try object.bool("autoreverses") ?? false
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
        var mode = CalculationMode.linear
        if let name = try object.string("calculationMode") {
            guard form != "to" else { throw Problem.invalid("`calculationMode` applies to keyframes", at: p / "calculationMode") }
            guard let parsed = CalculationMode(rawValue: name) else {
                throw Problem.invalid("unknown calculationMode `\(name.prefix(50))`; expected linear, discrete, paced, cubic or "
                                      + "cubicPaced", at: p / "calculationMode")
            }
            mode = parsed
        }

        let context = TargetContext(view: view, pointer: p)
        let targets: [Target]
        switch form {
        case "to":
            targets = try context.to(object.value("to") ?? .null, direct: direct)
        case "keyframes":
            targets = try context.keyframes(object.array("keyframes") ?? [], mode: mode)
        default:
            targets = try context.values(&object, mode: mode, warnings: &warnings)
        }
        try object.rejectUnknown()

        let timing = ActiveTiming(curve: curve, duration: duration, repeatCount: repeatCount, autoreverses: autoreverses,
                                  ignoresCurve: form != "to" && (mode == .paced || mode == .cubicPaced))
        // The whole animation — delay, repeats, reversals, a spring's settling — ends within the
        // duration limit (an unbounded one needs `until`, checked with the timeline).
        let ends = delay + timing.activeDuration
        guard !ends.isFinite || ends <= limits.maxDuration else {
            let member = repeatCount != 1 || autoreverses ? "repeatCount" : (givenDuration == nil ? "timing" : "duration")
            throw Problem.invalid("this animation ends at \(ends) s, beyond the limit of \(limits.maxDuration) s", at: p / member)
        }
        let unboundedMember = repeatCount.isInfinite ? "repeatCount" : "timing"
        let unboundedBecause = repeatCount.isInfinite ? "it repeats forever" : "an undamped spring never settles"
        return AnimationSpec(index: index, id: id, view: view.name, delay: delay, autostart: autostart,
                             pausesOnCompletion: pausesOnCompletion, scrubsLinearly: scrubsLinearly, additive: additive,
                             timing: timing, targets: targets,
                             unboundedBecause: unboundedBecause, unboundedMember: unboundedMember)
    }

    /// The members every animator has: `delay` (≥ 0, within the duration limit), `autostart`
    /// (default true), `pausesOnCompletion` (default false) and `scrubsLinearly` (default true).
    static func animatorMembers(_ object: inout ObjectReader, limits: Limits) throws(Problem)
        -> (delay: Double, autostart: Bool, pausesOnCompletion: Bool, scrubsLinearly: Bool) {
        let p = object.pointer
        let delay = try object.number("delay") ?? 0
        try Check.nonNegative(delay, p / "delay")
        guard delay <= limits.maxDuration else {
            throw Problem.invalid("`delay` must be ≤ the limit of \(limits.maxDuration) s, not \(delay)", at: p / "delay")
        }
        let autostart = try object.bool("autostart") ?? true
        let pausesOnCompletion = try object.bool("pausesOnCompletion") ?? false
        let scrubsLinearly = try object.bool("scrubsLinearly") ?? true
        return (delay, autostart, pausesOnCompletion, scrubsLinearly)
    }

    private static func required(_ duration: Double?, _ p: JSONPointer) throws(Problem) -> Double {
        guard let duration else { throw Problem.invalid("`duration` is required for this timing", at: p / "duration") }
        return duration
    }
}

/// Resolves channel names against a view: kinds, defaults and the geometry rules of §6 rule 5.
struct TargetContext {
    let view: ViewSpec
    let pointer: JSONPointer

    func kind(of channel: String, at: JSONPointer) throws(Problem) -> ChannelKind {
        if let given = view.channel(channel) { return given.kind }
        switch channel {
        case "frame", "center", "bounds":
            let gave = view.channel("frame") != nil ? "frame" : (view.channel("center") != nil || view.channel("bounds") != nil
                ? "center/bounds" : "no geometry")
            throw Problem.invalid("view `\(view.name)` gave \(gave): `\(channel)` has no default and cannot be animated",
                                  at: at)
        default:
            guard let kind = ChannelKind.builtIn(channel) else {
                throw Problem.invalid("custom channel `\(channel.prefix(100))` must be given in view `\(view.name)`", at: at)
            }
            return kind
        }
    }

    func to(_ json: JSONValue, direct: Bool) throws(Problem) -> [AnimationSpec.Target] {
        let p = pointer / "to"
        guard case .object(let members) = json, !members.isEmpty else {
            throw Problem.invalid("`to` is an object of one or more channel values", at: p)
        }
        var targets: [AnimationSpec.Target] = []
        for member in members {
            let at = p / member.key
            let kind = try kind(of: member.key, at: at)
            let value = try ChannelDecoder.value(member.value, name: member.key, kind: kind, at: at)
            targets.append(.init(channel: member.key, motion: .toward(directRotation: direct), target: value, pointer: at))
        }
        return targets
    }

    /// UIView keyframes: `[{"start", "duration", "to"}]` with relative times (§6 rule 11).
    func keyframes(_ entries: [JSONValue], mode: CalculationMode) throws(Problem) -> [AnimationSpec.Target] {
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
        return order.compactMap { channel in
            guard let keyframes = byChannel[channel], let last = keyframes.last else { return nil }
            return AnimationSpec.Target(channel: channel, motion: .relativeKeyframes(keyframes, mode: mode), target: last.value,
                                        pointer: pointers[channel] ?? p)
        }
    }

    /// A CAKeyframeAnimation on one `channel`: `values`, `keyTimes`, `timingFunctions`,
    /// `tensionValues`, `continuityValues`, `biasValues`. Structure Core Animation ignores
    /// becomes a warning (§6 rule 12).
    func values(_ object: inout ObjectReader, mode: CalculationMode,
                warnings: inout [Warning]) throws(Problem) -> [AnimationSpec.Target] {
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
        var functions: [CubicBezier?]?
        if let list = try object.array("timingFunctions") {
            var beziers: [CubicBezier?] = []
            for (i, entry) in list.enumerated() {
                let at = pointer / "timingFunctions" / i
                switch try TimingDecoder.decode(entry, at: at) {
                case .named(let name): beziers.append(name.bezier)
                case .cubicBezier(let bezier): beziers.append(bezier)
                default: throw Problem.invalid("segment timing functions are Béziers (CAMediaTimingFunction)", at: at)
                }
            }
            functions = beziers
        }
        let motion: ChannelAnimation.Motion
        let trackWarnings: [KeyframeWarning]
        if kind == .transform {
            let ends = values.map { value -> TransformEnd in
                if case .transform(let end) = value { return end }
                return .matrix(.identity)
            }
            let track = TransformKeyframeTrack(values: ends, keyTimes: keyTimes, timingFunctions: functions, mode: mode,
                                               tension: tension, continuity: continuity, bias: bias)
            trackWarnings = track.warnings
            motion = .transformTrack(track)
        } else {
            let track = KeyframeTrack(values: values.map(\.numbers), keyTimes: keyTimes, timingFunctions: functions, mode: mode,
                                      tension: tension, continuity: continuity, bias: bias)
            trackWarnings = track.warnings
            motion = .vectorTrack(track)
        }
        for warning in trackWarnings {
            let at = warning.index.map { pointer / warning.member / $0 } ?? pointer / warning.member
            warnings.append(Warning(pointer: at, detail: warning.detail))
        }
        return [AnimationSpec.Target(channel: channel, motion: motion, target: values[values.count - 1], pointer: pointer / "values")]
    }
}
