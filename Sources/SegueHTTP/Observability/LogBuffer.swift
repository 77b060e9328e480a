import SegueJSON
import Synchronization

/// Log lines gathered in memory and handed to their sink in batches (docs/http.md "Observability"), as
/// nginx's `access_log … buffer=` does: one `write(2)` per request was a tenth of the server's
/// CPU time under load (a system call, and the file's lock shared by the I/O threads).
///
/// - A line is kept until `capacity` bytes are pending, until `flush()` (the supervisor calls it
///   every round, 100 ms; shutdown calls it last), or until an **urgent** line arrives (level
///   `notice` and above: start-up, draining, warnings and every 5xx), which goes out at once with
///   everything before it.
/// - Order is kept: lines are appended and written under one lock, so a batch never overtakes
///   another and no line is split.
/// - What a crash (a trap or a kill) loses is what is pending: at most `capacity` bytes and one
///   round of `info` lines. `--log-buffer 0` writes every line as it comes instead.
public final class LogBuffer: Sendable {
    /// Bytes pending that make the buffer write; 1…2^24 (16 MiB), default 64 KiB.
    public let capacity: Int
    private let output: RequestLog.Sink
    private let pending: Mutex<[UInt8]>

    public init(capacity: Int, output: @escaping RequestLog.Sink) {
        precondition(capacity > 0, "a LogBuffer holds at least one byte")
        self.capacity = capacity
        self.output = output
        pending = Mutex([])
    }

    /// Keeps the line `write` puts into `room` bytes (its `\n` included), writing the batch when
    /// it is full or the line urgent. The line is written in place, after the lines pending, under
    /// the lock: no array of its own to allocate, fill, copy and free. `write` runs under the
    /// lock, so it must not log (a line whose parts call other code is written first).
    func append(urgent: Bool, room: Int, _ write: (inout TextRun) -> Void) {
        pending.withLock { bytes in
            if bytes.capacity == 0 { bytes.reserveCapacity(capacity + 512) }
            TextRun.append(to: &bytes, room: room, write)
            if urgent || bytes.count >= capacity { self.write(&bytes) }
        }
    }

    /// Writes whatever is pending.
    public func flush() {
        pending.withLock { bytes in
            if !bytes.isEmpty { write(&bytes) }
        }
    }

    /// The batch to the sink, keeping the storage for the next one.
    private func write(_ bytes: inout [UInt8]) {
        output(bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
