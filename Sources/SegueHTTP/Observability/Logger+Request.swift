import Logging

extension Logger {
    /// The one log line of an answered request (docs/rules.md rule 30): `info` (`debug` for the
    /// probe and scrape routes), or `error` for a 5xx, which must name its `cause` (the error or fault that produced it). Carries no body
    /// and no raw path: `route` is matched (`RouteTable.service`) and written as its label, `method`
    /// as the method label, so a client cannot put arbitrary text into the log. With Segue's `RequestLog` handler the
    /// line is written field by field (`RequestLog.requestLine`); nothing is built below the level.
    ///
    /// - Parameters:
    ///   - id: the request's id (`RequestID.resolve`).
    ///   - seconds: from the headers to the answer, as given to `ServiceMetrics.requestFinished`.
    ///   - bytes: response body bytes sent.
    ///   - cause: why a 5xx happened; ignored below 500 unless given.
    public func requestFinished(id: String, method: String, route: String, status: Int, seconds: Double,
                                bytes: Int, cause: String? = nil) {
        let match = RouteTable.service.match(route)
        guard logLevel <= RequestLog.RequestFields.level(status: status, route: match) else { return }  // before building the metadata
        let label = MetricLabels.methodText(at: MetricLabels.methodIndex(method))
        let fields = RequestLog.RequestFields.answered(id: RequestID(id), method: label, route: match, status: status,
                                                       seconds: seconds, bytes: bytes, cause: cause)
        // Segue's own handler writes the line directly; any other goes through swift-log's metadata.
        if let log = handler as? RequestLog, log.requestLine(fields) { return }
        var metadata: Logger.Metadata = [
            "request_id": .string(fields.id.description),
            "method": .string("\(fields.method)"),
            "route": .string(fields.route.label),
            "status": .stringConvertible(fields.status),
            "duration": .stringConvertible(fields.seconds),
            "bytes": .stringConvertible(fields.bytes),
        ]
        if let cause = fields.cause { metadata["cause"] = .string(cause) }
        log(level: fields.level, "request", metadata: metadata)
    }
}

extension RequestLog.RequestFields {
    /// The fields of an answered request's line, `method` given as its label (`MetricLabels.methodText`),
    /// and a 5xx's `cause` "unknown" when none is given.
    static func answered(id: RequestID, method: StaticString, route: RouteMatch, status: Int, seconds: Double, bytes: Int,
                         cause: String?) -> Self {
        Self(id: id, method: method, route: route, status: status, seconds: seconds,
             bytes: bytes, cause: cause ?? (status >= 500 ? "unknown" : nil))
    }

    /// `error` for a 5xx; `debug` for any other answer of a probe route (`Router.Route.isProbe`, read
    /// from the request's match); `info` for everything else.
    static func level(status: Int, route: RouteMatch) -> Logger.Level {
        status >= 500 ? .error : route.isProbe ? .debug : .info
    }

    var level: Logger.Level { Self.level(status: status, route: route) }
}
