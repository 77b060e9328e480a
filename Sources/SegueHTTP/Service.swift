import SegueCodec
import SegueJSON

/// Start-up settings of the service (API.md §1: every limit is configurable; CORS origin).
public struct ServiceConfiguration: Sendable {
    public var limits = Limits()
    /// `Access-Control-Allow-Origin` on every response.
    public var corsOrigin = "*"
    /// Responses kept for identical requests (0 turns the cache off) and their total body bytes.
    public var cacheEntries = 4096
    public var cacheBytes = 64 << 20

    public init() {}
}

/// Segue's HTTP semantics: routing, methods, content types, formats, CORS, entity tags and the
/// problem+json error model. Pure: a request in, a response out; the transport is elsewhere.
public struct SegueService: Sendable {
    public let configuration: ServiceConfiguration
    let cache: ResponseCache

    public init(configuration: ServiceConfiguration = ServiceConfiguration()) {
        self.configuration = configuration
        cache = ResponseCache(capacity: configuration.cacheEntries, byteLimit: configuration.cacheBytes)
    }

    /// A route: its methods (HEAD answers wherever GET does) and its handler.
    struct Route: Sendable {
        let methods: [String]
        let handler: @Sendable (SegueService, HTTPRequest) throws(Problem) -> Content
    }

    /// A successful body before the HTTP framing: bytes, or sections to write (and stream
    /// when large).
    struct Content {
        var mediaType: String
        var body: [UInt8] = []
        var sectioned: SectionedBody?
        var cacheable = true

        init(mediaType: String, body: [UInt8], cacheable: Bool = true) {
            self.mediaType = mediaType
            self.body = body
            self.cacheable = cacheable
        }

        init(mediaType: String, sectioned: SectionedBody) {
            self.mediaType = mediaType
            self.sectioned = sectioned
        }
    }

    /// Sectioned bodies estimated above this many bytes stream (identity coding); smaller ones are
    /// written whole.
    static let streamingThreshold = 1 << 20

    static let routes: [String: Route] = [
        "/healthz": Route(methods: ["GET"]) { _, _ in
            Content(mediaType: "application/json", body: Array(#"{"status":"ok"}"#.utf8), cacheable: false)
        },
        "/openapi.yaml": Route(methods: ["GET"]) { _, _ in
            Content(mediaType: "application/yaml", body: PackageResources.openapi_yaml)
        },
        "/v1/curve": Route(methods: ["POST"]) { service, request throws(Problem) in
            try service.curve(request)
        },
        "/v1/render": Route(methods: ["POST"]) { service, request throws(Problem) in
            try service.render(request)
        },
        "/v1/presets": Route(methods: ["GET"]) { _, _ in
            Content(mediaType: "application/json", body: presetCatalogue)
        },
    ]

    /// `GET /v1/presets` (API.md §6 rule 25), written once.
    static let presetCatalogue: [UInt8] = {
        var writer = JSONWriter()
        writer.value(Presets.catalogue)
        return writer.bytes
    }()

    /// The paths the service answers, for the OpenAPI coverage test.
    public static var paths: [String: [String]] { routes.mapValues(\.methods) }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let route = Self.routes[request.path] else {
            return problem(Problem(status: 404, kind: "not-found", detail: "no route `\(request.path.prefix(200))`"))
        }
        let allowed = route.methods + (route.methods.contains("GET") ? ["HEAD"] : []) + ["OPTIONS"]
        let method = request.method == "HEAD" ? "GET" : request.method
        if method == "OPTIONS" {
            return preflight(allowed: allowed)
        }
        guard route.methods.contains(method) else {
            var response = problem(Problem(status: 405, kind: "method-not-allowed",
                                           detail: "\(request.method.prefix(20)) is not allowed on \(request.path); use "
                                               + route.methods.joined(separator: " or ")))
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return response
        }
        // A deterministic answer computed before is answered again, revalidation included.
        let key = method == "POST" && cache.capacity > 0 ? ResponseCache.key(for: request) : nil
        if let key, let cached = cache.lookup(key) {
            return revalidated(cached, request: request)
        }
        do {
            let response = try success(route.handler(self, request), request: request)
            if let key { cache.store(response, for: key) }
            return response
        } catch {
            return problem(error)
        }
    }

    // MARK: Handlers

    func curve(_ request: HTTPRequest) throws(Problem) -> Content {
        let format = try Negotiation.format(query: request.query["format"], accept: request.headers["accept"],
                                            offered: [.json, .csv])
        let body = try jsonBody(request)
        let curve = try CurveResponse(CurveRequest.decode(body, limits: configuration.limits))
        switch format {
        case .csv: return Content(mediaType: format.mediaType, body: curve.csv())
        default: return Content(mediaType: format.mediaType, body: curve.json())
        }
    }

    func render(_ request: HTTPRequest) throws(Problem) -> Content {
        let format = try Negotiation.format(query: request.query["format"], accept: request.headers["accept"],
                                            offered: [.json, .csv])
        let expand: Bool
        switch request.query["expand"] {
        case nil, "false": expand = false
        case "true" where format == .json: expand = true
        case "true": throw Problem.badRequest("invalid-query", "`expand=true` adds the expanded request to a JSON response; "
                                              + "it does not apply to \(format.rawValue)", at: nil)
        case let other?: throw Problem.badRequest("invalid-query", "`expand` is true or false, not `\(other.prefix(50))`", at: nil)
        }
        let body = try jsonBody(request)
        let render = RenderResponse(try RenderRequest.decode(body, limits: configuration.limits), expanded: expand)
        switch format {
        case .csv: return Content(mediaType: format.mediaType, sectioned: render.csv())
        default: return Content(mediaType: format.mediaType, sectioned: render.json())
        }
    }

    /// Reads the body as JSON after the content-type check (415). The body limit (413) is the
    /// transport's: `HTTPServer` never hands over a body over it.
    func jsonBody(_ request: HTTPRequest) throws(Problem) -> JSONValue {
        try Negotiation.checkContentType(request.headers["content-type"])
        return try RequestDocument.parse(request.body, limits: configuration.limits)
    }

    // MARK: Framing

    func commonHeaders() -> [(name: String, value: String)] {
        [("Access-Control-Allow-Origin", configuration.corsOrigin), ("Access-Control-Expose-Headers", "ETag")]
    }

    func success(_ content: Content, request: HTTPRequest) throws(Problem) -> HTTPResponse {
        var headers = commonHeaders()
        headers.append(("Content-Type", content.mediaType))
        guard content.cacheable else {
            headers.append(("Cache-Control", "no-store"))
            return HTTPResponse(status: 200, headers: headers, body: content.body)
        }
        headers.append(("Vary", "Accept, Accept-Encoding"))
        if let sectioned = content.sectioned, sectioned.estimatedBytes > Self.streamingThreshold {
            return try streamed(sectioned, mediaType: content.mediaType, headers: headers, request: request)
        }
        let identity = try content.sectioned?.bytes() ?? content.body
        var body = identity
        var coding = ""
        if Compression.applies(toBodyOf: body.count, acceptEncoding: request.headers["accept-encoding"]),
           let coded = Compression.gzip(body) {
            body = coded
            coding = Compression.coding
            headers.append(("Content-Encoding", coding))
        }
        // The tag names the bytes sent: it differs between content codings (§6 rule 23).
        let tag = EntityTag.make(body: identity, variant: content.mediaType + ";" + coding)
        return tagged(tag, status: 200, headers: headers, body: body, request: request)
    }

    /// A large body in two passes, so memory stays flat: the first writes every piece into a
    /// reused buffer to find non-finite values (a 422 before anything is sent) and to compute the
    /// entity tag; the second writes the same pieces again while the transport sends them.
    /// Streamed bodies go out with the identity coding.
    func streamed(_ sectioned: SectionedBody, mediaType: String, headers: [(name: String, value: String)],
                  request: HTTPRequest) throws(Problem) -> HTTPResponse {
        var tag = EntityTag(variant: mediaType + ";")
        var cursor = SectionedBody.Cursor()
        var writer = JSONWriter(capacity: 1 << 16)
        while try sectioned.writeNext(&cursor, into: &writer) {
            tag.update(writer.bytes)
            writer.bytes.removeAll(keepingCapacity: true)
        }
        var response = tagged(tag.finish(), status: 200, headers: headers, body: [], request: request)
        if response.status == 200 { response.stream = sectioned }
        return response
    }

    /// A cached 200 answered as 304 when `If-None-Match` matches its tag.
    func revalidated(_ cached: HTTPResponse, request: HTTPRequest) -> HTTPResponse {
        guard let tag = cached.header("ETag"), EntityTag.matches(request.headers["if-none-match"], tag) else { return cached }
        return HTTPResponse(status: 304, headers: cached.headers.filter { $0.name != "Content-Type" && $0.name != "Content-Encoding" })
    }

    /// Adds the `ETag`, answering 304 when `If-None-Match` matches it.
    func tagged(_ tag: String, status: Int, headers: [(name: String, value: String)], body: [UInt8],
                request: HTTPRequest) -> HTTPResponse {
        var headers = headers
        headers.append(("ETag", tag))
        if EntityTag.matches(request.headers["if-none-match"], tag) {
            return HTTPResponse(status: 304, headers: headers.filter { $0.name != "Content-Type" && $0.name != "Content-Encoding" })
        }
        return HTTPResponse(status: status, headers: headers, body: body)
    }

    /// A CORS preflight (API.md §6 rule 23): 204 with the route's methods.
    func preflight(allowed: [String]) -> HTTPResponse {
        var headers = commonHeaders()
        headers += [
            ("Allow", allowed.joined(separator: ", ")),
            ("Access-Control-Allow-Methods", allowed.joined(separator: ", ")),
            ("Access-Control-Allow-Headers", "Content-Type, If-None-Match, Accept"),
            ("Access-Control-Max-Age", "86400"),
        ]
        return HTTPResponse(status: 204, headers: headers)
    }

    public func problem(_ problem: Problem) -> HTTPResponse {
        var headers = commonHeaders()
        headers.append(("Content-Type", "application/problem+json"))
        return HTTPResponse(status: problem.status, headers: headers, body: problem.json.bytes)
    }
}
