/// The label values a request may put on a metric (docs/rules.md rule 30): bounded sets, so the
/// number of time series a client can create is fixed by the server, never by the requests.
///
/// - `route`: the path of the route a request matched ("/v1/render", …, "/metrics"), its
///   `RouteMatch.label`; any other path — a 404, a path with a query or an id in it — is
///   `unmatched`. Raw paths are never labels.
/// - `method`: one of `methods`; anything else (including lower-case spellings, which HTTP treats
///   as different methods) is `other`.
/// - `status`: the three-digit code for 100…599; anything outside is `other`.
///
/// Cardinality of `segue_requests_total`: at most (routes + 1) × 8 × 501 series, in practice a
/// handful of status codes per route.
public enum MetricLabels {
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
