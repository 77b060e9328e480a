import SegueJSON

/// A request body read as one JSON document within the nesting limit (docs/rules.md
/// "Conventions"): the reader's syntax failures become 400 problems with their pointer.
public enum RequestDocument {
    public static func parse(_ body: [UInt8], limits: Limits) throws(Problem) -> JSONValue {
        do throws(JSONSyntaxError) {
            return try JSONReader.parse(body, maxDepth: limits.maxDepth)
        } catch {
            throw Problem(error)
        }
    }
}
