import SegueEngine

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

    public struct NamedAnimator: Sendable {
        public var id: String
        public var animator: Animator
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

    /// Members of the contract that later releases implement.
    static let notYetImplemented = ["commands", "interaction", "transition"]

    public static func decode(_ body: JSONValue, limits: Limits) throws(Problem) -> RenderRequest {
        let root = JSONPointer.root
        var object = try ObjectReader(body, at: root)
        for member in notYetImplemented where object.has(member) {
            throw Problem(status: 422, kind: "not-implemented",
                          detail: "`\(member)` is part of the contract but not implemented by this release", pointer: "/\(member)")
        }
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
        guard animationsValue.count <= limits.maxAnimations else {
            throw Problem.invalid("\(animationsValue.count) animations are over the limit of \(limits.maxAnimations)",
                                  at: root / "animations")
        }
        try object.rejectUnknown()

        var warnings: [Warning] = []
        var animations: [AnimationSpec] = []
        var ids = Set<String>()
        for (i, value) in animationsValue.enumerated() {
            let animation = try AnimationSpec.decode(value, index: i, views: views, limits: limits, until: until,
                                                     warnings: &warnings)
            guard ids.insert(animation.id).inserted else {
                throw Problem.invalid("duplicate animation id `\(animation.id)`", at: root / "animations" / i / "id")
            }
            animations.append(animation)
        }

        // Tracks: every given channel, then every targeted default channel, in order of appearance.
        var outputs: [Output] = []
        for view in views {
            var channels = view.channels
            for animation in animations where animation.view == view.name {
                for target in animation.targets where !channels.contains(where: { $0.name == target.channel }) {
                    guard let initial = ChannelKind.defaultValue(target.channel), let kind = ChannelKind.builtIn(target.channel) else {
                        continue  // AnimationSpec already refused channels without a default
                    }
                    channels.append(ViewSpec.Channel(name: target.channel, kind: kind, value: initial))
                }
            }
            for channel in channels {
                var layers: [ChannelAnimation] = []
                var pointers: [Int: JSONPointer] = [:]
                for animation in animations where animation.view == view.name && animation.autostart {
                    for target in animation.targets where target.channel == channel.name {
                        layers.append(ChannelAnimation(order: animation.index, start: animation.delay, timing: animation.timing,
                                                       additive: animation.additive, motion: target.motion, target: target.target))
                        pointers[animation.index] = target.pointer
                    }
                }
                let track = ChannelTrack(initial: channel.value, animations: layers)
                for note in track.notes {
                    warnings.append(Warning(pointer: pointers[note.order] ?? root / "animations" / note.order, detail: note.detail))
                }
                outputs.append(Output(view: view.name, channel: channel.name, kind: channel.kind, track: track))
            }
        }

        // A physics animation lasts until its motion rests, known once its track is resolved.
        var settleTimes: [Int: Double] = [:]
        for output in outputs { settleTimes.merge(output.track.physicsSettleTimes) { first, _ in first } }
        let animators = animations.map { spec in
            NamedAnimator(id: spec.id, animator: Animator(order: spec.index, startedAt: spec.autostart ? 0 : nil, delay: spec.delay,
                                                         activeDuration: spec.isPhysics ? settleTimes[spec.index] ?? 0
                                                             : spec.timing.activeDuration,
                                                         pausesOnCompletion: spec.pausesOnCompletion,
                                                         reportsFraction: !spec.isPhysics))
        }
        let end: Double
        if let until {
            end = until
        } else {
            var latest = 0.0
            for spec in animations {
                let settles = animators[spec.index].animator.settles
                guard settles.isFinite else {
                    throw Problem.invalid("animation `\(spec.id)` never ends (\(spec.unboundedBecause)): give `until`",
                                          at: root / "animations" / spec.index / spec.unboundedMember)
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
        return RenderRequest(fps: at == nil ? (fps ?? 60) : nil, times: times, end: end, outputs: outputs, animators: animators,
                             velocities: velocities, warnings: warnings)
    }
}
