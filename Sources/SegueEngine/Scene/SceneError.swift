/// Why a well-formed `SceneSpec` cannot become a `Scene`. Each case names the part of the spec
/// at fault by index, so a decoder can point into its own input.
public enum SceneError: Error, Sendable, Equatable {
    /// A command UIKit would reject in the animator's state (rule 13): the state it met and
    /// every op accepted there, no-ops included.
    case illegalCommand(command: Int, operation: String, state: AnimatorState, allowed: [String])
    /// The physics animations need more work than `SceneLimits.maxSimulationSteps` allows
    /// (rest tests, Euler ticks and RK4 steps per channel component); `animation` ran out first.
    case simulationBudgetSpent(animation: Int, allowance: Int)
    /// Without `until`, the animation never ends (rule 2).
    case neverEnds(animation: Int, cause: NeverEnding)
    /// Commands push the animation's end past the duration limit; `command` is its last one.
    case endsBeyondLimit(animation: Int, end: Double, limit: Double, command: Int?)
    /// A value that is not finite, found while sampling (docs/rules.md "Conventions").
    case nonFinite(view: String, channel: String, t: Double)
    /// The caller raised its `WorkCancellation` while the work ran (a deadline, a client gone).
    case cancelled

    public enum NeverEnding: Sendable, Equatable {
        /// `repeatCount` is infinite.
        case repeatsForever
        /// An undamped spring timing never settles.
        case undampedSpring
        /// A `continue` command hands over to a spring that never settles.
        case continuedSpring(command: Int)
        /// A physics motion does not rest within `SceneCompiler.physicsRestWindow` of its start
        /// or its last command.
        case noRest(window: Double)
    }
}

/// The limits the compiler enforces while it works (the decoder checks the rest before).
public struct SceneLimits: Sendable, Equatable {
    /// Longest timeline, seconds.
    public var maxDuration: Double
    /// Most physics work, in rest tests, Euler ticks and RK4 steps per channel component.
    public var maxSimulationSteps: Int

    public init(maxDuration: Double = 3600, maxSimulationSteps: Int = 4_000_000) {
        self.maxDuration = maxDuration
        self.maxSimulationSteps = maxSimulationSteps
    }
}
