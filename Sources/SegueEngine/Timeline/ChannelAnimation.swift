/// One animation's effect on one channel of one view.
public struct ChannelAnimation: Sendable {
    /// How the value moves with progress.
    public enum Motion: Sendable {
        /// A block animation's `to`: from the presented value (replace) or the model value
        /// (additive) to `target`.
        case toward(directRotation: Bool)
        /// UIView keyframes naming this channel (`addKeyframeWithRelativeStartTime:…`): the track
        /// starts at the presented value (shared/reference/curves.md §4.1).
        case relativeKeyframes([RelativeKeyframe<ChannelValue>], mode: CalculationMode)
        /// A CAKeyframeAnimation's `values`, complete as given (`values[0]` is the start).
        case vectorTrack(KeyframeTrack)
        case transformTrack(TransformKeyframeTrack)
        /// Forces instead of a curve (API.md §4 "Physics animations"): from the presented value
        /// with `velocity` toward `target` (nil for a decay); the channel's own time drives it.
        case physics(model: PhysicsModel, integrator: PhysicsIntegrator, velocity: [Double], target: [Double]?,
                     restSpeed: Double, restDistance: Double, threshold: Double, horizon: Double)
    }

    /// The animation's index in the request (ties in start time go by it).
    public var order: Int
    /// Effective start on the timeline: start command or autostart, plus delay.
    public var start: Double
    public var timing: ActiveTiming
    public var additive: Bool
    public var motion: Motion
    /// The model value once the animation has run: `to`, or the last keyframe value.
    public var target: ChannelValue

    public init(order: Int, start: Double, timing: ActiveTiming, additive: Bool, motion: Motion, target: ChannelValue) {
        self.order = order
        self.start = start
        self.timing = timing
        self.additive = additive
        self.motion = motion
        self.target = target
    }

    public var end: Double { start + timing.activeDuration }
}

/// A motion with its start value known: what is evaluated per frame.
enum ResolvedMotion: Sendable {
    case vectorLerp(from: [Double], to: [Double])
    case transform(TransformInterpolator)
    case vectorTrack(KeyframeTrack)
    case transformTrack(TransformKeyframeTrack)
    case physics(PhysicsMotion)

    init(_ motion: ChannelAnimation.Motion, from: ChannelValue, to target: ChannelValue) {
        switch (motion, from, target) {
        case (.physics(let model, let integrator, let velocity, let goal, let restSpeed, let restDistance, let threshold,
                       let horizon), _, _):
            self = .physics(PhysicsMotion(model: model, integrator: integrator, start: from.numbers, velocity: velocity,
                                          target: goal, restSpeed: restSpeed, restDistance: restDistance,
                                          threshold: threshold, horizon: horizon))
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
        case .physics(let motion):
            return .vector(motion.final)  // physics is evaluated by time (`ChannelTrack`), not progress
        }
    }

    /// What Core Animation would do quietly here and a client should hear about: singular
    /// transform ends interpolated discretely (§6 rule 6), for a `to` or for keyframes.
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
