import SegueCodec
import SegueEngine
import SegueJSON

/// `POST /v1/batch` (rules 36–38, docs/batch.md): an NDJSON body of single requests, answered as
/// NDJSON, one answer line for each non-empty input line in input order, each exactly what the
/// single request would give.
///
/// Here the batch is read and planned — its media types, its line count and the estimated work
/// of every line, each over its limit a 413 before any line runs — and handed on as a `BatchRun`,
/// which the transport computes while it sends it. The answer is never cached or tagged (each line
/// carries its own tag) and is gzip-coded as it goes when the client accepts it.
struct BatchHandler: Sendable {
    static let path = "/v1/batch"
    static let mediaType = "application/x-ndjson"
    /// The request media types a batch is read from.
    static let requestTypes = ["application/x-ndjson", "application/jsonl"]

    /// The router that dispatched the batch: its lines go through the same routes and middleware.
    let router: Router

    var limits: Limits { router.handlers.limits }

    /// The batch's row of `RouteTable.service`: a handler made for each batch from the router that
    /// dispatched it.
    static let route = Router.Route(path, methods: ["POST"], .compute { router, request throws(Problem) in
        try BatchHandler(router: router).prepare(request)
    })

    func prepare(_ request: HTTPRequest) throws(Problem) -> Content {
        try Self.checkContentType(request.headers[.contentType])
        try Self.checkAccept(request.headers[.accept])
        if let name = QueryName.allCases.first(where: { request.query[$0] != nil }) {
            throw Problem(.invalidRequest, detail: "`\(name.rawValue)` is given by each line of a batch, not by its query",
                          extensions: [.init("parameter", .string(name.rawValue))])
        }
        let body = try BatchBody(request.body, limits: limits)
        try checkWork(body)
        let run = BatchRun(body: body, limits: limits, routes: router.table, respond: answer,
                           observe: Self.observer(router.handlers.metrics))
        var content = Content(mediaType: Self.mediaType, body: [], cacheable: false)
        content.batch = run
        content.gzip = Negotiation.acceptsGzip(request.headers[.acceptEncoding])
        return content
    }

    /// A line's single request answered by its route's match, through the routes and their middleware.
    private var answer: BatchRun.Responder {
        { [router] (request: HTTPRequest, route: RouteMatch) -> HTTPResponse in
            router.respond(to: request, route: route, OnWorker())
        }
    }

    /// Counts each line as a request of its route (rule 37).
    private static func observer(_ metrics: ServiceMetrics) -> BatchRun.Observer {
        { (route: RouteMatch, status: Int, seconds: Double, bytes: Int) in
            metrics.requestStarted()
            metrics.requestFinished(route: route, methodIndex: MetricLabels.methodIndex("POST"), status: status,
                                    seconds: seconds, bytes: bytes)
        }
    }

    /// The batch's estimated work, each line's as its single request plans it (rule 37): 413 over
    /// `--max-batch-work` before any line runs. A line that cannot be read or planned counts
    /// nothing here; it answers its problem when it runs.
    private func checkWork(_ body: BatchBody) throws(Problem) {
        var total = 0.0
        for index in body.lines.indices {
            guard let line = try? BatchLine(body.line(index), limits: limits), line.body.count <= limits.maxBodyBytes else { continue }
            total += router.handlers.plannedWork(line)
            guard total <= limits.batchWork else {
                throw Problem.tooLarge("the batch's estimated work passes the limit of \(limits.batchWork) units "
                                           + "(--max-batch-work) at line \(index + 1)")
            }
        }
    }

    /// A batch is NDJSON (`application/x-ndjson` or `application/jsonl`, with any parameters): 415
    /// for anything else, and for no `Content-Type` (a JSON body is a single request's).
    static func checkContentType(_ header: String?) throws(Problem) {
        let mediaType = header?.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: " \t").lowercased() }
        guard let mediaType, requestTypes.contains(mediaType) else {
            throw Problem(.unsupportedMediaType, detail: "a batch is NDJSON, one request a line: send `Content-Type: "
                              + requestTypes.joined(separator: "` or `") + "`, not `\((header ?? "").prefix(100))`")
        }
    }

    /// The answer is `application/x-ndjson`: 406 when `Accept` admits neither it nor `*/*` nor `application/*`.
    static func checkAccept(_ header: String?) throws(Problem) {
        guard let header, !header.allSatisfy({ $0 == " " }) else { return }
        let accepted = Negotiation.parseAccept(header).contains { range in
            range.quality > 0 && (range.type == "*" || range.type == "application")
                && (range.subtype == "*" || range.subtype == "x-ndjson" || range.subtype == "jsonl")
        }
        guard accepted else {
            throw Problem(.notAcceptable, detail: "a batch answers \(mediaType); `Accept: \(header.prefix(100))` excludes it")
        }
    }
}

extension BatchLine {
    /// The single request the line makes: `POST <path>?format=…&tolerance=…` with its body as JSON.
    func request(cancellation: WorkCancellation?) -> HTTPRequest {
        var request = HTTPRequest(method: "POST", path: route.rawValue, body: body)
        request.query[.format] = format
        request.query[.tolerance] = tolerance
        request.headers[.contentType] = "application/json"
        request.cancellation = cancellation
        return request
    }
}

extension Handlers {
    /// A batch line's work as its single request plans it before computing (rule 37): a curve's as
    /// the curve route estimates it (an SVG plot at its sampling's), a render's reading and keyframe
    /// tracks (`RenderRequest.plannedWork`); 0 for a request that fails to read (the line answers
    /// its problem when it runs).
    func plannedWork(_ line: BatchLine) -> Double {
        let request = line.request(cancellation: nil)
        switch line.route {
        case .curve:
            guard let job = try? curve(request) else { return 0 }
            if job.work.isFinite { return job.work }
            return (try? CurveRequest.decode(jsonBody(request), limits: limits).work) ?? 0
        case .render:
            return (try? RenderRequest.plannedWork(jsonBody(request), limits: limits)) ?? 0
        }
    }
}
