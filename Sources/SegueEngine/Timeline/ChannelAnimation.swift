/// One animation's effect on one channel of one view.
struct ChannelAnimation: Sendable {
    /// How the value moves with progress.
    public enum Motion: Sendable {
        /// A block animation's `to`: from the presented value (replace) or the model value
        /// (additive) to `target`.
        case toward(directRotation: Bool)
        /// UIView keyframes naming this channel (`addKeyframeWithRelativeStartTime:…`): the track
        /// starts at the presented value (docs/keyframes.md "UIView keyframe blocks").
        case relativeKeyframes([RelativeKeyframe<ChannelValue>], mode: CalculationMode)
        /// A CAKeyframeAnimation's `values`, complete as given (`values[0]` is the start).
        case vectorTrack(KeyframeTrack)
        case transformTrack(TransformKeyframeTrack)
        /// Forces instead of a curve (docs/rules.md "Physics animations"): from the presented value
        /// at its effective start, driven by its own commands.
        case physics(PhysicsParameters)
    }

    /// Everything a physics chain needs but the value it starts from.
    public struct PhysicsParameters: Sendable {
        public var model: PhysicsModel
        public var integrator: PhysicsIntegrator
        public var velocity: [Double]
        /// nil for a decay, a fling and a scroll deceleration.
        public var target: [Double]?
        public var restSpeed: Double, restDistance: Double, threshold: Double
        /// Absolute time after which nothing needs simulating.
        public var horizon: Double
        /// Autostart time plus delay; nil when it waits for a command.
        public var autostart: Double?
        /// The autostart's delay (running, not moving, before `autostart`).
        public var delay: Double
        public var commands: [PhysicsChain.TimedCommand]

        public init(model: PhysicsModel, integrator: PhysicsIntegrator, velocity: [Double], target: [Double]?,
                    restSpeed: Double, restDistance: Double, threshold: Double, horizon: Double, autostart: Double?,
                    delay: Double, commands: [PhysicsChain.TimedCommand]) {
            self.model = model
            self.integrator = integrator
            self.velocity = velocity
            self.target = target
            self.restSpeed = restSpeed
            self.restDistance = restDistance
            self.threshold = threshold
            self.horizon = horizon
            self.autostart = autostart
            self.delay = delay
            self.commands = commands
        }

        public var effectiveStart: Double? { PhysicsChain.effectiveStart(autostart: autostart, commands: commands) }
    }

    /// The animation's index in the request (ties in start time go by it).
    public var order: Int
    /// For a block added by `addAnimations`: its number (blocks start after the animation's own).
    public var block: Int?
    /// The animator that drives a curve motion (unused by physics).
    public var animator: PropertyAnimator?
    public var additive: Bool
    public var motion: Motion
    /// The model value once the animation has run: `to`, or the last keyframe value.
    public var target: ChannelValue

    public init(order: Int, block: Int? = nil, animator: PropertyAnimator?, additive: Bool, motion: Motion,
                target: ChannelValue) {
        self.order = order
        self.block = block
        self.animator = animator
        self.additive = additive
        self.motion = motion
        self.target = target
    }

    /// When the animation first shows on the channel (its effective start); nil if never.
    public var start: Double? {
        if case .physics(let parameters) = motion { return parameters.effectiveStart }
        guard let animator else { return nil }
        return block.map(animator.blockStart) ?? animator.contributionStart
    }

    /// The curve motion's progress at t (nil for physics, or before the start).
    func sample(at t: Double) -> PropertyAnimator.Sample? {
        guard let animator else { return nil }
        return block.map { animator.blockSample($0, at: t) } ?? animator.sample(at: t)
    }
}

/// A motion with its start value known: what is evaluated per frame.
enum ResolvedMotion: Sendable {
    case vectorLerp(from: [Double], to: [Double])
    case transform(TransformInterpolator)
    case vectorTrack(KeyframeTrack)
    case transformTrack(TransformKeyframeTrack)
    case physics(PhysicsChain)

    init(_ motion: ChannelAnimation.Motion, from: ChannelValue, to target: ChannelValue, budget: PhysicsBudget?) {
        switch (motion, from, target) {
        case (.physics(let p), _, _):
            self = .physics(PhysicsChain(model: p.model, integrator: p.integrator, velocity: p.velocity, target: p.target,
                                         restSpeed: p.restSpeed, restDistance: p.restDistance, threshold: p.threshold,
                                         start: p.effectiveStart ?? 0, from: from.numbers, commands: p.commands,
                                         horizon: p.horizon, autostarted: p.autostart != nil && p.autostart == p.effectiveStart,
                                         announced: p.autostart.map { $0 - p.delay }, budget: budget))
        case (.toward, .vector(let start), .vector(let end)):
            self = .vectorLerp(from: start, to: end)
        case (.toward(let direct), .transform(let start), .transform(let end)):
            self = .transform(TransformInterpolator(from: start, to: end, directRotation: direct))
        case (.relativeKeyframes(let keyframes, let mode), .vector, _):
            let track = UIViewKeyframes.track(from: from, keyframes: keyframes)
            let values = track.values.map { $0.numbers }
            self = .vectorTrack(KeyframeTrack(values: values, keyTimes: track.keyTimes, timingFunctions: nil, mode: mode,
                                              tension: nil, continuity: nil, bias: nil))
        case (.relativeKeyframes(let keyframes, let mode), .transform, _):
            let track = UIViewKeyframes.track(from: from, keyframes: keyframes)
            let values = track.values.map { value -> TransformEnd in
                if case .transform(let end) = value { return end }
                return .matrix(.identity)
            }
            self = .transformTrack(TransformKeyframeTrack(values: values, keyTimes: track.keyTimes, timingFunctions: nil,
                                                          mode: mode, tension: nil, continuity: nil, bias: nil))
        case (.vectorTrack(let track), _, _):
            self = .vectorTrack(track)
        case (.transformTrack(let track), _, _):
            self = .transformTrack(track)
        default:
            // A vector and a transform never meet on one channel: the codec checks kinds.
            self = .vectorLerp(from: from.numbers, to: target.numbers)
        }
    }

    func value(_ progress: Double) -> ChannelValue {
        switch self {
        case .vectorLerp(let from, let to):
            // The hot path of a render: one allocation, written in place.
            let count = min(from.count, to.count)
            return .vector([Double](unsafeUninitializedCapacity: count) { buffer, initialized in
                for i in 0..<count { buffer[i] = from[i] + (to[i] - from[i]) * progress }
                initialized = count
            })
        case .transform(let interpolator):
            return .transform(.matrix(interpolator.value(progress)))
        case .vectorTrack(let track):
            return .vector(track.value(at: progress))
        case .transformTrack(let track):
            return .transform(.matrix(track.value(at: progress)))
        case .physics(let chain):
            return .vector(chain.finalValue)  // physics is evaluated by time (`ChannelTrack`), not progress
        }
    }

    /// What Core Animation would do quietly here and a client should hear about: singular
    /// transform ends interpolated discretely (rule 6), for a `to` or for keyframes.
    var notes: [String] {
        switch self {
        case .transform(let interpolator) where interpolator.isDiscrete:
            let end = interpolator.singularEnd.map { "\($0)" } ?? "an end"
            return ["a singular transform (\(end)) cannot be decomposed: interpolated discretely at progress 0.5; "
                    + "give both ends as components to animate it"]
        case .transformTrack(let track):
            return track.warnings.map(\.detail)
        default:
            return []
        }
    }
}
