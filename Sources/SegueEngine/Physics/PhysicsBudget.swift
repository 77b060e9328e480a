/// The physics work one render may do, shared by every motion it resolves: rest-test states (the
/// exact integrator's and a Motion spring's grids), Euler and Box2D ticks, POP's and Rebound's RK4
/// steps, and a coasting model's stop, each counted once per channel component (tick integrators also
/// store a position and a velocity per component and tick, so this bounds their memory too).
///
/// A motion that runs out stops looking for rest; the caller sees `exhausted` and refuses the
/// render, having spent at most the allowance. Single-threaded: one render builds its motions in
/// order, so the outcome is deterministic.
///
/// The budget is also where the simulation notices a `WorkCancellation`: every
/// `cancellationInterval` units spent it looks at the flag, and once it is raised the allowance
/// counts as gone (`cancelled` tells the two apart).
final class PhysicsBudget {
    public private(set) var remaining: Int
    /// The request index of the first animation that ran out.
    public var exhaustedBy: Int?
    /// The units spent so far.
    public private(set) var spent = 0
    private let cancellation: WorkCancellation?
    /// The units left before the next look at the cancellation flag.
    private var untilCheck = PhysicsBudget.cancellationInterval
    public private(set) var cancelled = false

    /// Units of work (rest tests, ticks, RK4 steps per component) between two looks at the
    /// cancellation flag: a few microseconds of simulation.
    static let cancellationInterval = 4096

    public init(_ allowance: Int, cancellation: WorkCancellation? = nil) {
        remaining = allowance
        self.cancellation = cancellation
    }

    public var exhausted: Bool { remaining < 0 }

    /// Looks at the cancellation flag now (between channels, where no spending happens).
    func pollCancelled() -> Bool {
        if cancellation?.isCancelled == true { cancelled = true }
        return cancelled
    }

    /// Spends `amount`; false once the allowance is gone or the work was cancelled.
    func spend(_ amount: Int) -> Bool {
        remaining -= amount
        spent += amount
        untilCheck -= amount
        if untilCheck <= 0 {
            untilCheck = Self.cancellationInterval
            if let cancellation, cancellation.isCancelled {
                cancelled = true
                remaining = -1
            }
        }
        return remaining >= 0
    }
}
