import Synchronization

/// A budget of bytes shared by every connection: what the server holds for answers not yet sent
/// (docs/http.md "Memory"). A reservation that would pass the limit fails, and the transport answers
/// 503 instead, so that clients that never read cannot make the process grow without bound.
final class MemoryBudget: Sendable {
    let limit: Int
    private let used = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` from the budget; false (and nothing taken) when it would pass the limit.
    func reserve(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + bytes <= limit else { return false }
            let (exchanged, original) = used.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    func release(_ bytes: Int) {
        used.subtract(bytes, ordering: .relaxed)
    }
}
