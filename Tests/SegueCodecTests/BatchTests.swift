import Foundation
import SegueEngine
import SegueJSON
import SegueTestSupport
import XCTest
@testable import SegueCodec

/// A batch's pieces in the codec (rules 36–37, docs/batch.md): `BatchBody` splits the NDJSON body
/// into lines, `BatchLine` reads one line's members (keeping `body` and `tolerance` as written),
/// and `BatchAnswerText` writes the answer lines.
final class BatchTests: XCTestCase {
    // MARK: BatchBody

    private func lines(_ text: String, limits: Limits = Limits()) throws -> [String] {
        let body = try BatchBody(Array(text.utf8), limits: limits)
        return body.lines.indices.map { String(decoding: body.line($0), as: UTF8.self) }
    }

    func testLinesEndWithLineFeedOrCarriageReturnLineFeed() throws {
        XCTAssertEqual(try lines("{\"a\":1}\n{\"b\":2}\r\n{\"c\":3}"), ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
        XCTAssertEqual(try lines("{\"a\":1}\r\n{\"b\":2}\r\n"), ["{\"a\":1}", "{\"b\":2}"])
        XCTAssertEqual(try lines("{\"a\":1}\n"), ["{\"a\":1}"])
        // A last line without its line end, ending in a lone CR.
        XCTAssertEqual(try lines("{\"a\":1}\n{\"b\":2}\r"), ["{\"a\":1}", "{\"b\":2}"])
        // A CR inside a line is the line's (only a CR right before the LF is the line end's).
        XCTAssertEqual(try lines("{\"a\":\r1}\r\n"), ["{\"a\":\r1}"])
    }

    func testEmptyAndWhitespaceOnlyLinesAreSkippedAndNotCounted() throws {
        let text = "\n\n  \t\n{\"a\":1}\n\r\n \r\n\t\t\n\r\r\n  {\"b\":2}  \n\n"
        let body = try BatchBody(Array(text.utf8), limits: Limits())
        XCTAssertEqual(body.lines.count, 2)
        // The ranges point into the body; a line keeps its own spaces.
        XCTAssertEqual(String(decoding: body.bytes[body.lines[0]], as: UTF8.self), "{\"a\":1}")
        XCTAssertEqual(String(decoding: body.line(1), as: UTF8.self), "  {\"b\":2}  ")
        XCTAssertEqual(body.lines[0], 6..<13)
        XCTAssertEqual(try lines(""), [])
        XCTAssertEqual(try lines("\n\r\n \t \n"), [])
        // Anything but a space, a tab or a CR makes a line non-empty, even if it is not JSON.
        XCTAssertEqual(try lines("\n x\n\u{0B}\n"), [" x", "\u{0B}"])
    }

    func testLineNumbersCountOnlyNonEmptyLines() throws {
        // Non-empty input lines are numbered from 1 in order: line n of the answer is lines[n - 1].
        var text = ""
        var expected: [String] = []
        var rng = SplitMix64(seed: 0xBA7C_0001)
        for n in 1...60 {
            for _ in 0..<Int(rng.next() % 3) { text += ["\n", "\r\n", "  \n", "\t\r\n"][Int(rng.next() % 4)] }
            let line = "{\"n\":\(n)}"
            expected.append(line)
            text += line + (rng.next() % 2 == 0 ? "\n" : "\r\n")
        }
        XCTAssertEqual(try lines(text), expected)
    }

    func testMoreLinesThanTheLimitIs413NamingTheLimit() throws {
        var limits = Limits()
        limits.maxBatchLines = 3
        XCTAssertEqual(try lines("{}\n{}\n\n\n  \n{}\n\r\n", limits: limits).count, 3)
        do throws(Problem) {
            _ = try BatchBody(Array("{}\n{}\n\n{}\n{}\n".utf8), limits: limits)
            XCTFail("4 lines over a limit of 3")
        } catch {
            XCTAssertEqual(error.status, 413)
            XCTAssertEqual(error.kind, .tooLarge)
            XCTAssertTrue(error.detail.contains("3"), error.detail)
            XCTAssertTrue(error.detail.contains("limit"), error.detail)
        }
        XCTAssertEqual(Limits().maxBatchLines, 10_000)
        XCTAssertEqual(Limits().maxBatchBodyBytes, 16 << 20)
        XCTAssertEqual(Limits().batchWork, 100 * Double(Limits().maxWork))
        var configured = Limits()
        configured.maxBatchWork = 12345
        XCTAssertEqual(configured.batchWork, 12345)
    }

    // MARK: BatchLine

    private func line(_ text: String, limits: Limits = Limits()) throws(BatchLine.Failure) -> BatchLine {
        try BatchLine(Array(text.utf8), limits: limits)
    }

    /// The failure of a line that must not read.
    private func failure(_ text: String, limits: Limits = Limits(), file: StaticString = #filePath,
                         line number: UInt = #line) -> BatchLine.Failure? {
        do throws(BatchLine.Failure) {
            _ = try line(text, limits: limits)
            XCTFail("read: \(text)", file: file, line: number)
            return nil
        } catch {
            return error
        }
    }

    func testEveryMemberIsRead() throws {
        let read = try line(#"{"path":"/v1/render","body":{"fps": 30 ,"views":{}},"format":"css","tolerance":1e-2,"id":"card \"x\""}"#)
        XCTAssertEqual(read.route, .render)
        XCTAssertEqual(read.format, "css")
        XCTAssertEqual(read.tolerance, "1e-2")
        XCTAssertEqual(read.id, "card \"x\"")
        XCTAssertEqual(String(decoding: read.body, as: UTF8.self), #"{"fps": 30 ,"views":{}}"#)

        let curve = try line(#"{"path":"/v1/curve","body":{"timing":"ease"}}"#)
        XCTAssertEqual(curve.route, .curve)
        XCTAssertNil(curve.format)
        XCTAssertNil(curve.tolerance)
        XCTAssertNil(curve.id)
        XCTAssertEqual(String(decoding: curve.body, as: UTF8.self), #"{"timing":"ease"}"#)
        XCTAssertEqual(BatchLine.Route.allCases.map(\.rawValue), ["/v1/curve", "/v1/render"])
    }

    /// `body` and `tolerance` are the bytes as written: whitespace, member order, number spelling
    /// and escapes all survive, in any member order and with escaped member names.
    func testBodyAndToleranceAreKeptAsWritten() throws {
        let text = " { \"tolerance\" :\t0.0010 , \"b\\u006fdy\" :  { \"timing\" : \"ease\" ,\n \"samples\":1.0E1, \"x\":\"\\u00e9\\\"}\" } ,"
            + " \"path\" : \"\\/v1\\/curve\" } "
        let read = try line(text)
        XCTAssertEqual(read.route, .curve)
        XCTAssertEqual(read.tolerance, "0.0010")
        XCTAssertEqual(String(decoding: read.body, as: UTF8.self), "{ \"timing\" : \"ease\" ,\n \"samples\":1.0E1, \"x\":\"\\u00e9\\\"}\" }")
        for tolerance in ["1e-3", "0.05", "1E-2", "5e-4", "-1", "100", "0.000001"] {
            XCTAssertEqual(try line(#"{"path":"/v1/curve","body":{},"tolerance":\#(tolerance)}"#).tolerance, tolerance)
        }
        // A body of any JSON type is the single request's to judge.
        for body in ["[1, 2]", "\"text\"", "12", "true", "{}"] {
            XCTAssertEqual(try line(#"{"path":"/v1/curve","body":\#(body)}"#).body, Array(body.utf8), body)
        }
    }

    /// A line may nest one level deeper than a request: its own object holds the body.
    func testTheBodyMayNestAsDeepAsARequest() throws {
        var limits = Limits()
        limits.maxDepth = 3
        XCTAssertEqual(try line(#"{"path":"/v1/curve","body":[[[1]]]}"#, limits: limits).body, Array("[[[1]]]".utf8))
        let deeper = failure(#"{"path":"/v1/curve","body":[[[[1]]]]}"#, limits: limits)
        XCTAssertEqual(deeper?.problem.kind, .nestingTooDeep)
    }

    func testMissingPathOrBodyIs422WithItsPointer() {
        let noPath = failure(#"{"body":{"timing":"ease"},"id":"a"}"#)
        XCTAssertEqual(noPath?.problem.status, 422)
        XCTAssertEqual(noPath?.problem.pointer, "/path")
        XCTAssertEqual(noPath?.id, "a")
        XCTAssertTrue(noPath?.problem.detail.contains("/v1/curve") == true, noPath?.problem.detail ?? "")

        let noBody = failure(#"{"path":"/v1/curve","id":"b"}"#)
        XCTAssertEqual(noBody?.problem.status, 422)
        XCTAssertEqual(noBody?.problem.pointer, "/body")
        XCTAssertEqual(noBody?.id, "b")

        let nullBody = failure(#"{"path":"/v1/render","body":null}"#)
        XCTAssertEqual(nullBody?.problem.status, 422)
        XCTAssertEqual(nullBody?.problem.pointer, "/body")
        XCTAssertNil(nullBody?.id)
    }

    func testUnknownPathIs422AtPath() {
        for path in ["/v1/tokens", "/v1/batch", "/v1/curve/", "v1/curve", "/V1/CURVE", "", "/healthz"] {
            let failed = failure(#"{"path":"\#(path)","body":{},"id":"p"}"#)
            XCTAssertEqual(failed?.problem.status, 422, path)
            XCTAssertEqual(failed?.problem.kind, .invalidRequest, path)
            XCTAssertEqual(failed?.problem.pointer, "/path", path)
            XCTAssertEqual(failed?.id, "p", path)
            let detail = failed?.problem.detail ?? ""
            XCTAssertTrue(detail.contains("/v1/curve") && detail.contains("/v1/render"), detail)
        }
    }

    func testUnknownMemberIs422ListingTheMembers() {
        let failed = failure(#"{"path":"/v1/curve","body":{},"id":"u","query":{"format":"css"}}"#)
        XCTAssertEqual(failed?.problem.status, 422)
        XCTAssertEqual(failed?.problem.pointer, "/query")
        XCTAssertEqual(failed?.id, "u")
        let detail = failed?.problem.detail ?? ""
        XCTAssertTrue(detail.contains("query"), detail)
        for member in ["path", "body", "format", "tolerance", "id"] {
            XCTAssertTrue(detail.contains(member), "\(member) in \(detail)")
        }
        // A name with `/` and `~` in it is escaped in the pointer (RFC 6901).
        XCTAssertEqual(failure(#"{"path":"/v1/curve","body":{},"a/b~c":1}"#)?.problem.pointer, "/a~1b~0c")
        // A member given as null counts as absent, as in every request object.
        XCTAssertEqual(try line(#"{"path":"/v1/curve","body":{},"extra":null}"#).route, .curve)
    }

    func testWrongTypesAre400AtTheMember() {
        let cases: [(String, String)] = [
            (#"{"path":1,"body":{}}"#, "/path"),
            (#"{"path":["/v1/curve"],"body":{}}"#, "/path"),
            (#"{"path":"/v1/curve","body":{},"format":2}"#, "/format"),
            (#"{"path":"/v1/curve","body":{},"format":["css"]}"#, "/format"),
            (#"{"path":"/v1/curve","body":{},"tolerance":"0.01"}"#, "/tolerance"),
            (#"{"path":"/v1/curve","body":{},"tolerance":true}"#, "/tolerance"),
            (#"{"path":"/v1/curve","body":{},"id":7}"#, "/id"),
            (#"{"path":"/v1/curve","body":{},"id":{"a":"b"}}"#, "/id"),
        ]
        for (text, pointer) in cases {
            let failed = failure(text)
            XCTAssertEqual(failed?.problem.status, 400, text)
            XCTAssertEqual(failed?.problem.kind, .wrongType, text)
            XCTAssertEqual(failed?.problem.pointer, pointer, text)
        }
    }

    func testIDIsAtMost200Characters() throws {
        let longest = String(repeating: "x", count: 200)
        XCTAssertEqual(try line(#"{"path":"/v1/curve","body":{},"id":"\#(longest)"}"#).id, longest)
        // Characters, not bytes: 200 two-byte characters are 400 bytes and still fit.
        let accented = String(repeating: "é", count: 200)
        XCTAssertEqual(try line(#"{"path":"/v1/curve","body":{},"id":"\#(accented)"}"#).id, accented)

        let tooLong = failure(#"{"path":"/v1/curve","body":{},"id":"\#(longest)y"}"#)
        XCTAssertEqual(tooLong?.problem.status, 422)
        XCTAssertEqual(tooLong?.problem.pointer, "/id")
        XCTAssertTrue(tooLong?.problem.detail.contains("200") == true, tooLong?.problem.detail ?? "")
        // An id that cannot be read is not echoed.
        XCTAssertNil(tooLong?.id)
        // An empty id is an id.
        XCTAssertEqual(try line(#"{"path":"/v1/curve","body":{},"id":""}"#).id, "")
        // Escapes are decoded: the id is echoed as given, i.e. as the string it denotes.
        XCTAssertEqual(try line(#"{"path":"/v1/curve","body":{},"id":"a\u0062\"\n"}"#).id, "ab\"\n")
    }

    func testIDIsEchoedInFailuresWhenItCanBeRead() {
        XCTAssertEqual(failure(#"{"id":"k","path":"/v1/nope","body":{}}"#)?.id, "k")
        XCTAssertEqual(failure(#"{"path":"/v1/nope","body":{},"id":"k"}"#)?.id, "k")
        XCTAssertEqual(failure(#"{"path":"/v1/curve","id":"k"}"#)?.id, "k")
        XCTAssertEqual(failure(#"{"path":"/v1/curve","body":{},"format":1,"id":"k"}"#)?.id, "k")
        XCTAssertEqual(failure(#"{"path":"/v1/curve","body":{},"extra":1,"id":"k"}"#)?.id, "k")
        XCTAssertNil(failure(#"{"path":"/v1/nope","body":{},"id":5}"#)?.id)
    }

    func testALineThatIsNotJSONOrNotAnObjectIs400() {
        for text in [#"{"path":"/v1/curve","body":"#, "not json", #"{"path":"/v1/curve","body":{}}}"#,
                     #"{"path":"/v1/curve","body":{},"id":"x",}"#, #"{"path":"/v1/curve","path":"/v1/render","body":{}}"#] {
            let failed = failure(text)
            XCTAssertEqual(failed?.problem.status, 400, text)
            XCTAssertEqual(failed?.problem.kind, .malformedJSON, text)
            XCTAssertNil(failed?.id, text)
        }
        for text in ["[1, 2]", "\"text\"", "12", "null"] {
            let failed = failure(text)
            XCTAssertEqual(failed?.problem.status, 400, text)
            XCTAssertEqual(failed?.problem.kind, .wrongType, text)
            XCTAssertEqual(failed?.problem.pointer, "", text)
        }
        let badUTF8 = failure(bytes: Array(#"{"path":"/v1/curve","body":{"x":""#.utf8) + [0xC3, 0x28] + Array(#""}}"#.utf8))
        XCTAssertEqual(badUTF8?.problem.kind, .invalidUTF8)
        XCTAssertEqual(badUTF8?.problem.status, 400)
    }

    private func failure(bytes: [UInt8]) -> BatchLine.Failure? {
        do throws(BatchLine.Failure) {
            _ = try BatchLine(bytes, limits: Limits())
            XCTFail("read")
            return nil
        } catch {
            return error
        }
    }

    // MARK: BatchAnswerText

    private func text(_ write: (inout TextWriter) -> Void) -> String {
        var writer = TextWriter()
        write(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func testAJSONAnswerLineWrapsTheBody() throws {
        let written = text { w in
            BatchAnswerText.opening(line: 1, id: nil, status: 200, etag: "\"3f2a\"", text: false, into: &w)
            w.raw(#"{"a":[1,2]}"#)
            BatchAnswerText.closing(text: false, into: &w)
        }
        XCTAssertEqual(written, #"{"line":1,"status":200,"etag":"\"3f2a\"","body":{"a":[1,2]}}"# + "\n")

        let withID = text { w in
            BatchAnswerText.opening(line: 12, id: "card \"1\" \\ é", status: 200, etag: "\"e\"", text: false, into: &w)
            w.raw("[]")
            BatchAnswerText.closing(text: false, into: &w)
        }
        XCTAssertEqual(withID, #"{"line":12,"id":"card \"1\" \\ é","status":200,"etag":"\"e\"","body":[]}"# + "\n")
        let parsed = try JSONReader.parse(Array(withID.utf8.dropLast()), maxDepth: 8)
        XCTAssertEqual(parsed, .object([.init("line", .number(12)), .init("id", .string("card \"1\" \\ é")),
                                        .init("status", .number(200)), .init("etag", .string("\"e\"")), .init("body", .array([]))]))

        let noTag = text { w in
            BatchAnswerText.opening(line: 3, id: "", status: 200, etag: nil, text: false, into: &w)
            w.raw("1")
            BatchAnswerText.closing(text: false, into: &w)
        }
        XCTAssertEqual(noTag, #"{"line":3,"id":"","status":200,"body":1}"# + "\n")
    }

    func testATextAnswerLineHoldsTheBodyAsAString() throws {
        let body = "time,value\n0,\"a\"\t\\\n"
        let written = text { w in
            BatchAnswerText.opening(line: 2, id: "x", status: 200, etag: "\"9\"", text: true, into: &w)
            Array(body.utf8).withUnsafeBufferPointer { BatchAnswerText.textPiece($0, into: &w) }
            BatchAnswerText.closing(text: true, into: &w)
        }
        XCTAssertEqual(written, #"{"line":2,"id":"x","status":200,"etag":"\"9\"","text":"time,value\n0,\"a\"\t\\\n"}"# + "\n")
        XCTAssertTrue(written.hasSuffix("\"}\n"))
        let parsed = try JSONReader.parse(Array(written.utf8.dropLast()), maxDepth: 8)
        guard case .object(let members) = parsed else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["line", "id", "status", "etag", "text"])
        XCTAssertEqual(members.last?.value, .string(body))
        // An empty text body.
        XCTAssertEqual(text { w in
            BatchAnswerText.opening(line: 1, id: nil, status: 200, etag: nil, text: true, into: &w)
            BatchAnswerText.closing(text: true, into: &w)
        }, #"{"line":1,"status":200,"text":""}"# + "\n")
    }

    func testAProblemAnswerLine() throws {
        let problem = Problem.invalid("`timing` is required", at: .root / "timing").json
        let written = text { w in BatchAnswerText.problem(line: 4, id: "q", problem: problem, into: &w) }
        XCTAssertEqual(written, #"{"line":4,"id":"q","status":422,"problem":"# + String(decoding: problem.bytes, as: UTF8.self) + "}\n")
        XCTAssertEqual(BatchAnswerText.status(of: problem), 422)
        XCTAssertEqual(BatchAnswerText.status(of: Problem.tooLarge("big").json), 413)
        XCTAssertEqual(BatchAnswerText.status(of: .object([.init("title", .string("x"))])), 500)
        XCTAssertEqual(BatchAnswerText.status(of: .string("x")), 500)
        let noStatus = text { w in BatchAnswerText.problem(line: 1, id: nil, problem: .object([]), into: &w) }
        XCTAssertEqual(noStatus, #"{"line":1,"status":500,"problem":{}}"# + "\n")
    }

    /// Text pieces split anywhere — inside a multi-byte character, between a backslash and what
    /// follows, next to quotes and control characters — join to exactly the writer's escaped string.
    func testTextPiecesSplitAnywhereJoinToTheEscapedWhole() throws {
        var rng = SplitMix64(seed: 0xBA7C_7E47)
        let alphabet: [String] = ["a", "Z", "9", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{00}", "\u{01}", "\u{08}", "\u{0C}",
                                  "\u{1F}", "\u{7F}", "é", "€", "😀", "\u{2028}", "\u{2029}", "\u{FEFF}", "<", "&", "'", "}", "]"]
        var splitsInsideCharacters = 0
        for round in 0..<2000 {
            let count = Int(rng.next() % 40)
            let string = (0..<count).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            let bytes = Array(string.utf8)
            var whole = TextWriter()
            whole.string(string)
            let escaped = Array(whole.bytes.dropFirst().dropLast())

            // Random cut points, sorted, duplicates allowed (empty pieces).
            var cuts = (0..<Int(rng.next() % 8)).map { _ in bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count + 1)) }
            cuts.sort()
            let bounds = [0] + cuts + [bytes.count]
            var writer = TextWriter()
            for (start, end) in zip(bounds, bounds.dropFirst()) {
                if start < bytes.count, start > 0, bytes[start] & 0xC0 == 0x80 { splitsInsideCharacters += 1 }
                Array(bytes[start..<end]).withUnsafeBufferPointer { BatchAnswerText.textPiece($0, into: &writer) }
            }
            XCTAssertEqual(writer.bytes, escaped, "round \(round): \(string.debugDescription) cut at \(cuts)")

            // Wrapped in an answer line, the text reads back as the string.
            var line = TextWriter()
            BatchAnswerText.opening(line: round + 1, id: nil, status: 200, etag: "\"t\"", text: true, into: &line)
            line.bytes += writer.bytes
            BatchAnswerText.closing(text: true, into: &line)
            XCTAssertEqual(line.bytes.last, 0x0A)
            guard case .object(let members)? = try? JSONReader.parse(Array(line.bytes.dropLast()), maxDepth: 4) else {
                XCTFail("round \(round): the answer line is not JSON: \(String(decoding: line.bytes, as: UTF8.self))")
                continue
            }
            XCTAssertEqual(members.last?.key, "text")
            XCTAssertEqual(members.last?.value, .string(string), "round \(round)")
        }
        XCTAssertGreaterThan(splitsInsideCharacters, 100)
    }

    /// Every single cut position of a string full of multi-byte characters and escapes.
    func testEveryCutOfOneStringJoinsToTheEscapedWhole() {
        let string = "é\"😀\\\u{1F}€\n\u{2028}x"
        let bytes = Array(string.utf8)
        var whole = TextWriter()
        whole.string(string)
        let escaped = Array(whole.bytes.dropFirst().dropLast())
        for cut in 0...bytes.count {
            for second in cut...bytes.count {
                var writer = TextWriter()
                for range in [0..<cut, cut..<second, second..<bytes.count] {
                    Array(bytes[range]).withUnsafeBufferPointer { BatchAnswerText.textPiece($0, into: &writer) }
                }
                XCTAssertEqual(writer.bytes, escaped, "cut at \(cut) and \(second)")
            }
        }
    }

    func testRelocatedPrefixesBodyToAPointer() {
        func relocated(_ problem: Problem) -> JSONValue { BatchAnswerText.relocated(problem.json) }
        func pointer(_ value: JSONValue) -> String? {
            guard case .object(let members) = value, case .string(let pointer)? = members.first(where: { $0.key == "pointer" })?.value
            else { return nil }
            return pointer
        }
        XCTAssertEqual(pointer(relocated(.invalid("x", at: .root / "timing" / "dampingRatio"))), "/body/timing/dampingRatio")
        XCTAssertEqual(pointer(relocated(.invalid("x", at: .root / "animations" / 0 / "to"))), "/body/animations/0/to")
        XCTAssertEqual(pointer(relocated(.invalid("x", at: .root / "a/b"))), "/body/a~1b")
        XCTAssertEqual(pointer(relocated(.wrongType(at: .root, expected: "an object", found: .array([])))), "/body")
        // The rest of the problem is unchanged, in order.
        let problem = Problem(.illegalCommand, detail: "d", pointer: "/commands/1",
                              extensions: [.init("state", .string("active")), .init("allowed", .array([.string("stop")]))])
        guard case .object(let original) = problem.json, case .object(let moved) = BatchAnswerText.relocated(problem.json) else {
            return XCTFail("not objects")
        }
        XCTAssertEqual(moved.map(\.key), original.map(\.key))
        for (a, b) in zip(original, moved) where a.key != "pointer" { XCTAssertEqual(a, b) }
        XCTAssertEqual(moved.first { $0.key == "pointer" }?.value, .string("/body/commands/1"))
    }

    func testRelocatedPointsAParameterProblemAtTheLinesMember() {
        let tolerance = Problem(.invalidRequest, detail: "`tolerance` is a number", extensions: [.init("parameter", .string("tolerance"))])
        guard case .object(let members) = BatchAnswerText.relocated(tolerance.json) else { return XCTFail("not an object") }
        XCTAssertEqual(members.map(\.key), ["type", "title", "status", "detail", "pointer", "parameter"])
        XCTAssertEqual(members.first { $0.key == "pointer" }?.value, .string("/tolerance"))
        XCTAssertEqual(members.first { $0.key == "parameter" }?.value, .string("tolerance"))

        let format = Problem(.notAcceptable, detail: "format `gif` is not available here")
        guard case .object(let formatMembers) = BatchAnswerText.relocated(format.json) else { return XCTFail("not an object") }
        XCTAssertEqual(formatMembers.map(\.key), ["type", "title", "status", "detail", "pointer"])
        XCTAssertEqual(formatMembers.first { $0.key == "pointer" }?.value, .string("/format"))
        XCTAssertEqual(formatMembers.first { $0.key == "status" }?.value, .number(406))

        // No pointer, no parameter: unchanged (e.g. a 413 over a result limit).
        let tooLarge = Problem.tooLarge("too many frames")
        XCTAssertEqual(BatchAnswerText.relocated(tooLarge.json), tooLarge.json)
        XCTAssertEqual(BatchAnswerText.relocated(.string("x")), .string("x"))
    }
}

/// A batch's plan weighs a render's `values` tracks without building them (rule 37).
final class RenderPlanTests: XCTestCase {
    func testAPlanWeighsValuesTracksAsTheirBuildWouldCount() throws {
        let values = (0..<50).map { i in "[\(i), \(i * 2), \(i % 7)]" }.joined(separator: ", ")
        let body = try JSONReader.parse(Array("""
            {"at": [0, 1], "views": {"v": {"w": [0, 0, 0]}},
             "animations": [{"view": "v", "duration": 1, "channel": "w", "calculationMode": "cubicPaced", "values": [\(values)]}]}
            """.utf8), maxDepth: 64)
        let planned = try RenderRequest.plannedWork(body, limits: Limits())
        XCTAssertEqual(planned, SceneCost.keyframeTrackBuild(values: 50, width: 3, mode: .cubicPaced))
        // The request itself counts the same build, then its frames.
        let decoded = try RenderRequest.decode(body, limits: Limits())
        XCTAssertGreaterThan(decoded.work, planned)
        XCTAssertEqual(decoded.scene.end, 1)
    }

    func testAPlanRefusesWhatTheRequestRefuses() {
        let body = JSONValue.object([.init("views", .object([]))])
        XCTAssertThrowsError(try RenderRequest.plannedWork(.object([.init("views", .string("x"))]), limits: Limits()))
        XCTAssertEqual(try? RenderRequest.plannedWork(body, limits: Limits()), 0)
    }
}
