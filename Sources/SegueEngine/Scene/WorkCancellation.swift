import Synchronization

/// A request to stop work early, set from outside the engine (the HTTP layer sets it when the client
/// has gone or a deadline passed) and read by long loops. The engine never reads a clock.
public final class WorkCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isCancelled: Bool { flag.load(ordering: .relaxed) }

    public func cancel() {
        flag.store(true, ordering: .relaxed)
    }
}
