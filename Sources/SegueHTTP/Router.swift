import SegueCodec

/// Path and method to a handler (docs/rules.md "Conventions"): 404 for an unknown path, the CORS preflight for
/// `OPTIONS`, 405 with `Allow` for a method the route does not take; `HEAD` is answered wherever
/// `GET` is (the transport sends no body). A matched request runs through the route middleware to
/// its handler. Pure: a request in, a response out, no socket.
struct Router: Sendable {
    struct Route: Sendable {
        let methods: [String]
        /// The handler computes (curves, renders): it runs on a worker, not on an I/O thread.
        var computes = false
        let handler: @Sendable (HTTPRequest) throws(Problem) -> Content

        /// What `Allow` lists: the methods, HEAD wherever GET, and OPTIONS.
        var allowed: [String] { methods + (methods.contains("GET") ? ["HEAD"] : []) + ["OPTIONS"] }
    }

    let routes: [String: Route]
    /// Run around every matched route's handler.
    let middleware: MiddlewareChain

    func respond(to request: HTTPRequest) -> HTTPResponse {
        guard let route = routes[request.path] else {
            return HTTPResponse(problem: Problem(.notFound, detail: "no route `\(request.path.prefix(200))`"))
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        if method == "OPTIONS" {
            return Self.preflight(allowed: route.allowed)
        }
        guard route.methods.contains(method) else {
            return Self.methodNotAllowed(request, route)
        }
        return middleware.respond(to: request) { request in
            do throws(Problem) {
                return try route.handler(request).response()
            } catch {
                return HTTPResponse(problem: error)
            }
        }
    }

    /// A CORS preflight (docs/rules.md rule 23): 204 with the route's methods.
    static func preflight(allowed: [String]) -> HTTPResponse {
        let methods = allowed.joined(separator: ", ")
        return HTTPResponse(status: 204, headers: [
            ("Allow", methods),
            ("Access-Control-Allow-Methods", methods),
            ("Access-Control-Allow-Headers", "Content-Type, If-None-Match, Accept"),
            ("Access-Control-Max-Age", "86400"),
        ])
    }

    static func methodNotAllowed(_ request: HTTPRequest, _ route: Route) -> HTTPResponse {
        var response = HTTPResponse(problem: Problem(
            .methodNotAllowed,
            detail: "\(request.method.prefix(20)) is not allowed on \(request.path); use " + route.methods.joined(separator: " or ")))
        response.headers.append(("Allow", route.allowed.joined(separator: ", ")))
        return response
    }
}
