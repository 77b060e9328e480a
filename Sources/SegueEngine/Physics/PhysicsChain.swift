/// One physics animation's whole life on its channel: its motion from the start, then retargets,
/// drags and a stop (docs/rules.md "Physics animations" and the `retarget`, `drag`, `stop` commands;
/// rules 1, 13, 17, 18, 20–22). Everything is a pure function of the inputs.
///
/// The life is a sequence of segments, each from its beginning to the next one's:
/// - held: inactive (before the start, settled, stopped); the value stays, velocity 0;
/// - moving: forces act, one `PhysicsMotion` (docs/springs.md "Physics models");
/// - dragged: the value follows the finger's samples, forces suspended.
///
/// How each command changes it, at its time T (commands first, then rests and releases, rule 1):
/// - `retarget` while moving: the motion continues from its exact state at T (position and
///   velocity continuous; `velocity` replaces the velocity when given) toward the new target,
///   on the same time grid (`PhysicsMotion.retargeted`): `exact` keeps its rest test on start + n
///   ms, tested from T on; `euler`/`rk4` keep their ticks anchored at the start, and a tick at T
///   already pulls toward the new target. While settled or stopped it restarts from rest at the
///   value held (velocity 0 unless given; before the first start, the animation's `velocity`;
///   tick integrators anchor a new grid at T, as at a release): events `start` and `retarget`,
///   both with the command's index. While dragged it only
///   changes the target used after the release. Before an autostart (during its delay) it only
///   changes the target the motion will start toward.
/// - `drag` with samples s0…sn, in any state: at T the value jumps to s0 (`grab`) and forces are
///   suspended; before s0.t the value is s0 (velocity 0), then the samples' linear interpolation
///   (velocity the segment's slope); at sn.t (`release`) forces resume from sn with
///   `DragRelease.velocity` toward the current target (a decay: a decay from there). Tick
///   integrators re-anchor their grid at the release, a new POP animation whose first frame
///   advances 0. A drag on a settled, stopped or unstarted animator starts it with no `start`
///   event; a drag during a drag takes over without a release.
/// - `stop`: the value stays where it is (velocity 0), inactive, `stop` with withoutFinishing
///   true and no completion; during a drag the remaining samples are dropped (no release).
/// Coming to rest emits `completion` (position `end`) at the rest time; from then on the value is
/// the target exactly (a decay: its end point). A retarget on a decay is refused by the caller
/// (rule 22).
///
/// Work is bounded: a motion is simulated or searched only up to the next command (or the
/// horizon), within the render's `PhysicsBudget`; nothing after the horizon happens
/// (commands, releases and rests after it are left out).
struct PhysicsChain: Sendable {
    public enum Command: Sendable, Equatable {
        /// The new target; `velocity` replaces the velocity when given.
        case retarget(target: [Double], velocity: [Double]?)
        /// Validated by the caller: non-empty, strictly increasing t, first t ≥ the command's
        /// `at`, widths matching the channel.
        case drag(samples: [DragSample])
        case stop
    }

    public struct TimedCommand: Sendable {
        public var at: Double
        /// The command's index in the request (events name it).
        public var index: Int
        public var command: Command

        public init(at: Double, index: Int, command: Command) {
            self.at = at
            self.index = index
            self.command = command
        }
    }

    /// What the channel does from a segment's beginning to the next one's.
    private enum Phase: Sendable {
        /// Inactive: the value held, velocity 0.
        case held([Double])
        /// Running through the autostart's delay (rule 8): nothing moves yet.
        case delayed([Double])
        /// Forces act: `motion` at local time t − `origin`.
        case moving(PhysicsMotion, origin: Double)
        /// Following the finger, for the drag command with this index.
        case dragged([DragSample], command: Int)
    }

    private struct Segment: Sendable {
        var begin: Double
        var phase: Phase
    }

    /// In time order, the first beginning at −∞.
    private let segments: [Segment]
    /// Every state change in time order (rule 18): `start` (autostart: no command; a restart by a
    /// retarget: its index), `retarget`, `grab`, `release`, `stop` (withoutFinishing true),
    /// `completion` (position `end`) at each rest.
    public let events: [AnimatorEvent]
    /// The time after which nothing changes: when the animator last became inactive (a rest or a
    /// stop; the start if it never moved); ∞ when it is still moving or dragged at the horizon.
    public let settles: Double
    /// The model value after the animation: the final target; a decay's is where it stopped.
    public let finalValue: [Double]

    /// When the animation first contributes to its channel: the autostart (its time + delay),
    /// else the first `retarget` or `drag` command. During the autostart's delay a `drag`
    /// starts it earlier (the finger takes the channel at once), a `stop` cancels the delay
    /// (rule 8) and a `retarget` only changes the target; nil if it never starts.
    /// - commands: sorted by `at` (ties in array order).
    public static func effectiveStart(autostart: Double?, commands: [TimedCommand]) -> Double? {
        var pending = autostart
        for command in commands {
            // The autostart comes before commands at its time.
            if let autostart = pending, autostart <= command.at { return autostart }
            switch command.command {
            case .drag: return command.at
            case .retarget: if pending == nil { return command.at }
            case .stop: pending = nil
            }
        }
        return pending
    }

    /// - model/integrator/velocity/target/restSpeed/restDistance/threshold: as `PhysicsMotion`
    ///   (target nil for a decay).
    /// - start: the effective start (`effectiveStart`); from: the channel's presented value then.
    /// - commands: this animation's commands, sorted by `at` (ties in array order).
    /// - horizon: absolute time after which nothing needs simulating (`until` or the duration
    ///   limit).
    /// - autostarted: whether `start` is an autostart (event `start` without a command) rather
    ///   than the first `retarget` or `drag`. nil infers it: started by a command exactly when the
    ///   first `retarget` or `drag` is at `start` (an autostart at the same instant as a command
    ///   needs it given).
    /// - budget: the render's physics allowance (`PhysicsBudget`), shared by its motions.
    /// - announced: for an autostart, when it was asked for (before its delay): from then the
    ///   animator is `running` with its `start` event, though nothing moves until `start` (rule 8).
    public init(model: PhysicsModel, integrator: PhysicsIntegrator, velocity: [Double], target: [Double]?, restSpeed: Double,
                restDistance: Double, threshold: Double, start: Double, from: [Double], commands: [TimedCommand],
                horizon: Double, autostarted: Bool? = nil, announced: Double? = nil, budget: PhysicsBudget? = nil) {
        let firstMove = commands.first { if case .stop = $0.command { false } else { true } }
        var resolver = Resolver(model: model, integrator: integrator, restSpeed: restSpeed, restDistance: restDistance,
                                threshold: threshold, start: start, horizon: horizon, target: target, from: from,
                                velocity: velocity, commands: commands.filter { $0.at <= horizon }, budget: budget)
        resolver.run(autostart: autostarted ?? (firstMove?.at != start), announced: announced)
        segments = resolver.segments
        events = resolver.events
        settles = resolver.inactiveSince
        finalValue = resolver.target ?? resolver.finalPosition
    }

    /// Value and velocity at absolute time t (right-hand limits: a command at t already applies);
    /// before the start, `from` at rest.
    public func state(at t: Double) -> (position: [Double], velocity: [Double]) {
        switch segment(at: t).phase {
        case .held(let position), .delayed(let position): (position, [Double].zeros(position.count))
        case .moving(let motion, let origin): motion.state(at: t - origin)
        case .dragged(let samples, _): Self.follow(samples, at: t)
        }
    }

    /// True while the animator is `running` (moving or dragged), false while `inactive` (settled,
    /// stopped, or before the start) (rule 13).
    public func isRunning(at t: Double) -> Bool {
        if case .held = segment(at: t).phase { return false }
        return true
    }

    /// Whether a moving segment runs a tick integrator (semi-implicit Euler, POP's RK4, Rebound, Box2D), whose value
    /// jumps at every display tick: an export follows each jump (docs/cost.md "Exports").
    var jumpsEveryTick: Bool {
        segments.contains { segment in
            guard case .moving(let motion, _) = segment.phase else { return false }
            return motion.integrator.tickRate != nil
        }
    }

    /// A scroll deceleration's projected resting value from its first motion (`ScrollDecay.projection`,
    /// the value where it started and its velocity then); nil for other models or when it never moved.
    public var projection: [Double]? {
        for segment in segments {
            if case .moving(let motion, _) = segment.phase { return motion.projection }
        }
        return nil
    }

    /// The times at which a tick integrator's value jumps (its ticks while moving), in order.
    var jumpTimes: [Double] {
        var times: [Double] = []
        for (k, segment) in segments.enumerated() {
            guard case .moving(let motion, let origin) = segment.phase else { continue }
            let end = k + 1 < segments.count ? segments[k + 1].begin : .infinity
            times += motion.tickTimes.map { origin + $0 }.filter { $0 > segment.begin && $0 < end }
        }
        return times
    }

    /// The last segment beginning at or before t.
    private func segment(at t: Double) -> Segment {
        var low = 0, high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].begin <= t { low = middle } else { high = middle - 1 }
        }
        return segments[low]
    }

    /// The finger's value at t: s0 until its time, then the samples' linear interpolation, whose
    /// slope is the velocity; the last sample's value (at rest) from its time on.
    private static func follow(_ samples: [DragSample], at t: Double) -> (position: [Double], velocity: [Double]) {
        guard let first = samples.first, let last = samples.last else { return ([], []) }
        guard t >= first.t, t < last.t else {
            return (t < first.t ? first.value : last.value, [Double].zeros(first.value.count))
        }
        // The segment [s_k, s_k+1) holding t.
        var low = 0, high = samples.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if samples[middle].t <= t { low = middle } else { high = middle - 1 }
        }
        let a = samples[low], b = samples[low + 1]
        let fraction = (t - a.t) / (b.t - a.t)
        let slope = a.value.indices.map { (b.value[$0] - a.value[$0]) / (b.t - a.t) }
        return (a.value.indices.map { a.value[$0] + (b.value[$0] - a.value[$0]) * fraction }, slope)
    }

    /// The chain being resolved, event by event.
    private struct Resolver {
        let model: PhysicsModel, integrator: PhysicsIntegrator
        let restSpeed: Double, restDistance: Double, threshold: Double
        let start: Double, horizon: Double
        var target: [Double]?
        let from: [Double]
        /// The velocity a start from rest takes when none is given: the animation's own until it
        /// first starts, then 0.
        var restartVelocity: [Double]
        let commands: [TimedCommand]
        var segments: [Segment]
        var events: [AnimatorEvent] = []
        /// The render's physics allowance, shared with its other motions.
        let budget: PhysicsBudget?
        var inactiveSince: Double
        /// The index of the next command to apply.
        var next = 0

        init(model: PhysicsModel, integrator: PhysicsIntegrator, restSpeed: Double, restDistance: Double, threshold: Double,
             start: Double, horizon: Double, target: [Double]?, from: [Double], velocity: [Double], commands: [TimedCommand],
             budget: PhysicsBudget?) {
            self.budget = budget
            self.model = model
            self.integrator = integrator
            self.restSpeed = restSpeed
            self.restDistance = restDistance
            self.threshold = threshold
            self.start = start
            self.horizon = horizon
            self.target = target
            self.from = from
            restartVelocity = velocity
            self.commands = commands
            segments = [Segment(begin: -.infinity, phase: .held(from))]
            inactiveSince = start
        }

        /// Where the value ends once nothing changes any more.
        var finalPosition: [Double] {
            switch segments[segments.count - 1].phase {
            case .held(let position), .delayed(let position): position
            case .moving(let motion, _): motion.final
            case .dragged(let samples, _): samples.last?.value ?? from
            }
        }

        /// The time of the next command, ∞ when none is left.
        private var nextCommandTime: Double { next < commands.count ? commands[next].at : .infinity }

        /// Applies the autostart, the commands and the releases in time order: at equal times the
        /// autostart first, then commands, then a release (rule 1).
        mutating func run(autostart: Bool, announced: Double?) {
            var autostartPending = autostart && start <= horizon
            var startAnnounced = false
            if autostartPending, let announced, announced < start {
                // Asked for before its delay: running from then, still (rule 8).
                events.append(AnimatorEvent(t: announced, kind: .start))
                segments.append(Segment(begin: announced, phase: .delayed(from)))
                startAnnounced = true
            }
            while true {
                if autostartPending, start <= nextCommandTime {
                    autostartPending = false
                    if !startAnnounced { events.append(AnimatorEvent(t: start, kind: .start)) }
                    move(at: start, from: from, velocity: restartVelocity, origin: gridOrigin(start))
                } else if case .dragged(let samples, let index) = segments[segments.count - 1].phase, let last = samples.last,
                          last.t < nextCommandTime, last.t <= horizon {
                    // The finger lifts at the last sample: forces resume from it with the drag's velocity.
                    events.append(AnimatorEvent(t: last.t, kind: .release, command: index))
                    move(at: last.t, from: last.value, velocity: DragRelease.velocity(of: samples), origin: gridOrigin(last.t))
                } else if next < commands.count {
                    let command = commands[next]
                    next += 1
                    if autostartPending, case .retarget(let goal, let velocity) = command.command {
                        // During the autostart's delay: the target (and velocity) it will start with.
                        target = goal
                        restartVelocity = velocity ?? restartVelocity
                        events.append(AnimatorEvent(t: command.at, kind: .retarget, command: command.index))
                    } else {
                        // A drag takes the channel at once; a stop cancels the delay (rule 8).
                        autostartPending = false
                        apply(command)
                    }
                } else {
                    return
                }
            }
        }

        private mutating func apply(_ command: TimedCommand) {
            let t = command.at
            let phase = segments[segments.count - 1].phase
            switch command.command {
            case .retarget(let goal, let velocity):
                target = goal
                switch phase {
                case .moving(let motion, let origin):
                    events.append(AnimatorEvent(t: t, kind: .retarget, command: command.index))
                    let continued = motion.retargeted(at: t - origin, toward: goal, velocity: velocity,
                                                      horizon: min(horizon, nextCommandTime) - origin, budget: budget)
                    begin(continued, at: t, origin: origin)
                case .held(let position), .delayed(let position):
                    events.append(AnimatorEvent(t: t, kind: .start, command: command.index))
                    events.append(AnimatorEvent(t: t, kind: .retarget, command: command.index))
                    move(at: t, from: position, velocity: velocity ?? restartVelocity, origin: gridOrigin(t))
                case .dragged:
                    events.append(AnimatorEvent(t: t, kind: .retarget, command: command.index))
                }
            case .drag(let samples):
                events.append(AnimatorEvent(t: t, kind: .grab, command: command.index))
                restartVelocity = [Double].zeros(from.count)
                inactiveSince = .infinity
                segments.append(Segment(begin: t, phase: .dragged(samples, command: command.index)))
            case .stop:
                events.append(AnimatorEvent(t: t, kind: .stop, command: command.index, withoutFinishing: true))
                restartVelocity = [Double].zeros(from.count)
                switch phase {
                case .held: break
                case .delayed(let position): hold(position, from: t)
                case .moving(let motion, let origin): hold(motion.state(before: t - origin).position, from: t)
                case .dragged(let samples, _): hold(PhysicsChain.follow(samples, at: t).position, from: t)
                }
            }
        }

        /// A motion beginning at t from a state of its own (a start, a restart, a release).
        private mutating func move(at t: Double, from position: [Double], velocity: [Double], origin: Double) {
            restartVelocity = [Double].zeros(from.count)
            let motion = PhysicsMotion(model: model, integrator: integrator, start: position, velocity: velocity, target: target,
                                       restSpeed: restSpeed, restDistance: restDistance, threshold: threshold,
                                       horizon: min(horizon, nextCommandTime) - origin, elapsed: t - origin, budget: budget)
            begin(motion, at: t, origin: origin)
        }

        /// Enters `motion` at t and, when it rests before the next command (a command at the rest
        /// instant comes first, rule 1) and within the horizon, completes it there.
        private mutating func begin(_ motion: PhysicsMotion, at t: Double, origin: Double) {
            inactiveSince = .infinity
            segments.append(Segment(begin: t, phase: .moving(motion, origin: origin)))
            // Not before t, whatever the rounding of a grid point within the slack of t.
            let rest = max(t, origin + motion.settleTime)
            let rests = next < commands.count ? motion.restsBefore(nextCommandTime - origin) : rest <= horizon
            guard rests else { return }
            events.append(AnimatorEvent(t: rest, kind: .completion, position: .end))
            hold(motion.final, from: rest)
        }

        private mutating func hold(_ position: [Double], from t: Double) {
            inactiveSince = t
            segments.append(Segment(begin: t, phase: .held(position)))
        }

        /// The time origin of a motion beginning at t: the exact integrator tests rest on start + n
        /// ms whatever began it (rule 21); ticks and decays count from their own beginning.
        private func gridOrigin(_ t: Double) -> Double {
            if case .spring = model, integrator == .exact { return start }
            return t
        }
    }
}
