import SegueCodec
import SegueEngine
import SegueJSON

/// A batch being answered (rule 36, docs/batch.md): its lines run one after another through the
/// single-request pipeline, and their answer lines come out in input order, piece by piece — a
/// whole answer line, or a part of one whose body streams — so that memory holds one piece
/// whatever the batch's length.
///
/// Pull-based like `SectionedBody`: `writeNext` computes what it writes. The transport pulls on a
/// worker into a bounded pipe (`BatchPipe`); the command line pulls straight to standard output.
/// One caller at a time: the transport's producer job is never queued twice.
final class BatchRun: @unchecked Sendable {
    /// The single request's answer by its route's match, through the route pipeline (cache, tag, no
    /// CORS: the batch's own response has those headers).
    typealias Responder = @Sendable (HTTPRequest, RouteMatch) -> HTTPResponse
    /// Counts an answered line: its route's match (the unmatched one for a line that names none),
    /// status, seconds and body bytes (rule 37: each line in the metrics by its path).
    typealias Observer = @Sendable (_ route: RouteMatch, _ status: Int, _ seconds: Double, _ bytes: Int) -> Void

    let body: BatchBody
    let limits: Limits
    /// Where each line's path is matched, once: its answer and its count read the match.
    let routes: RouteTable
    let respond: Responder
    let observe: Observer
    /// Raised when nobody waits any more (the client left, the server drains): the line running
    /// stops, and so does the batch.
    var cancellation: WorkCancellation?

    /// The lines answered so far, and the failed ones among them.
    private(set) var failures = BatchFailures()
    /// The next line to begin (0-based).
    private var next = 0
    /// A line whose body streams, between its opening and its closing.
    private var open: OpenLine?

    private struct OpenLine {
        let stream: SectionedBody
        var cursor = SectionedBody.Cursor()
        let text: Bool
        let route: RouteMatch
        let started: UInt64
        var bytes = 0
    }

    init(body: BatchBody, limits: Limits, routes: RouteTable, respond: @escaping Responder, observe: @escaping Observer) {
        self.body = body
        self.limits = limits
        self.routes = routes
        self.respond = respond
        self.observe = observe
    }

    /// Writes the next piece into `w`; false once every line is answered. Throws `cancelled` when
    /// the batch was cancelled.
    func writeNext(into w: inout TextWriter) throws(Problem) -> Bool {
        if cancellation?.isCancelled == true { throw .cancelled }
        if open != nil {
            try continueOpenLine(into: &w)
            return true
        }
        guard next < body.lines.count else { return false }
        next += 1
        failures.lines = next
        try begin(line: next, into: &w)
        return true
    }

    /// Runs line `number` (from 1) and writes its answer, or its opening and first piece when the
    /// body streams.
    private func begin(line number: Int, into w: inout TextWriter) throws(Problem) {
        let started = MonotonicClock.now()
        let line: BatchLine
        do throws(BatchLine.Failure) {
            line = try BatchLine(body.line(number - 1), limits: limits)
        } catch {
            return fail(line: number, id: error.id, error.problem.json, route: routes.unmatched, started: started, into: &w)
        }
        let route = routes.match(line.route.rawValue)
        guard line.body.count <= limits.maxBodyBytes else {
            let problem = Problem.tooLarge("the line's body is over the request body limit of \(limits.maxBodyBytes) bytes",
                                           at: .root / "body")
            return fail(line: number, id: line.id, problem.json, route: route, started: started, into: &w)
        }
        let response = respond(line.request(cancellation: cancellation), route)
        if cancellation?.isCancelled == true { throw .cancelled }
        guard response.status == 200 else {
            let document = (try? JSONReader.parse(response.body, maxDepth: 8)) ?? Problem(.unavailable, detail: "no problem document").json
            return fail(line: number, id: line.id, BatchAnswerText.relocated(document), route: route, started: started, into: &w)
        }
        let text = !(response.header("Content-Type") ?? "").hasPrefix("application/json")
        BatchAnswerText.opening(line: number, id: line.id, status: 200, etag: response.header("ETag"), text: text, into: &w)
        guard let stream = response.stream else {
            append(response.body, text: text, into: &w)
            BatchAnswerText.closing(text: text, into: &w)
            observe(route, 200, seconds(since: started), response.body.count)
            return
        }
        open = OpenLine(stream: stream, text: text, route: route, started: started)
        try continueOpenLine(into: &w)
    }

    /// The next piece of the streaming line's body, and its closing after the last.
    private func continueOpenLine(into w: inout TextWriter) throws(Problem) {
        guard var line = open else { return }
        var piece = TextWriter(capacity: SectionedBody.pieceBytes + (SectionedBody.pieceBytes >> 2))
        let more = try line.stream.writeNext(&line.cursor, into: &piece)
        line.bytes += piece.bytes.count
        append(piece.bytes, text: line.text, into: &w)
        guard more else {
            BatchAnswerText.closing(text: line.text, into: &w)
            observe(line.route, 200, seconds(since: line.started), line.bytes)
            open = nil
            return
        }
        open = line
    }

    private func append(_ bytes: [UInt8], text: Bool, into w: inout TextWriter) {
        bytes.withUnsafeBufferPointer { piece in
            if text { BatchAnswerText.textPiece(piece, into: &w) } else { w.bytes.append(contentsOf: piece) }
        }
    }

    private func fail(line: Int, id: String?, _ problem: JSONValue, route: RouteMatch, started: UInt64, into w: inout TextWriter) {
        let status = BatchAnswerText.status(of: problem)
        if failures.count == 0 { (failures.first, failures.firstStatus) = (line, status) }
        failures.count += 1
        let start = w.bytes.count
        BatchAnswerText.problem(line: line, id: id, problem: problem, into: &w)
        observe(route, status, seconds(since: started), w.bytes.count - start)
    }

    private func seconds(since start: UInt64) -> Double { Double(MonotonicClock.now() &- start) / 1e9 }
}

/// How a batch went, for the command line's exit status: lines answered, and how many of them
/// failed (the first with its line number and status).
public struct BatchFailures: Sendable {
    public var lines = 0
    public var count = 0
    public var first = 0
    public var firstStatus = 0
}

extension HTTPResponse {
    /// A batch's failed lines so far (all of them once its body is written); nil for any other answer.
    public var batchFailures: BatchFailures? { batch?.failures }
}
