import Synchronization

/// Log lines gathered in memory and handed to their sink in batches (docs/http.md "Observability"), as
/// nginx's `access_log … buffer=` does: one `write(2)` per request was a tenth of the server's
/// CPU time under load (a system call, and the file's lock shared by the I/O threads).
///
/// - Each thread writes its lines into its own shard (`ThreadSlot`), under the shard's lock, which
///   no other thread takes but to write a batch: a request's line touches no memory the other
///   I/O threads write (one shared buffer cost the I/O threads about a microsecond a request in
///   cache lines passed between cores; docs/http.md "Per-thread observation").
/// - A batch is written when a shard holds `capacity` bytes, on `flush()` (the supervisor calls
///   it every round, 100 ms; shutdown calls it last), or when an **urgent** line arrives (level
///   `notice` and above: start-up, draining, warnings and every 5xx), which goes out at once with
///   everything before it.
/// - Order is kept: a batch takes every shard's lines at one instant (all shard locks held
///   together), batches are written one at a time, and a batch's lines are merged by their
///   timestamps (`RequestLog.timestamp`, the bytes every line starts with), each thread's in
///   the order it wrote them. A line is stamped under its shard's lock, so no line of a later
///   batch is older than a line of an earlier one. No line is split.
/// - What a crash (a trap or a kill) loses is what is pending: at most `capacity` bytes per thread
///   and one round of `info` lines. `--log-buffer 0` writes every line as it comes instead.
public final class LogBuffer: Sendable {
    /// Bytes pending in one thread's shard that make the buffer write; 1…2^24 (16 MiB), default
    /// 64 KiB.
    public let capacity: Int
    private let output: RequestLog.Sink
    private let shards: [Shard]
    /// Held while a batch is taken and written; keeps the spare storage the shards swap with.
    private let writing: Mutex<[Lines]>

    /// One thread's pending lines: the bytes, and where each line starts.
    struct Lines: Sendable {
        var bytes: [UInt8] = []
        var starts: [Int] = []

        var isEmpty: Bool { starts.isEmpty }

        func line(_ i: Int) -> Range<Int> { starts[i]..<(i + 1 < starts.count ? starts[i + 1] : bytes.count) }

        /// Where line `i`'s timestamp lies (`RequestLog.timestamp`), clipped to the line.
        func stamp(_ i: Int) -> Range<Int> {
            let line = line(i)
            let stamp = (line.lowerBound + RequestLog.timestamp.lowerBound)..<(line.lowerBound + RequestLog.timestamp.upperBound)
            return stamp.clamped(to: line)
        }

        mutating func removeAll() {
            bytes.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
        }
    }

    final class Shard: Sendable {
        let pending = Mutex(Lines())
        /// Room so that two shards never share a cache line (a shard's lock and counts are written
        /// by its thread on every line).
        private let padding: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    }

    public init(capacity: Int, output: @escaping RequestLog.Sink) {
        precondition(capacity > 0, "a LogBuffer holds at least one byte")
        self.capacity = capacity
        self.output = output
        shards = (0..<ThreadSlot.shards).map { _ in Shard() }
        writing = Mutex(Array(repeating: Lines(), count: ThreadSlot.shards))
    }

    /// Keeps `line` (its `\n` included), writing the batch when it is full or the line urgent.
    public func append(_ line: [UInt8], urgent: Bool) {
        append(urgent: urgent) { $0.append(contentsOf: line) }
    }

    /// Keeps the line `write` appends (its `\n` included) to the calling thread's shard, under the
    /// shard's lock; writes the batch when the shard is full or the line urgent.
    func append(urgent: Bool, _ write: (inout [UInt8]) -> Void) {
        let full = shards[ThreadSlot.shard].pending.withLock { lines in
            if lines.bytes.capacity == 0 { lines.bytes.reserveCapacity(capacity + 512) }
            lines.starts.append(lines.bytes.count)
            write(&lines.bytes)
            return lines.bytes.count >= capacity
        }
        if urgent || full { flush() }
    }

    /// Writes whatever is pending, as one batch.
    public func flush() {
        writing.withLock { spare in
            take(from: 0, into: &spare)
            do {
                let batch = Self.merged(spare)
                if !batch.isEmpty { output(batch) }
            }
            for i in spare.indices { spare[i].removeAll() }
        }
    }

    /// Swaps every shard's lines from `index` on with the (empty) spares, holding each shard's
    /// lock until the last is taken, so the batch is one instant's.
    private func take(from index: Int, into spare: inout [Lines]) {
        guard index < shards.count else { return }
        shards[index].pending.withLock { lines in
            take(from: index + 1, into: &spare)
            if !lines.isEmpty { swap(&lines, &spare[index]) }
        }
    }

    /// The shards' lines in one array, by timestamp; a tie, or a line without one, keeps the
    /// order of the shards and of each shard's lines.
    static func merged(_ shards: [Lines]) -> [UInt8] {
        let filled = shards.filter { !$0.isEmpty }
        guard filled.count > 1 else { return filled.first?.bytes ?? [] }
        var out: [UInt8] = []
        out.reserveCapacity(filled.reduce(0) { $0 + $1.bytes.count })
        var next = [Int](repeating: 0, count: filled.count)
        while true {
            var pick = -1
            for s in filled.indices where next[s] < filled[s].starts.count {
                if pick < 0 || isEarlier(filled[s], next[s], than: filled[pick], next[pick]) { pick = s }
            }
            guard pick >= 0 else { return out }
            out.append(contentsOf: filled[pick].bytes[filled[pick].line(next[pick])])
            next[pick] += 1
        }
    }

    /// Whether line `i` of `a` has an earlier timestamp than line `j` of `b`.
    private static func isEarlier(_ a: Lines, _ i: Int, than b: Lines, _ j: Int) -> Bool {
        a.bytes[a.stamp(i)].lexicographicallyPrecedes(b.bytes[b.stamp(j)])
    }
}
