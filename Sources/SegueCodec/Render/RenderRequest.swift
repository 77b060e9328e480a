import SegueEngine
import SegueJSON

/// `POST /v1/render` (API.md §4): a transition description, decoded and validated into the
/// tracks and animators the sampler reads. Everything is checked before any sampling, including
/// the result limits (413).
public struct RenderRequest: Sendable {
    /// One reported channel of one view.
    public struct Output: Sendable {
        public var view: String
        public var channel: String
        public var kind: ChannelKind
        public var track: ChannelTrack
    }

    /// What drives one animation's animator.
    public enum AnimatorTimeline: Sendable {
        case property(PropertyAnimator)
        /// nil when the physics animation never starts.
        case physics(PhysicsChain?)
    }

    public struct NamedAnimator: Sendable {
        public var id: String
        public var timeline: AnimatorTimeline
    }

    /// nil when `at` gives the times.
    public var fps: Double?
    public var times: [Double]
    /// The timeline's end (§6 rule 2): `until`, or when the last animator settles.
    public var end: Double
    public var outputs: [Output]
    public var animators: [NamedAnimator]
    public var velocities: Bool
    public var warnings: [Warning]
    /// The request as rendered: after a `transition` preset's expansion, else as given.
    public var expanded: JSONValue

    public static func decode(_ given: JSONValue, limits: Limits) throws(Problem) -> RenderRequest {
        let root = JSONPointer.root
        // A preset expands into views, animations, commands and interaction first (API.md §4).
        let body = try Presets.expand(given, limits: limits)
        var object = try ObjectReader(body, at: root)
        let velocities = try object.bool("velocities") ?? false
        let at = try object.array("at")
        let fps = try object.number("fps")
        let until = try object.number("until")
        if at != nil, let clash = fps != nil ? "fps" : (until != nil ? "until" : nil) {
            throw Problem.invalid("`at` replaces the frame grid: give `\(clash)` or `at`, not both", at: root / clash)
        }
        if let fps { try Check.within(fps, limits.fps, root / "fps") }
        if let until {
            try Check.nonNegative(until, root / "until")
            guard until <= limits.maxDuration else {
                throw Problem.invalid("`until` must be ≤ the limit of \(limits.maxDuration) s, not \(until)", at: root / "until")
            }
        }
        guard let viewsValue = object.value("views") else { throw Problem.invalid("`views` is required", at: root / "views") }
        let views = try ViewSpec.decodeAll(viewsValue, limits: limits)
        let animationsValue = try object.array("animations") ?? []
        let commandsValue = try object.array("commands") ?? []
        guard animationsValue.count + commandsValue.count <= limits.maxAnimations else {
            throw Problem.invalid("\(animationsValue.count) animations and \(commandsValue.count) commands are over the limit of "
                                  + "\(limits.maxAnimations)", at: root / (commandsValue.isEmpty ? "animations" : "commands"))
        }
        let interactionValue = object.value("interaction")
        try object.rejectUnknown()

        var warnings: [Warning] = []
        var animations: [AnimationSpec] = []
        var byID: [String: Int] = [:]
        for (i, value) in animationsValue.enumerated() {
            let animation = try AnimationSpec.decode(value, index: i, views: views, limits: limits, warnings: &warnings)
            guard byID.updateValue(i, forKey: animation.id) == nil else {
                throw Problem.invalid("duplicate animation id `\(animation.id)`", at: root / "animations" / i / "id")
            }
            animations.append(animation)
        }
        var commands: [CommandSpec] = []
        for (i, value) in commandsValue.enumerated() {
            commands.append(try CommandSpec.decode(value, index: i, animations: animations, byID: byID, views: views,
                                                   limits: limits))
        }
        // Commands at one time apply in array order (§6 rule 1).
        commands.sort { ($0.at, $0.index) < ($1.at, $1.index) }
        let interaction = try interactionValue.map { value throws(Problem) in
            try InteractionSpec.decode(value, animations: animations, byID: byID, limits: limits)
        }

        // Block animators replay their commands, then the interaction's steps (§6 rules 1, 13–19).
        var timelines: [PropertyAnimator?] = []
        for spec in animations {
            guard !spec.isPhysics else {
                timelines.append(nil)
                continue
            }
            var steps: [PropertyAnimator.Command] = []
            for command in commands where command.animation == spec.index {
                if case .animator(let operation) = command.operation {
                    steps.append(PropertyAnimator.Command(at: command.at, index: command.index, operation: operation))
                }
            }
            let interactive = interaction?.animations.contains(spec.index) ?? false
            if let interaction, interactive {
                // Interaction steps follow the commands at the same time.
                steps = merge(steps, interaction.commands(for: spec.index))
            }
            do {
                let animator = try PropertyAnimator(timing: spec.timing, delay: spec.delay, autostart: spec.autostart,
                                                    interactive: interactive, scrubsLinearly: spec.scrubsLinearly,
                                                    pausesOnCompletion: spec.pausesOnCompletion, commands: steps)
                for jump in animator.jumps {
                    warnings.append(Warning(pointer: jump.command.map { root / "commands" / $0 } ?? root / "interaction",
                                            detail: "resuming after a linear scrub (scrubsLinearly) jumps from progress "
                                                + "\(jump.from) to the curve's \(jump.to) at t = \(jump.t)"))
                }
                timelines.append(animator)
            } catch {
                throw illegal(error.command, error.operation, state: error.state.rawValue, allowed: error.allowed)
            }
        }

        // Layers per view and channel, in one pass over the animations and one over the commands:
        // each animation's targets, then the blocks `addAnimations` adds (numbered per animation).
        var commandsOf = [[CommandSpec]](repeating: [], count: animations.count)
        for command in commands { commandsOf[command.animation].append(command) }
        var layered: [String: [String: [ChannelAnimation]]] = [:]
        var pointers: [String: JSONPointer] = [:]
        var defaults: [String: [String]] = [:]
        func add(_ layer: ChannelAnimation, view: String, target: AnimationSpec.Target, key: String) {
            if layered[view]?[target.channel] == nil { defaults[view, default: []].append(target.channel) }
            layered[view, default: [:]][target.channel, default: []].append(layer)
            pointers[key] = target.pointer
        }
        for animation in animations {
            for target in animation.targets {
                var motion = target.motion
                if case .physics(var parameters) = motion {
                    parameters.commands = physicsCommands(commandsOf[animation.index])
                    parameters.horizon = until ?? min(limits.maxDuration, max(parameters.autostart ?? 0,
                                                                              commandsOf[animation.index].last?.at ?? 0)
                                                      + Self.physicsRestWindow)
                    motion = .physics(parameters)
                }
                add(ChannelAnimation(order: animation.index, animator: timelines[animation.index], additive: animation.additive,
                                     motion: motion, target: target.target),
                    view: animation.view, target: target, key: "\(animation.index)")
            }
        }
        var blocks = [Int](repeating: 0, count: animations.count)
        for command in commands {
            guard case .animator(.addAnimations) = command.operation else { continue }
            let animation = animations[command.animation], block = blocks[command.animation]
            blocks[command.animation] += 1
            for target in command.blockTargets {
                add(ChannelAnimation(order: animation.index, block: block, animator: timelines[animation.index],
                                     additive: animation.additive, motion: target.motion, target: target.target),
                    view: animation.view, target: target, key: "\(animation.index).\(block)")
            }
        }

        // Tracks: every given channel, then every targeted default channel, in order of appearance.
        var outputs: [Output] = []
        let budget = PhysicsBudget(limits.maxSimulationSteps)
        for view in views {
            var channels = view.channels
            for name in defaults[view.name] ?? [] where !channels.contains(where: { $0.name == name }) {
                guard let initial = ChannelKind.defaultValue(name), let kind = ChannelKind.builtIn(name) else {
                    continue  // the decoders already refused channels without a default
                }
                channels.append(ViewSpec.Channel(name: name, kind: kind, value: initial))
            }
            for channel in channels {
                let track = ChannelTrack(initial: channel.value, animations: layered[view.name]?[channel.name] ?? [],
                                         budget: budget)
                if budget.exhausted {
                    throw Problem.tooLarge("the physics animations need more than \(limits.maxSimulationSteps) steps of work "
                                           + "(rest tests, Euler ticks and RK4 steps, per channel component, up to `until` or "
                                           + "\(Int(Self.physicsRestWindow)) s after a start or command): give a shorter `until`, "
                                           + "a lower `tickRate` or wider rest thresholds",
                                           at: root / "animations" / (budget.exhaustedBy ?? 0) / "dynamics")
                }
                for note in track.notes {
                    let key = note.block.map { "\(note.order).\($0)" } ?? "\(note.order)"
                    warnings.append(Warning(pointer: pointers[key] ?? root / "animations" / note.order, detail: note.detail))
                }
                outputs.append(Output(view: view.name, channel: channel.name, kind: channel.kind, track: track))
            }
        }

        // Physics animators: their chains, resolved with their tracks; block ops are refused
        // naming the chain's state (§6 rule 20).
        var chains: [Int: PhysicsChain] = [:]
        for output in outputs { chains.merge(output.track.physicsChains) { first, _ in first } }
        for command in commands {
            guard case .refused = command.operation else { continue }
            // The state the command met: just before it.
            let running = chains[command.animation]?.isRunning(at: command.at.nextDown) ?? false
            throw illegal(command.index, command.name, state: running ? "running" : "inactive",
                          allowed: CommandSpec.physicsOperations)
        }
        let animators = animations.map { spec in
            NamedAnimator(id: spec.id, timeline: timelines[spec.index].map(AnimatorTimeline.property)
                                                 ?? .physics(chains[spec.index]))
        }
        let end: Double
        if let until {
            end = until
        } else {
            var latest = commands.last?.at ?? 0
            for spec in animations {
                let settles: Double
                switch animators[spec.index].timeline {
                case .property(let animator): settles = animator.settles
                case .physics(let chain): settles = chain?.settles ?? 0
                }
                guard settles.isFinite else {
                    let continued = commandsOf[spec.index].last { command in
                        guard case .animator(.continue(.some, _)) = command.operation else { return false }
                        return true
                    }
                    if spec.timing.activeDuration.isFinite, let continued {
                        throw Problem.invalid("animation `\(spec.id)` never ends (the spring it continues with never settles): "
                                              + "give `until`", at: root / "commands" / continued.index / "timing")
                    }
                    throw Problem.invalid("animation `\(spec.id)` never ends (\(spec.unboundedBecause)): give `until`",
                                          at: root / "animations" / spec.index / spec.unboundedMember)
                }
                // Commands can push an animator past the duration limit (a late start with a
                // delay, a slow continue): the timeline still ends within it.
                guard settles <= limits.maxDuration else {
                    let last = commandsOf[spec.index].last.map { root / "commands" / $0.index } ?? root / "animations" / spec.index
                    throw Problem.invalid("animation `\(spec.id)` ends at \(settles) s, beyond the limit of \(limits.maxDuration) s",
                                          at: last)
                }
                latest = max(latest, settles)
            }
            end = latest
        }

        var times: [Double]
        if let at {
            guard !at.isEmpty else { throw Problem.invalid("`at` must not be empty", at: root / "at") }
            guard at.count <= limits.maxSamples else {
                throw Problem.tooLarge("`at` holds \(at.count) times, over the limit of \(limits.maxSamples) frames per response",
                                       at: root / "at")
            }
            times = []
            times.reserveCapacity(at.count)
            for (i, element) in at.enumerated() {
                guard case .number(let t) = element else {
                    throw Problem.wrongType(at: root / "at" / i, expected: "a number", found: element)
                }
                guard t >= 0, t <= limits.maxDuration else {
                    throw Problem.invalid("frame times must be in [0, \(limits.maxDuration)], not \(t)", at: root / "at" / i)
                }
                guard t >= (times.last ?? 0) else {
                    throw Problem.invalid("frame times must not decrease", at: root / "at" / i)
                }
                times.append(t)
            }
        } else {
            let rate = fps ?? 60
            let last = (end * rate - CurveRequest.gridSlack).rounded(.up)
            let count = max(0, last) + 1
            guard count <= Double(limits.maxSamples) else {
                throw Problem.tooLarge("\(Int(count)) frames (\(end) s at \(rate) fps) are over the limit of "
                                       + "\(limits.maxSamples) frames per response", at: fps == nil ? nil : root / "fps")
            }
            times = (0..<Int(count)).map { Double($0) / rate }
        }
        let perFrame = 1 + outputs.reduce(0) { $0 + $1.kind.width } * (velocities ? 2 : 1) + 3 * animators.count
        guard Double(times.count) * Double(perFrame) <= Double(limits.maxNumbers) else {
            throw Problem.tooLarge("\(times.count) frames × \(perFrame) numbers per frame are over the limit of "
                                   + "\(limits.maxNumbers) numbers per response")
        }
        // Sampling evaluates every layer of a channel at every frame (three more times for a
        // numeric velocity; a transform layer decomposes and recomposes, about four times the
        // work): that work is held to the same limit, so blocks added by commands, which add no
        // numbers of their own, cannot multiply it unseen.
        let layers = outputs.reduce(0) { $0 + $1.track.layerCount * ($1.kind == .transform ? 4 : 1) } * (velocities ? 4 : 1)
        guard Double(times.count) * Double(layers) <= Double(limits.maxNumbers) else {
            throw Problem.tooLarge("\(times.count) frames × \(layers) animation layers to evaluate are over the limit of "
                                   + "\(limits.maxNumbers) evaluations per response")
        }
        return RenderRequest(fps: at == nil ? (fps ?? 60) : nil, times: times, end: end, outputs: outputs, animators: animators,
                             velocities: velocities, warnings: warnings, expanded: body)
    }

    /// A command UIKit would reject in the animator's state: a 422 naming the command's index,
    /// the state and the operations allowed there, no-ops included (§6 rule 13).
    static func illegal(_ index: Int, _ operation: String, state: String, allowed: [String]) -> Problem {
        Problem(status: 422, kind: "illegal-command",
                detail: "`\(operation)` is not allowed while the animator is \(state); allowed: \(allowed.joined(separator: ", "))",
                pointer: (JSONPointer.root / "commands" / index).description,
                extensions: [.init("state", .string(state)), .init("allowed", .array(allowed.map(JSONValue.string)))])
    }

    /// Commands, then interaction steps at equal times (both already in time order).
    static func merge(_ commands: [PropertyAnimator.Command], _ steps: [PropertyAnimator.Command]) -> [PropertyAnimator.Command] {
        var merged: [PropertyAnimator.Command] = []
        merged.reserveCapacity(commands.count + steps.count)
        var i = 0
        for step in steps {
            while i < commands.count && commands[i].at <= step.at {
                merged.append(commands[i])
                i += 1
            }
            merged.append(step)
        }
        return merged + commands[i...]
    }

    /// A physics animation's commands for its chain.
    static func physicsCommands(_ commands: [CommandSpec]) -> [PhysicsChain.TimedCommand] {
        commands.compactMap { command in
            guard case .physics(let operation) = command.operation else { return nil }
            return PhysicsChain.TimedCommand(at: command.at, index: command.index, command: operation)
        }
    }

    /// Without `until`, a physics motion must come to rest within this many seconds of its start
    /// or of its animation's last command (else the render needs `until`).
    static let physicsRestWindow = 60.0
}
