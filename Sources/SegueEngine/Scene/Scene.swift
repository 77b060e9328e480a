/// A compiled render: every reported channel's value and velocity at any time, every animator's
/// state, the events in the order they took effect, and the timeline's end (docs/rules.md rules
/// 1–4). Time is an input; a `Scene` is immutable and can be sampled from any thread.
public struct Scene: Sendable {
    /// One reported channel of one view.
    public struct Channel: Sendable {
        public let view: String
        public let name: String
        public let kind: ChannelKind
        let track: ChannelTrack

        /// The presented value at t (right-hand, rule 1).
        public func value(at t: Double) -> ChannelValue { track.value(at: t) }

        /// d(value)/dt at t per component, right-hand (rule 4); a transform per matrix entry.
        public func velocity(at t: Double) -> [Double] { track.velocity(at: t) }

        /// How many animation layers an evaluation blends (a cost measure).
        public var layerCount: Int { track.layerCount }

        /// Where the channel may follow one block animation's curve exactly: the first pass of
        /// every `to` layer on one timing curve (a Bézier, steps, `linear()`, a spring). Candidates
        /// only — a command, a repeat or another layer can change the motion, so an export
        /// confirms each against the values (docs/exports.md "Exact pieces"); a spring's has no
        /// exact web form, and an export writes it as its `linear()` (rule 41).
        public var exactPieceCandidates: [ExactPiece] { track.exactPieceCandidates }

        /// The block animation that alone moves the channel, as one exact piece: before it the
        /// channel holds its initial value, within it the eased mix of that value and the block's
        /// target, after it the target (docs/exports.md "One easing per block"). nil when anything
        /// else moves it — another layer, a command, a repeat, physics, keyframes.
        public var soleBlock: ExactPiece? { track.soleBlock }

        /// Times at which the value may jump other than the events: a tick integrator's ticks.
        public var jumpTimes: [Double] { track.jumpTimes }
    }

    /// One animation's animator.
    public struct Animator: Sendable {
        enum Timeline: Sendable {
            case property(PropertyAnimator)
            /// nil when the physics animation never starts.
            case physics(PhysicsChain?)
        }

        public let id: String
        let timeline: Timeline

        /// Physics animators have no time fraction (rule 18).
        public var isPhysics: Bool {
            if case .physics = timeline { return true }
            return false
        }

        public func state(at t: Double) -> AnimatorState {
            switch timeline {
            case .property(let animator): animator.state(at: t)
            case .physics(let chain): chain?.isRunning(at: t) == true ? .running : .inactive
            }
        }

        /// The time fraction over the whole run (rule 14); 0 for physics.
        public func fraction(at t: Double) -> Double {
            guard case .property(let animator) = timeline else { return 0 }
            return animator.fraction(at: t)
        }

        public func reversed(at t: Double) -> Bool {
            guard case .property(let animator) = timeline else { return false }
            return animator.reversed(at: t)
        }

        /// A scroll deceleration's projected resting value (docs/springs.md "Scroll deceleration"):
        /// x0 + (v0/1000)·r/(1 − r) per component from where and how fast it started; nil for
        /// every other animation, and for one that never started.
        public var projection: [Double]? {
            guard case .physics(let chain) = timeline else { return nil }
            return chain?.projection
        }

        /// When the animator comes to rest for good (∞ when it never does).
        var settles: Double {
            switch timeline {
            case .property(let animator): animator.settles
            case .physics(let chain): chain?.settles ?? 0
            }
        }

        var events: [AnimatorEvent] {
            switch timeline {
            case .property(let animator): animator.events
            case .physics(let chain): chain?.events ?? []
            }
        }
    }

    public struct Event: Sendable, Equatable {
        /// The index of the animation (and its animator).
        public let animation: Int
        public let event: AnimatorEvent
    }

    /// Every given channel of every view, then the defaulted channels animations target, in
    /// order of appearance.
    public let channels: [Channel]
    /// One per animation, in spec order.
    public let animators: [Animator]
    /// Every state change in the order it took effect (rule 1).
    public let events: [Event]
    /// `until`, or when the last animator settles (rule 2).
    public let end: Double
    /// Every view's name, bottom to top (`Stacking`, rule 40).
    public let stacking: [String]
    public let warnings: [Warning<SceneSubject>]
    /// The physics work the compile did: rest tests, Euler ticks and RK4 steps per channel
    /// component (at most `SceneLimits.maxSimulationSteps`).
    public let simulationWork: Int

    /// The value of `channel` at t, refusing a non-finite number (docs/rules.md "Conventions").
    public func finiteValue(_ channel: Int, at t: Double) throws(SceneError) -> ChannelValue {
        let value = channels[channel].value(at: t)
        try checkFinite(value.numbers, channel, t)
        return value
    }

    func checkFinite(_ numbers: [Double], _ channel: Int, _ t: Double) throws(SceneError) {
        for number in numbers where !number.isFinite {
            throw .nonFinite(view: channels[channel].view, channel: channels[channel].name, t: t)
        }
    }
}

extension Scene {
    /// The one block that alone moves every moving channel among `channels` (indices into
    /// `channels`; `Channel.soleBlock`), so that their export is that block's keyframes
    /// (docs/exports.md "One easing per block"); nil when one moves otherwise, two follow
    /// different blocks, or none moves.
    public func soleBlock(of channels: [Int]) -> ExactPiece? {
        var piece: ExactPiece?
        for channel in channels where self.channels[channel].layerCount > 0 {
            guard let own = self.channels[channel].soleBlock, piece == nil || piece == own else { return nil }
            piece = own
        }
        return piece
    }
}
