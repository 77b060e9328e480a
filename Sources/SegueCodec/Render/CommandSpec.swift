import SegueEngine
import SegueJSON

/// One entry of `commands` (API.md §4 "Commands", §6 rules 13–17, 20–22), validated against the
/// animation it drives: `{"at": s, "animation": id, "op": …}` plus the op's members.
struct CommandSpec: Sendable {
    enum Operation: Sendable {
        /// A UIViewPropertyAnimator method on a block animation.
        case animator(PropertyAnimator.Operation)
        /// `retarget`, `drag` or `stop` on a physics animation.
        case physics(PhysicsChain.Command)
        /// A block animator's op sent to a physics animation: refused naming the chain's state.
        case refused
    }

    var index: Int
    var at: Double
    /// The index of the animation in `animations`.
    var animation: Int
    var name: String
    var operation: Operation
    /// The channels an `addAnimations` block animates.
    var blockTargets: [AnimationSpec.Target] = []

    /// The smallest `durationFactor` accepted.
    static let minimumDurationFactor = 1e-6

    static let blockOperations: Set = ["start", "pause", "stop", "finish", "reverse", "fraction", "continue", "addAnimations"]
    static let physicsOperations = ["retarget", "drag", "stop"]

    /// - byID: each animation's index by its id.
    static func decode(_ json: JSONValue, index: Int, animations: [AnimationSpec], byID: [String: Int], views: [ViewSpec],
                       limits: Limits) throws(Problem) -> CommandSpec {
        let p = JSONPointer.root / "commands" / index
        var object = try ObjectReader(json, at: p)
        let at = try object.requiredNumber("at", "in every command")
        guard at >= 0, at <= limits.maxDuration else {
            throw Problem.invalid("a command's `at` must be in [0, \(limits.maxDuration)] s, not \(at)", at: p / "at")
        }
        guard let id = try object.string("animation") else { throw Problem.invalid("`animation` is required", at: p / "animation") }
        guard let found = byID[id] else {
            throw Problem.invalid("unknown animation `\(id.prefix(100))`", at: p / "animation")
        }
        let target = animations[found]
        guard let name = try object.string("op") else { throw Problem.invalid("`op` is required", at: p / "op") }
        guard blockOperations.contains(name) || physicsOperations.contains(name) else {
            throw Problem.invalid("unknown op `\(name.prefix(50))`; expected start, pause, stop, finish, reverse, fraction, "
                                  + "continue, addAnimations, retarget or drag", at: p / "op")
        }
        let operation: Operation
        var blockTargets: [AnimationSpec.Target] = []
        if target.isPhysics {
            operation = try physics(name, &object, target: target, views: views, at: at, limits: limits)
        } else {
            operation = .animator(try block(name, &object, blockTargets: &blockTargets, target: target, views: views,
                                            limits: limits))
        }
        try object.rejectUnknown()
        return CommandSpec(index: index, at: at, animation: target.index, name: name, operation: operation,
                           blockTargets: blockTargets)
    }

    /// The members of a block animation's command. Physics ops on a block animation pass through
    /// as `.unsupported`: the state machine refuses them naming its state (rule 13).
    private static func block(_ name: String, _ object: inout ObjectReader, blockTargets: inout [AnimationSpec.Target],
                              target: AnimationSpec, views: [ViewSpec], limits: Limits) throws(Problem) -> PropertyAnimator.Operation {
        let p = object.pointer
        if ["fraction", "addAnimations"].contains(name) || (name == "continue" && object.has("timing")),
           !target.timing.activeDuration.isFinite {
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
            guard factor * target.timing.activeDuration <= limits.maxDuration else {
                throw Problem.invalid("`durationFactor` \(factor) stretches the animation beyond the limit of "
                                      + "\(limits.maxDuration) s", at: p / "durationFactor")
            }
            guard let value = object.value("timing") else { return .continue(nil, durationFactor: factor) }
            return .continue(try continueTiming(value, at: p / "timing", limits: limits), durationFactor: factor)
        case "addAnimations":
            let delayFactor = try object.number("delayFactor") ?? 0
            try Check.within(delayFactor, 0...1, p / "delayFactor")
            guard let view = views.first(where: { $0.name == target.view }) else {
                throw Problem.invalid("unknown view `\(target.view)`", at: p)
            }
            blockTargets = try TargetContext(view: view, pointer: p).to(object.value("to") ?? .null, direct: false)
            return .addAnimations(delayFactor: delayFactor)
        default:
            // retarget / drag: physics only; the state machine refuses them naming its state,
            // whatever their members say.
            for member in ["to", "velocity", "samples"] { _ = object.value(member) }
            return .unsupported(name)
        }
    }

    /// A `continue` timing (rule 15): any time-fraction curve; UIKit's dampingRatio spring takes
    /// the remaining window as its duration (its `initialVelocity`, when not given, is the
    /// current velocity over the remaining distance); other springs run for their settling duration.
    static func continueTiming(_ value: JSONValue, at pointer: JSONPointer,
                               limits: Limits) throws(Problem) -> PropertyAnimator.ContinueTiming {
        let spec = try TimingDecoder.decode(value, at: pointer)
        guard case .spring(let spring) = spec else { return .curve(spec.fractionCurve ?? .cubicBezier(.linear)) }
        if case .uikit(let ratio) = spring.parameters {
            var given = false
            if case .object(let members) = value { given = members.contains { $0.key == "initialVelocity" } }
            return .durationSpring(dampingRatio: ratio, initialVelocity: given ? spring.initialVelocity : nil)
        }
        var ignored: [Warning] = []
        let resolved = spring.resolve(duration: nil, warnings: &ignored, at: pointer)
        // It runs for its settling duration: a number within the limit, or ∞ (undamped: the
        // render then needs `until`).
        let settling = resolved.settlingDuration
        guard !settling.isNaN, settling == .infinity || settling <= limits.maxDuration,
              resolved.sample(at: min(settling, 1)).progress.isFinite else {
            throw Problem.invalid("this spring settles in \(settling) s: no finite motion within the limit of "
                                  + "\(limits.maxDuration) s", at: pointer)
        }
        return .spring(resolved)
    }

    /// The members of a physics animation's command (rules 20, 22).
    private static func physics(_ name: String, _ object: inout ObjectReader, target: AnimationSpec, views: [ViewSpec],
                                at: Double, limits: Limits) throws(Problem) -> Operation {
        let p = object.pointer
        guard let channel = target.targets.first?.channel, let view = views.first(where: { $0.name == target.view }) else {
            throw Problem.invalid("the physics animation has no channel", at: p / "animation")
        }
        let context = TargetContext(view: view, pointer: p)
        let kind = try context.kind(of: channel, at: p / "animation")
        switch name {
        case "retarget":
            guard !target.isDecay else {
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
            return .physics(.retarget(target: goal, velocity: velocity))
        case "drag":
            guard let entries = try object.array("samples"), !entries.isEmpty else {
                throw Problem.invalid("`drag` needs `samples`: [[t, value…], …]", at: p / "samples")
            }
            guard entries.count <= limits.maxSamples else {
                throw Problem.invalid("\(entries.count) drag samples are over the limit of \(limits.maxSamples)", at: p / "samples")
            }
            var samples: [PhysicsChain.DragSample] = []
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
                samples.append(PhysicsChain.DragSample(t: t, value: value.numbers))
            }
            return .physics(.drag(samples: samples))
        case "stop":
            if try object.bool("withoutFinishing") == false {
                throw Problem.invalid("a physics animation stops where it is: `withoutFinishing: false` does not apply",
                                      at: p / "withoutFinishing")
            }
            return .physics(.stop)
        default:
            // A block op on a physics animation: refused naming the state once the chain is resolved.
            return .refused
        }
    }
}
