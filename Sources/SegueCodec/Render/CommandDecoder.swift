import SegueEngine
import SegueJSON

/// One entry of `commands` (docs/rules.md "Commands", rules 13–17, 20–22), validated against
/// the animation it drives: `{"at": s, "animation": id, "op": …}` plus the op's members. The
/// state machine's own refusals (rule 13) come from `SceneCompiler`.
enum CommandDecoder {
    /// The smallest `durationFactor` accepted.
    static let minimumDurationFactor = 1e-6

    static let blockOperations: Set = ["start", "pause", "stop", "finish", "reverse", "fraction", "continue", "addAnimations"]

    /// - byID: each animation's index by its id.
    /// - warnings: what a `continue` timing's spring reports (SwiftUI's ignored `blendDuration`).
    static func decode(_ json: JSONValue, index: Int, animations: [SceneSpec.Animation], byID: [String: Int],
                       views: [SceneSpec.View], limits: Limits, warnings: inout [RequestWarning]) throws(Problem) -> SceneSpec.Command {
        let p = JSONPointer.root / "commands" / index
        var object = try ObjectReader(json, at: p)
        let at = try object.requiredNumber("at", "in every command")
        guard at >= 0, at <= limits.maxDuration else {
            throw Problem.invalid("a command's `at` must be in [0, \(limits.maxDuration)] s, not \(at)", at: p / "at")
        }
        guard let id = try object.string("animation") else { throw Problem.invalid("`animation` is required", at: p / "animation") }
        guard let found = byID[id] else {
            throw Problem.invalid(Vocabulary.unknown("animation", id, known: animations.map(\.id), listing: "the animations are",
                                                   listedAtMost: Vocabulary.requestNamesListed),
                                  at: p / "animation")
        }
        let target = animations[found]
        guard let name = try object.string("op") else { throw Problem.invalid("`op` is required", at: p / "op") }
        guard blockOperations.contains(name) || SceneSpec.Operation.physicsNames.contains(name) else {
            throw Problem.invalid("unknown op `\(name.prefix(50))`; expected start, pause, stop, finish, reverse, fraction, "
                                  + "continue, addAnimations, retarget or drag", at: p / "op")
        }
        guard let view = views.first(where: { $0.name == target.view }) else {
            throw Problem.invalid("unknown view `\(target.view)`", at: p)
        }
        let context = TargetContext(view: view, pointer: p)
        let operation: SceneSpec.Operation
        if case .physics(let physics) = target.form {
            operation = try self.physics(name, &object, physics: physics, context: context, at: at, limits: limits)
        } else {
            operation = try block(name, &object, timing: target.timing ?? ActiveTiming(curve: .cubicBezier(.linear), duration: 0),
                                  context: context, limits: limits, warnings: &warnings)
        }
        try object.rejectUnknown()
        return SceneSpec.Command(at: at, animation: found, operation: operation)
    }

    /// The members of a block animation's command. Physics ops on a block animation are read
    /// no further: the state machine refuses them naming its state (rule 13).
    private static func block(_ name: String, _ object: inout ObjectReader, timing: ActiveTiming, context: TargetContext,
                              limits: Limits, warnings: inout [RequestWarning]) throws(Problem) -> SceneSpec.Operation {
        let p = object.pointer
        if ["fraction", "addAnimations"].contains(name) || (name == "continue" && object.has("timing")),
           !timing.activeDuration.isFinite {
            throw Problem.invalid("an animation that repeats forever has no fraction complete: `\(name)` does not apply",
                                  at: p / "op")
        }
        switch name {
        case "start":
            let delay = try object.number("delay") ?? 0
            try Check.nonNegative(delay, p / "delay")
            guard delay <= limits.maxDuration else {
                throw Problem.invalid("`delay` must be ≤ the limit of \(limits.maxDuration) s, not \(delay)", at: p / "delay")
            }
            return .start(delay: delay)
        case "pause":
            return .pause
        case "stop":
            return .stop(withoutFinishing: try object.bool("withoutFinishing") ?? true)
        case "finish":
            let position = try object.string("position") ?? "end"
            guard let parsed = AnimatorEvent.Position(rawValue: position) else {
                throw Problem.invalid("`position` is start, end or current, not `\(position.prefix(50))`", at: p / "position")
            }
            return .finish(parsed)
        case "reverse":
            return .reverse(try object.bool("reversed") ?? true)
        case "fraction":
            let value = try object.requiredNumber("value", "for `fraction`")
            try Check.within(value, 0...1, p / "value")
            return .fraction(value)
        case "continue":
            let factor = try object.number("durationFactor") ?? 1
            // Far below any visible speed-up, and far from the 1 / factor that overflows.
            guard factor >= minimumDurationFactor else {
                throw Problem.invalid("`durationFactor` must be ≥ \(minimumDurationFactor), not \(factor)", at: p / "durationFactor")
            }
            guard factor * timing.activeDuration <= limits.maxDuration else {
                throw Problem.invalid("`durationFactor` \(factor) stretches the animation beyond the limit of "
                                      + "\(limits.maxDuration) s", at: p / "durationFactor")
            }
            guard let value = object.value("timing") else { return .continue(nil, durationFactor: factor) }
            return .continue(try continueTiming(value, at: p / "timing", limits: limits, warnings: &warnings), durationFactor: factor)
        case "addAnimations":
            let delayFactor = try object.number("delayFactor") ?? 0
            try Check.within(delayFactor, 0...1, p / "delayFactor")
            return .addAnimations(delayFactor: delayFactor, to: try context.to(object.value("to") ?? .null).map(\.value))
        default:
            // retarget / drag: physics only; the state machine refuses them naming its state,
            // whatever their members say.
            for member in ["to", "velocity", "samples"] { _ = object.value(member) }
            return unread(name)
        }
    }

    /// A `continue` timing (rule 15): any time-fraction curve; UIKit's dampingRatio spring takes
    /// the remaining window as its duration (its `initialVelocity`, when not given, is the
    /// current velocity over the remaining distance); other springs run for their settling duration.
    static func continueTiming(_ value: JSONValue, at pointer: JSONPointer, limits: Limits,
                               warnings: inout [RequestWarning]) throws(Problem) -> ContinueTiming {
        let spec = try TimingDecoder.decode(value, at: pointer)
        guard case .spring(let spring) = spec else { return .curve(spec.fractionCurve ?? .cubicBezier(.linear)) }
        if case .uikit(let ratio) = spring.parameters {
            var given = false
            if case .object(let members) = value { given = members.contains { $0.key == "initialVelocity" } }
            return .durationSpring(dampingRatio: ratio, initialVelocity: given ? spring.initialVelocity : nil)
        }
        let resolved = try TimingResolver(timingAt: pointer, durationAt: JSONPointer(["duration"]))
            .resolve(spec, duration: nil, warnings: &warnings)
        guard case .spring(let engineSpring) = resolved.curve else { return .curve(resolved.curve) }
        // It runs for its settling duration: a number within the limit, or ∞ (undamped: the
        // render then needs `until`).
        let settling = engineSpring.settlingDuration
        guard !settling.isNaN, settling == .infinity || settling <= limits.maxDuration,
              engineSpring.sample(at: min(settling, 1)).progress.isFinite else {
            throw Problem.invalid("this spring settles in \(settling) s: no finite motion within the limit of "
                                  + "\(limits.maxDuration) s", at: pointer)
        }
        return .spring(engineSpring)
    }

    /// An op that is refused whatever its members say, with its name kept for the refusal.
    static func unread(_ name: String) -> SceneSpec.Operation {
        switch name {
        case "start": .start(delay: 0)
        case "pause": .pause
        case "stop": .stop(withoutFinishing: true)
        case "finish": .finish(.end)
        case "reverse": .reverse(true)
        case "fraction": .fraction(0)
        case "continue": .continue(nil, durationFactor: 1)
        case "addAnimations": .addAnimations(delayFactor: 0, to: [])
        case "retarget": .retarget(target: [], velocity: nil)
        default: .drag([])
        }
    }

    /// The models and integrators of other engines (docs/springs.md "Physics models") that take neither `retarget` nor `drag`, named as
    /// a refusal says it; nil for the others.
    static func nonInteractive(_ physics: SceneSpec.Physics) -> String? {
        switch (physics.model, physics.integrator) {
        case (.motionSpring, _): "a motionSpring"
        case (.fling, _): "a fling"
        case (.scrollDecay, _): "a scroll deceleration"
        case (_, .rebound): "the rebound integrator"
        case (_, .box2d): "the box2d integrator"
        default: nil
        }
    }

    /// The members of a physics animation's command (rules 20, 22).
    private static func physics(_ name: String, _ object: inout ObjectReader, physics: SceneSpec.Physics,
                                context: TargetContext, at: Double, limits: Limits) throws(Problem) -> SceneSpec.Operation {
        let p = object.pointer
        let channel = physics.channel
        let kind = try context.kind(of: channel, at: p / "animation")
        if name == "retarget" || name == "drag", let model = nonInteractive(physics) {
            throw Problem.invalid("\(model) runs from its start to its own stop: `\(name)` does not apply", at: p / "op")
        }
        switch name {
        case "retarget":
            if case .decay = physics.model {
                throw Problem.invalid("a decay has no target to change: `retarget` does not apply", at: p / "op")
            }
            guard let given = object.value("to") else { throw Problem.invalid("`to` is required for `retarget`", at: p / "to") }
            var value = given, valueAt = p / "to"
            if case .object(let members) = given {
                guard members.count == 1, let member = members.first, member.key == channel else {
                    throw Problem.invalid("`to` is the new target of `\(channel)`: a value or a one-entry map naming it",
                                          at: p / "to")
                }
                value = member.value
                valueAt = p / "to" / channel
            }
            let goal = try ChannelDecoder.value(value, name: channel, kind: kind, at: valueAt).numbers
            let velocity = try object.value("velocity").map { value throws(Problem) in
                try ChannelDecoder.value(value, name: "velocity", kind: kind, at: p / "velocity").numbers
            }
            return .retarget(target: goal, velocity: velocity)
        case "drag":
            guard let entries = try object.array("samples"), !entries.isEmpty else {
                throw Problem.invalid("`drag` needs `samples`: [[t, value…], …]", at: p / "samples")
            }
            guard entries.count <= limits.maxSamples else {
                throw Problem.invalid("\(entries.count) drag samples are over the limit of \(limits.maxSamples)", at: p / "samples")
            }
            var samples: [DragSample] = []
            samples.reserveCapacity(entries.count)
            for (k, entry) in entries.enumerated() {
                guard case .array(let elements) = entry else {
                    throw Problem.wrongType(at: p / "samples" / k, expected: "an array [t, value…]", found: entry)
                }
                guard elements.count == 1 + kind.width else {
                    throw Problem.invalid("a drag sample is [t, then \(kind.width) number\(kind.width == 1 ? "" : "s")], not "
                                          + "\(elements.count) numbers", at: p / "samples" / k)
                }
                guard case .number(let t) = elements[0] else {
                    throw Problem.wrongType(at: p / "samples" / k / 0, expected: "a number", found: elements[0])
                }
                guard t >= at, t <= limits.maxDuration else {
                    throw Problem.invalid("drag sample times are absolute, from the command's `at` (\(at)) to the limit, not \(t)",
                                          at: p / "samples" / k / 0)
                }
                if let last = samples.last, t <= last.t {
                    throw Problem.invalid("drag sample times must increase strictly: \(t) follows \(last.t)", at: p / "samples" / k / 0)
                }
                let tail = Array(elements.dropFirst())
                let value = try ChannelDecoder.value(kind == .scalar ? tail[0] : .array(tail), name: channel, kind: kind,
                                                     at: p / "samples" / k / 1)
                samples.append(DragSample(t: t, value: value.numbers))
            }
            return .drag(samples)
        case "stop":
            if try object.bool("withoutFinishing") == false {
                throw Problem.invalid("a physics animation stops where it is: `withoutFinishing: false` does not apply",
                                      at: p / "withoutFinishing")
            }
            return .stop(withoutFinishing: true)
        default:
            // A block op on a physics animation: refused naming the state once the chain is resolved.
            return unread(name)
        }
    }
}
