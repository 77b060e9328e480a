import SegueCodec
import SegueEngine
import Synchronization

/// One request and its answer as the transport carries them, from the access handler's first call
/// to libmicrohttpd's completion notice: the body as it arrives, the worker's answer, and what the
/// request log and the metrics report (docs/http.md "Request protocol").
final class Exchange: Sendable {
    enum Stage: Sendable {
        /// Reading the body.
        case receiving
        /// The request was refused while its body arrived — over the body limit or the body memory,
        /// or too slow (the supervisor's body deadline); what still arrives is dropped.
        case refused
        /// Queued for or running on a worker; the connection is suspended.
        case computing
        /// The worker's answer, to be queued when libmicrohttpd calls back after the resume.
        case answered(HTTPResponse)
        /// A batch's answer being computed while it is sent (`BatchPipe`).
        case producing
        /// Nobody waits for the answer (the client went, or the drain ended): close the connection.
        case abandoned
    }

    struct Record: Sendable {
        var stage: Stage = .receiving
        /// The request as it arrives (its head, then its body), until the dispatch takes it.
        var request: HTTPRequest?
        /// What the log and the metrics say of the answer.
        var status = 0
        var bytes = 0
        var cause: String?
        /// Bytes reserved in the server's budget for the unsent answer.
        var heldBytes = 0
        /// Bytes of the body reserved in the server's body budget, until the request completes.
        var bodyBytes = 0
    }

    let requestID: RequestID
    let method: String
    /// The route the target matched, once: the body limit, where the request runs, the router's
    /// dispatch, the metrics and the log line all read it.
    let route: RouteMatch
    /// When the head was complete (monotonic ns): the body's time is counted from here.
    let started: UInt64
    /// When the answer must be ready (monotonic ns), set when the body is complete and the request
    /// is dispatched (`--request-timeout` from then); past it the work is cancelled. `UInt64.max`
    /// while the body arrives: a slow upload does not spend it (the body deadline bounds that).
    let deadline = Atomic<UInt64>(.max)
    let cancellation = WorkCancellation()
    let connection: ClientConnection?
    let record: Mutex<Record>

    init(requestID: RequestID, request: consuming HTTPRequest, route: RouteMatch, started: UInt64,
         connection: ClientConnection?) {
        self.requestID = requestID
        method = request.method
        record = Mutex(Record(request: consume request))
        self.route = route
        self.started = started
        self.connection = connection
    }

    var stage: Stage { record.withLock { $0.stage } }

    /// The complete request, with the exchange's cancellation, taken for the dispatch: nil once taken.
    func takeRequest() -> HTTPRequest? {
        record.withLock { record in
            record.request?.cancellation = cancellation
            return record.request.take()
        }
    }

    func setStage(_ stage: Stage) {
        record.withLock { $0.stage = stage }
    }

    /// Whether the body is still arriving: the request is neither complete nor refused.
    var isReceivingBody: Bool {
        record.withLock { record in
            guard case .receiving = record.stage else { return false }
            return record.request != nil
        }
    }

    /// Refuses the request while its body arrives when `overdue` says so of the bytes received so
    /// far: the body is dropped and what still arrives is ignored. True when it refused, in the
    /// same hold of the lock as the test, so that a body completed meanwhile is never refused.
    func refuseBody(when overdue: (_ received: Int) -> Bool) -> Bool {
        record.withLock { record in
            guard case .receiving = record.stage, let received = record.request?.body.count, overdue(received) else { return false }
            record.stage = .refused
            record.request = nil
            return true
        }
    }

    /// Notes the answer being sent, for the log and the metrics.
    func noteAnswer(status: Int, bytes: Int, cause: String?) {
        record.withLock {
            $0.status = status
            $0.bytes = bytes
            $0.cause = cause
        }
    }

    /// What the log, the metrics and the memory budgets read of a finished exchange.
    struct Answer {
        var status: Int, bytes: Int, cause: String?, heldBytes: Int, bodyBytes: Int
    }

    /// The answer as noted, read in one hold of the lock (each hold is two atomic read-modify-writes).
    var answer: Answer {
        record.withLock {
            Answer(status: $0.status, bytes: $0.bytes, cause: $0.cause, heldBytes: $0.heldBytes, bodyBytes: $0.bodyBytes)
        }
    }

    /// Counts bytes of a streamed body as they leave.
    func noteSent(_ count: Int) {
        record.withLock { $0.bytes += count }
    }

    /// True while a batch's answer is computed and sent: the supervisor cancels it when its client
    /// goes (its connection may be suspended, which libmicrohttpd then does not watch).
    var isProducing: Bool {
        if case .producing = stage { return true }
        return false
    }

    /// True while the answer is awaited from a worker (the supervisor watches these).
    var isComputing: Bool {
        if case .computing = stage { return true }
        return false
    }
}
