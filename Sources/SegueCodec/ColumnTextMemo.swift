import SegueJSON
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The JSON text of number columns written recently, copied instead of formatted again
/// (docs/http.md "The sample-time memo").
///
/// A curve's sample times follow from its sampling alone (`samples`, `fps`, `at`, `duration`),
/// which a client dragging a control point keeps from one request to the next, so its `t` column
/// is the same text every time: a third of a curve body's numbers, whose text is the dearest
/// part of writing it. A column is found by its values, bit for bit, so a hit writes exactly
/// the bytes `TextWriter.column` would (0.0 and -0.0 are different keys that print alike: at
/// worst a miss).
///
/// Bounds: at most `capacity` columns of at most `maxCount` numbers each; a number takes 8 bytes
/// of key and at most 25 of text with its comma, so at most 264 KiB in all. The oldest column is
/// replaced first.
///
/// Thread-safe: every I/O thread and worker may call it at once. A lookup holds the lock while
/// it compares and copies (a few hundred bytes); a miss formats outside it.
public final class ColumnTextMemo: Sendable {
    /// Columns kept.
    public static let capacity = 8
    /// The longest column kept, numbers: a minute at 16 frames a second, or 17 s at 60.
    public static let maxCount = 1_024

    /// A column and its text in memory of the memo's own, freed when the entry is replaced or the
    /// memo goes: a hit reads them in place, where a copy of an array would retain it (an atomic
    /// on a count every thread shares). Written once before it is kept, then only read, and only
    /// under the lock: so it may cross threads.
    private struct Entry: @unchecked Sendable {
        let key: UnsafeMutableBufferPointer<Double>
        let text: UnsafeMutableBufferPointer<UInt8>

        init(key: [Double], text: ArraySlice<UInt8>) {
            self.key = .allocate(capacity: key.count)
            _ = self.key.initialize(from: key)
            self.text = .allocate(capacity: text.count)
            _ = self.text.initialize(from: text)
        }

        func free() {
            key.deallocate()
            text.deallocate()
        }
    }

    private struct State {
        var entries: [Entry] = []
        /// The entry replaced next once `entries` is full.
        var oldest = 0
    }

    private let state = Mutex(State())

    public init() {}

    deinit {
        state.withLock { $0.entries.forEach { $0.free() } }
    }

    /// The columns kept, slot by slot; once all are full, the one at `oldest` goes next (for tests).
    var keys: [[Double]] { state.withLock { $0.entries.map { Array($0.key) } } }

    /// Appends `column`'s numbers, comma-separated: the bytes of `writer.column(column)`.
    public func write(_ column: [Double], into writer: inout TextWriter) {
        guard column.count <= Self.maxCount else {
            writer.column(column)
            return
        }
        let found = state.withLock { state in
            guard let entry = state.entries.first(where: { Self.same($0.key, column) }) else { return false }
            writer._writeASCII(UnsafeBufferPointer(entry.text))
            return true
        }
        if found { return }
        let start = writer.bytes.count
        writer.column(column)
        let entry = Entry(key: column, text: writer.bytes[start...])
        state.withLock { state in
            // Another thread may have kept the same column meanwhile.
            if state.entries.contains(where: { Self.same($0.key, column) }) {
                entry.free()
            } else if state.entries.count < Self.capacity {
                state.entries.append(entry)
            } else {
                state.entries[state.oldest].free()
                state.entries[state.oldest] = entry
                state.oldest = (state.oldest + 1) % Self.capacity
            }
        }
    }

    /// The same doubles, bit for bit.
    private static func same(_ kept: UnsafeMutableBufferPointer<Double>, _ column: [Double]) -> Bool {
        kept.count == column.count && column.withUnsafeBytes { column in
            guard let first = kept.baseAddress, let second = column.baseAddress else { return true }  // both empty
            return memcmp(first, second, column.count) == 0
        }
    }
}
