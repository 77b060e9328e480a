#if canImport(Glibc)
import Glibc
#endif
import SegueJSON

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
    public static let other = "\(otherText)"
    static let otherText: StaticString = "other"
    /// The methods labelled by name (RFC 9110 §9 less CONNECT and TRACE, which Segue never serves).
    public static let methods = methodTexts.map { "\($0)" }
    /// The same as fixed text, which a log line writes as it is (`RequestLog.requestLine`).
    static let methodTexts: [StaticString] = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]
    /// The status codes labelled by value.
    public static let statuses = 100...599

    /// Every route label, in a fixed order: the known routes sorted, then `unmatched` (last).
    public let routes: [String]
    /// The known routes' bytes, one after another, and where each starts: a lookup compares
    /// lengths and bytes, with no `String` and no hashing (docs/http.md "The route found from the
    /// target's bytes").
    private let routeText: [UInt8]
    private let routeStarts: [Int]

    /// - Parameter routes: the router's path templates. `/metrics` is always added: it is the
    ///   endpoint that serves these labels.
    public init(routes: some Sequence<String>) {
        let known = Set(routes).union(["/metrics"]).subtracting([Self.unmatched]).sorted()
        self.routes = known + [Self.unmatched]
        routeText = known.flatMap(\.utf8)
        routeStarts = known.reduce(into: [0]) { $0.append($0.last! + $1.utf8.count) }
    }

    /// The route label of `path` (a route template or a raw path).
    public func route(_ path: String) -> String { route(of: path).label }

    /// A route label and its position in `routes`, found once per request.
    public struct Route: Sendable {
        let index: Int
        public let label: String

        /// Whether a route matched: the label is then the path itself.
        var isKnown: Bool { label != MetricLabels.unmatched }
    }

    /// The route label of `path` with its position.
    func route(of path: String) -> Route {
        path.withUTF8InPlace { route(of: UnsafeRawBufferPointer($0)) }
    }

    /// The route label of a path given as its bytes, with its position.
    func route(of path: UnsafeRawBufferPointer) -> Route {
        let index = routeText.withUnsafeBytes { text in
            routeStarts.withUnsafeBufferPointer { starts in
                for i in 0..<starts.count - 1 where starts[i + 1] - starts[i] == path.count
                    && (path.count == 0 || memcmp(text.baseAddress! + starts[i], path.baseAddress!, path.count) == 0) {
                    return i
                }
                return starts.count - 1
            }
        }
        return Route(index: index, label: routes[index])
    }

    /// The method label of `method`.
    public static func method(_ method: String) -> String { Self.method(at: methodIndex(method)) }

    /// The method label at `index` (`methodIndex`): one of `methods`, or `other`.
    static func method(at index: Int) -> String { index < methods.count ? methods[index] : other }

    /// `method(at:)` as fixed text.
    static func methodText(at index: Int) -> StaticString { index < methodTexts.count ? methodTexts[index] : otherText }

    /// The position of `method(method)` in `methods`, or `methods.count` for `other`.
    static func methodIndex(_ method: String) -> Int { methods.firstIndex(of: method) ?? methods.count }

    /// The status label of `code`.
    public static func status(_ code: Int) -> String { statuses.contains(code) ? String(code) : other }
}
