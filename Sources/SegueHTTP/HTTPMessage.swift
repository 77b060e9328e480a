import SegueCodec
import SegueEngine

/// A request as the service sees it: the transport (libmicrohttpd, or a test calling the router
/// directly) fills it; the router never touches a socket.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The decoded path, without the query.
    public var path: String
    /// Query arguments the service reads (`format`, `expand`, and the exports' `tolerance`, `prefix`,
    /// `trigger`, `geometry`, `units`).
    public var query: QueryFields
    /// Header fields the service reads, by lowercased name.
    public var headers: HeaderFields
    public var body: [UInt8]
    /// Set by the transport when nobody waits any more (deadline, client gone); long work stops.
    public var cancellation: WorkCancellation?

    /// A request from dictionaries (tests, tools); names the service does not read are dropped.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
                body: [UInt8] = []) {
        self.init(method: method, path: path, body: body)
        for (name, value) in query { self.query[name] = value }
        for (name, value) in headers { self.headers[name] = value }
    }

    /// A request with no query arguments or header fields yet (the transport's).
    public init(method: String, path: String, body: [UInt8]) {
        self.method = method
        self.path = path
        query = ReadFields()
        headers = ReadFields()
        self.body = body
    }
}

/// The names of the request's header fields the service reads, lowercased (what a transport copies).
public enum HeaderName: String, ReadFieldName {
    case contentType = "content-type", accept, acceptEncoding = "accept-encoding", ifNoneMatch = "if-none-match", origin
    case accessControlRequestMethod = "access-control-request-method"
    case accessControlRequestHeaders = "access-control-request-headers"

    public var slot: Int {
        switch self {
        case .contentType: 0
        case .accept: 1
        case .acceptEncoding: 2
        case .ifNoneMatch: 3
        case .origin: 4
        case .accessControlRequestMethod: 5
        case .accessControlRequestHeaders: 6
        }
    }
}

/// The query arguments the service reads.
public enum QueryName: String, ReadFieldName {
    case format, expand, tolerance, prefix, trigger, geometry, units

    public var slot: Int {
        switch self {
        case .format: 0
        case .expand: 1
        case .tolerance: 2
        case .prefix: 3
        case .trigger: 4
        case .geometry: 5
        case .units: 6
        }
    }
}

/// A name of a field a request carries (`HeaderName`, `QueryName`).
public protocol ReadFieldName: RawRepresentable<String>, CaseIterable, Sendable {
    /// Where `ReadFields` keeps its value: distinct for each name, 0..<count of its `ReadFields`.
    var slot: Int { get }
}

/// The query arguments the service reads, one slot each.
public typealias QueryFields = ReadFields<QueryName, 7>
/// The header fields the service reads, one slot each.
public typealias HeaderFields = ReadFields<HeaderName, 7>

/// The values of the few fields the service reads, by name, stored inline: no dictionary to
/// allocate and hash for every request (docs/http.md "Instructions per request"). Reading or
/// writing a name not among `Name`'s cases reads nil and keeps nothing. `count` slots, one for each
/// name and no more: a request is moved a few times and destroyed once, and every spare slot is
/// 16 bytes to copy and an optional string to release (docs/http.md "Fields sized to their names").
/// `count` must exceed every name's `slot` (a slot past it traps): `RouterTests` checks the two
/// instances the service uses, `HeaderFields` and `QueryFields`.
public struct ReadFields<Name: ReadFieldName, let count: Int>: Sendable {
    private var values = InlineArray<count, String?>(repeating: nil)

    public init() {}

    public subscript(name: Name) -> String? {
        get { values[name.slot] }
        set { values[name.slot] = newValue }
    }

    public subscript(name: String) -> String? {
        get { Name(rawValue: name).flatMap { self[$0] } }
        set { if let key = Name(rawValue: name) { self[key] = newValue } }
    }
}

/// A response header field: its name as sent, and its value.
///
/// A struct rather than a `(name:, value:)` tuple: an array of tuples is destroyed through the
/// runtime's generic tuple witness, element by element, where a struct's own witness releases its
/// two strings directly (docs/http.md "Header fields as a struct").
public struct HeaderField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [HeaderField]
    public var body: [UInt8]
    /// A large body written while it is sent (chunked), instead of `body`.
    public var stream: SectionedBody?
    /// A batch's answer lines, computed while they are sent (chunked), instead of `body`.
    var batch: BatchRun?

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

    public init(status: Int, headers: [HeaderField] = [], body: [UInt8] = [], stream: SectionedBody? = nil) {
        self.init(status: status, headers: headers, body: body, stream: stream, isDeterministic: false)
    }

    init(status: Int, headers: [HeaderField], body: [UInt8], stream: SectionedBody?, isDeterministic: Bool) {
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream
        self.isDeterministic = isDeterministic
    }

    /// A problem as `application/problem+json` (RFC 9457), with its status.
    init(problem: Problem) {
        self.init(status: problem.status, headers: [HeaderField("Content-Type", "application/problem+json")], body: problem.json.bytes)
        cause = problem.detail
    }

    /// The whole body, writing a stream or a batch out (for tests and small transports).
    public func collectedBody() throws(Problem) -> [UInt8] {
        var bytes: [UInt8] = []
        _ = try writeBody { piece in
            bytes += piece
            return true
        }
        return bytes
    }

    /// The first field named `name`, compared without regard to ASCII case (RFC 9110 §5.1).
    public func header(_ name: String) -> String? {
        headers.first { ASCIICase.equal($0.name, name) }?.value
    }
}
