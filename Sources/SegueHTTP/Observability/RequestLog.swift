import Logging
import SegueJSON
#if canImport(Glibc)
import Glibc
#endif

/// A swift-log `LogHandler` that writes one JSON object per line (docs/rules.md rule 30), to
/// standard error by default:
///
///     {"time":"2025-11-25T08:08:01.234Z","level":"info","message":"request","request_id":"…",
///      "method":"POST","route":"/v1/render","status":200,"duration":0.0021,"bytes":5120}
///
/// Members: `time` (RFC 3339, UTC, milliseconds), `level` (`trace`…`critical`), `message`, then the
/// metadata flattened into the object — the handler's, the metadata provider's, then the call's,
/// a later one replacing an earlier one with the same key — with the request fields first in
/// `leadingKeys` order and the rest sorted by key; then `error` when the call passed one.
/// Integers, floating-point numbers and booleans given as `stringConvertible` stay JSON numbers and
/// booleans (non-finite numbers become strings); dictionaries and arrays nest. A metadata key that
/// collides with `time`, `level` or `message` is written as `meta_` + key. Strings are escaped by
/// `TextWriter` (quotes, backslashes, control characters; other Unicode as UTF-8).
///
/// Each line goes to the sink whole — the default sink passes it to one `write(2)` on fd 2, so
/// lines up to `PIPE_BUF` (4096 bytes) are atomic on a pipe and lines from different threads never
/// interleave on it. With a `LogBuffer` the lines go to the sink in batches instead, whole lines
/// in order; lines at `notice` and above at once (see `LogBuffer` for what a crash may lose).
public struct RequestLog: LogHandler {
    /// Receives each complete line, its `\n` included.
    public typealias Sink = @Sendable ([UInt8]) -> Void

    /// Metadata written first, in this order, when present; everything else follows sorted.
    public static let leadingKeys = ["request_id", "method", "route", "status", "duration", "bytes", "cause"]
    private static let reservedKeys: Set<String> = ["time", "level", "message"]

    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    /// Least severe level written. Default `info`; `Logger.Level(rawValue:)` reads the names
    /// `trace`, `debug`, `info`, `notice`, `warning`, `error`, `critical`.
    public var logLevel: Logger.Level
    private let output: Output

    /// Where finished lines go.
    public enum Output: Sendable {
        /// Each line as it is written.
        case sink(Sink)
        /// Gathered and written in batches, `notice` and above at once (`LogBuffer`).
        case buffer(LogBuffer)
    }

    public init(level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil,
                output: Output = .sink(RequestLog.standardError)) {
        logLevel = level
        self.metadataProvider = metadataProvider
        self.output = output
    }

    /// A logger whose handler is a `RequestLog`, without touching the global `LoggingSystem`.
    public static func logger(label: String = "segue", level: Logger.Level = .info,
                              output: Output = .sink(RequestLog.standardError)) -> Logger {
        Logger(label: label) { _ in RequestLog(level: level, output: output) }
    }

    /// A logger writing each line to `sink` as it comes.
    public static func logger(label: String = "segue", level: Logger.Level = .info, sink: @escaping Sink) -> Logger {
        logger(label: label, level: level, output: .sink(sink))
    }

    /// The line `write` puts into `room` bytes (its `\n` included) to the sink, or written in place
    /// into the buffer, under its lock: `write` must not log.
    private func emit(level: Logger.Level, room: Int, _ write: (inout TextRun) -> Void) {
        switch output {
        case .sink(let sink):
            var bytes: [UInt8] = []
            TextRun.append(to: &bytes, room: room, write)
            sink(bytes)
        case .buffer(let buffer): buffer.append(urgent: level >= .notice, room: room, write)
        }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let given = event.metadata { merged = merged.isEmpty ? given : merged.merging(given) { $1 } }
        if let error = event.error, merged["error"] == nil { merged["error"] = .string(String(describing: error)) }
        // Written before the buffer's lock is taken: a metadata value's `description` is the
        // caller's code, and may itself log (the lock is not re-entrant).
        var writer = TextWriter(capacity: 256)
        Self.line(level: event.level, message: event.message.description, metadata: merged, into: &writer)
        let line = writer.bytes
        emit(level: event.level, room: line.count) { $0.copy(line) }
    }

    /// One log line, `\n` included, stamped with the current time.
    static func line(level: Logger.Level, message: String, metadata: Logger.Metadata, into writer: inout TextWriter) {
        writer.run(room: headRoom) { head(level: level, into: &$0) }
        writer.string(message)
        // `leadingKeys` first in their order, then the rest by key; one pass, no lookups.
        let members = metadata.map { (rank: leadingKeys.firstIndex(of: $0.key) ?? leadingKeys.count, $0.key, $0.value) }
        for (_, key, value) in members.sorted(by: { ($0.rank, $0.1) < ($1.rank, $1.1) }) {
            writer.byte(0x2C)
            writer.string(reservedKeys.contains(key) ? "meta_" + key : key)
            writer.byte(0x3A)
            writer.metadataValue(value)
        }
        writer.raw("}\n")
    }

    /// `{"time":"…","level":"…","message":` — the start every line shares; the message follows.
    private static func head(level: Logger.Level, into run: inout TextRun) {
        run.raw("{\"time\":\"")
        LogTimestamp.now(into: &run)
        run.raw("\",\"level\":\"")
        run.raw(Self.name(of: level))
        run.raw("\",\"message\":")
    }

    /// The most bytes `head` writes: its fixed text, the timestamp and the longest level name.
    private static let headRoom = 32 + LogTimestamp.length + 8

    /// `level.rawValue` as fixed text: appending the `String` took the generic sequence path.
    private static func name(of level: Logger.Level) -> StaticString {
        switch level {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        case .critical: "critical"
        }
    }

    /// The line of an answered request (`Logger.requestFinished`), written field by field: the same
    /// bytes `line` writes for that metadata, without building swift-log's metadata dictionary,
    /// sorting it and casting each value back, which cost more than answering a cached request
    /// (docs/http.md "Instructions per request"). Only for a handler with no
    /// metadata of its own and no provider, whose line holds the request's fields alone.
    @discardableResult
    func requestLine(_ fields: RequestFields) -> Bool {
        let level = fields.level
        guard level >= logLevel, metadata.isEmpty, metadataProvider == nil else { return false }
        emit(level: level, room: Self.room(of: fields)) { Self.requestLine(fields, into: &$0) }
        return true
    }

    /// The room of `requestLine`: the head, the fixed text, the three numbers' room and each
    /// string's. The id (a client's may be 128 bytes) and a 5xx's cause (any text) are measured;
    /// the route, a short label (`RouteMatch.label`), gets its most. The method is one of the fixed
    /// labels, written as it is between quotes.
    private static func room(of fields: RequestFields) -> Int {
        headRoom + requestLineRoom + fields.id.jsonRoom + fields.method.utf8CodeUnitCount + 2
            + TextRun.stringRoom(count: fields.route.label.utf8.count)
            + (fields.cause.map { cause in TextRun.stringRoom(cause) + 9 } ?? 0)
    }

    /// The bytes of `requestLine`, written in one `TextRun` of `room(of:)`.
    private static func requestLine(_ fields: RequestFields, into line: inout TextRun) {
        head(level: fields.level, into: &line)
        line.raw("\"request\",\"request_id\":")
        fields.id.write(into: &line)
        line.raw(",\"method\":\"")
        line.raw(fields.method)
        line.raw("\",\"route\":")
        line.string(fields.route.label)
        line.raw(",\"status\":")
        line.integer(Int64(fields.status))
        line.raw(",\"duration\":")
        // Measured in nanoseconds (`SegueService.observe`): written from them, the same text.
        fields.seconds.isFinite ? line.number(fields.seconds, scale: 9) : line.string(fields.seconds.description)
        line.raw(",\"bytes\":")
        line.integer(Int64(fields.bytes))
        if let cause = fields.cause {
            line.raw(",\"cause\":")
            line.string(cause)
        }
        line.raw("}\n")
    }

    /// Room for `requestLine`'s fixed text after the head (75 bytes, and the method's two quotes
    /// counted with the method in `room(of:)`) and its three numbers, each
    /// given `TextWriter.numberRoom` (a non-finite duration's text, "-inf" or "nan", is shorter).
    private static let requestLineRoom = 75 + 3 * TextWriter.numberRoom

    /// What the line of an answered request says (docs/rules.md rule 30).
    struct RequestFields {
        var id: RequestID, method: StaticString, route: RouteMatch, status: Int, seconds: Double, bytes: Int, cause: String?
    }

    /// The default sink: the whole line in one `write(2)` to standard error (continued only if the
    /// kernel takes part of it, or a signal interrupts it).
    public static let standardError: Sink = { line in
        line.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}

extension TextWriter {
    /// A metadata value as JSON: see `RequestLog` for the mapping.
    fileprivate mutating func metadataValue(_ value: Logger.Metadata.Value) {
        switch value {
        case .string(let text): string(text)
        case .stringConvertible(let convertible): scalar(convertible)
        case .array(let elements):
            byte(0x5B)
            for (i, element) in elements.enumerated() {
                if i > 0 { byte(0x2C) }
                metadataValue(element)
            }
            byte(0x5D)
        case .dictionary(let members):
            byte(0x7B)
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { byte(0x2C) }
                string(key)
                byte(0x3A)
                metadataValue(members[key]!)
            }
            byte(0x7D)
        }
    }

    private mutating func scalar(_ value: any CustomStringConvertible & Sendable) {
        switch value {
        case let flag as Bool: flag ? raw("true") : raw("false")
        case let integer as Int: self.integer(Int64(integer))
        case let integer as Int64: self.integer(integer)
        case let integer as Int32: self.integer(Int64(integer))
        case let integer as UInt32: self.integer(Int64(integer))
        case let double as Double where double.isFinite: number(double)
        case let float as Float where float.isFinite: number(Double(float))
        default: string(value.description)
        }
    }
}
