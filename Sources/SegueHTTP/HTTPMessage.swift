import SegueCodec
import SegueEngine

/// A request as the service sees it: the transport (libmicrohttpd, or a test calling the router
/// directly) fills it; the router never touches a socket.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The decoded path, without the query.
    public var path: String
    /// Query arguments the service reads (`format`, `expand`).
    public var query: [String: String]
    /// Header fields the service reads, names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]
    /// Set by the transport when nobody waits any more (deadline, client gone); long work stops.
    public var cancellation: WorkCancellation?

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The header fields a transport must copy into `headers` (lowercased names).
    public static let readHeaders = ["content-type", "accept", "accept-encoding", "if-none-match", "origin",
                                     "access-control-request-method", "access-control-request-headers"]
    /// The query arguments a transport must copy into `query`.
    public static let readQuery = ["format", "expand", "tolerance"]
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// A large body written while it is sent (chunked), instead of `body`.
    public var stream: SectionedBody?

    // Pipeline state, never sent (see `SegueService`).
    /// The handler's answer is a pure function of the request: the route middleware may compress,
    /// tag and cache it. False for everything else (`/healthz`, problems, preflights, 304s).
    var isDeterministic = false
    /// The body before its content coding, kept by the compression stage for the entity tag (which
    /// names the identity bytes and the coding); the tagging stage drops it.
    var uncodedBody: [UInt8]?
    /// The stream is sent gzip-coded (`Content-Encoding: gzip` is already among the headers).
    var gzipsStream = false
    /// A problem's detail, for the log line of a 5xx (rule 30).
    var cause: String?

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], stream: SectionedBody? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
    }

    /// A problem as `application/problem+json` (RFC 9457), with its status.
    init(problem: Problem) {
        self.init(status: problem.status, headers: [("Content-Type", "application/problem+json")], body: problem.json.bytes)
        cause = problem.detail
    }

    /// The whole body, writing a stream out (for tests and small transports).
    public func collectedBody() throws(Problem) -> [UInt8] {
        try stream?.bytes() ?? body
    }

    /// The first field named `name`, compared without regard to ASCII case (RFC 9110 §5.1).
    public func header(_ name: String) -> String? {
        let length = name.utf8.count
        return headers.first {
            $0.name.utf8.count == length && $0.name.utf8.elementsEqual(name.utf8) { Self.folded($0) == Self.folded($1) }
        }?.value
    }

    /// An ASCII letter in lower case; any other byte as it is.
    private static func folded(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
}
