/// The UIViewPropertyAnimator behind one animation, as far as a render without commands
/// drives it (API.md §4 "Animations", §6 rules 8, 13, 17, 18): it starts at its start time
/// (autostart at 0), is `running` through its delay and active duration, then completes —
/// becoming `inactive` — or, with `pausesOnCompletion`, pauses at the end instead.
public struct Animator: Sendable {
    public enum State: String, Sendable {
        case inactive, running, paused, stopped
    }

    public enum EventType: String, Sendable {
        case start, pause, stop, reverse, `continue`, addAnimations, retarget, grab, release
        case interactionFinish, interactionCancel, completion
    }

    public struct Event: Sendable {
        public var t: Double
        public var order: Int
        public var type: EventType
        /// `completion` events: `end`, `start` or `current`.
        public var position: String?
    }

    public var order: Int
    /// When the animator starts running; nil when it never does (`autostart: false`).
    public var startedAt: Double?
    public var delay: Double
    public var activeDuration: Double
    public var pausesOnCompletion: Bool
    /// Physics animations have no time fraction: `animators.<id>.fraction` is null (§6 rule 18).
    public var reportsFraction: Bool

    public init(order: Int, startedAt: Double?, delay: Double, activeDuration: Double, pausesOnCompletion: Bool,
                reportsFraction: Bool = true) {
        self.order = order
        self.startedAt = startedAt
        self.delay = delay
        self.activeDuration = activeDuration
        self.pausesOnCompletion = pausesOnCompletion
        self.reportsFraction = reportsFraction
    }

    /// When it reaches the end (∞ for an unbounded repeat; nil when it never starts).
    public var reachesEnd: Double? { startedAt.map { $0 + delay + activeDuration } }

    /// The time after which its state never changes: the end, or its start-up state at 0.
    public var settles: Double { reachesEnd ?? 0 }

    public func state(at t: Double) -> State {
        guard let startedAt, t >= startedAt else { return .inactive }
        guard let end = reachesEnd, t >= end else { return .running }
        return pausesOnCompletion ? .paused : .inactive
    }

    /// Time fraction over the whole run, repeats included: 0 during the delay, 1 at the end.
    public func fraction(at t: Double) -> Double {
        guard let startedAt else { return 0 }
        let elapsed = t - startedAt - delay
        if elapsed <= 0 { return 0 }
        if elapsed >= activeDuration { return 1 }
        return elapsed / activeDuration
    }

    public var events: [Event] {
        guard let startedAt else { return [] }
        var events = [Event(t: startedAt, order: order, type: .start)]
        if let end = reachesEnd, end.isFinite {
            events.append(pausesOnCompletion ? Event(t: end, order: order, type: .pause)
                                             : Event(t: end, order: order, type: .completion, position: "end"))
        }
        return events
    }
}
