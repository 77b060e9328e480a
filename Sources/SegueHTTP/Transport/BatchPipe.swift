import CMicroHTTPD
import DequeModule
import SegueCodec
import SegueEngine
import SegueJSON
import Synchronization

/// A batch's answer between the worker that computes it and the I/O thread that sends it
/// (rule 37, docs/http.md "Batches"): a bounded queue of pieces.
///
/// - **Producer**: a job on the worker pool pulls pieces from the `BatchRun` into the queue. It
///   stops when the queue holds `capacity` bytes (a client that does not read stalls the batch;
///   the server does not grow) and when another job waits for a worker (it goes to the back of its
///   client's line: the pool's fairness holds between a batch's lines and everyone's requests).
///   The I/O thread queues it again once the queue has drained to half.
/// - **Consumer**: libmicrohttpd's content reader on the connection's I/O thread takes pieces.
///   With none ready it suspends the connection, and the producer resumes it with the next piece.
///
/// Both decisions are made under one lock, with the suspension and the resumption inside it, so
/// a piece can never arrive between "nothing ready" and the suspension. While the connection is
/// suspended libmicrohttpd does not watch it: the supervisor cancels a batch whose client has
/// gone (`Exchange.isProducing`), and the producer, seeing the cancellation, ends the stream.
final class BatchPipe: Sendable {
    /// Unsent bytes a batch holds at most before its producer stops; 256 KiB.
    static let capacity = 1 << 18

    enum Take {
        case bytes([UInt8])
        /// Nothing ready and the connection was not suspended (the caller has coded bytes to flush first).
        case empty
        /// Nothing ready: the connection is suspended until the producer resumes it.
        case later
        case end
        case failed
    }

    private struct State {
        var pieces = Deque<[UInt8]>()
        var bytes = 0
        var finished = false
        var failed = false
        /// A producer job is queued or running.
        var producing = false
        var suspended = false
    }

    private let run: BatchRun
    private let pool: WorkerPool
    private let client: String
    private let connection: ConnectionHandle
    private let cancellation: WorkCancellation
    private let state = Mutex(State())

    init(run: BatchRun, pool: WorkerPool, client: String, connection: OpaquePointer, cancellation: WorkCancellation) {
        self.run = run
        self.pool = pool
        self.client = client
        self.connection = ConnectionHandle(pointer: connection)
        self.cancellation = cancellation
        run.cancellation = cancellation
    }

    /// Starts the producer; false when the pool takes no more work (the answer is then a 503).
    func start() -> Bool {
        state.withLock { state in
            state.producing = true
            return pool.submitContinuation(client: client) { [self] in produce() }
        }
    }

    /// The consumer's next piece. With nothing ready, the connection is suspended when `suspending`.
    func take(suspending: Bool) -> Take {
        state.withLock { state in
            if let piece = state.pieces.popFirst() {
                state.bytes -= piece.count
                restartIfDrained(&state)
                return .bytes(piece)
            }
            if state.finished { return state.failed ? .failed : .end }
            guard suspending else { return .empty }
            state.suspended = true
            MHD_suspend_connection(connection.pointer)
            return .later
        }
    }

    /// The consumer is gone (the response was freed): whatever still runs stops.
    func close() {
        cancellation.cancel()
    }

    /// The producer job: lines until the queue is full, the batch ends or another job waits.
    /// Lines gather into one piece (up to `SectionedBody.pieceBytes`) while the reader still has
    /// bytes to send; a reader that waits gets what is ready at once, and nothing is left
    /// unqueued when the job stops.
    private func produce() {
        var writer = Self.pieceWriter()
        while true {
            var more = true, failed = false
            do throws(Problem) {
                more = try run.writeNext(into: &writer)
            } catch {
                failed = true
            }
            let (goesOn, queued) = state.withLock { state -> (Bool, Bool) in
                let ends = failed || !more
                let yields = pool.waiting > 0
                var queued = false
                if !writer.bytes.isEmpty
                    && (ends || yields || state.suspended || writer.bytes.count >= SectionedBody.pieceBytes) {
                    state.bytes += writer.bytes.count
                    state.pieces.append(writer.bytes)
                    queued = true
                }
                if ends { finish(&state, failed: failed) }
                if state.suspended && queued || state.finished {
                    if state.suspended { MHD_resume_connection(connection.pointer) }
                    state.suspended = false
                }
                guard !state.finished, state.bytes < Self.capacity else {
                    state.producing = false
                    return (false, queued)
                }
                guard !yields else {
                    if !pool.submitContinuation(client: client, { [self] in produce() }) { finish(&state, failed: true) }
                    return (false, queued)
                }
                return (true, queued)
            }
            if !goesOn { return }
            if queued { writer = Self.pieceWriter() }
        }
    }

    private static func pieceWriter() -> TextWriter {
        TextWriter(capacity: SectionedBody.pieceBytes + (SectionedBody.pieceBytes >> 2))
    }

    /// Queues the producer again once the queue has drained to half (under the lock).
    private func restartIfDrained(_ state: inout State) {
        guard !state.producing, !state.finished, state.bytes <= Self.capacity / 2 else { return }
        state.producing = true
        if !pool.submitContinuation(client: client, { [self] in produce() }) {
            finish(&state, failed: true)
        }
    }

    private func finish(_ state: inout State, failed: Bool) {
        state.finished = true
        state.failed = state.failed || failed
        state.producing = false
    }
}
