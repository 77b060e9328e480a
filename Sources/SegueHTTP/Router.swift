import SegueCodec

/// Path and method to a handler (docs/rules.md "Conventions"): 404 for an unknown path, the CORS preflight for
/// `OPTIONS`, 405 with `Allow` for a method the route does not take; `HEAD` is answered wherever
/// `GET` is (the transport sends no body). A matched request runs through the route middleware to
/// its handler. Pure: a request and its route's match in, a response out, no socket.
struct Router: Sendable {
    struct Route: Sendable {
        /// How the route answers, and so where it may run (docs/http.md "Thread model"). Each handler
        /// is given the router that dispatched it, for the handlers' state (and, for a batch, the
        /// routes again for its lines): the route captures nothing of a service.
        enum Action: Sendable {
            /// Cheap whatever the request (fixed bytes, a status): answered on the I/O thread.
            case answer(@Sendable (Router, HTTPRequest) throws(Problem) -> Content)
            /// Read and estimated first (`Job.work`), then computed: on the I/O thread when the
            /// estimate is within its budget, else on a worker (curves).
            case estimate(@Sendable (Router, HTTPRequest) throws(Problem) -> Job)
            /// Computed on a worker, reading included: a render's reading already builds keyframe
            /// tracks and simulates physics.
            case compute(@Sendable (Router, HTTPRequest) throws(Problem) -> Content)

            /// Which of the three, without the handler.
            enum Kind: Sendable { case answer, estimate, compute }

            var kind: Kind {
                switch self {
                case .answer: .answer
                case .estimate: .estimate
                case .compute: .compute
                }
            }
        }

        /// The path the route answers, which is also its `route` label (docs/rules.md rule 30).
        let path: String
        let methods: [String]
        /// A probe or scrape route, answered every few seconds for every instance: its answers are
        /// logged at `debug`, so that a day of probes does not bury the requests (rule 30).
        let isProbe: Bool
        let action: Action

        init(_ path: String, methods: [String], isProbe: Bool = false, _ action: Action) {
            self.path = path
            self.methods = methods
            self.isProbe = isProbe
            self.action = action
        }

        /// What `Allow` lists: the methods, HEAD wherever GET, and OPTIONS.
        var allowed: [String] { methods + (methods.contains("GET") ? ["HEAD"] : []) + ["OPTIONS"] }
    }

    /// A read request and its estimated work, not yet computed.
    struct Job {
        /// Work units (`SceneCost`); `.infinity` when not estimated, which only a worker admits.
        let work: Double
        let run: () throws(Problem) -> Content
    }

    let table: RouteTable
    /// The routes' state (limits, readiness, metrics), given to every handler.
    let handlers: Handlers
    /// Run around every matched route's handler.
    let middleware: MiddlewareChain

    /// The response to `request`, whose path matched `match` in `table`: the router dispatches by
    /// the match and never matches the path again. A route's work is admitted by `admission` before
    /// it is computed, so on an I/O thread a dear request is refused (`OnIOThread.OverBudget`) for
    /// a worker to answer.
    func respond<Admission: WorkAdmission>(to request: HTTPRequest, route match: RouteMatch, _ admission: Admission)
        throws(Admission.Refusal) -> HTTPResponse {
        guard match.isKnown else {
            return HTTPResponse(problem: Problem(.notFound, detail: "no route `\(request.path.prefix(200))`"))
        }
        let route = table.routes[match.index]
        let method = request.method == "HEAD" ? "GET" : request.method
        if method == "OPTIONS" {
            return Self.preflight(allowed: route.allowed)
        }
        guard route.methods.contains(method) else {
            return Self.methodNotAllowed(request, route)
        }
        return try middleware.respond(to: request) { (request) throws(Admission.Refusal) in
            switch route.action {
            case .answer(let handler):
                return Self.answer { () throws(Problem) in try handler(self, request).response() }
            case .compute(let handler):
                try admission.admit(.infinity)
                return Self.answer { () throws(Problem) in try handler(self, request).response() }
            case .estimate(let prepare):
                let job: Job
                switch Result(catching: { () throws(Problem) in try prepare(self, request) }) {
                case .success(let prepared): job = prepared
                case .failure(let problem): return HTTPResponse(problem: problem)
                }
                try admission.admit(job.work)
                return Self.answer { () throws(Problem) in try job.run().response() }
            }
        }
    }

    /// The response `body` gives, or its problem.
    private static func answer(_ body: () throws(Problem) -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch {
            return HTTPResponse(problem: error)
        }
    }

    /// A CORS preflight (docs/rules.md rule 23): 204 with the route's methods.
    static func preflight(allowed: [String]) -> HTTPResponse {
        let methods = allowed.joined(separator: ", ")
        return HTTPResponse(status: 204, headers: [
            HeaderField("Allow", methods),
            HeaderField("Access-Control-Allow-Methods", methods),
            HeaderField("Access-Control-Allow-Headers", "Content-Type, If-None-Match, Accept"),
            HeaderField("Access-Control-Max-Age", "86400"),
        ])
    }

    static func methodNotAllowed(_ request: HTTPRequest, _ route: Route) -> HTTPResponse {
        var response = HTTPResponse(problem: Problem(
            .methodNotAllowed,
            detail: "\(request.method.prefix(20)) is not allowed on \(request.path); use " + route.methods.joined(separator: " or ")))
        response.headers.append(HeaderField("Allow", route.allowed.joined(separator: ", ")))
        return response
    }
}
