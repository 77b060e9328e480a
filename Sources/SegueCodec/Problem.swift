import SegueJSON
/// An RFC 9457 problem: the one error type every layer throws and the handler renders as
/// `application/problem+json`.
///
/// `pointer` is an RFC 6901 JSON Pointer into the request body whenever one part of the request
/// is at fault; `type` is `https://segue.dev/problems/<kind>` (docs/rules.md "Conventions",
/// rule 23). The status comes from the kind, so a kind cannot be answered with the wrong one.
public struct Problem: Error, Sendable, Equatable {
    /// The classes of docs/rules.md "Conventions", each with its status.
    public enum Kind: String, Sendable, CaseIterable {
        // 400: the body or the query cannot be read as asked.
        case malformedJSON = "malformed-json"
        case invalidUTF8 = "invalid-utf8"
        case numberOutOfRange = "number-out-of-range"
        case nestingTooDeep = "nesting-too-deep"
        case wrongType = "wrong-type"
        case invalidQuery = "invalid-query"
        /// The HTTP message itself is unusable: a request target with a NUL or control byte,
        /// conflicting framing headers (docs/http.md "Request target").
        case badRequest = "bad-request"
        case notFound = "not-found"
        case methodNotAllowed = "method-not-allowed"
        case notAcceptable = "not-acceptable"
        /// A body over the limit, or a result over a limit (decided before any work).
        case tooLarge = "too-large"
        case unsupportedMediaType = "unsupported-media-type"
        /// Well-formed but invalid: out of range, unknown, ambiguous.
        case invalidRequest = "invalid-request"
        /// An animator command UIKit would reject in its state.
        case illegalCommand = "illegal-command"
        /// 408: a request body arrived too slowly (docs/http.md "Connections", the body deadline).
        case requestTimeout = "request-timeout"
        /// 501: a transfer coding other than `chunked` (docs/http.md "Request target").
        case notImplemented = "not-implemented"
        /// 503: the service cannot answer now — draining, every worker busy, or the request timeout
        /// passed; a retry (elsewhere) can succeed.
        case unavailable = "unavailable"

        public var status: Int {
            switch self {
            case .malformedJSON, .invalidUTF8, .numberOutOfRange, .nestingTooDeep, .wrongType, .invalidQuery, .badRequest: 400
            case .notFound: 404
            case .methodNotAllowed: 405
            case .notAcceptable: 406
            case .requestTimeout: 408
            case .tooLarge: 413
            case .unsupportedMediaType: 415
            case .invalidRequest, .illegalCommand: 422
            case .notImplemented: 501
            case .unavailable: 503
            }
        }

        public var title: String {
            switch status {
            case 400: "Bad Request"
            case 404: "Not Found"
            case 405: "Method Not Allowed"
            case 406: "Not Acceptable"
            case 408: "Request Timeout"
            case 413: "Content Too Large"
            case 415: "Unsupported Media Type"
            case 501: "Not Implemented"
            case 503: "Service Unavailable"
            default: "Unprocessable Content"
            }
        }
    }

    public var kind: Kind
    public var detail: String
    public var pointer: String?
    /// Further members, in order (for example `state` and `allowed` of an illegal command).
    public var extensions: [JSONValue.Member]

    public init(_ kind: Kind, detail: String, pointer: String? = nil, extensions: [JSONValue.Member] = []) {
        self.kind = kind
        self.detail = detail
        self.pointer = pointer
        self.extensions = extensions
    }

    public var status: Int { kind.status }
    public var title: String { kind.title }

    public static let typeBase = "https://segue.dev/problems/"

    /// The problem document.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("type", .string(Problem.typeBase + kind.rawValue)),
            .init("title", .string(title)),
            .init("status", .number(Double(status))),
            .init("detail", .string(detail)),
        ]
        if let pointer { members.append(.init("pointer", .string(pointer))) }
        members += extensions
        return .object(members)
    }

    /// A body that is not one JSON document within the limits (400, the reader's failure class).
    public init(_ error: JSONSyntaxError) {
        let kind: Kind = switch error.kind {
        case .malformedJSON: .malformedJSON
        case .invalidUTF8: .invalidUTF8
        case .numberOutOfRange: .numberOutOfRange
        case .nestingTooDeep: .nestingTooDeep
        }
        self.init(kind, detail: error.detail, pointer: error.pointer.description)
    }

    // MARK: The classes decoders throw most

    /// A member of the wrong JSON type (400, `wrong-type`).
    public static func wrongType(at pointer: JSONPointer, expected: String, found: JSONValue) -> Problem {
        Problem(.wrongType, detail: "\(pointer.display) must be \(expected), not \(found.typeName)", pointer: pointer.description)
    }

    /// 422: well-formed but invalid.
    public static func invalid(_ detail: String, at pointer: JSONPointer?) -> Problem {
        Problem(.invalidRequest, detail: detail, pointer: pointer?.description)
    }

    /// 503: work stopped because nobody waits for it any more (its deadline passed or its client
    /// left; docs/http.md "Cancellation").
    public static let cancelled = Problem(.unavailable, detail: "the work was stopped: the request timeout passed or the client left")

    /// 413: a body over the limit, or a result over a limit (decided before any work).
    public static func tooLarge(_ detail: String, at pointer: JSONPointer? = nil) -> Problem {
        Problem(.tooLarge, detail: detail, pointer: pointer?.description)
    }
}
