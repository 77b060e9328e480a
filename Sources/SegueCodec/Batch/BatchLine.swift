import SegueJSON

/// One batch line's members (rule 36): `{"path", "body", "format"?, "tolerance"?, "id"?}`, read
/// strictly (unknown members, wrong types and an unknown path are the line's problem), with the
/// `body` and `tolerance` kept as the bytes they were written as: the line is answered exactly as
/// `POST <path>?format=<format>&tolerance=<tolerance>` with those bytes as its body would be,
/// down to the entity tag (docs/batch.md "A line is a request").
public struct BatchLine: Sendable {
    /// The routes a line may name.
    public enum Route: String, Sendable, CaseIterable {
        case curve = "/v1/curve"
        case render = "/v1/render"
    }

    public var route: Route
    /// The query's `format`, as given.
    public var format: String?
    /// The query's `tolerance`: the number's text as the line writes it.
    public var tolerance: String?
    /// Echoed in the answer; at most `maxIDLength` characters.
    public var id: String?
    /// The body's bytes.
    public var body: [UInt8]

    /// The members a line may have.
    static let members = ["path", "body", "format", "tolerance", "id"]

    /// Longest `id`, in characters.
    public static let maxIDLength = 200

    /// A line that cannot be read: its problem (pointers relative to the line's object) and the
    /// `id` when that much could be read, for the answer to echo.
    public struct Failure: Error, Sendable {
        public var problem: Problem
        public var id: String?
    }

    /// Reads a line. Its nesting may go one level deeper than a request's, the line's own object.
    public init(_ line: [UInt8], limits: Limits) throws(Failure) {
        let value: JSONValue
        do throws(JSONSyntaxError) {
            value = try JSONReader.parse(line, maxDepth: limits.maxDepth + 1)
        } catch {
            // The line's own object is one level: a body too deep is refused under the request's limit.
            var refusal = error
            if refusal.kind == .nestingTooDeep { refusal.detail = JSONSyntaxError.nestingDetail(limit: limits.maxDepth) }
            throw Failure(problem: Problem(refusal), id: nil)
        }
        var id: String?
        do throws(Problem) {
            var object = try ObjectReader(value, at: .root)
            id = try Self.id(&object)
            let spans = JSONMemberSpans.members(of: line)
            func text(_ key: String) -> [UInt8]? { spans.first { $0.key == key }.map { Array(line[$0.value]) } }
            let path = try object.string("path")
            guard let path, let route = Route(rawValue: path) else {
                throw Problem.invalid("`path` is one of " + Route.allCases.map(\.rawValue).joined(separator: ", ")
                                          + (path.map { ", not `\($0.prefix(100))`" } ?? "; it is required"), at: .root / "path")
            }
            format = try object.string("format")
            tolerance = try object.number("tolerance").flatMap { _ in text("tolerance").map { String(decoding: $0, as: UTF8.self) } }
            guard object.value("body") != nil, let body = text("body") else {
                throw Problem.invalid("`body` is required: the request the line makes", at: .root / "body")
            }
            // As in every request object, a member given as null counts as absent.
            if let unknown = object.keys.first(where: { !Self.members.contains($0) && object.has($0) }) {
                throw Problem.invalid("unknown member `\(unknown.prefix(100))`: a line has "
                                          + Self.members.joined(separator: ", "), at: .root / unknown)
            }
            self.route = route
            self.id = id
            self.body = body
        } catch {
            throw Failure(problem: error, id: id)
        }
    }

    private static func id(_ object: inout ObjectReader) throws(Problem) -> String? {
        guard let id = try object.string("id") else { return nil }
        guard id.count <= maxIDLength else {
            throw Problem.invalid("`id` is a string of at most \(maxIDLength) characters, not \(id.count)", at: .root / "id")
        }
        return id
    }
}
