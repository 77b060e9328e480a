import Foundation
import SegueTestSupport
import Synchronization
import XCTest
@testable import SegueHTTP

/// HTTP semantics through the router alone, no socket (in the manner of Hummingbird's
/// router tests); the live-server tests cover the transport.
final class RouterTests: XCTestCase {
    let service = SegueService()

    func post(_ json: String, query: [String: String] = [:], headers: [String: String] = [:]) -> HTTPResponse {
        service.respond(to: HTTPRequest(method: "POST", path: "/v1/curve", query: query, headers: headers,
                                        body: Array(json.utf8)))
    }

    func object(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// The request's typed fields: each name has a slot of its own, the string subscript reads
    /// and writes the same slot as the typed one, and a name the service does not read is
    /// neither kept nor read back.
    func testRequestFieldsKeepEachNameApartAndDropTheRest() {
        func check<Name: ReadFieldName, let count: Int>(_ type: ReadFields<Name, count>.Type) {
            XCTAssertEqual(Set(Name.allCases.map(\.slot)).count, Name.allCases.count, "\(type) slots are distinct")
            XCTAssertEqual(Name.allCases.count, count, "\(type) has a slot for each name and no more")
            XCTAssertTrue(Name.allCases.allSatisfy { (0..<count).contains($0.slot) }, "\(type) slots are within 0..<\(count)")
            var fields = ReadFields<Name, count>()
            for (i, name) in Name.allCases.enumerated() { fields[name.rawValue] = "value \(i)" }
            for (i, name) in Name.allCases.enumerated() {
                XCTAssertEqual(fields[name], "value \(i)")
                XCTAssertEqual(fields[name.rawValue], "value \(i)")
            }
            fields["x-not-read"] = "kept?"
            XCTAssertNil(fields["x-not-read"])
            let first = Name.allCases.first!
            fields[first] = nil
            XCTAssertNil(fields[first.rawValue])
        }
        check(HeaderFields.self)
        check(QueryFields.self)
        let request = HTTPRequest(method: "POST", path: "/v1/curve", query: ["format": "csv", "page": "2"],
                                  headers: ["accept": "text/csv", "if-none-match": "\"a\"", "x-forwarded-for": "10.0.0.1"])
        XCTAssertEqual(request.query[.format], "csv")
        XCTAssertNil(request.query["page"])
        XCTAssertEqual(request.headers[.accept], "text/csv")
        XCTAssertEqual(request.headers["if-none-match"], "\"a\"")
        XCTAssertNil(request.headers["x-forwarded-for"])
        XCTAssertNil(request.headers[.contentType])
    }

    func testCurveAnswersJSONWithCORSAndAStrongETag() throws {
        let response = post(#"{"timing": "ease-in-out", "samples": 3}"#)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/json")
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), "*")
        let tag = try XCTUnwrap(response.header("ETag"))
        XCTAssertTrue(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"), tag)
        let body = object(response)
        XCTAssertEqual(body["t"] as? [Double], [0, 0.5, 1])
        // ease-in-out is symmetric: progress(0.5) = 0.5 exactly up to the solver tolerance.
        let progress = try XCTUnwrap(body["progress"] as? [Double])
        XCTAssertEqual(progress[1], 0.5, accuracy: 1e-12)
        XCTAssertEqual(body["timing"] as? [String: String], ["type": "easeInOut"])
        XCTAssertEqual((body["warnings"] as? [Any])?.count, 0)
    }

    func testSameRequestSameBytesAndIfNoneMatchGives304() throws {
        let first = post(#"{"timing": "ease", "fps": 30}"#)
        let second = post(#"{"timing": "ease", "fps": 30}"#)
        XCTAssertEqual(first.body, second.body)
        let tag = try XCTUnwrap(first.header("ETag"))
        XCTAssertEqual(second.header("ETag"), tag)
        let cached = post(#"{"timing": "ease", "fps": 30}"#, headers: ["if-none-match": "\"other\", " + tag])
        XCTAssertEqual(cached.status, 304)
        XCTAssertTrue(cached.body.isEmpty)
        XCTAssertEqual(cached.header("ETag"), tag)
        XCTAssertEqual(post(#"{"timing": "ease", "fps": 30}"#, headers: ["if-none-match": "*"]).status, 304)
        XCTAssertEqual(post(#"{"timing": "ease", "fps": 31}"#, headers: ["if-none-match": tag]).status, 200)
    }

    func testCSVByQueryAndByAcceptWithDistinctETags() throws {
        let json = post(#"{"timing": "linear", "samples": 3}"#)
        let csv = post(#"{"timing": "linear", "samples": 3}"#, query: ["format": "csv"])
        XCTAssertEqual(csv.status, 200)
        XCTAssertEqual(csv.header("Content-Type"), "text/csv; charset=utf-8")
        XCTAssertEqual(String(decoding: csv.body, as: UTF8.self), "t,progress,velocity\n0,0,1\n0.5,0.5,1\n1,1,1\n")
        XCTAssertNotEqual(csv.header("ETag"), json.header("ETag"))
        let byAccept = post(#"{"timing": "linear", "samples": 3}"#, headers: ["accept": "text/csv"])
        XCTAssertEqual(byAccept.body, csv.body)
        // The query wins over the header.
        let both = post(#"{"timing": "linear", "samples": 3}"#, query: ["format": "json"], headers: ["accept": "text/csv"])
        XCTAssertEqual(both.header("Content-Type"), "application/json")
        // Quality values choose.
        let weighted = post(#"{"timing": "linear", "samples": 3}"#,
                            headers: ["accept": "application/json;q=0.5, text/csv;q=0.9"])
        XCTAssertEqual(weighted.header("Content-Type"), "text/csv; charset=utf-8")
        let wildcard = post(#"{"timing": "linear", "samples": 3}"#, headers: ["accept": "*/*"])
        XCTAssertEqual(wildcard.header("Content-Type"), "application/json")
    }

    func testContentTypesReadAsJSON() {
        for type in ["application/json", "application/json; charset=utf-8", "application/merge-patch+json",
                     "application/x-www-form-urlencoded"] {
            XCTAssertEqual(post(#"{"timing": "ease"}"#, headers: ["content-type": type]).status, 200, type)
        }
        XCTAssertEqual(post(#"{"timing": "ease"}"#).status, 200, "absent Content-Type")
        XCTAssertEqual(post(#"{"timing": "ease"}"#, headers: ["content-type": "text/plain"]).status, 415)
    }

    func testPreflightAnswers204WithTheRouteMethods() {
        let response = service.respond(to: HTTPRequest(method: "OPTIONS", path: "/v1/curve",
                                                       headers: ["origin": "https://example.com",
                                                                 "access-control-request-method": "POST"]))
        XCTAssertEqual(response.status, 204)
        XCTAssertEqual(response.header("Access-Control-Allow-Methods"), "POST, OPTIONS")
        XCTAssertEqual(response.header("Access-Control-Allow-Headers"), "Content-Type, If-None-Match, Accept")
        XCTAssertEqual(response.header("Access-Control-Max-Age"), "86400")
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), "*")
        XCTAssertTrue(response.body.isEmpty)
    }

    func testConfiguredCORSOrigin() {
        var configuration = ServiceConfiguration()
        configuration.corsOrigin = "https://tools.example"
        let service = SegueService(configuration: configuration)
        let response = service.respond(to: HTTPRequest(method: "GET", path: "/healthz", headers: ["origin": "https://tools.example"]))
        XCTAssertEqual(response.header("Access-Control-Allow-Origin"), "https://tools.example")
        XCTAssertEqual(response.header("Vary"), "Origin")
        // An origin not configured is not allowed.
        let other = service.respond(to: HTTPRequest(method: "GET", path: "/healthz", headers: ["origin": "https://else.example"]))
        XCTAssertNil(other.header("Access-Control-Allow-Origin"))
    }

    func testHealthAndOpenAPIAndHead() {
        let health = service.respond(to: HTTPRequest(method: "GET", path: "/healthz"))
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(String(decoding: health.body, as: UTF8.self), #"{"status":"ok"}"#)
        let spec = service.respond(to: HTTPRequest(method: "GET", path: "/openapi.yaml"))
        XCTAssertEqual(spec.status, 200)
        XCTAssertEqual(spec.header("Content-Type"), "application/yaml")
        XCTAssertTrue(String(decoding: spec.body, as: UTF8.self).hasPrefix("openapi: 3.1"))
        XCTAssertEqual(service.respond(to: HTTPRequest(method: "HEAD", path: "/healthz")).status, 200)
        let wrong = service.respond(to: HTTPRequest(method: "POST", path: "/healthz"))
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("Allow"), "GET, HEAD, OPTIONS")
    }

    func testSpringResponseCarriesEveryParametrisation() throws {
        let response = post(#"{"timing": {"type": "spring", "mass": 1, "stiffness": 100, "damping": 40}, "samples": 2}"#)
        XCTAssertEqual(response.status, 200)
        let spring = try XCTUnwrap(object(response)["spring"] as? [String: Any])
        // allowsOverdamping defaults to false: damping is clamped to critical, 2√(km) = 20, and reported.
        XCTAssertEqual(spring["damping"] as? Double, 20)
        XCTAssertEqual(spring["dampingRatio"] as? Double, 1)
        XCTAssertEqual(try XCTUnwrap(spring["response"] as? Double), 2 * Double.pi / 10, accuracy: 1e-15)
        XCTAssertEqual(spring["perceptualDuration"] as? Double, spring["response"] as? Double)
        XCTAssertEqual(spring["bounce"] as? Double, 0)
        // The default window is the settling duration, and the last sample lies exactly on it.
        let body = object(response)
        let settling = try XCTUnwrap(body["settlingDuration"] as? Double)
        XCTAssertEqual(body["duration"] as? Double, settling)
        XCTAssertEqual((body["t"] as? [Double])?.last, settling)
    }

    func testUIKitSpringReadsExactlyOneFromItsDurationOn() throws {
        let response = post(#"{"timing": {"type": "spring", "dampingRatio": 0.5}, "duration": 0.5, "at": [0.49, 0.5, 0.7]}"#)
        let body = object(response)
        let progress = try XCTUnwrap(body["progress"] as? [Double])
        XCTAssertNotEqual(progress[0], 1)
        XCTAssertEqual(Array(progress[1...]), [1, 1])
        XCTAssertEqual(Array((body["velocity"] as? [Double] ?? [])[1...]), [0, 0])
        XCTAssertEqual(body["settlingDuration"] as? Double, 0.5)
    }

    func testUIKitClampsAreWarnings() throws {
        let response = post(#"{"timing": {"type": "spring", "dampingRatio": 1.5}, "duration": 20, "samples": 2}"#)
        XCTAssertEqual(response.status, 200)
        let warnings = try XCTUnwrap(object(response)["warnings"] as? [[String: String]])
        XCTAssertEqual(warnings.map { $0["pointer"] }, ["/timing/dampingRatio", "/duration"])
    }

    /// One route table, one match a request (docs/http.md "One route table, matched once"), over
    /// every route, paths no route has and methods a route does not take: the match found from the
    /// target's bytes is the one found from the path, and its label is the route's path (else
    /// `unmatched`). The router answers by that match alone — each request here carries a path no
    /// route has, which it would answer 404 if it matched the path again — and the placement, the
    /// metric series and the log line (`debug` for the probes) all read the same match.
    func testOneMatchGivesTheDispatchThePlacementTheMetricAndTheLogLine() throws {
        let lines = Mutex<[[UInt8]]>([])
        var configuration = ServiceConfiguration()
        configuration.logLevel = .debug
        configuration.logBufferBytes = 0
        configuration.logSink = { line in lines.withLock { $0.append(line) } }
        let service = SegueService(configuration: configuration)
        let table = service.router.table
        let unknown = ["/nope", "/v1/curve/", "/V1/CURVE", "/v1/curv", "/v1/curvee", "", "unmatched", "/metrics/"]
        var counted: [String: Int] = [:]
        for path in table.routes.map(\.path) + unknown {
            let match = table.match(path)
            let fromBytes = Array(path.utf8).withUnsafeBytes { table.match($0) }
            XCTAssertEqual(fromBytes.index, match.index, path)
            let route = match.isKnown ? table.routes[match.index] : nil
            XCTAssertEqual(match.label, route?.path ?? "unmatched", path)
            XCTAssertEqual(match.index, route == nil ? table.routes.count : table.routes.firstIndex { $0.path == path })
            XCTAssertEqual(match.kind, route?.action.kind, path)
            XCTAssertEqual(match.isProbe, ["/healthz", "/readyz", "/metrics"].contains(path), path)
            for method in ["GET", "HEAD", "POST", "DELETE", "OPTIONS", "get"] {
                let request = HTTPRequest(method: method, path: "/not-this-path", body: [])
                let response = service.respond(to: request, route: match)
                let what = "\(method) \(path)"
                switch route {
                case nil:
                    XCTAssertEqual(response.status, 404, what)
                case let route? where method == "OPTIONS":
                    XCTAssertEqual(response.status, 204, what)
                    XCTAssertEqual(response.header("Allow"), route.allowed.joined(separator: ", "), what)
                case let route? where !route.methods.contains(method == "HEAD" ? "GET" : method):
                    XCTAssertEqual(response.status, 405, what)
                    XCTAssertEqual(response.header("Allow"), route.allowed.joined(separator: ", "), what)
                case _?:
                    XCTAssertFalse([404, 405].contains(response.status), "\(what) answered \(response.status)")
                }
                let placement: SegueService.Placement = switch (method, match.kind) {
                case ("POST", .estimate?): .estimated
                case ("POST", .compute?): .worker
                default: .ioThread
                }
                XCTAssertEqual(service.placement(of: request, route: match), placement, what)
                let exchange = Exchange(requestID: RequestID.resolve("r"), request: request, route: match,
                                        started: MonotonicClock.now(), connection: nil)
                exchange.noteAnswer(status: response.status, bytes: response.body.count, cause: nil)
                service.observe(exchange, answer: exchange.answer, finishedAt: MonotonicClock.now(), completed: true)
                let last = try XCTUnwrap(lines.withLock { $0.last })
                let line = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(last)) as? [String: Any])
                XCTAssertEqual(line["route"] as? String, match.label, what)
                XCTAssertEqual(line["level"] as? String, response.status >= 500 ? "error" : match.isProbe ? "debug" : "info", what)
                counted[#"route="\#(match.label)",method="\#(MetricLabels.method(method))",status="\#(response.status)""#, default: 0] += 1
            }
        }
        let series = String(decoding: service.metrics.render(), as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("segue_requests_total{") }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: series.map { sample in
            (String(sample.dropFirst("segue_requests_total{".count).prefix { $0 != "}" }), Int(Double(sample.split(separator: " ").last!)!))
        }), counted)
    }

    /// The body limit is checked once, by the transport: the router parses whatever body it is
    /// handed, and through the live server a body over the limit is still the same 413.
    func testBodyLimitIsTheTransports() throws {
        var configuration = ServiceConfiguration()
        configuration.limits.maxBodyBytes = 64
        let json = #"{"timing": "ease", "samples": 3}"#
        let padded = json + String(repeating: " ", count: 64 - json.utf8.count)
        let over = padded + " "
        let direct = SegueService(configuration: configuration).respond(to: HTTPRequest(method: "POST", path: "/v1/curve",
                                                                                        body: Array(over.utf8)))
        XCTAssertEqual(direct.status, 200, "the router does not check the size")

        let server = try LiveServer(configuration: configuration)
        XCTAssertEqual(try server.post("/v1/curve", json: padded).status, 200, "exactly the limit is read")
        let refused = try server.post("/v1/curve", json: over)
        XCTAssertEqual(refused.status, 413)
        XCTAssertEqual(refused.header("Content-Type"), "application/problem+json")
        XCTAssertEqual(refused.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(refused.header("Access-Control-Expose-Headers"), "ETag")
        XCTAssertEqual(refused.text, #"{"type":"https://segue.dev/problems/too-large","title":"Content Too Large","#
                       + #""status":413,"detail":"the body is over the limit of 64 bytes"}"#)
        // Without a declared length (chunked), counted as it arrives: the same answer.
        var raw = "POST /v1/curve HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
        for piece in [String(over.prefix(40)), String(over.dropFirst(40))] {
            raw += String(piece.utf8.count, radix: 16) + "\r\n" + piece + "\r\n"
        }
        raw += "0\r\n\r\n"
        let chunked = try server.send(Array(raw.utf8))
        XCTAssertEqual(chunked.status, 413)
        XCTAssertEqual(chunked.body, refused.body)
    }

    /// A header value reads as its bytes up to the first NUL; the common long values come back as
    /// the same text (from the literal), and a value that only starts like one does not.
    func testHeaderValuesReadAsTheirText() {
        func text(_ value: String, size: Int? = nil) -> String {
            value.withCString { RequestHead.Value(start: $0, size: size ?? value.utf8.count).text }
        }
        for common in RequestHead.Value.commonValues {
            XCTAssertEqual(text(common), common)
            XCTAssertEqual(text(common + "x"), common + "x")
            XCTAssertEqual(text(String(common.dropLast())), String(common.dropLast()))
            XCTAssertEqual(text(common.uppercased()), common.uppercased())
        }
        XCTAssertEqual(text("text/csv"), "text/csv")
        XCTAssertEqual(text("application/json-seq; long enough to allocate"), "application/json-seq; long enough to allocate")
        XCTAssertEqual(text("application/json\u{0}tail", size: 21), "application/json", "up to the first NUL")
        XCTAssertEqual(text(""), "")
    }

    /// Field names compare without regard to ASCII case eight bytes at a time: the word fold is the
    /// byte fold at every position for every byte value, and names of every length up to three
    /// words compare as the byte-by-byte definition does, capitals and non-ASCII bytes included.
    func testCaselessNamesCompareAsByteByByte() {
        var generator = SplitMix64(seed: 0xCA5E_F01D)
        for position in 0..<8 {
            for value in UInt8.min...UInt8.max {
                var bytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
                bytes[position] = value
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                let folded = bytes.map(ASCIICase.folded)
                XCTAssertEqual(ASCIICase.folded(word: word), folded.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }, "\(bytes)")
            }
        }
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789-".utf8)
        for _ in 0..<20_000 {
            let lowercased = (0..<Int.random(in: 0...24, using: &generator)).map { _ in letters.randomElement(using: &generator)! }
            var key = lowercased.map { Bool.random(using: &generator) && $0 >= 0x61 ? $0 - 0x20 : $0 }
            if !key.isEmpty && Bool.random(using: &generator) {
                key[Int.random(in: 0..<key.count, using: &generator)] = [0x40, 0x5B, 0x60, 0x7B, 0xC1, 0xE1, 0x2E].randomElement(using: &generator)!
            }
            let expected = key.count == lowercased.count && zip(key, lowercased).allSatisfy { ASCIICase.folded($0) == $1 }
            let found = key.withUnsafeBytes { k in lowercased.withUnsafeBytes { ASCIICase.equal(k, lowercased: $0) } }
            XCTAssertEqual(found, expected, "\(key) against \(lowercased)")
        }
    }

    /// A `Content-Length` value reads as the number `Int(String)` makes of its text (up to the
    /// first NUL), without the `String`: signs, overflow at both ends, and every malformation.
    func testHeaderValueIntegersReadAsIntDoes() {
        var values = ["0", "77", "+5", "-5", "007", "", "+", "-", "1 ", " 1", "1x", "0x10", "1e3", "١", "12\u{0}34",
                      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                      "99999999999999999999", "+-1", "--1", "1.0"]
        var generator = SplitMix64(seed: 0x1_7E6E_2)
        let alphabet = Array("0123456789+- x")
        values += (0..<5000).map { _ in String((0..<Int.random(in: 0...22, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }) }
        values += (0..<1000).map { _ in String(Int.random(in: .min ... .max, using: &generator)) }
        for value in values {
            let read = value.withCString { RequestHead.Value(start: $0, size: value.utf8.count).integer }
            let upToNUL = String(value.prefix { $0 != "\u{0}" })
            XCTAssertEqual(read, Int(upToNUL), value)
        }
    }

    /// The transport reads the head in one pass (`RequestHead`) with `MHD_lookup_connection_value`'s
    /// rules: names in any case, the first of a repeated field, query names in any case too; an
    /// argument without a value is absent.
    func testTransportReadsTheHeadInOnePassLikeTheLookup() throws {
        let server = try LiveServer()
        let json = Array(#"{"timing": "linear", "samples": 3}"#.utf8)
        let csvBody = "t,progress,velocity\n0,0,1\n0.5,0.5,1\n1,1,1\n"
        let mixedCase = try server.request("POST", "/v1/curve", headers: [
            ("CONTENT-type", "application/json"), ("aCCEPT", "text/csv"), ("X-REQUEST-ID", "first-id"),
            ("x-request-id", "second-id"), ("Accept", "application/json"),
        ], body: json)
        XCTAssertEqual(mixedCase.status, 200)
        XCTAssertEqual(mixedCase.header("Content-Type"), "text/csv; charset=utf-8", "the first Accept counts")
        XCTAssertEqual(mixedCase.text, csvBody)
        XCTAssertEqual(mixedCase.header("X-Request-Id"), "first-id")
        let tag = try XCTUnwrap(mixedCase.header("ETag"))
        let matched = try server.request("POST", "/v1/curve", headers: [
            ("Content-Type", "application/json"), ("Accept", "text/csv"), ("IF-NONE-MATCH", tag),
        ], body: json)
        XCTAssertEqual(matched.status, 304)

        let byQuery = try server.request("POST", "/v1/curve?FORMAT=csv&format=json",
                                         headers: [("Content-Type", "application/json")], body: json)
        XCTAssertEqual(byQuery.text, csvBody, "query names in any case; the first counts")
        let valueless = try server.request("POST", "/v1/curve?format", headers: [("Content-Type", "application/json"),
                                                                                 ("Accept", "text/csv")], body: json)
        XCTAssertEqual(valueless.text, csvBody, "?format without a value leaves Accept to choose")
        // The transport's own fields: two Content-Length fields are refused, even in odd case.
        var raw = "POST /v1/curve HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        raw += "content-LENGTH: \(json.count)\r\nCONTENT-LENGTH: \(json.count)\r\n\r\n"
        let twice = try server.send(Array(raw.utf8) + json)
        XCTAssertEqual(twice.status, 400)
        XCTAssertTrue(twice.text.contains("one Content-Length field"), twice.text)
    }

    func testFPSGridUsesTheSlack() throws {
        // 0.1 s at 30 fps: 0.1 · 30 = 3.0000000000000004 in doubles; the −1e-9 slack keeps 4 frames.
        let body = object(post(#"{"timing": "linear", "duration": 0.1, "fps": 30}"#))
        XCTAssertEqual((body["t"] as? [Double])?.count, 4)
    }
}
