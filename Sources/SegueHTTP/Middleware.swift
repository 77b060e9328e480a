/// One stage of the pipeline with one job, in the manner of Hummingbird's middleware: it may
/// answer by itself, or call `next` (the rest of the pipeline) and change what comes back.
///
/// Stages never throw: a `Problem` becomes its problem+json response where it arises (in the
/// router, a handler, or the tagging of a streamed body), so every stage outside sees a response
/// and leaves anything but a deterministic 200 alone.
protocol Middleware: Sendable {
    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse
}

/// Stages in a fixed order, the first outermost, around a responder.
struct MiddlewareChain: Sendable {
    let stages: [any Middleware]

    init(_ stages: [any Middleware]) {
        self.stages = stages
    }

    func respond(to request: HTTPRequest, handler: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        respond(from: 0, to: request, handler: handler)
    }

    private func respond(from index: Int, to request: HTTPRequest, handler: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        guard index < stages.count else { return handler(request) }
        return stages[index].respond(to: request) { respond(from: index + 1, to: $0, handler: handler) }
    }
}

/// CORS (docs/rules.md "Conventions"): `Access-Control-Allow-Origin` (the configured origin) and
/// `Access-Control-Expose-Headers: ETag` first on every response, problems and preflights
/// included. The preflight itself is the router's.
struct CORSMiddleware: Middleware {
    let origin: String

    func respond(to request: HTTPRequest, next: (HTTPRequest) -> HTTPResponse) -> HTTPResponse {
        apply(to: next(request))
    }

    func apply(to response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.insert(contentsOf: [("Access-Control-Allow-Origin", origin), ("Access-Control-Expose-Headers", "ETag")],
                                at: 0)
        return response
    }
}
