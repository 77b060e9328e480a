import Synchronization

/// A flag the caller raises to stop a compile or a sampling loop early (a deadline passed, the
/// client went away). The engine never reads a clock: it only looks at the flag, every few
/// thousand steps of its long loops (the physics simulation; the codec per frame while sampling),
/// and gives up with `SceneError.cancelled`. Raising it is permanent and safe from any thread.
public final class WorkCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    /// True once `cancel()` was called.
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// Asks the work to stop at its next check.
    public func cancel() { flag.store(true, ordering: .relaxed) }
}
