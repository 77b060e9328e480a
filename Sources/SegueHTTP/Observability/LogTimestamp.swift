#if canImport(Glibc)
import Glibc
#endif
import SegueJSON

/// RFC 3339 timestamps in UTC with milliseconds ("2025-11-25T08:08:01.234Z") for log lines, from
/// `clock_gettime(CLOCK_REALTIME)` and integer calendar arithmetic — no Foundation, no time zone
/// database; the 24 bytes are written in a log line's `TextRun`, and the only allocation is each
/// thread's `SecondText`, once.
enum LogTimestamp {
    /// Writes the current time.
    static func now(into run: inout TextRun) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        write(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000, into: &run)
    }

    /// Writes the instant `milliseconds` after 1970-01-01T00:00:00Z (negative: before it): the
    /// 24 bytes in place, in the run's room. The text up to the second's dot is kept per thread
    /// for the last second it wrote (as nginx keeps its time strings for the current second): the
    /// lines of a busy thread mostly fall in the same second as the one before, and then only the
    /// milliseconds are worked out (docs/http.md "The log line in one reservation").
    static func write(milliseconds: Int64, into run: inout TextRun) {
        let (second, millisecond) = milliseconds.floorDivided(by: 1000)
        let cache = SecondText.ofThisThread()
        if cache.pointee.second != second {
            cache.pointee = SecondText(second: second)
        }
        run.put(count: length) { p in
            withUnsafeBytes(of: cache.pointee.text) { p.copyMemory(from: $0.baseAddress!, byteCount: SecondText.length) }
            let text = UnsafeMutableBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: length)
            digits(millisecond, 3, text, at: 20); text[23] = 0x5A
        }
    }

    /// "YYYY-MM-DDTHH:MM:SS." of one second, and which.
    struct SecondText {
        static let length = 20
        /// `Int64.min` until the first line: no instant in milliseconds has that second.
        var second = Int64.min
        var text: (UInt64, UInt64, UInt32) = (0, 0, 0)

        init() {}

        init(second: Int64) {
            self.second = second
            let (days, secondOfDay) = second.floorDivided(by: 86_400)
            let (year, month, day) = civil(days: days)
            withUnsafeMutableBytes(of: &text) { $0.withMemoryRebound(to: UInt8.self) { text in
                digits(year, 4, text, at: 0); text[4] = 0x2D
                digits(month, 2, text, at: 5); text[7] = 0x2D
                digits(day, 2, text, at: 8); text[10] = 0x54
                digits(secondOfDay / 3600, 2, text, at: 11); text[13] = 0x3A
                digits(secondOfDay / 60 % 60, 2, text, at: 14); text[16] = 0x3A
                digits(secondOfDay % 60, 2, text, at: 17); text[19] = 0x2E
            } }
        }

        /// This thread's, made on its first line and freed when the thread ends.
        static func ofThisThread() -> UnsafeMutablePointer<SecondText> {
            if let existing = pthread_getspecific(key) { return existing.assumingMemoryBound(to: SecondText.self) }
            let made = UnsafeMutablePointer<SecondText>.allocate(capacity: 1)
            made.initialize(to: SecondText())
            precondition(pthread_setspecific(key, made) == 0, "the thread's timestamp text cannot be kept")
            return made
        }

        private static let key: pthread_key_t = {
            var key = pthread_key_t()
            precondition(pthread_key_create(&key) { $0?.deallocate() } == 0, "no thread-specific key for the timestamp text")
            return key
        }()
    }

    /// Bytes of a timestamp: "YYYY-MM-DDTHH:MM:SS.mmmZ".
    static let length = 24

    /// Year, month (1…12) and day (1…31) of the proleptic Gregorian calendar, `days` after
    /// 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // March = 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `value` (0 ≤ value < 10^width, width 2…4) in exactly `width` decimal digits at `text[start...]`.
    /// The divisors are constants, which the compiler turns into multiplications: a loop over a
    /// variable divisor cost two hardware divisions a digit, 34 a line.
    private static func digits(_ value: Int64, _ width: Int, _ text: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var i = start
        if width >= 4 { text[i] = digit(value / 1000); i += 1 }
        if width >= 3 { text[i] = digit(value / 100); i += 1 }
        text[i] = digit(value / 10)
        text[i + 1] = digit(value)
    }

    /// The ASCII digit of `value` mod 10.
    private static func digit(_ value: Int64) -> UInt8 { 0x30 + UInt8(value % 10) }
}

extension Int64 {
    /// Quotient rounded toward −∞ and the remainder in 0..<divisor.
    fileprivate func floorDivided(by divisor: Int64) -> (Int64, Int64) {
        let remainder = self % divisor
        return remainder < 0 ? (self / divisor - 1, remainder + divisor) : (self / divisor, remainder)
    }
}
