import SegueJSON

/// The bytes of a batch's answer lines (rule 36, docs/batch.md "Answers"), each one JSON object
/// and a `\n`:
///
///     {"line":n,"id":…,"status":200,"etag":"…","body":<the JSON body>}          json, waapi, lottie
///     {"line":n,"id":…,"status":200,"etag":"…","text":"<the body, escaped>"}    csv, svg, css
///     {"line":n,"id":…,"status":s,"problem":{…}}                               any failure
///
/// A body is written as it comes, in pieces (a large render streams), so an answer line is
/// opened, filled and closed in three steps.
public enum BatchAnswerText {
    /// `{"line":n,"id":…,"status":s,"etag":"…","body":` — or, for a text body, `…,"text":"`.
    public static func opening(line: Int, id: String?, status: Int, etag: String?, text: Bool, into w: inout TextWriter) {
        head(line: line, id: id, status: status, into: &w)
        if let etag {
            w.key("etag")
            w.string(etag)
        }
        w.key(text ? "text" : "body")
        if text { w.byte(0x22) }
    }

    /// A piece of a text body, escaped as a JSON string's contents (a piece may end inside a UTF-8
    /// sequence: only ASCII bytes are ever escaped, so the pieces join to the escaped whole).
    public static func textPiece(_ piece: UnsafeBufferPointer<UInt8>, into w: inout TextWriter) {
        let start = w.bytes.count
        w.string(utf8: piece)
        // The literal's quotes: the opening one is the member's, the closing one comes last.
        w.bytes.removeLast()
        w.bytes.remove(at: start)
    }

    /// Ends the answer line that `opening` began.
    public static func closing(text: Bool, into w: inout TextWriter) {
        if text { w.byte(0x22) }
        w.raw("}\n")
    }

    /// A failed line's answer: `problem` is the single request's problem document, its pointer
    /// made relative to the line (`relocated`).
    public static func problem(line: Int, id: String?, problem: JSONValue, into w: inout TextWriter) {
        head(line: line, id: id, status: status(of: problem), into: &w)
        w.key("problem")
        w.value(problem)
        w.raw("}\n")
    }

    /// A single request's problem as the line's: a pointer into the body gets `/body` in front,
    /// and a problem with the query's `format` or `tolerance` (named by its `parameter`, or the
    /// 406 of an unknown format) points at that member of the line.
    public static func relocated(_ problem: JSONValue) -> JSONValue {
        guard case .object(var members) = problem else { return problem }
        if let index = members.firstIndex(where: { $0.key == "pointer" }), case .string(let pointer) = members[index].value {
            members[index].value = .string("/body" + pointer)
            return .object(members)
        }
        var parameter: String?
        if case .string(let name)? = members.first(where: { $0.key == "parameter" })?.value { parameter = name }
        if case .number(406)? = members.first(where: { $0.key == "status" })?.value { parameter = "format" }
        guard let parameter, let detail = members.firstIndex(where: { $0.key == "detail" }) else { return problem }
        members.insert(.init("pointer", .string("/" + parameter)), at: detail + 1)
        return .object(members)
    }

    /// A problem document's `status` (500 when it has none).
    public static func status(of problem: JSONValue) -> Int {
        guard case .object(let members) = problem, case .number(let status)? = members.first(where: { $0.key == "status" })?.value
        else { return 500 }
        return Int(status)
    }

    private static func head(line: Int, id: String?, status: Int, into w: inout TextWriter) {
        w.byte(0x7B)
        w.key("line", first: true)
        w.integer(Int64(line))
        if let id {
            w.key("id")
            w.string(id)
        }
        w.key("status")
        w.integer(Int64(status))
    }
}
