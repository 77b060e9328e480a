/// Compiles a `SceneSpec` into a `Scene` (docs/rules.md rules 1–2, 9, 13–22):
///
/// 1. commands are ordered by time, ties in array order (rule 1);
/// 2. each block animation's animator replays its commands, then the interaction's steps at
///    equal times (rules 13–19); a refused command is `SceneError.illegalCommand`;
/// 3. every animation's channels, and the blocks `addAnimations` adds, become layers per view
///    channel; physics layers get their commands and a horizon (rule 20);
/// 4. tracks blend the layers per channel — given channels first, then targeted defaults — and
///    physics motions resolve under one shared work budget;
/// 5. block ops sent to physics animations are refused naming the chain's state (rule 20);
/// 6. the end is `until`, or when the last animator settles (rule 2), within the duration limit;
/// 7. events are ordered as they took effect (rule 1).
///
/// Pure: the same spec gives the same scene. A `WorkCancellation`, when given, is looked at between
/// channels and every few thousand steps of physics; once raised the compile throws
/// `SceneError.cancelled`.
public enum SceneCompiler {
    /// Without `until`, a physics motion must come to rest within this many seconds of its start
    /// or of its animation's last command (else the render needs `until`).
    public static let physicsRestWindow = 60.0

    public static func compile(_ spec: SceneSpec, limits: SceneLimits = SceneLimits(),
                               cancellation: WorkCancellation? = nil) throws(SceneError) -> Scene {
        let commands = orderedCommands(spec.commands)
        var warnings: [Warning<SceneSubject>] = []
        let animators = try propertyAnimators(spec, commands, warnings: &warnings)
        var commandsOf = [[Int]](repeating: [], count: spec.animations.count)
        for index in commands { commandsOf[spec.commands[index].animation].append(index) }
        let layers = Layers(spec, commands: commands, commandsOf: commandsOf, animators: animators, limits: limits)
        let budget = PhysicsBudget(limits.maxSimulationSteps, cancellation: cancellation)
        let channels = try tracks(spec, layers, limits: limits, budget: budget, warnings: &warnings)

        var chains: [Int: PhysicsChain] = [:]
        for channel in channels { chains.merge(channel.track.physicsChains) { first, _ in first } }
        try refuseBlockOpsOnPhysics(spec, commands, chains)
        let named = spec.animations.indices.map { i in
            Scene.Animator(id: spec.animations[i].id, timeline: animators[i].map(Scene.Animator.Timeline.property)
                                                              ?? .physics(chains[i]))
        }
        let end: Double
        if let until = spec.until {
            end = until
        } else {
            end = try timelineEnd(spec, named, commands: commands, commandsOf: commandsOf, limits: limits)
        }
        return Scene(channels: channels, animators: named, events: EventOrder.events(of: named), end: end,
                     stacking: Stacking.order(spec.views), warnings: warnings,
                     simulationWork: budget.spent)
    }

    /// Command indices by time, ties in array order (rule 1).
    static func orderedCommands(_ commands: [SceneSpec.Command]) -> [Int] {
        commands.indices.sorted { (commands[$0].at, $0) < (commands[$1].at, $1) }
    }

    // MARK: 2. Animators

    /// Each block animation's animator (nil for physics), replaying its commands and the
    /// interaction's steps.
    static func propertyAnimators(_ spec: SceneSpec, _ commands: [Int],
                                  warnings: inout [Warning<SceneSubject>]) throws(SceneError) -> [PropertyAnimator?] {
        var animators: [PropertyAnimator?] = []
        for (index, animation) in spec.animations.enumerated() {
            guard let timing = animation.timing else {
                animators.append(nil)
                continue
            }
            var steps: [PropertyAnimator.Command] = []
            for i in commands where spec.commands[i].animation == index {
                steps.append(PropertyAnimator.Command(at: spec.commands[i].at, index: i, operation: .command(spec.commands[i].operation)))
            }
            let interactive = spec.interaction?.animations.contains(index) ?? false
            if let interaction = spec.interaction, interactive {
                steps = merge(steps, interaction.steps(for: index))
            }
            do throws(PropertyAnimator.Rejection) {
                let animator = try PropertyAnimator(timing: timing, delay: animation.delay, autostart: animation.autostart,
                                                    interactive: interactive, scrubsLinearly: animation.scrubsLinearly,
                                                    pausesOnCompletion: animation.pausesOnCompletion, commands: steps)
                for jump in animator.jumps {
                    warnings.append(Warning(subject: jump.command.map(SceneSubject.command) ?? .interaction,
                                            detail: "resuming after a linear scrub (scrubsLinearly) jumps from progress "
                                                + "\(jump.from) to the curve's \(jump.to) at t = \(jump.t)"))
                }
                animators.append(animator)
            } catch {
                throw .illegalCommand(command: error.command, operation: error.operation, state: error.state,
                                      allowed: error.allowed)
            }
        }
        return animators
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

    // MARK: 4. Tracks

    /// Every given channel, then every targeted default channel, in order of appearance, each
    /// blending its layers; physics resolves under one budget.
    static func tracks(_ spec: SceneSpec, _ layers: Layers, limits: SceneLimits, budget: PhysicsBudget,
                       warnings: inout [Warning<SceneSubject>]) throws(SceneError) -> [Scene.Channel] {
        var channels: [Scene.Channel] = []
        for view in spec.views {
            var given = view.channels
            for name in layers.defaulted[view.name] ?? [] where view.channel(name) == nil {
                guard let initial = ChannelKind.defaultValue(name), let kind = ChannelKind.builtIn(name) else {
                    continue  // decoders refuse targeted channels without a default
                }
                given.append(SceneSpec.Channel(name: name, kind: kind, value: initial))
            }
            for channel in given {
                let track = ChannelTrack(initial: channel.value, animations: layers.byChannel[view.name]?[channel.name] ?? [],
                                         budget: budget)
                if budget.pollCancelled() { throw .cancelled }
                if budget.exhausted {
                    throw .simulationBudgetSpent(animation: budget.exhaustedBy ?? 0, allowance: limits.maxSimulationSteps)
                }
                for note in track.notes {
                    let subject: SceneSubject = note.block.map { .addedTarget(command: layers.blockCommands[note.order][$0],
                                                                                      channel: channel.name) }
                        ?? .target(animation: note.order, channel: channel.name)
                    warnings.append(Warning(subject: subject, detail: note.detail))
                }
                channels.append(Scene.Channel(view: view.name, name: channel.name, kind: channel.kind, track: track))
            }
        }
        return channels
    }

    // MARK: 5–6. Physics refusals and the end

    /// A block animator's op sent to a physics animation: refused naming the state the chain
    /// was in just before the command (rule 20).
    static func refuseBlockOpsOnPhysics(_ spec: SceneSpec, _ commands: [Int],
                                        _ chains: [Int: PhysicsChain]) throws(SceneError) {
        for i in commands {
            let command = spec.commands[i]
            guard spec.animations[command.animation].isPhysics else { continue }
            switch command.operation {
            case .retarget, .drag, .stop: continue
            default:
                let running = chains[command.animation]?.isRunning(at: command.at.nextDown) ?? false
                throw .illegalCommand(command: i, operation: command.operation.name, state: running ? .running : .inactive,
                                      allowed: SceneSpec.Operation.physicsNames)
            }
        }
    }

    /// The latest of every command and every animator's settling (rule 2).
    static func timelineEnd(_ spec: SceneSpec, _ animators: [Scene.Animator], commands: [Int], commandsOf: [[Int]],
                            limits: SceneLimits) throws(SceneError) -> Double {
        var latest = commands.last.map { spec.commands[$0].at } ?? 0
        for (index, animator) in animators.enumerated() {
            let settles = animator.settles
            guard settles.isFinite else {
                throw .neverEnds(animation: index, cause: neverEnding(spec, index, commandsOf[index]))
            }
            // Commands can push an animator past the duration limit (a late start with a delay,
            // a slow continue): the timeline still ends within it.
            guard settles <= limits.maxDuration else {
                throw .endsBeyondLimit(animation: index, end: settles, limit: limits.maxDuration, command: commandsOf[index].last)
            }
            latest = max(latest, settles)
        }
        return latest
    }

    /// Why an animator never settles.
    static func neverEnding(_ spec: SceneSpec, _ index: Int, _ commands: [Int]) -> SceneError.NeverEnding {
        guard let timing = spec.animations[index].timing else { return .noRest(window: physicsRestWindow) }
        let continued = commands.last { i in
            guard case .continue(.some, _) = spec.commands[i].operation else { return false }
            return true
        }
        if timing.activeDuration.isFinite, let continued { return .continuedSpring(command: continued) }
        return timing.repeatCount.isInfinite ? .repeatsForever : .undampedSpring
    }
}

/// Step 3: the layers of every view channel, in one pass over the animations and one over the
/// commands — each animation's targets, then the blocks `addAnimations` adds (numbered per
/// animation).
struct Layers {
    /// view → channel → layers.
    private(set) var byChannel: [String: [String: [ChannelAnimation]]] = [:]
    /// view → targeted channels in order of first appearance (for defaults).
    private(set) var defaulted: [String: [String]] = [:]
    /// Per animation, the command that added each of its blocks, by block number.
    private(set) var blockCommands: [[Int]]

    init(_ spec: SceneSpec, commands: [Int], commandsOf: [[Int]], animators: [PropertyAnimator?], limits: SceneLimits) {
        blockCommands = [[Int]](repeating: [], count: spec.animations.count)
        for (index, animation) in spec.animations.enumerated() {
            for (channel, motion, target) in Self.motions(animation, commands: commandsOf[index], of: spec, limits: limits) {
                add(ChannelAnimation(order: index, animator: animators[index], additive: animation.blend == .additive,
                                     motion: motion, target: target), view: animation.view, channel: channel)
            }
        }
        for i in commands {
            let command = spec.commands[i]
            guard case .addAnimations(_, let targets) = command.operation, !spec.animations[command.animation].isPhysics else {
                continue
            }
            let animation = spec.animations[command.animation], block = blockCommands[command.animation].count
            blockCommands[command.animation].append(i)
            for target in targets {
                add(ChannelAnimation(order: command.animation, block: block, animator: animators[command.animation],
                                     additive: animation.blend == .additive, motion: .toward(directRotation: false),
                                     target: target.value),
                    view: animation.view, channel: target.channel)
            }
        }
    }

    private mutating func add(_ layer: ChannelAnimation, view: String, channel: String) {
        if byChannel[view]?[channel] == nil { defaulted[view, default: []].append(channel) }
        byChannel[view, default: [:]][channel, default: []].append(layer)
    }

    /// Each channel an animation animates, its motion and its model value afterwards; `commands`
    /// are the animation's own, in time order (a physics chain replays them).
    static func motions(_ animation: SceneSpec.Animation, commands: [Int], of spec: SceneSpec,
                        limits: SceneLimits) -> [(String, ChannelAnimation.Motion, ChannelValue)] {
        switch animation.form {
        case .block(let block):
            return block.to.map { ($0.channel, .toward(directRotation: block.directRotation), $0.value) }
        case .keyframes(let keyframes):
            return keyframes.channels.compactMap { channel in
                guard let last = channel.keyframes.last else { return nil }
                return (channel.channel, .relativeKeyframes(channel.keyframes, mode: keyframes.mode), last.value)
            }
        case .values(let values):
            switch values.track {
            case .vector(let track): return [(values.channel, .vectorTrack(track), values.last)]
            case .transform(let track): return [(values.channel, .transformTrack(track), values.last)]
            }
        case .physics(let physics):
            let parameters = physicsParameters(physics, animation: animation, commands: commands, of: spec, limits: limits)
            return [(physics.channel, .physics(parameters), .vector(physics.target ?? physics.velocity.map { _ in 0 }))]
        }
    }

    /// Everything a physics chain needs. Its horizon — after which rest is not looked for — is
    /// `until`, else `SceneCompiler.physicsRestWindow` after its start or its last command (rule 2).
    static func physicsParameters(_ physics: SceneSpec.Physics, animation: SceneSpec.Animation, commands: [Int],
                                  of spec: SceneSpec, limits: SceneLimits) -> ChannelAnimation.PhysicsParameters {
        let autostart = animation.autostart ? animation.delay : nil
        let lastCommand = commands.last.map { spec.commands[$0].at } ?? 0
        let horizon = spec.until ?? min(limits.maxDuration, max(autostart ?? 0, lastCommand) + SceneCompiler.physicsRestWindow)
        return ChannelAnimation.PhysicsParameters(model: physics.model, integrator: physics.integrator, velocity: physics.velocity,
                                                  target: physics.target, restSpeed: physics.restSpeed,
                                                  restDistance: physics.restDistance, threshold: physics.threshold,
                                                  horizon: horizon, autostart: autostart, delay: animation.delay,
                                                  commands: physicsCommands(spec, commands))
    }

    /// A physics animation's commands for its chain.
    static func physicsCommands(_ spec: SceneSpec, _ indices: [Int]) -> [PhysicsChain.TimedCommand] {
        indices.compactMap { i in
            let command = spec.commands[i]
            switch command.operation {
            case .retarget(let target, let velocity):
                return PhysicsChain.TimedCommand(at: command.at, index: i, command: .retarget(target: target, velocity: velocity))
            case .drag(let samples):
                return PhysicsChain.TimedCommand(at: command.at, index: i, command: .drag(samples: samples))
            case .stop:
                return PhysicsChain.TimedCommand(at: command.at, index: i, command: .stop)
            default:
                return nil
            }
        }
    }
}
