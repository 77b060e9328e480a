/// A UIViewPropertyAnimator's state (docs/rules.md rule 13), as `animators.<id>.state` reports it.
public enum AnimatorState: String, Sendable {
    case inactive, running, paused, stopped
}

/// The curve a `continue` command hands over to (docs/rules.md rule 15).
public enum ContinueTiming: Sendable {
    /// A time-fraction curve over the window (1 − f) · duration · durationFactor.
    case curve(TimingCurve)
    /// UIKit's dampingRatio spring, solved for the window as its duration; `initialVelocity`
    /// defaults to the current velocity over the remaining distance.
    case durationSpring(dampingRatio: Double, initialVelocity: Double?)
    /// Any other spring set: runs for its settling duration, ignoring the factor.
    case spring(Spring)
}

/// A state change of an animator, at its exact time (docs/rules.md "The render response", rule 18).
public struct AnimatorEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case start, pause, stop, reverse, `continue`, addAnimations, retarget, grab, release
        case interactionFinish, interactionCancel, completion
    }

    /// Where a completion leaves the values (`finishAnimation(at:)`'s UIViewAnimatingPosition).
    public enum Position: String, Sendable {
        case start, end, current
    }

    /// Seconds on the timeline.
    public var t: Double
    public var kind: Kind
    /// The index in `commands` of the command that caused it; nil for autostart, completions
    /// and interaction.
    public var command: Int?
    /// `completion` events.
    public var position: Position?
    /// `stop` events.
    public var withoutFinishing: Bool?
    /// `reverse` events.
    public var reversed: Bool?

    public init(t: Double, kind: Kind, command: Int? = nil, position: Position? = nil, withoutFinishing: Bool? = nil,
                reversed: Bool? = nil) {
        self.t = t
        self.kind = kind
        self.command = command
        self.position = position
        self.withoutFinishing = withoutFinishing
        self.reversed = reversed
    }
}
