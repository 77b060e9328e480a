import SegueCodec

/// Start-up settings of the service (docs/rules.md "Limits": every limit is configurable; CORS origin).
public struct ServiceConfiguration: Sendable {
    public var limits = Limits()
    /// `Access-Control-Allow-Origin` on every response.
    public var corsOrigin = "*"
    /// Responses kept for identical requests (0 turns the cache off) and their total body bytes.
    public var cacheEntries = 4096
    public var cacheBytes = 64 << 20

    public init() {}
}

/// Segue's HTTP semantics as a pipeline, a request in and a response out; the transport
/// (`HTTPServer`, libmicrohttpd) is elsewhere and also owns the body limit. The order is fixed:
///
///     CORS → Router (404 · OPTIONS preflight · 405 with Allow)
///          → conditional request (If-None-Match → 304) → response cache → entity tag → compression
///          → handler (curve, render, presets, healthz, openapi.yaml)
///
/// Each stage is a `Middleware` with one job. Errors are `Problem`s, answered as problem+json where
/// they arise; only deterministic 200s are compressed, tagged and cached.
public struct SegueService: Sendable {
    public let configuration: ServiceConfiguration
    let cache: ResponseCache
    let cors: CORSMiddleware
    let router: Router

    public init(configuration: ServiceConfiguration = ServiceConfiguration()) {
        self.configuration = configuration
        cache = ResponseCache(capacity: configuration.cacheEntries, byteLimit: configuration.cacheBytes)
        cors = CORSMiddleware(origin: configuration.corsOrigin)
        router = Router(routes: Handlers(limits: configuration.limits).routes, middleware: MiddlewareChain([
            ConditionalRequestMiddleware(),
            ResponseCacheMiddleware(cache: cache),
            EntityTagMiddleware(),
            CompressionMiddleware(),
        ]))
    }

    /// The paths the service answers and their methods, for the OpenAPI coverage test.
    public static var paths: [String: [String]] { Handlers(limits: Limits()).routes.mapValues(\.methods) }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        cors.respond(to: request, next: router.respond)
    }

    /// A problem answered outside the router (the transport's 413), with the CORS headers.
    public func problem(_ problem: Problem) -> HTTPResponse {
        cors.apply(to: HTTPResponse(problem: problem))
    }
}
