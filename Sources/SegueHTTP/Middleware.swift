/// One stage of the pipeline with one job, in the manner of Hummingbird's middleware: it may
/// answer by itself, or call `next` (the rest of the pipeline) and change what comes back.
///
/// Stages throw nothing of their own: a `Problem` becomes its problem+json response where it
/// arises (in the router, a handler, or the tagging of a streamed body), so every stage outside
/// sees a response and leaves anything but a deterministic 200 alone. What the rest of the
/// pipeline throws they pass on untouched: `Never` on a worker, `OnIOThread.OverBudget` on an
/// I/O thread (a request found too dear to answer there, which then runs again on a worker;
/// docs/http.md "Thread model").
protocol Middleware: Sendable {
    func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse
}

/// Stages in a fixed order, the first outermost, around a responder.
struct MiddlewareChain: Sendable {
    let stages: [any Middleware]

    init(_ stages: [any Middleware]) {
        self.stages = stages
    }

    func respond<Failure: Error>(to request: HTTPRequest, handler: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse {
        try respond(from: 0, to: request, handler: handler)
    }

    private func respond<Failure: Error>(from index: Int, to request: HTTPRequest,
                                         handler: (HTTPRequest) throws(Failure) -> HTTPResponse) throws(Failure) -> HTTPResponse {
        guard index < stages.count else { return try handler(request) }
        return try stages[index].respond(to: request) { (request) throws(Failure) in
            try respond(from: index + 1, to: request, handler: handler)
        }
    }
}

/// CORS (docs/rules.md "Conventions"): `Access-Control-Allow-Origin` and
/// `Access-Control-Expose-Headers: ETag` first on every response, problems and preflights
/// included. The preflight itself is the router's.
///
/// `--cors-origin` is `*` (the default: every origin), or a comma-separated list of origins
/// (`https://a.example, https://b.example`). With a list, a request whose `Origin` is listed
/// (compared exactly, as browsers serialise it) gets it echoed, any other gets no
/// `Access-Control-Allow-Origin`, and every answer says `Vary: Origin`, so a shared cache keeps
/// one answer per origin (the Fetch standard's CORS protocol).
struct CORSMiddleware: Middleware {
    enum Allowed: Sendable, Equatable {
        case any
        case listed(Set<String>)
    }

    let allowed: Allowed

    /// `setting` as `--cors-origin` gives it: `*` (or nothing) for any origin, else the list.
    init(setting: String) {
        let origins = setting.split(separator: ",").map { $0.trimmingCharacters(in: " \t") }.filter { !$0.isEmpty }
        allowed = origins.isEmpty || origins.contains("*") ? .any : .listed(Set(origins))
    }

    func respond<Failure: Error>(to request: HTTPRequest, next: (HTTPRequest) throws(Failure) -> HTTPResponse)
        throws(Failure) -> HTTPResponse {
        apply(to: try next(request), origin: request.headers[.origin])
    }

    /// Takes the response (`consuming`): its headers grow in place, with no copy of the response.
    /// `origin` is the request's `Origin` (nil for the transport's refusals, which have no request).
    func apply(to response: consuming HTTPResponse, origin: String? = nil) -> HTTPResponse {
        switch allowed {
        case .any:
            response.headers.insert(HeaderField("Access-Control-Allow-Origin", "*"), at: 0)
            response.headers.insert(HeaderField("Access-Control-Expose-Headers", "ETag"), at: 1)
        case .listed(let origins):
            if let origin, origins.contains(origin) {
                response.headers.insert(HeaderField("Access-Control-Allow-Origin", origin), at: 0)
                response.headers.insert(HeaderField("Access-Control-Expose-Headers", "ETag"), at: 1)
            }
            response.headers.append(HeaderField("Vary", "Origin"))
        }
        return consume response
    }
}
