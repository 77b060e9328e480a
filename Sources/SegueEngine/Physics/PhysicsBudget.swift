/// The physics work one render may do, shared by every motion it resolves: rest-test states,
/// Euler ticks and RK4 steps, each counted once per channel component (tick integrators also
/// store a position and a velocity per component and tick, so this bounds their memory too).
///
/// A motion that runs out stops looking for rest; the caller sees `exhausted` and refuses the
/// render, having spent at most the allowance. Single-threaded: one render builds its motions in
/// order, so the outcome is deterministic.
final class PhysicsBudget {
    public private(set) var remaining: Int
    /// The request index of the first animation that ran out.
    public var exhaustedBy: Int?

    public init(_ allowance: Int) {
        remaining = allowance
    }

    public var exhausted: Bool { remaining < 0 }

    /// Spends `amount`; false once the allowance is gone.
    func spend(_ amount: Int) -> Bool {
        remaining -= amount
        return remaining >= 0
    }
}
