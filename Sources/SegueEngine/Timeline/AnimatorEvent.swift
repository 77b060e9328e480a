/// A state change of an animator, at its exact time (API.md §4 "Response", §6 rule 18).
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
