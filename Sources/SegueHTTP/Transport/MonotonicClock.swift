#if canImport(Glibc)
import Glibc
#endif

/// Time for the transport's deadlines: CLOCK_MONOTONIC in nanoseconds, which never jumps with the
/// wall clock. Only the transport reads a clock; the engine takes time as an input.
enum MonotonicClock {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(max(0, seconds) * 1e9)
    }
}
