import Foundation
import SegueCodec
import SegueJSON
import XCTest
@testable import SegueHTTP

/// `POST /v1/batch` through the router, no socket (rules 36–38, docs/batch.md): each answer line
/// is exactly the single request's answer, wrapped; the batch's own refusals come before any line
/// is computed; each line is counted by its path.
final class BatchRouteTests: XCTestCase {
    static let springCurve = #"{"timing": {"type": "spring", "dampingRatio": 0.5}, "duration": 0.8, "samples": 30}"#
    static let bezierCurve = #"{"timing":{"type":"cubicBezier","p1":[0.25,0.1],"p2":[0.25,1]},"samples":61}"#
    static let render = """
    {"fps": 30, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 0}}, \
    "animations": [{"id": "present", "view": "card", "duration": 0.8, \
    "timing": {"type": "spring", "dampingRatio": 0.6}, "to": {"frame": [0, 0, 320, 568], "alpha": 1}}]}
    """
    static let preset = #"{"fps": 30, "transition": {"preset": "slideDismiss", "container": [0, 0, 320, 568]}}"#
    /// 20,001 frames: a body of about 850 KB, which streams.
    static let largeRender = """
    {"fps": 1000, "until": 20, "views": {"card": {"frame": [0, 568, 320, 568], "alpha": 1}}, \
    "animations": [{"id": "present", "view": "card", "duration": 0.8, \
    "timing": {"type": "spring", "dampingRatio": 0.6}, "to": {"frame": [0, 0, 320, 568]}}]}
    """

    /// A service without a response cache, so that every line and every single request is computed.
    static func service(_ configure: (inout ServiceConfiguration) -> Void = { _ in }) -> SegueService {
        var configuration = ServiceConfiguration()
        configuration.cacheEntries = 0
        configuration.logSink = { _ in }
        configure(&configuration)
        return SegueService(configuration: configuration)
    }

    func batch(_ service: SegueService, _ body: String, contentType: String? = "application/x-ndjson",
               headers: [String: String] = [:], query: [String: String] = [:]) -> HTTPResponse {
        var fields = headers
        if let contentType { fields["content-type"] = contentType }
        return service.respond(to: HTTPRequest(method: "POST", path: "/v1/batch", query: query, headers: fields,
                                               body: Array(body.utf8)))
    }

    /// The single request a line makes: `POST <path>?format=…&tolerance=…` with its body.
    func single(_ service: SegueService, _ path: String, _ body: String, format: String?, tolerance: String?) -> HTTPResponse {
        var query: [String: String] = [:]
        query["format"] = format
        query["tolerance"] = tolerance
        return service.respond(to: HTTPRequest(method: "POST", path: path, query: query,
                                               headers: ["content-type": "application/json"], body: Array(body.utf8)))
    }

    /// A JSON string literal (for the expected bytes of an answer line).
    static func literal(_ text: String) -> String {
        var writer = TextWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The answer's lines, each with its line end; fails unless every line ends in `\n`.
    func answerLines(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> [[UInt8]] {
        XCTAssertEqual(bytes.last, 0x0A, "the answer ends with a line end", file: file, line: line)
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { Array($0) + [0x0A] }
    }

    func object(_ line: [UInt8], file: StaticString = #filePath, line number: UInt = #line) -> [JSONValue.Member] {
        guard case .object(let members)? = try? JSONReader.parse(Array(line.dropLast()), maxDepth: 200) else {
            XCTFail("not a JSON object: \(String(decoding: line.prefix(300), as: UTF8.self))", file: file, line: number)
            return []
        }
        return members
    }

    /// A batch line and what it asks for.
    struct Line {
        var path: String
        var body: String
        var format: String?
        var tolerance: String?
        var id: String?

        var text: String {
            var members = [#""path":"# + BatchRouteTests.literal(path), #""body":"# + body]
            if let format { members.append(#""format":"# + BatchRouteTests.literal(format)) }
            if let tolerance { members.append(#""tolerance":"# + tolerance) }
            if let id { members.append(#""id":"# + BatchRouteTests.literal(id)) }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }

    /// The single request's problem as a line's: its pointer given, replaced or put after `detail`.
    static func problem(_ single: JSONValue, pointer: String) -> JSONValue {
        guard case .object(var members) = single else { return single }
        if let index = members.firstIndex(where: { $0.key == "pointer" }) {
            members[index].value = .string(pointer)
        } else if let detail = members.firstIndex(where: { $0.key == "detail" }) {
            members.insert(.init("pointer", .string(pointer)), at: detail + 1)
        }
        return .object(members)
    }

    /// Checks answer line `number` (from 1) against the single request `line` makes: a 200's
    /// exact bytes (the body as the single body's bytes, or its text as a JSON string) and tag, or
    /// the single request's status and problem with `pointer` (the single's pointer under `/body`
    /// unless given).
    func assertAnswer(_ answer: [UInt8], number: Int, _ line: Line, singles: SegueService, pointer: String? = nil,
                      file: StaticString = #filePath, sourceLine: UInt = #line) throws {
        let response = single(singles, line.path, line.body, format: line.format, tolerance: line.tolerance)
        let body = try response.collectedBody()
        let idPart = line.id.map { #","id":"# + Self.literal($0) } ?? ""
        let context = "line \(number) \(line.text.prefix(120))"
        let members = object(answer, file: file, line: sourceLine)
        XCTAssertEqual(members.first { $0.key == "line" }?.value, .number(Double(number)), context, file: file, line: sourceLine)
        XCTAssertEqual(members.first { $0.key == "id" }?.value, line.id.map(JSONValue.string), context, file: file, line: sourceLine)
        XCTAssertEqual(members.first { $0.key == "status" }?.value, .number(Double(response.status)), context,
                       file: file, line: sourceLine)
        if response.status == 200 {
            let etag = try XCTUnwrap(response.header("ETag"), context, file: file, line: sourceLine)
            XCTAssertEqual(members.first { $0.key == "etag" }?.value, .string(etag), context, file: file, line: sourceLine)
            let head = #"{"line":\#(number)"# + idPart + #","status":200,"etag":"# + Self.literal(etag)
            let contentType = response.header("Content-Type") ?? ""
            let expected: [UInt8]
            if contentType.hasPrefix("application/json") {
                XCTAssertEqual(members.map(\.key).last, "body", context, file: file, line: sourceLine)
                expected = Array((head + #","body":"#).utf8) + body + Array("}\n".utf8)
            } else {
                XCTAssertEqual(members.map(\.key).last, "text", context, file: file, line: sourceLine)
                XCTAssertEqual(members.last?.value, .string(String(decoding: body, as: UTF8.self)), context, file: file, line: sourceLine)
                expected = Array((head + #","text":"# + Self.literal(String(decoding: body, as: UTF8.self)) + "}\n").utf8)
            }
            XCTAssertEqual(answer.count, expected.count, context, file: file, line: sourceLine)
            XCTAssertTrue(answer == expected, "\(context): the bytes differ from the single request's", file: file, line: sourceLine)
        } else {
            let singleProblem = try JSONReader.parse(body, maxDepth: 8)
            guard case .object(let singleMembers) = singleProblem else { return XCTFail("no problem", file: file, line: sourceLine) }
            let singlePointer = singleMembers.first { $0.key == "pointer" }.flatMap { member -> String? in
                if case .string(let text) = member.value { return text }
                return nil
            }
            let want = try XCTUnwrap(pointer ?? singlePointer.map { "/body" + $0 }, "\(context): no pointer to expect",
                                     file: file, line: sourceLine)
            XCTAssertEqual(members.map(\.key), ["line"] + (line.id == nil ? [] : ["id"]) + ["status", "problem"], context,
                           file: file, line: sourceLine)
            XCTAssertEqual(members.last?.value, Self.problem(singleProblem, pointer: want), context, file: file, line: sourceLine)
            let expected = #"{"line":\#(number)"# + idPart + #","status":\#(response.status),"problem":"#
                + String(decoding: Self.problem(singleProblem, pointer: want).bytes, as: UTF8.self) + "}\n"
            XCTAssertEqual(String(decoding: answer, as: UTF8.self), expected, context, file: file, line: sourceLine)
        }
    }

    // MARK: A mixed batch

    /// Every curve and render format, a preset, ids and failures of every kind: one answer line for
    /// each non-empty input line, in order, each the single request's answer.
    func testAMixedBatchAnswersEachLineAsItsSingleRequest() throws {
        let curve = "/v1/curve", render = "/v1/render"
        // (line, the pointer its failure must carry when it is not the single's under /body)
        let lines: [(Line, String?)] = [
            (Line(path: curve, body: Self.springCurve, id: "spring"), nil),
            (Line(path: curve, body: Self.springCurve, format: "csv"), nil),
            (Line(path: curve, body: Self.bezierCurve, format: "svg", id: "svg \"plot\" é"), nil),
            (Line(path: curve, body: Self.springCurve, format: "css", tolerance: "0.01"), nil),
            (Line(path: curve, body: Self.springCurve, format: "waapi"), nil),
            (Line(path: curve, body: Self.bezierCurve, format: "css"), nil),
            (Line(path: curve, body: Self.springCurve, format: "json", tolerance: "0.01"), nil),
            (Line(path: render, body: Self.render, format: "json", id: "render"), nil),
            (Line(path: render, body: Self.render, format: "css"), nil),
            (Line(path: render, body: Self.render, format: "waapi", tolerance: "5e-2"), nil),
            (Line(path: render, body: Self.render, format: "lottie"), nil),
            (Line(path: render, body: Self.render, format: "svg"), nil),
            (Line(path: render, body: Self.render, format: "csv"), nil),
            (Line(path: render, body: Self.preset, id: "preset"), nil),
            (Line(path: render, body: Self.preset, format: "css"), nil),
            (Line(path: render, body: Self.preset, format: "waapi"), nil),
            // Failures of the single request.
            (Line(path: curve, body: #"{"timing": {"type": "spring", "dampingRatio": -1}}"#, id: "bad ratio"), nil),
            (Line(path: render, body: #"{"views": {"card": {"alpha": 1}}, "bogus": 1}"#), nil),
            (Line(path: curve, body: "[1, 2]"), nil),
            (Line(path: curve, body: Self.springCurve, format: "lottie", id: "no lottie"), "/format"),
            (Line(path: curve, body: Self.springCurve, format: "gif"), "/format"),
            (Line(path: render, body: Self.render, format: "css", tolerance: "5"), "/tolerance"),
            (Line(path: curve, body: Self.springCurve, format: "css", tolerance: "1e-9"), "/tolerance"),
            (Line(path: render, body: #"{"transition": {"preset": "noSuchPreset"}}"#), nil),
            (Line(path: render, body: Self.render, format: "csv", tolerance: "0.2", id: "tolerance of a csv"), "/tolerance"),
            // The last line is a good one again: the batch goes on after failures.
            (Line(path: curve, body: Self.bezierCurve, format: "json", id: "last"), nil),
        ]
        // Empty lines, whitespace-only lines and both line ends between them.
        var text = "\n"
        for (index, (line, _)) in lines.enumerated() {
            text += line.text + (index % 3 == 0 ? "\r\n" : "\n")
            if index % 4 == 1 { text += "  \t\n\r\n" }
        }
        let service = Self.service()
        let response = batch(service, text)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/x-ndjson")
        XCTAssertNil(response.header("ETag"))
        XCTAssertEqual(response.header("Cache-Control"), "no-store")
        let answers = answerLines(try response.collectedBody())
        XCTAssertEqual(answers.count, lines.count)
        let singles = Self.service()
        for (index, (line, pointer)) in lines.enumerated() where index < answers.count {
            try assertAnswer(answers[index], number: index + 1, line, singles: singles, pointer: pointer)
        }
        // The failed lines are the ones expected to fail, no more.
        let statuses = answers.map { answer -> Double in
            if case .number(let status)? = object(answer).first(where: { $0.key == "status" })?.value { return status }
            return -1
        }
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 17, "\(statuses)")
        XCTAssertEqual(response.batchFailures?.count, 9)
        XCTAssertEqual(response.batchFailures?.lines, lines.count)
        XCTAssertEqual(response.batchFailures?.first, 17)
        XCTAssertEqual(response.batchFailures?.firstStatus, 422)
    }

    /// Lines the batch itself cannot read answer their problem, pointers relative to the line.
    func testLinesThatCannotBeReadAnswerTheirProblem() throws {
        let lines = [
            #"{"path": "/v1/curve", "body": "#,
            #"{"path": "/v1/tokens", "body": {}, "id": "t"}"#,
            #"{"path": "/v1/curve", "body": {"timing": "ease"}, "query": "format=css", "id": "q"}"#,
            #"{"path": "/v1/curve", "id": "nobody"}"#,
            #"{"body": {"timing": "ease"}}"#,
            #"{"path": "/v1/curve", "body": {"timing": "ease"}, "format": 3}"#,
            #"{"path": "/v1/curve", "body": {"timing": "ease"}, "id": "\#(String(repeating: "i", count: 201))"}"#,
            #"[{"path": "/v1/curve", "body": {"timing": "ease"}}]"#,
            #"{"path": "/v1/curve", "body": {"timing": "ease"}, "id": "fine"}"#,
        ]
        let expected: [(status: Int, pointer: String?, id: String?)] = [
            (400, nil, nil), (422, "/path", "t"), (422, "/query", "q"), (422, "/body", "nobody"), (422, "/path", nil),
            (400, "/format", nil), (422, "/id", nil), (400, "", nil), (200, nil, "fine"),
        ]
        let response = batch(Self.service(), lines.joined(separator: "\n"))
        XCTAssertEqual(response.status, 200)
        let answers = answerLines(try response.collectedBody())
        XCTAssertEqual(answers.count, lines.count)
        for (index, (answer, want)) in zip(answers, expected).enumerated() {
            let members = object(answer)
            let context = "line \(index + 1): \(String(decoding: answer, as: UTF8.self))"
            XCTAssertEqual(members.first { $0.key == "line" }?.value, .number(Double(index + 1)), context)
            XCTAssertEqual(members.first { $0.key == "status" }?.value, .number(Double(want.status)), context)
            XCTAssertEqual(members.first { $0.key == "id" }?.value, want.id.map(JSONValue.string), context)
            guard want.status != 200 else { continue }
            guard case .object(let problem)? = members.first(where: { $0.key == "problem" })?.value else {
                XCTFail("no problem: \(context)")
                continue
            }
            XCTAssertEqual(problem.first { $0.key == "status" }?.value, .number(Double(want.status)), context)
            if let pointer = want.pointer {
                XCTAssertEqual(problem.first { $0.key == "pointer" }?.value, .string(pointer), context)
            }
        }
        // The line that is not JSON is a malformed-json problem.
        if case .object(let problem)? = object(answers[0]).first(where: { $0.key == "problem" })?.value {
            XCTAssertEqual(problem.first { $0.key == "type" }?.value, .string(Problem.typeBase + "malformed-json"))
        } else {
            XCTFail("no problem on line 1")
        }
    }

    /// A body the reader refuses inside a line that is JSON (too deep, a number out of range)
    /// answers what the single request answers, the pointer under /body.
    func testReaderFaultsInsideTheBodyAnswerTheSingleRequestsProblem() throws {
        let depth = Limits().maxDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        let lines = [
            Line(path: "/v1/curve", body: deepest),  // as deep as a request may be: the single's 400 (not an object)
            Line(path: "/v1/curve", body: tooDeep),
            Line(path: "/v1/curve", body: #"{"timing": "ease", "samples": 1e400}"#),
        ]
        let response = batch(Self.service(), lines.map(\.text).joined(separator: "\n"))
        let answers = answerLines(try response.collectedBody())
        XCTAssertEqual(answers.count, lines.count)
        let singles = Self.service()
        for (index, line) in lines.enumerated() where index < answers.count {
            try assertAnswer(answers[index], number: index + 1, line, singles: singles)
        }
        // The too-deep line member by member, so that a difference is named.
        guard answers.count == lines.count,
              case .object(let answered)? = object(answers[1]).first(where: { $0.key == "problem" })?.value,
              case .object(let alone) = try JSONReader.parse(try single(singles, "/v1/curve", tooDeep, format: nil, tolerance: nil)
                  .collectedBody(), maxDepth: 8)
        else { return XCTFail("no problems to compare") }
        for key in ["type", "status", "pointer", "detail"] {
            let want: JSONValue? = key == "pointer"
                ? alone.first { $0.key == key }.flatMap { member -> JSONValue? in
                    if case .string(let pointer) = member.value { return .string("/body" + pointer) }
                    return nil
                }
                : alone.first { $0.key == key }?.value
            XCTAssertEqual(answered.first { $0.key == key }?.value, want, "the too-deep line's \(key)")
        }
    }

    /// Bodies over the streaming threshold stream inside their answer line, JSON and text alike.
    func testStreamedBodiesAreWrappedWhole() throws {
        let lines = [
            Line(path: "/v1/render", body: Self.largeRender, id: "big json"),
            Line(path: "/v1/render", body: Self.largeRender, format: "csv", id: "big csv"),
            Line(path: "/v1/curve", body: Self.bezierCurve),
        ]
        let singles = Self.service()
        XCTAssertNotNil(single(singles, "/v1/render", Self.largeRender, format: nil, tolerance: nil).stream, "the render streams")
        let response = batch(Self.service(), lines.map(\.text).joined(separator: "\n"))
        let answers = answerLines(try response.collectedBody())
        XCTAssertEqual(answers.count, lines.count)
        XCTAssertGreaterThan(answers.first?.count ?? 0, 64 << 10)
        for (index, line) in lines.enumerated() where index < answers.count {
            try assertAnswer(answers[index], number: index + 1, line, singles: singles)
        }
    }

    /// Rule 38: the same batch gives the same bytes — again, on another service, and with the
    /// response cache answering the lines the second time.
    func testTheSameBatchGivesTheSameBytes() throws {
        let text = [
            Line(path: "/v1/curve", body: Self.springCurve, format: "css", id: "a"),
            Line(path: "/v1/render", body: Self.render, format: "waapi"),
            Line(path: "/v1/render", body: Self.preset, format: "lottie"),
            Line(path: "/v1/curve", body: #"{"timing": 3}"#),
        ].map(\.text).joined(separator: "\n") + "\n"
        let cached = Self.service { $0.cacheEntries = 100 }
        let first = try batch(cached, text).collectedBody()
        XCTAssertEqual(answerLines(first).count, 4)
        XCTAssertEqual(try batch(cached, text).collectedBody(), first)
        XCTAssertEqual(try batch(Self.service(), text).collectedBody(), first)
        XCTAssertEqual(try batch(Self.service(), text.replacingOccurrences(of: "\n", with: "\r\n\n")).collectedBody(), first)
    }

    // MARK: The batch's own refusals

    func testContentTypeMustBeNDJSON() throws {
        let line = Line(path: "/v1/curve", body: Self.bezierCurve).text
        let service = Self.service()
        for contentType in ["application/json", "text/plain", "application/x-www-form-urlencoded", "application/problem+json"] {
            let response = batch(service, line, contentType: contentType)
            XCTAssertEqual(response.status, 415, contentType)
            XCTAssertEqual(response.header("Content-Type"), "application/problem+json", contentType)
        }
        XCTAssertEqual(batch(service, line, contentType: nil).status, 415)
        for contentType in ["application/x-ndjson", "application/jsonl", "application/x-ndjson; charset=utf-8", "Application/JSONL"] {
            let response = batch(service, line, contentType: contentType)
            XCTAssertEqual(response.status, 200, contentType)
            XCTAssertEqual(answerLines(try response.collectedBody()).count, 1, contentType)
        }
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 4, "only the accepted batches' lines ran")
    }

    func testAcceptMustAdmitNDJSON() throws {
        let line = Line(path: "/v1/curve", body: Self.bezierCurve, format: "css").text
        let service = Self.service()
        for accept in ["text/css", "application/json", "text/csv", "image/svg+xml", "application/x-ndjson;q=0"] {
            let response = batch(service, line, headers: ["accept": accept])
            XCTAssertEqual(response.status, 406, accept)
        }
        for accept in ["application/x-ndjson", "*/*", "application/*", "application/jsonl", "text/css, application/x-ndjson;q=0.5"] {
            let response = batch(service, line, headers: ["accept": accept])
            XCTAssertEqual(response.status, 200, accept)
            XCTAssertEqual(answerLines(try response.collectedBody()).count, 1, accept)
        }
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 5)
    }

    /// `format` and the other query arguments belong to the lines: on the batch, a 422 naming it.
    func testAQueryOnTheBatchIs422() throws {
        let line = Line(path: "/v1/curve", body: Self.bezierCurve).text
        let service = Self.service()
        for (name, value) in [("format", "css"), ("tolerance", "0.01"), ("expand", "true"), ("prefix", "x")] {
            let response = batch(service, line, query: [name: value])
            XCTAssertEqual(response.status, 422, name)
            let problem = try JSONReader.parse(response.body, maxDepth: 8)
            guard case .object(let members) = problem else { return XCTFail("no problem") }
            XCTAssertEqual(members.first { $0.key == "parameter" }?.value, .string(name))
        }
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 0)
    }

    func testMoreLinesThanTheLimitIs413BeforeAnyLineRuns() throws {
        let service = Self.service { $0.limits.maxBatchLines = 3 }
        let line = Line(path: "/v1/curve", body: Self.springCurve).text
        let over = batch(service, Array(repeating: line, count: 4).joined(separator: "\n"))
        XCTAssertEqual(over.status, 413)
        XCTAssertEqual(over.header("Content-Type"), "application/problem+json")
        XCTAssertTrue(String(decoding: over.body, as: UTF8.self).contains("3"), String(decoding: over.body, as: UTF8.self))
        XCTAssertNil(over.header("ETag"))
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 0, "no line ran")
        XCTAssertTrue(metricsText(service).contains("\nsegue_cache_misses_total 0\n"))
        // Empty lines do not count.
        let within = batch(service, Array(repeating: line, count: 3).joined(separator: "\n\n\r\n") + "\n\n")
        XCTAssertEqual(within.status, 200)
        XCTAssertEqual(answerLines(try within.collectedBody()).count, 3)
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 3)
    }

    /// The whole batch's estimated work over `maxBatchWork` is a 413 before any line runs, even
    /// when each line alone is within every limit.
    func testTheBatchsWorkOverTheLimitIs413BeforeAnyLineRuns() throws {
        let handlers = Handlers(limits: Limits(), readiness: Readiness(), metrics: ServiceMetrics())
        let line = Line(path: "/v1/curve", body: Self.springCurve, format: "css")
        let planned = handlers.plannedWork(try BatchLine(Array(line.text.utf8), limits: Limits()))
        XCTAssertGreaterThan(planned, 0)
        // A render's planned work is its reading and its keyframe tracks (docs/batch.md "Limits"):
        // a render with keyframes.
        let keyframes = #"{"views": {"card": {"alpha": 1}}, "animations": [{"view": "card", "duration": 1, "#
            + #""keyframes": [{"start": 0, "duration": 0.5, "to": {"alpha": 0}}, {"start": 0.5, "duration": 0.5, "to": {"alpha": 1}}]}]}"#
        let render = Line(path: "/v1/render", body: keyframes, format: "waapi")
        let renderWork = handlers.plannedWork(try BatchLine(Array(render.text.utf8), limits: Limits()))
        XCTAssertGreaterThan(renderWork, 0)

        let service = Self.service { $0.limits.maxBatchWork = 2.5 * planned }
        let two = batch(service, [line.text, line.text].joined(separator: "\n"))
        XCTAssertEqual(two.status, 200)
        XCTAssertEqual(answerLines(try two.collectedBody()).count, 2)
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 2)

        let three = batch(service, [line.text, line.text, line.text].joined(separator: "\n"))
        XCTAssertEqual(three.status, 413)
        let detail = String(decoding: three.body, as: UTF8.self)
        XCTAssertTrue(detail.contains("work") && detail.contains("line 3"), detail)
        XCTAssertNil(three.header("ETag"))
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 2, "no line of the refused batch ran")

        // Renders count too, and a line that cannot be read counts nothing.
        let renders = Self.service { $0.limits.maxBatchWork = 1.5 * renderWork }
        XCTAssertEqual(batch(renders, [render.text, "not json", #"{"path":"/v1/render"}"#].joined(separator: "\n")).status, 200)
        XCTAssertEqual(batch(renders, [render.text, render.text].joined(separator: "\n")).status, 413)
        XCTAssertEqual(metricCount(renders, route: "/v1/render"), 0, "the first batch was never collected, the second refused")
        // The default is 100 × maxWork.
        XCTAssertEqual(Limits().batchWork, 100 * Double(Limits().maxWork))
    }

    /// Each line obeys its single request's body limit: a 413 at /body, and the batch goes on.
    func testALineBodyOverTheBodyLimitIs413AtBody() throws {
        let small = #"{"timing":"ease","samples":3}"#
        // The spaces are inside the body's object (whitespace around a member's value is not the value's).
        let padded = #"{"timing":"ease","# + String(repeating: " ", count: 200) + #""samples":3}"#
        let service = Self.service { $0.limits.maxBodyBytes = 100 }
        let lines = [Line(path: "/v1/curve", body: padded, id: "padded"), Line(path: "/v1/curve", body: small)]
        let response = batch(service, lines.map(\.text).joined(separator: "\n"))
        XCTAssertEqual(response.status, 200)
        let answers = answerLines(try response.collectedBody())
        XCTAssertEqual(answers.count, 2)
        let failed = object(answers[0])
        XCTAssertEqual(failed.first { $0.key == "status" }?.value, .number(413))
        XCTAssertEqual(failed.first { $0.key == "id" }?.value, .string("padded"))
        guard case .object(let problem)? = failed.first(where: { $0.key == "problem" })?.value else { return XCTFail("no problem") }
        XCTAssertEqual(problem.first { $0.key == "pointer" }?.value, .string("/body"))
        XCTAssertEqual(problem.first { $0.key == "status" }?.value, .number(413))
        XCTAssertEqual(object(answers[1]).first { $0.key == "status" }?.value, .number(200))
        // The single request with that body is refused too (by the transport, before the router).
        XCTAssertGreaterThan(padded.utf8.count, service.bodyLimit(path: "/v1/curve"))
        XCTAssertEqual(service.bodyLimit(path: "/v1/batch"), Limits().maxBatchBodyBytes)
        XCTAssertEqual(metricCount(service, route: "/v1/curve", status: "413"), 1)
    }

    // MARK: Metrics

    func metricsText(_ service: SegueService) -> String { String(decoding: service.metrics.render(), as: UTF8.self) }

    /// The sum of `segue_requests_total` samples for `route` (and `status`, when given).
    func metricCount(_ service: SegueService, route: String, status: String? = nil, method: String = "POST") -> Int {
        var total = 0.0
        for line in metricsText(service).split(separator: "\n") where line.hasPrefix("segue_requests_total{") {
            guard let close = line.lastIndex(of: "}") else { continue }
            let labels = line[line.index(after: line.firstIndex(of: "{")!)..<close]
            var fields: [String: String] = [:]
            for pair in labels.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                fields[String(parts[0])] = String(parts[1]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
            guard fields["route"] == route, status == nil || fields["status"] == status, fields["method"] == method else { continue }
            total += Double(line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)) ?? .nan
        }
        return Int(total)
    }

    func testEachLineIsCountedByItsPath() throws {
        let service = Self.service()
        let lines = [
            Line(path: "/v1/curve", body: Self.springCurve),
            Line(path: "/v1/render", body: Self.render, format: "css"),
            Line(path: "/v1/curve", body: Self.bezierCurve, format: "svg"),
            Line(path: "/v1/render", body: #"{"views": {"card": {"alpha": 1}}, "bogus": 1}"#),
            Line(path: "/v1/curve", body: Self.springCurve, format: "waapi"),
        ].map(\.text) + ["not json"]
        let response = batch(service, lines.joined(separator: "\n"))
        XCTAssertEqual(response.status, 200)
        // Nothing is counted until the lines run (they run while the answer is written).
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 0)
        XCTAssertEqual(answerLines(try response.collectedBody()).count, 6)
        XCTAssertEqual(metricCount(service, route: "/v1/curve"), 3)
        XCTAssertEqual(metricCount(service, route: "/v1/curve", status: "200"), 3)
        XCTAssertEqual(metricCount(service, route: "/v1/render"), 2)
        XCTAssertEqual(metricCount(service, route: "/v1/render", status: "200"), 1)
        XCTAssertEqual(metricCount(service, route: "/v1/render", status: "422"), 1)
        XCTAssertEqual(metricCount(service, route: "unmatched", status: "400"), 1)
        XCTAssertEqual(metricCount(service, route: "/v1/batch"), 0, "the transport counts the batch itself")
        // Every counted request finished: none left in flight.
        let inflight = metricsText(service).split(separator: "\n").first { $0.hasPrefix("segue_inflight_requests ") }
        XCTAssertEqual(inflight.flatMap { Double($0.split(separator: " ").last ?? "") }, 0, metricsText(service))
    }

    // MARK: Over a socket

    /// The live server streams the same bytes the router writes — large streamed lines included,
    /// and gzip-coded as it goes when asked — counting the batch once and each line by its path.
    func testALiveServerSendsTheRoutersBytes() throws {
        let text = [
            Line(path: "/v1/render", body: Self.largeRender, id: "big"),
            Line(path: "/v1/curve", body: Self.springCurve, format: "css"),
            Line(path: "/v1/render", body: Self.largeRender, format: "csv"),
            Line(path: "/v1/curve", body: #"{"timing": {"type": "spring", "dampingRatio": -1}}"#),
            Line(path: "/v1/render", body: Self.preset, format: "lottie"),
        ].map(\.text).joined(separator: "\n") + "\n"
        let expected = try batch(Self.service(), text).collectedBody()
        XCTAssertGreaterThan(expected.count, 1 << 20)

        var configuration = ServiceConfiguration()
        configuration.logSink = { _ in }
        let server = try LiveServer(configuration: configuration)
        let plain = try server.request("POST", "/v1/batch", headers: [("Content-Type", "application/x-ndjson")], body: Array(text.utf8))
        XCTAssertEqual(plain.status, 200, plain.text.prefix(300).description)
        XCTAssertEqual(plain.header("Content-Type"), "application/x-ndjson")
        XCTAssertEqual(plain.header("Transfer-Encoding"), "chunked")
        XCTAssertNil(plain.header("ETag"))
        XCTAssertEqual(plain.header("Cache-Control"), "no-store")
        XCTAssertEqual(plain.body.count, expected.count)
        XCTAssertTrue(plain.body == expected, "the live batch differs from the router's")

        let coded = try server.request("POST", "/v1/batch", headers: [("Content-Type", "application/x-ndjson"),
                                                                      ("Accept-Encoding", "gzip")], body: Array(text.utf8))
        XCTAssertEqual(coded.status, 200)
        XCTAssertEqual(coded.header("Content-Encoding"), "gzip")
        let decoded = try XCTUnwrap(GzipTests.gunzip(coded.body), "not one gzip member")
        XCTAssertTrue(decoded == expected, "the gzip-coded batch decodes to other bytes")

        let metrics = try server.request("GET", "/metrics").text
        func count(_ route: String) -> Int {
            metrics.split(separator: "\n").filter { $0.hasPrefix("segue_requests_total{") && $0.contains(#"route="\#(route)""#) }
                .reduce(0) { $0 + (Int($1.split(separator: " ").last ?? "") ?? 0) }
        }
        XCTAssertEqual(count("/v1/batch"), 2, metrics)
        XCTAssertEqual(count("/v1/render"), 6, metrics)
        XCTAssertEqual(count("/v1/curve"), 4, metrics)
    }

    /// A batch body is held to `--max-batch-body`, not to `--max-body` (each line's body is).
    func testTheTransportHoldsABatchToTheBatchBodyLimit() throws {
        var configuration = ServiceConfiguration()
        configuration.logSink = { _ in }
        configuration.limits.maxBodyBytes = 200
        configuration.limits.maxBatchBodyBytes = 1000
        let server = try LiveServer(configuration: configuration)
        let line = Line(path: "/v1/curve", body: #"{"timing": "ease", "samples": 3}"#).text
        let within = Array(repeating: line, count: 10).joined(separator: "\n")
        XCTAssertGreaterThan(within.utf8.count, 200)
        XCTAssertLessThanOrEqual(within.utf8.count, 1000)
        let accepted = try server.request("POST", "/v1/batch", headers: [("Content-Type", "application/x-ndjson")], body: Array(within.utf8))
        XCTAssertEqual(accepted.status, 200, accepted.text)
        XCTAssertEqual(accepted.body.split(separator: 0x0A).count, 10)
        let over = Array(repeating: line, count: 20).joined(separator: "\n")
        XCTAssertGreaterThan(over.utf8.count, 1000)
        let refused = try server.request("POST", "/v1/batch", headers: [("Content-Type", "application/x-ndjson")], body: Array(over.utf8))
        XCTAssertEqual(refused.status, 413)
        XCTAssertTrue(refused.text.contains("1000"), refused.text)
        // A single request is still held to --max-body.
        XCTAssertEqual(try server.post("/v1/curve", json: #"{"timing": "ease", "samples": 3}"# + String(repeating: " ", count: 300)).status, 413)
    }
}
