import SegueOpenAPIDocument
import SegueCodec
import SegueEngine
import SegueJSON

/// A successful body before the HTTP framing: bytes, or sections to write (and stream when
/// large).
struct Content {
    var mediaType: String
    var body: [UInt8] = []
    var sectioned: SectionedBody?
    /// A pure function of the request (every route but `/healthz`): negotiated, tagged, compressed
    /// and cached by the route middleware.
    var cacheable = true
    /// Header fields beyond `Content-Type` and `Vary` (the playground's `Content-Security-Policy`).
    var headers: [HeaderField] = []
    /// A batch's answer lines, computed while they are sent (`BatchHandler`), instead of `body`.
    var batch: BatchRun?
    /// The batch's stream goes out gzip-coded (the client accepts it; the route middleware codes
    /// only deterministic bodies).
    var gzip = false

    /// Sectioned bodies estimated above this many bytes stream, produced as the socket drains so
    /// that a client that does not read holds one piece, not the body (docs/http.md "Responses");
    /// smaller ones are written whole.
    static let streamingThreshold = 1 << 16

    /// Whether a body of this estimated size streams (else it is written whole): the one place the
    /// threshold is applied.
    static func streams(estimatedBytes: Int) -> Bool { estimatedBytes > streamingThreshold }

    init(mediaType: String, body: [UInt8], cacheable: Bool = true) {
        self.mediaType = mediaType
        self.body = body
        self.cacheable = cacheable
    }

    /// A sectioned body whose writing stops once `cancellation` is set.
    init(mediaType: String, sectioned: SectionedBody, cancellation: WorkCancellation?) {
        self.mediaType = mediaType
        self.sectioned = sectioned
        self.sectioned?.cancellation = cancellation
    }

    /// The 200 response: `Content-Type`, then `Vary` for a negotiated (cacheable) body or
    /// `Cache-Control: no-store`; a large sectioned body as a stream, any other written out here.
    func response() throws(Problem) -> HTTPResponse {
        var fields: [HeaderField] = []
        // Room for what the stages add (CORS's two, ETag, Content-Encoding): one allocation.
        fields.reserveCapacity(8 + headers.count)
        fields.append(HeaderField("Content-Type", mediaType))
        fields.append(cacheable ? HeaderField("Vary", "Accept, Accept-Encoding") : HeaderField("Cache-Control", "no-store"))
        fields += headers
        if let batch { return batchResponse(batch, headers: fields) }
        // Built once from its parts: setting fields of a response after it is made copied it.
        let streamed = sectioned.map { Self.streams(estimatedBytes: $0.estimatedBytes) } ?? false
        let bytes = streamed ? [] : try sectioned?.bytes() ?? body
        return HTTPResponse(status: 200, headers: fields, body: bytes, stream: streamed ? sectioned : nil,
                            isDeterministic: cacheable)
    }

    /// A batch's 200: its lines stream, gzip-coded when accepted (`Vary: Accept-Encoding` then
    /// tells a cache the coding was chosen).
    private func batchResponse(_ batch: BatchRun, headers: [HeaderField]) -> HTTPResponse {
        var response = HTTPResponse(status: 200, headers: headers)
        response.batch = batch
        if gzip {
            response.gzipsStream = true
            response.headers.append(HeaderField("Content-Encoding", Compression.coding))
        }
        response.headers.append(HeaderField("Vary", "Accept-Encoding"))
        return response
    }
}

extension RouteTable {
    /// The service's routes (docs/rules.md "The curve route"–§5, rule 25), the one table of them
    /// (docs/http.md "One route table, matched once"): each path with its methods, whether it is a
    /// probe, and its handler, which reads the routes' state from the router that dispatches it.
    static let service = RouteTable([
        Router.Route("/healthz", methods: ["GET"], isProbe: true, .answer { _, _ in
            Content(mediaType: "application/json", body: Array(#"{"status":"ok"}"#.utf8), cacheable: false)
        }),
        Router.Route("/readyz", methods: ["GET"], isProbe: true, .answer { router, _ throws(Problem) in
            guard !router.handlers.readiness.isDraining else {
                throw Problem(.unavailable, detail: "the server is draining and takes no new work")
            }
            return Content(mediaType: "application/json", body: Array(#"{"status":"ready"}"#.utf8), cacheable: false)
        }),
        Router.Route("/metrics", methods: ["GET"], isProbe: true, .answer { router, _ in
            Content(mediaType: ServiceMetrics.contentType, body: router.handlers.metrics.render(), cacheable: false)
        }),
        Router.Route("/", methods: ["GET"], .answer { _, _ in
            var page = Content(mediaType: "text/html; charset=utf-8", body: PlaygroundPage.shared.body)
            page.headers = PlaygroundPage.shared.headers
            return page
        }),
        Router.Route("/openapi.yaml", methods: ["GET"], .answer { _, _ in
            Content(mediaType: "application/yaml", body: OpenAPIDocument.bytes)
        }),
        Router.Route("/v1/curve", methods: ["POST"], .estimate { router, request throws(Problem) in
            try router.handlers.curve(request)
        }),
        Router.Route("/v1/render", methods: ["POST"], .compute { router, request throws(Problem) in
            try router.handlers.render(request)
        }),
        Router.Route("/v1/tokens", methods: ["POST"], .estimate { router, request throws(Problem) in
            try router.handlers.tokens(request)
        }),
        Router.Route("/v1/presets", methods: ["GET"], .answer { _, _ in
            Content(mediaType: "application/json", body: Handlers.presetCatalogue)
        }),
        BatchHandler.route,
    ])
}

/// The handlers of the computing routes and the state the routes read: read the request, compute,
/// write the body. They throw `Problem`s and know nothing of CORS, tags, codings or the cache.
struct Handlers: Sendable {
    let limits: Limits
    let readiness: Readiness
    let metrics: ServiceMetrics
    /// The sample times' text of recent curves (docs/http.md "The sample-time memo").
    let sampleTimes = ColumnTextMemo()

    /// `GET /v1/presets` (docs/rules.md rule 25), written once.
    static let presetCatalogue: [UInt8] = {
        var writer = TextWriter()
        writer.value(Presets.catalogue)
        return writer.bytes
    }()

    /// Reads a curve request; the job samples and writes it. Its work is estimated for JSON and
    /// CSV (`CurveRequest.work`) and, before any fitting, for CSS and WAAPI (`CurveExport.plan`: a
    /// 413 over the work limit or for a curve no `linear()` can follow); the SVG plot's is not, so
    /// it runs on a worker.
    func curve(_ request: HTTPRequest) throws(Problem) -> Router.Job {
        let format = try Negotiation.format(query: request.query[.format], accept: request.headers[.accept],
                                            offered: [.json, .csv, .svg, .css, .waapi])
        let tolerance = try ExportTolerance.parse(request.query[.tolerance])
        try refuseRenderOnly(request.query, format: format, route: "a curve")
        let body = try jsonBody(request)
        let curveRequest = try CurveRequest.decode(body, limits: limits)
        try curveRequest.refuseAnalysis(format: format.rawValue)
        try curveRequest.refuseCompare(format: format.rawValue)
        let work: Double
        switch format {
        case .json, .csv: work = curveRequest.work
        case .css, .waapi: work = try CurveExport.plan(curveRequest, tolerance: tolerance, limits: limits)
        default: work = .infinity
        }
        // The job keeps what it needs, not the request or the handlers: capturing either would
        // copy its fields.
        let cancellation = request.cancellation
        return Router.Job(work: work) { [sampleTimes] () throws(Problem) in
            // Sampling first refuses a curve with a non-finite value, whatever the format.
            let curve = try CurveResponse(curveRequest)
            switch format {
            case .css:
                return Content(mediaType: format.mediaType,
                               body: try CurveExport(curveRequest, tolerance: tolerance, cancellation: cancellation).css())
            case .waapi:
                return Content(mediaType: format.mediaType,
                               body: try CurveExport(curveRequest, tolerance: tolerance, cancellation: cancellation).waapi())
            case .csv: return Content(mediaType: format.mediaType, sectioned: curve.csv(), cancellation: cancellation)
            case .svg: return Content(mediaType: format.mediaType, sectioned: curve.svg(), cancellation: cancellation)
            default:
                // Small enough to be written whole (the common case): at once, without sections.
                guard Content.streams(estimatedBytes: curve.estimatedBytes) else {
                    return Content(mediaType: format.mediaType, body: curve.jsonBytes(timesFrom: sampleTimes))
                }
                return Content(mediaType: format.mediaType, sectioned: curve.json(), cancellation: cancellation)
            }
        }
    }

    func render(_ request: HTTPRequest) throws(Problem) -> Content {
        let format = try Negotiation.format(query: request.query[.format], accept: request.headers[.accept],
                                            offered: [.json, .csv, .svg, .css, .waapi, .lottie])
        let q = request.query
        try refuseRenderOnly(q, format: format == .css || format == .waapi ? nil : format, route: "this format")
        if q[.trigger] != nil, format != .css {
            throw Problem(.invalidRequest, detail: "`trigger` scopes the CSS export's rules (format=css); a Web Animations "
                              + "export starts when its script calls animate()", extensions: [.init("parameter", .string("trigger"))])
        }
        let options = try ExportOptions.parse(tolerance: q[.tolerance], prefix: q[.prefix], trigger: q[.trigger],
                                              geometry: q[.geometry], units: q[.units])
        let expand: Bool
        switch request.query[.expand] {
        case nil, "false": expand = false
        case "true" where format == .json: expand = true
        case "true": throw Problem(.invalidQuery, detail: "`expand=true` adds the expanded request to a JSON response; "
                                              + "it does not apply to \(format.rawValue)")
        case let other?: throw Problem(.invalidQuery, detail: "`expand` is true or false, not `\(other.prefix(50))`")
        }
        let body = try jsonBody(request)
        let renderRequest = try RenderRequest.decode(body, limits: limits, cancellation: request.cancellation)
        switch format {
        case .css, .waapi: try RenderExport.checkWork(renderRequest, limits: limits, format: .keyframes, tolerance: options.tolerance)
        case .lottie: try RenderExport.checkWork(renderRequest, limits: limits, format: .lottie, tolerance: options.tolerance)
        case .svg: try RenderResponse.checkPlotWork(renderRequest, limits: limits)
        default: break
        }
        switch format {
        case .css: return Content(mediaType: format.mediaType, body: try RenderExport(renderRequest, options: options).css())
        case .waapi: return Content(mediaType: format.mediaType, body: try RenderExport(renderRequest, options: options).waapi())
        case .lottie: return Content(mediaType: format.mediaType, body: try LottieExport(renderRequest).lottie(tolerance: options.tolerance))
        default: break
        }
        let render = try RenderResponse(renderRequest, expanded: expand)
        switch format {
        case .csv: return Content(mediaType: format.mediaType, sectioned: render.csv(), cancellation: request.cancellation)
        case .svg: return Content(mediaType: format.mediaType, sectioned: render.svg(), cancellation: request.cancellation)
        default: return Content(mediaType: format.mediaType, sectioned: render.json(), cancellation: request.cancellation)
        }
    }

    /// A 422 naming the first of `prefix`, `trigger`, `geometry`, `units` given where it shapes
    /// nothing: on any route but a render's CSS or Web Animations export (`format` nil: it does).
    func refuseRenderOnly(_ query: QueryFields, format: ResponseFormat?, route: String) throws(Problem) {
        guard let format, let name = [QueryName.prefix, .trigger, .geometry, .units].first(where: { query[$0] != nil }) else { return }
        let shapes = name == .trigger ? "a render's css export" : "a render's css and waapi exports"
        throw Problem(.invalidRequest, detail: "`\(name.rawValue)` shapes \(shapes); it does not apply to "
                          + "\(route) (format=\(format.rawValue))", extensions: [.init("parameter", .string(name.rawValue))])
    }

    /// Reads a design-token document and plans its conversion (rule 39: every bad token listed in
    /// one 422, the fits' work held to the limit); the job fits and writes it as CSS (the default)
    /// or as the document resolved in place.
    func tokens(_ request: HTTPRequest) throws(Problem) -> Router.Job {
        let format = try Negotiation.format(query: request.query[.format], accept: request.headers[.accept], offered: [.css, .json])
        let tolerance = try ExportTolerance.parse(request.query[.tolerance])
        try refuseRenderOnly(request.query, format: format, route: "design tokens")
        let plan = try TokenPlan(jsonBody(request), tolerance: tolerance, limits: limits)
        let cancellation = request.cancellation
        return Router.Job(work: plan.work) { () throws(Problem) in
            let export = try TokenExport(plan, cancellation: cancellation)
            return Content(mediaType: format.mediaType, body: format == .json ? export.json() : export.css())
        }
    }

    /// Reads the body as JSON after the content-type check (415). The body limit (413) is the
    /// transport's: `HTTPServer` never hands over a body over it.
    func jsonBody(_ request: HTTPRequest) throws(Problem) -> JSONValue {
        try Negotiation.checkContentType(request.headers[.contentType])
        return try RequestDocument.parse(request.body, limits: limits)
    }
}
