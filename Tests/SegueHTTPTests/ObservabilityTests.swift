import Foundation
import Logging
import SegueJSON
import SegueTestSupport
import XCTest
@testable import SegueHTTP

/// Rule 30's observability pieces alone, no socket: the metrics' exposition read back by a small
/// Prometheus text-format parser, the JSON log lines read back by `JSONSerialization`, and the
/// request id rules.
final class ObservabilityTests: XCTestCase {
    static let routes = ["/healthz", "/openapi.yaml", "/v1/curve", "/v1/presets", "/v1/render"]

    // MARK: Metrics

    func testExpositionParsesAndEveryFamilyHasHelpAndType() throws {
        let metrics = ServiceMetrics()
        metrics.requestStarted()
        metrics.requestFinished(route: "/v1/render", method: "POST", status: 200, seconds: 0.002, bytes: 512)
        metrics.cacheHit()
        let exposition = try Exposition(metrics.render())
        for name in ["segue_requests_total", "segue_response_bytes_total", "segue_cache_hits_total",
                     "segue_cache_misses_total"] {
            XCTAssertEqual(exposition.types[name], "counter", name)
        }
        XCTAssertEqual(exposition.types["segue_request_duration_seconds"], "histogram")
        for name in ["segue_inflight_requests", "segue_open_connections", "process_resident_memory_bytes"] {
            XCTAssertEqual(exposition.types[name], "gauge", name)
        }
        XCTAssertEqual(Set(exposition.helps.keys), Set(exposition.types.keys))
        XCTAssertEqual(exposition.familyOrder, exposition.familyOrder.sorted())
        XCTAssertEqual(ServiceMetrics.contentType, "text/plain; version=0.0.4; charset=utf-8")
    }

    func testCountersMoveAfterRequestFinished() throws {
        let metrics = ServiceMetrics()
        for (status, bytes) in [(200, 100), (200, 50), (422, 7)] {
            metrics.requestStarted()
            metrics.requestFinished(route: "/v1/render", method: "POST", status: status, seconds: 0.001, bytes: bytes)
        }
        metrics.requestStarted()
        metrics.cacheHit()
        metrics.cacheMiss()
        metrics.cacheMiss()
        let exposition = try Exposition(metrics.render())
        let render = ["route": "/v1/render", "method": "POST"]
        XCTAssertEqual(exposition.value("segue_requests_total", render.merging(["status": "200"]) { $1 }), 2)
        XCTAssertEqual(exposition.value("segue_requests_total", render.merging(["status": "422"]) { $1 }), 1)
        XCTAssertEqual(exposition.value("segue_response_bytes_total", ["route": "/v1/render"]), 157)
        XCTAssertEqual(exposition.value("segue_response_bytes_total", ["route": "/v1/curve"]), 0)
        XCTAssertEqual(exposition.value("segue_cache_hits_total"), 1)
        XCTAssertEqual(exposition.value("segue_cache_misses_total"), 2)
        XCTAssertEqual(exposition.value("segue_inflight_requests"), 1)
        metrics.requestAborted()
        XCTAssertEqual(try Exposition(metrics.render()).value("segue_inflight_requests"), 0)
    }

    func testHistogramBucketsAreCumulativeWithCountAndSum() throws {
        let metrics = ServiceMetrics()
        let seconds = [0.00005, 0.0001, 0.003, 0.2, 12, 45]
        for value in seconds {
            metrics.requestFinished(route: "/v1/curve", method: "POST", status: 200, seconds: value, bytes: 1)
        }
        let exposition = try Exposition(metrics.render())
        let buckets = exposition.samples
            .filter { $0.name == "segue_request_duration_seconds_bucket" && $0.labels["route"] == "/v1/curve" }
            .map { (le: Double($0.labels["le"]!)!, count: $0.value) }
        XCTAssertEqual(buckets.map(\.le), ServiceMetrics.durationBuckets + [.infinity])
        // The bounds' text, as scrapers and dashboards match it (the same as when they were `Duration`s).
        let bounds = exposition.samples
            .filter { $0.name == "segue_request_duration_seconds_bucket" && $0.labels["route"] == "/v1/curve" }
            .map { $0.labels["le"]! }
        XCTAssertEqual(bounds, ["0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05",
                                "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "+Inf"])
        XCTAssertEqual(buckets.map(\.count), buckets.map(\.count).sorted(), "cumulative")
        for bucket in buckets {
            XCTAssertEqual(bucket.count, Double(seconds.filter { $0 <= bucket.le }.count), "le=\(bucket.le)")
        }
        let route = ["route": "/v1/curve"]
        XCTAssertEqual(exposition.value("segue_request_duration_seconds_count", route), Double(seconds.count))
        XCTAssertEqual(try XCTUnwrap(exposition.value("segue_request_duration_seconds_sum", route)),
                       seconds.reduce(0, +), accuracy: 1e-9)
        XCTAssertEqual(exposition.value("segue_request_duration_seconds_count", ["route": "/v1/render"]), 0)
    }

    func testGaugesResidentMemoryAndOpenConnections() throws {
        let metrics = ServiceMetrics()
        metrics.connectionOpened()
        metrics.connectionOpened()
        metrics.connectionClosed()
        var exposition = try Exposition(metrics.render())
        XCTAssertGreaterThan(try XCTUnwrap(exposition.value("process_resident_memory_bytes")), 1_048_576)
        XCTAssertEqual(exposition.value("segue_open_connections"), 1)
        exposition = try Exposition(metrics.render(openConnections: 7))
        XCTAssertEqual(exposition.value("segue_open_connections"), 7)
    }

    func testInstancesCountSeparately() throws {
        let first = ServiceMetrics()
        let second = ServiceMetrics()
        first.cacheHit()
        first.requestFinished(route: "/healthz", method: "GET", status: 200, seconds: 0, bytes: 3)
        let other = try Exposition(second.render())
        XCTAssertEqual(other.value("segue_cache_hits_total"), 0)
        XCTAssertFalse(other.samples.contains { $0.name == "segue_requests_total" })
    }

    /// Whatever paths, methods and statuses clients send, the labels come from fixed sets.
    func testLabelCardinalityIsBounded() throws {
        let metrics = ServiceMetrics()
        let methods = ["GET", "POST", "get", "BREW", "PROPFIND", "DELETE", "", "GET\r\nX: y"]
        for i in 0..<2000 {
            let path = i % 3 == 0 ? Self.routes[i % Self.routes.count] : "/v1/render/\(i)?q=\(i)"
            metrics.requestFinished(route: path, method: methods[i % methods.count], status: [200, 404, 1234, -1][i % 4],
                                    seconds: 0.001, bytes: 1)
        }
        let samples = try Exposition(metrics.render()).samples.filter { $0.name.hasPrefix("segue_") }
        let routes = Set(samples.compactMap { $0.labels["route"] })
        XCTAssertEqual(routes, Set(RouteTable.service.matches.map(\.label)), "every route's path and unmatched")
        XCTAssertTrue(routes.isSuperset(of: Self.routes + ["/metrics", "unmatched"]))
        XCTAssertEqual(Set(samples.compactMap { $0.labels["method"] }), ["GET", "POST", "DELETE", "other"])
        XCTAssertEqual(Set(samples.compactMap { $0.labels["status"] }), ["200", "404", "other"])
        XCTAssertLessThanOrEqual(samples.filter { $0.name == "segue_requests_total" }.count, routes.count * 4 * 3)
        XCTAssertEqual(RouteTable.service.match("/nope").label, "unmatched")
        XCTAssertEqual(MetricLabels.method("patch"), "other")
    }

    // MARK: Log lines

    func testLogLineIsOneJSONObjectWithTheRequestFields() throws {
        let lines = Lines()
        let logger = RequestLog.logger(sink: lines.append)
        logger.requestFinished(id: "abc-1", method: "POST", route: "/v1/render", status: 200, seconds: 0.0125, bytes: 4096)
        let object = try lines.onlyObject()
        XCTAssertEqual(object["level"] as? String, "info")
        XCTAssertEqual(object["message"] as? String, "request")
        XCTAssertEqual(object["request_id"] as? String, "abc-1")
        XCTAssertEqual(object["method"] as? String, "POST")
        XCTAssertEqual(object["route"] as? String, "/v1/render")
        XCTAssertEqual(object["status"] as? Int, 200)
        XCTAssertEqual(object["duration"] as? Double, 0.0125)
        XCTAssertEqual(object["bytes"] as? Int, 4096)
        XCTAssertNil(object["cause"])
        let time = try XCTUnwrap(object["time"] as? String)
        XCTAssertNotNil(time.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression), time)
        let parsed = try XCTUnwrap(Self.rfc3339.date(from: time))
        XCTAssertLessThan(abs(parsed.timeIntervalSinceNow), 5)
        let text = String(decoding: lines.all[0], as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#"{"time":"#), text)
        XCTAssertTrue(text.contains(#""message":"request","request_id":"abc-1","method":"POST","route":"#), text)
    }

    /// Buffered `info` lines reach the sink only as one batch — when the capacity is reached or
    /// on `flush()` — whole and in order; a `notice` or a 5xx line takes everything pending with
    /// it at once; a line larger than the buffer goes alone.
    func testBufferedLinesGoOutInBatchesInOrderAndUrgentLinesAtOnce() throws {
        let writes = Lines()
        let buffer = LogBuffer(capacity: 600, output: writes.append)
        let logger = RequestLog.logger(output: .buffer(buffer))
        for i in 0..<3 {
            logger.requestFinished(id: "id-\(i)", method: "GET", route: "/v1/presets", status: 200, seconds: 0.001, bytes: 15)
        }
        XCTAssertEqual(writes.all.count, 0, "info lines below the capacity stay in the buffer")
        logger.requestFinished(id: "id-3", method: "GET", route: "/v1/presets", status: 200, seconds: 0.001, bytes: 15)
        XCTAssertEqual(writes.all.count, 1, "the line that fills the buffer writes the batch")
        XCTAssertEqual(try Self.requestIDs(in: writes.all[0]), ["id-0", "id-1", "id-2", "id-3"])

        logger.requestFinished(id: "id-4", method: "GET", route: "/v1/presets", status: 200, seconds: 0.001, bytes: 15)
        logger.requestFinished(id: "id-5", method: "POST", route: "/v1/render", status: 503, seconds: 0.001, bytes: 90,
                               cause: "every worker is busy")
        XCTAssertEqual(writes.all.count, 2, "a 5xx line is written at once, with what was pending")
        XCTAssertEqual(try Self.requestIDs(in: writes.all[1]), ["id-4", "id-5"])

        logger.requestFinished(id: "id-6", method: "GET", route: "/v1/presets", status: 200, seconds: 0.001, bytes: 15)
        logger.notice("draining")
        XCTAssertEqual(writes.all.count, 3, "a notice goes out at once, with what was pending")
        let last = String(decoding: writes.all[2], as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(last.count, 2)
        XCTAssertTrue(last[1].contains(#""message":"draining""#), String(last[1]))

        logger.requestFinished(id: "id-7", method: "GET", route: "/v1/presets", status: 200, seconds: 0.001, bytes: 15)
        buffer.flush()
        buffer.flush()
        XCTAssertEqual(writes.all.count, 4, "flush writes what is pending, and nothing when nothing is")
        XCTAssertEqual(try Self.requestIDs(in: writes.all[3]), ["id-7"])

        let small = Lines()
        let tiny = LogBuffer(capacity: 16, output: small.append)
        RequestLog.logger(output: .buffer(tiny))
            .requestFinished(id: "id-8", method: "GET", route: "/v1/presets", status: 200, seconds: 0.001, bytes: 15)
        XCTAssertEqual(try Self.requestIDs(in: try XCTUnwrap(small.all.first)), ["id-8"], "a line over the capacity goes alone")
    }

    /// A service keeps its `info` lines in its buffer until `flushLog()`; with `logBufferBytes` 0
    /// every line reaches the sink as it is written.
    func testTheServiceBuffersItsLogUnlessTheBufferIsZero() throws {
        for bytes in [64 << 10, 0] {
            let lines = Lines()
            var configuration = ServiceConfiguration()
            configuration.logSink = lines.append
            configuration.logBufferBytes = bytes
            let service = SegueService(configuration: configuration)
            service.logger.requestFinished(id: "svc-1", method: "GET", route: "/v1/presets", status: 200, seconds: 0.001, bytes: 15)
            XCTAssertEqual(lines.all.count, bytes == 0 ? 1 : 0, "buffer of \(bytes) bytes")
            service.flushLog()
            XCTAssertEqual(try lines.all.flatMap { try Self.requestIDs(in: $0) }, ["svc-1"], "buffer of \(bytes) bytes")
        }
    }

    /// The `request_id`s of the JSON lines in one write.
    private static func requestIDs(in write: [UInt8]) throws -> [String] {
        XCTAssertEqual(write.last, 0x0A, "a write ends with a whole line")
        return try write.split(separator: 0x0A).map { line in
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            return try XCTUnwrap(object["request_id"] as? String)
        }
    }

    /// `RequestLog`'s direct request line is byte for byte the line swift-log's metadata path
    /// writes for the same fields (a handler with metadata of its own takes that path).
    func testTheDirectRequestLineEqualsTheMetadataLine() throws {
        let direct = Lines(), general = Lines()
        var withMetadata = RequestLog.logger(sink: general.append)
        withMetadata[metadataKey: "zzz"] = "after the request fields"
        let plain = RequestLog.logger(sink: direct.append)
        for (status, seconds, cause) in [(200, 0.0125, nil), (503, 1.0, "draining"), (500, 0.0, nil), (404, 1e-7, nil)] as [(Int, Double, String?)] {
            plain.requestFinished(id: "r\\\"1", method: "POST", route: "/v1/render", status: status, seconds: seconds,
                                  bytes: 4096, cause: cause)
            withMetadata.requestFinished(id: "r\\\"1", method: "POST", route: "/v1/render", status: status,
                                         seconds: seconds, bytes: 4096, cause: cause)
        }
        XCTAssertEqual(direct.all.count, 4)
        for (a, b) in zip(direct.all, general.all) {
            // Equal after the timestamp, but for the handler's own member at the end.
            let line = String(decoding: a, as: UTF8.self), other = String(decoding: b, as: UTF8.self)
            let afterTime = { (text: String) in String(text[text.range(of: "\",\"level\"")!.lowerBound...]) }
            XCTAssertEqual(afterTime(line).replacingOccurrences(of: "}\n", with: ",\"zzz\":\"after the request fields\"}\n"),
                           afterTime(other))
        }
    }

    func testServerErrorIsLoggedAsErrorWithItsCause() throws {
        let lines = Lines()
        let logger = RequestLog.logger(sink: lines.append)
        logger.requestFinished(id: "x", method: "BREW", route: "unmatched", status: 503, seconds: 1, bytes: 0,
                               cause: "draining")
        logger.requestFinished(id: "y", method: "GET", route: "/healthz", status: 500, seconds: 0, bytes: 0)
        let objects = try lines.objects()
        XCTAssertEqual(objects.map { $0["level"] as? String }, ["error", "error"])
        XCTAssertEqual(objects.map { $0["cause"] as? String }, ["draining", "unknown"])
        XCTAssertEqual(objects[0]["method"] as? String, "other")
    }

    func testStringsAreEscapedAndMetadataFlattened() throws {
        let lines = Lines()
        var logger = RequestLog.logger(sink: lines.append)
        logger[metadataKey: "service"] = "segue"
        let nasty = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} é 🎬 \u{2028}"
        logger.warning("\(nasty)", metadata: [
            "text": .string(nasty), "time": "forged", "ok": .stringConvertible(true),
            "ratio": .stringConvertible(Double.nan), "nested": ["a": [.stringConvertible(1), "b"]],
        ])
        XCTAssertEqual(lines.all.count, 1)
        let line = lines.all[0]
        XCTAssertEqual(line.last, 0x0A)
        XCTAssertEqual(line.filter { $0 == 0x0A }.count, 1, "one line")
        XCTAssertFalse(line.contains { $0 < 0x20 && $0 != 0x0A }, "no raw control characters")
        let object = try lines.onlyObject()
        XCTAssertEqual(object["message"] as? String, nasty)
        XCTAssertEqual(object["text"] as? String, nasty)
        XCTAssertEqual(object["level"] as? String, "warning")
        XCTAssertEqual(object["service"] as? String, "segue")
        XCTAssertEqual(object["meta_time"] as? String, "forged")
        XCTAssertNotEqual(object["time"] as? String, "forged")
        XCTAssertEqual(object["ok"] as? Bool, true)
        XCTAssertEqual(object["ratio"] as? String, "nan")
        XCTAssertEqual(((object["nested"] as? [String: Any])?["a"] as? [Any])?.count, 2)
    }

    func testLevelFilterAndError() throws {
        struct Failure: Error, CustomStringConvertible { var description: String { "disk \"full\"" } }
        let lines = Lines()
        var logger = RequestLog.logger(level: .warning, sink: lines.append)
        logger.info("dropped")
        logger.error("kept", error: Failure())
        logger.requestFinished(id: "a", method: "GET", route: "/v1/presets", status: 200, seconds: 0, bytes: 2)
        logger.requestFinished(id: "b", method: "GET", route: "/healthz", status: 500, seconds: 0, bytes: 2)
        XCTAssertEqual(Logger.Level(rawValue: "critical"), .critical)
        logger.logLevel = .trace
        logger.trace("traced")
        let objects = try lines.objects()
        XCTAssertEqual(objects.map { $0["message"] as? String }, ["kept", "request", "traced"])
        XCTAssertEqual(objects[1]["request_id"] as? String, "b")
        XCTAssertEqual(objects[0]["error"] as? String, #"disk "full""#)
    }

    /// Probes and scrapes are logged at debug (a day of them would bury the requests); their
    /// failures stay errors.
    func testProbeAndScrapeLinesAreDebug() throws {
        let lines = Lines()
        var logger = RequestLog.logger(level: .info, sink: lines.append)
        for route in ["/healthz", "/readyz", "/metrics"] {
            logger.requestFinished(id: "p", method: "GET", route: route, status: 200, seconds: 0, bytes: 2)
        }
        logger.requestFinished(id: "r", method: "GET", route: "/readyz", status: 503, seconds: 0, bytes: 2)
        logger.requestFinished(id: "c", method: "POST", route: "/v1/curve", status: 200, seconds: 0, bytes: 2)
        // The 503 of a draining /readyz is an error, written at info too.
        XCTAssertEqual(try lines.objects().map { $0["request_id"] as? String }, ["r", "c"])
        logger.logLevel = .debug
        logger.requestFinished(id: "h", method: "GET", route: "/healthz", status: 200, seconds: 0, bytes: 2)
        logger.requestFinished(id: "e", method: "GET", route: "/healthz", status: 500, seconds: 0, bytes: 2)
        let objects = try lines.objects()
        XCTAssertEqual(objects.suffix(2).map { $0["level"] as? String }, ["debug", "error"])
    }

    /// The calendar arithmetic against Foundation's formatter, over four centuries of instants, and
    /// walks through consecutive milliseconds, where the thread's text of the second is used again
    /// until the second changes (before 1970 too).
    func testTimestampsMatchFoundation() {
        var generator = SplitMix64(seed: 1970)  // seeded: a rerun draws the same values
        let walks = [1_700_000_000_000, -2_000_500, 4_102_444_798_000].flatMap { start in (0..<1500).map { start + Int64($0) * 3 } }
        let instants: [Int64] = [0, -1, 951_782_400_000, 4_102_444_799_999, 1_700_000_000_123]
            + (0..<2000).map { _ in Int64.random(in: -6_000_000_000_000...9_000_000_000_000, using: &generator) } + walks
        for milliseconds in instants {
            var writer = TextWriter(capacity: 0)
            writer.run(room: LogTimestamp.length) { LogTimestamp.write(milliseconds: milliseconds, into: &$0) }
            let expected = Self.rfc3339.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), expected, "\(milliseconds)")
        }
    }

    nonisolated(unsafe) static let rfc3339: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    /// Every level is written under swift-log's name for it.
    func testEachLevelIsWrittenByItsName() throws {
        let lines = Lines()
        let logger = RequestLog.logger(level: .trace, sink: lines.append)
        for level in Logger.Level.allCases { logger.log(level: level, "m") }
        XCTAssertEqual(try lines.objects().map { $0["level"] as? String }, Logger.Level.allCases.map(\.rawValue))
    }

    /// A metadata value whose `description` logs through the same buffered logger gets its line
    /// written (the buffer's lock is not held while the outer line is formatted), then the outer.
    func testAMetadataValueThatLogsDoesNotDeadlockTheBuffer() throws {
        let lines = Lines()
        let buffer = LogBuffer(capacity: 1 << 16, output: lines.append)
        let logger = RequestLog.logger(output: .buffer(buffer))
        logger.info("outer", metadata: ["value": .stringConvertible(Chatty(logger: logger))])
        buffer.flush()
        let written = lines.all.flatMap { $0 }.split(separator: 0x0A)
        let messages = try written.map { line in
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])["message"] as? String
        }
        XCTAssertEqual(messages, ["inner", "outer"])
    }

    private struct Chatty: CustomStringConvertible, Sendable {
        let logger: Logger
        var description: String {
            logger.info("inner")
            return "chatty"
        }
    }

    // MARK: Request ids

    func testRequestIDValidation() {
        let valid = ["a", "abc-123", "0f8fad5b-d9cb-469f-a165-70867728950e", "01ARZ3NDEKTSV4RRFFQ69G5FAV",
                     "a.b_c~d:e+f/g=h", "dGVzdA==", String(repeating: "x", count: 128)]
        let invalid = ["", String(repeating: "x", count: 129), "a b", "a\nb", "a\rb", "a\tb", "a\"b", "a,b", "a;b",
                       "é", "a\u{0}", "a\u{7F}", "<script>", "a\\b", "🎬"]
        for id in valid {
            XCTAssertTrue(RequestID.isValid(id), id)
            XCTAssertEqual(RequestID.resolve(id).description, id)
        }
        for id in invalid {
            XCTAssertFalse(RequestID.isValid(id), id.debugDescription)
            XCTAssertNotEqual(RequestID.resolve(id).description, id)
        }
        XCTAssertTrue(RequestID.isValid(RequestID.resolve(nil).description))
    }

    func testGeneratedRequestIDsAreHexAndDistinct() {
        let ids = (0..<100_000).map { _ in RequestID.generate().description }
        XCTAssertEqual(Set(ids).count, ids.count)
        for id in ids.prefix(1000) {
            XCTAssertEqual(id.utf8.count, 16)
            XCTAssertTrue(id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }, id)
        }
    }

    /// The word-at-a-time hex digits against `String(_:radix:)`, zero-padded to 16: every digit
    /// value at every position, and random values.
    func testRequestIDDigitsMatchStringRadix() {
        var generator = SplitMix64(seed: 16)  // seeded: a rerun draws the same values
        let singleDigits = (0..<16).flatMap { position in (0..<16).map { UInt64($0) << (4 * UInt64(position)) } }
        let values = [0, .max, 0x0123_4567_89AB_CDEF, 0xFEDC_BA98_7654_3210] + singleDigits
            + (0..<10_000).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
        for value in values {
            var text = [UInt8](repeating: 0, count: 16)
            text.withUnsafeMutableBytes { RequestID.hex(value, at: $0.baseAddress!) }
            let expected = String(value, radix: 16)
            XCTAssertEqual(String(decoding: text, as: UTF8.self), String(repeating: "0", count: 16 - expected.count) + expected)
        }
    }
}

/// Collects the lines a `RequestLog` writes.
private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [[UInt8]] = []

    var all: [[UInt8]] { lock.withLock { lines } }

    func append(_ line: [UInt8]) { lock.withLock { lines.append(line) } }

    func objects() throws -> [[String: Any]] {
        try all.map { line in
            XCTAssertEqual(line.last, 0x0A)
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.dropLast())) as? [String: Any])
        }
    }

    func onlyObject() throws -> [String: Any] {
        let objects = try objects()
        XCTAssertEqual(objects.count, 1)
        return try XCTUnwrap(objects.first)
    }
}

/// A Prometheus text format 0.0.4 reader, strict enough to fail on anything malformed: every line
/// is `# HELP name text`, `# TYPE name type` or `name{label="value",…} number`, a family's TYPE
/// comes before its samples and only once, and every sample belongs to a typed family.
private struct Exposition {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct Malformed: Error { var line: String }

    var types: [String: String] = [:]
    var helps: [String: String] = [:]
    var familyOrder: [String] = []
    var samples: [Sample] = []

    init(_ bytes: [UInt8]) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasSuffix("\n") else { throw Malformed(line: "no final newline") }
        for line in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
            try read(String(line))
        }
    }

    private mutating func read(_ line: String) throws {
        if line.hasPrefix("# ") {
            let parts = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard parts.count == 4, ["HELP", "TYPE"].contains(parts[1]) else { throw Malformed(line: line) }
            if parts[1] == "HELP" { helps[parts[2]] = parts[3]; return }
            guard ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]), types[parts[2]] == nil
            else { throw Malformed(line: line) }
            types[parts[2]] = parts[3]
            familyOrder.append(parts[2])
            return
        }
        let sample = try Self.sample(line)
        let family = ["_bucket", "_sum", "_count"].reduce(sample.name) { name, suffix in
            types[name] == nil && name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
        }
        guard family == familyOrder.last else { throw Malformed(line: "sample outside its family: " + line) }
        samples.append(sample)
    }

    private static func sample(_ line: String) throws -> Sample {
        var rest = Substring(line)
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
        guard !name.isEmpty, !name.first!.isNumber else { throw Malformed(line: line) }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let (key, value) = try label(&rest, line)
                guard labels.updateValue(value, forKey: key) == nil else { throw Malformed(line: line) }
                if rest.first == "," { rest = rest.dropFirst() }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " ", let value = Double(rest.dropFirst()) ?? ["+Inf": .infinity][String(rest.dropFirst())]
        else { throw Malformed(line: line) }
        return Sample(name: String(name), labels: labels, value: value)
    }

    /// `key="value"` with the value's escapes (`\\`, `\"`, `\n`) undone.
    private static func label(_ rest: inout Substring, _ line: String) throws -> (String, String) {
        let key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        rest = rest.dropFirst(key.count)
        guard !key.isEmpty, rest.hasPrefix("=\"") else { throw Malformed(line: line) }
        rest = rest.dropFirst(2)
        var value = ""
        while let character = rest.popFirst() {
            switch character {
            case "\"": return (String(key), value)
            case "\\":
                guard let escaped = rest.popFirst(), ["\\", "\"", "n"].contains(escaped) else { throw Malformed(line: line) }
                value.append(escaped == "n" ? "\n" : escaped)
            case "\n": throw Malformed(line: line)
            default: value.append(character)
            }
        }
        throw Malformed(line: line)
    }

    /// The value of the one sample named `name` whose labels include `labels`.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matches = samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
        XCTAssertLessThanOrEqual(matches.count, 1, "\(name) \(labels)")
        return matches.first?.value
    }
}
