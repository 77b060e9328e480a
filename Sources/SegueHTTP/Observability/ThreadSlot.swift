#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A small number for the calling thread, the same for the thread's whole life, which picks the
/// shard it writes of a per-thread structure (`LogBuffer`, `ServiceMetrics`; docs/http.md
/// "Per-thread observation"). Numbers are handed out from 0 in the order threads first ask, by one
/// atomic add; every later ask reads the thread's own value (`pthread_getspecific`, a load from
/// the thread's control block), so asking writes nothing another thread reads.
enum ThreadSlot {
    /// Shards per structure: a power of two; threads past it share shards (still correct, each
    /// shard has its lock). 16 covers the I/O threads, the workers and the supervisor of a server
    /// with `--threads` and `--workers` up to 6 each.
    static let shards = 16

    /// The calling thread's shard, 0..<`shards`.
    static var shard: Int { number & (shards - 1) }

    /// The calling thread's number.
    static var number: Int {
        if let stored = pthread_getspecific(key) { return Int(bitPattern: stored) - 1 }
        let fresh = next.wrappingAdd(1, ordering: .relaxed).oldValue
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: fresh + 1))
        return fresh
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left")
        return key
    }()

    private static let next = Atomic<Int>(0)
}
