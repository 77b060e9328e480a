import SegueJSON
/// An RFC 9457 problem: the one error type every layer throws and the handler renders as
/// `application/problem+json`.
///
/// `pointer` is an RFC 6901 JSON Pointer into the request body whenever one part of the request
/// is at fault (API.md §1). `type` is `https://segue.dev/problems/<kind>` (API.md §6 rule 23).
public struct Problem: Error, Sendable, Equatable {
    public var status: Int
    public var kind: String
    public var detail: String
    public var pointer: String?
    /// Further members, in order (for example `state` and `allowed` of an illegal command).
    public var extensions: [JSONValue.Member]

    public init(status: Int, kind: String, detail: String, pointer: String? = nil,
                extensions: [JSONValue.Member] = []) {
        self.status = status
        self.kind = kind
        self.detail = detail
        self.pointer = pointer
        self.extensions = extensions
    }

    public static let typeBase = "https://segue.dev/problems/"

    public var title: String {
        switch status {
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        default: "Internal Server Error"
        }
    }

    /// The problem document.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("type", .string(Problem.typeBase + kind)),
            .init("title", .string(title)),
            .init("status", .number(Double(status))),
            .init("detail", .string(detail)),
        ]
        if let pointer { members.append(.init("pointer", .string(pointer))) }
        members += extensions
        return .object(members)
    }

    // MARK: Constructors for the classes of API.md §1

    /// 400: syntax, invalid UTF-8, wrong JSON type, a number that is not a finite double, nesting.
    public static func badRequest(_ kind: String, _ detail: String, at pointer: JSONPointer?) -> Problem {
        Problem(status: 400, kind: kind, detail: detail, pointer: pointer?.description)
    }

    /// A body that is not one JSON document within the limits (400, the reader's failure class).
    public init(_ error: JSONSyntaxError) {
        self.init(status: 400, kind: error.kind.rawValue, detail: error.detail, pointer: error.pointer.description)
    }

    /// A member of the wrong JSON type (400, `wrong-type`).
    public static func wrongType(at pointer: JSONPointer, expected: String, found: JSONValue) -> Problem {
        badRequest("wrong-type", "\(pointer.display) must be \(expected), not \(found.typeName)", at: pointer)
    }

    /// 422: well-formed but invalid.
    public static func invalid(_ detail: String, at pointer: JSONPointer?) -> Problem {
        Problem(status: 422, kind: "invalid-request", detail: detail, pointer: pointer?.description)
    }

    /// 413: a body over the limit, or a result over a limit (decided before any work).
    public static func tooLarge(_ detail: String, at pointer: JSONPointer? = nil) -> Problem {
        Problem(status: 413, kind: "too-large", detail: detail, pointer: pointer?.description)
    }
}
