/// The label values a request may put on a metric (docs/rules.md rule 30): bounded sets, so the
/// number of time series a client can create is fixed by the server, never by the requests.
///
/// - `route`: the route template a request matched ("/v1/render", …, "/metrics"); any other path
///   — a 404, a probe, a path with a query or an id in it — is `unmatched`. Raw paths are never
///   labels.
/// - `method`: one of `methods`; anything else (including lower-case spellings, which HTTP treats
///   as different methods) is `other`.
/// - `status`: the three-digit code for 100…599; anything outside is `other`.
///
/// Cardinality of `segue_requests_total`: at most (routes + 1) × 8 × 501 series, in practice a
/// handful of status codes per route.
public struct MetricLabels: Sendable {
    /// The route label of a path no route matched.
    public static let unmatched = "unmatched"
    /// The method and status label of a value outside the known set.
    public static let other = "other"
    /// The methods labelled by name (RFC 9110 §9 less CONNECT and TRACE, which Segue never serves).
    public static let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
    /// The status codes labelled by value.
    public static let statuses = 100...599

    /// Every route label, in a fixed order: the known routes sorted, then `unmatched` (last).
    public let routes: [String]
    private let indexOfRoute: [String: Int]

    /// - Parameter routes: the router's path templates. `/metrics` is always added: it is the
    ///   endpoint that serves these labels.
    public init(routes: some Sequence<String>) {
        let known = Set(routes).union(["/metrics"]).subtracting([Self.unmatched]).sorted()
        self.routes = known + [Self.unmatched]
        indexOfRoute = Dictionary(uniqueKeysWithValues: self.routes.enumerated().map { ($1, $0) })
    }

    /// The route label of `path` (a route template or a raw path).
    public func route(_ path: String) -> String { route(of: path).label }

    /// A route label and its position in `routes`, found once per request.
    public struct Route: Sendable {
        let index: Int
        public let label: String
    }

    /// The route label of `path` with its position.
    func route(of path: String) -> Route {
        let index = routeIndex(path)
        return Route(index: index, label: routes[index])
    }

    /// The position of `route(path)` in `routes`.
    func routeIndex(_ path: String) -> Int { indexOfRoute[path] ?? routes.count - 1 }

    /// The method label of `method`.
    public static func method(_ method: String) -> String {
        let index = methodIndex(method)
        return index < methods.count ? methods[index] : other
    }

    /// The position of `method(method)` in `methods`, or `methods.count` for `other`.
    static func methodIndex(_ method: String) -> Int { methods.firstIndex(of: method) ?? methods.count }

    /// The status label of `code`.
    public static func status(_ code: Int) -> String { statuses.contains(code) ? String(code) : other }
}
