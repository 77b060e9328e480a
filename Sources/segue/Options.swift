import ArgumentParser
import Logging
import SegueHTTP

/// The request limits (docs/rules.md "Limits"), shared by `serve`, `curve` and `render` so that the
/// command line refuses what a server with the same settings refuses (docs/cli.md "Options").
struct LimitOptions: SettingGroup {
    static var settings: [Setting<LimitOptions>] { Table.all }

    @Option(Table.maxBody) var maxBody: Int?
    @Option(Table.maxDepth) var maxDepth: Int?
    @Option(Table.maxDuration) var maxDuration: Double?
    @Option(Table.maxSamples) var maxSamples: Int?
    @Option(Table.maxNumbers) var maxNumbers: Int?
    @Option(Table.maxViews) var maxViews: Int?
    @Option(Table.maxAnimations) var maxAnimations: Int?
    @Option(Table.maxSteps) var maxSteps: Int?
    @Option(Table.maxWork) var maxWork: Int?

    /// The rows of docs/cli.md's table that these options declare.
    enum Table {
        typealias Row = Setting<LimitOptions>
        static let maxBody = Row("max-body", "largest request body in bytes", value: "bytes", accepts: .range(1...(1 << 30)),
                                 flag: \.maxBody, sets: \.service.limits.maxBodyBytes)
        static let maxDepth = Row("max-depth", "deepest JSON nesting", value: "n", accepts: .range(1...10_000),
                                  flag: \.maxDepth, sets: \.service.limits.maxDepth)
        static let maxDuration = Row("max-duration", "longest duration in seconds", value: "seconds", accepts: Accepted<Double>.positive,
                                     flag: \.maxDuration, sets: \.service.limits.maxDuration)
        static let maxSamples = Row("max-samples", "most samples or frames per response", value: "n", accepts: .range(2...100_000_000),
                                    flag: \.maxSamples, sets: \.service.limits.maxSamples)
        static let maxNumbers = Row("max-numbers", "most numbers per response", value: "n", accepts: .range(3...1_000_000_000),
                                    flag: \.maxNumbers, sets: \.service.limits.maxNumbers)
        static let maxViews = Row("max-views", "most views in a render", value: "n", accepts: .range(1...1_000_000),
                                  flag: \.maxViews, sets: \.service.limits.maxViews)
        static let maxAnimations = Row("max-animations", "most animations and commands", value: "n", accepts: .range(1...10_000_000),
                                       flag: \.maxAnimations, sets: \.service.limits.maxAnimations)
        static let maxSteps = Row("max-steps",
                                  "most physics work (rest tests, Euler ticks, RK4 steps, per component) a render may do",
                                  value: "n", accepts: .range(1...1_000_000_000), flag: \.maxSteps, sets: \.service.limits.maxSimulationSteps)
        static let maxWork = Row("max-work", "estimated work per request, in units of about a nanosecond of one core",
                                 value: "units", accepts: .range(1_000_000...1_000_000_000_000_000), flag: \.maxWork, sets: \.service.limits.maxWork)

        static let all = [maxBody, maxDepth, maxDuration, maxSamples, maxNumbers, maxViews, maxAnimations, maxSteps, maxWork]
    }

}

/// A batch's limits (rule 37), shared by `serve` and `batch`.
struct BatchLimitOptions: SettingGroup {
    static var settings: [Setting<BatchLimitOptions>] { Table.all }

    @Option(Table.maxBatchLines) var maxBatchLines: Int?
    @Option(Table.maxBatchBody) var maxBatchBody: Int?
    @Option(Table.maxBatchWork) var maxBatchWork: Double?

    /// The rows of docs/cli.md's table that these options declare.
    enum Table {
        typealias Row = Setting<BatchLimitOptions>
        static let maxBatchLines = Row("max-batch-lines", "most lines in a batch", value: "n", accepts: .range(1...1_000_000),
                                       flag: \.maxBatchLines, sets: \.service.limits.maxBatchLines)
        static let maxBatchBody = Row("max-batch-body", "largest batch body in bytes", value: "bytes", accepts: .range(1...(1 << 32)),
                                      flag: \.maxBatchBody, sets: \.service.limits.maxBatchBodyBytes)
        static let maxBatchWork = Row("max-batch-work", "estimated work per batch, in units of about a nanosecond of one core",
                                      note: "100 × --max-work unless given", value: "units", accepts: .range(1e6...1e18),
                                      flag: \.maxBatchWork, sets: \.batchWork)

        static let all = [maxBatchLines, maxBatchBody, maxBatchWork]
    }
}

/// The options only a server has: its socket, threads, cache, deadlines and log level.
struct ServerOptions: SettingGroup {
    static var settings: [Setting<ServerOptions>] { Table.all }

    @Option(Table.host) var host: String?
    @Option(Table.port) var port: UInt16?
    @Option(Table.threads) var threads: Int?
    @Option(Table.workers) var workers: Int?
    @Option(Table.inlineWork) var inlineWork: Double?
    @Option(Table.corsOrigin) var corsOrigin: String?
    @Option(Table.cacheEntries) var cacheEntries: Int?
    @Option(Table.cacheBytes) var cacheBytes: Int?
    @Option(Table.timeout) var timeout: UInt32?
    @Option(Table.headerTimeout) var headerTimeout: Double?
    @Option(Table.requestTimeout) var requestTimeout: Double?
    @Option(Table.bodyTimeout) var bodyTimeout: Double?
    @Option(Table.bodyMinRate) var bodyMinRate: Int?
    @Option(Table.maxConnections) var maxConnections: UInt32?
    @Option(Table.maxConnectionsPerClient) var maxConnectionsPerClient: UInt32?
    @Option(Table.maxResponseMemory) var maxResponseMemory: Int?
    @Option(Table.maxBodyMemory) var maxBodyMemory: Int?
    @Option(Table.drainTimeout) var drainTimeout: Double?
    @Option(Table.logLevel) var logLevel: Logger.Level?
    @Option(Table.logBuffer) var logBuffer: Int?

    /// The rows of docs/cli.md's table that these options declare.
    enum Table {
        typealias Row = Setting<ServerOptions>
        static let host = Row("host", "address to listen on; :: takes IPv6 and IPv4 clients on one socket",
                              note: "0.0.0.0 in the container", value: "address", accepts: Accepted<String>.address,
                              flag: \.host, sets: \.listen.host)
        static let port = Row("port", "TCP port", note: "0 picks a free one", value: "port", accepts: .range(0...UInt16.max),
                              flag: \.port, sets: \.listen.port)
        static let threads = Row("threads", "libmicrohttpd I/O threads; they answer /healthz, /readyz and /metrics at once",
                                 value: "n", accepts: .range(1...256), flag: \.threads, sets: \.listen.threads)
        static let workers = Row("workers", "threads that compute curves and renders",
                                 note: "one per core", value: "n", accepts: .range(1...256), flag: \.workers, sets: \.workers)
        static let inlineWork = Row("inline-work", "most estimated work of a curve answered on the I/O thread that read it, "
                                    + "in units of about a nanosecond; a dearer one goes to a worker",
                                    note: "0 sends every curve to a worker", value: "units", accepts: .range(0...1e9),
                                    flag: \.inlineWork, sets: \.listen.inlineWork)
        static let corsOrigin = Row("cors-origin", "Access-Control-Allow-Origin: * or a comma-separated list of origins, each echoed when it asks",
                                    value: "origins", accepts: Accepted<String>.line,
                                    flag: \.corsOrigin, sets: \.service.corsOrigin)
        static let cacheEntries = Row("cache-entries", "responses kept for identical requests", note: "0 turns the cache off",
                                      value: "n", accepts: .range(0...10_000_000), flag: \.cacheEntries, sets: \.service.cacheEntries)
        static let cacheBytes = Row("cache-bytes", "total body bytes the cache keeps", value: "bytes", accepts: .range(0...(1 << 40)),
                                    flag: \.cacheBytes, sets: \.service.cacheBytes)
        static let timeout = Row("timeout", "seconds a connection may go without progress, e.g. a client that stops reading",
                                 value: "seconds", accepts: .range(1...86_400), flag: \.timeout, sets: \.listen.connectionTimeout)
        static let headerTimeout = Row("header-timeout",
                                       "seconds to send a complete request header; a trickle does not extend it",
                                       value: "seconds", accepts: .range(0.1...3600), flag: \.headerTimeout, sets: \.listen.headerTimeout)
        static let requestTimeout = Row("request-timeout",
                                        "seconds a request may wait for and use a worker, from its complete body, before a 503",
                                        value: "seconds", accepts: .range(0.1...3600), flag: \.requestTimeout, sets: \.listen.requestTimeout)
        static let bodyTimeout = Row("body-timeout", "seconds after the header a request body may take before it must keep up "
                                     + "--body-min-rate; then 408 and the connection closed",
                                     value: "seconds", accepts: .range(0.1...3600), flag: \.bodyTimeout, sets: \.listen.bodyTimeout)
        static let bodyMinRate = Row("body-min-rate", "bytes a second a request body must average after --body-timeout",
                                     note: "0 holds the whole body to --body-timeout", value: "bytes", accepts: .range(0...1_000_000_000),
                                     flag: \.bodyMinRate, sets: \.listen.bodyMinRate)
        static let maxConnections = Row("max-connections", "open connections in total", value: "n", accepts: .range(1...1_000_000),
                                        flag: \.maxConnections, sets: \.listen.connectionLimit)
        static let maxConnectionsPerClient = Row("max-connections-per-client", "open connections per client address",
                                                 value: "n", accepts: .range(1...1_000_000), flag: \.maxConnectionsPerClient,
                                                 sets: \.listen.connectionLimitPerClient)
        static let maxResponseMemory = Row("max-response-memory",
                                           "bytes held at most for answers not yet sent, over all connections; then 503",
                                           value: "bytes", accepts: .range((1 << 20)...(1 << 40)), flag: \.maxResponseMemory,
                                           sets: \.listen.responseMemoryLimit)
        static let maxBodyMemory = Row("max-body-memory",
                                       "bytes of request bodies held at most, over all connections, until their requests complete; then 503",
                                       value: "bytes", accepts: .range((1 << 20)...(1 << 40)), flag: \.maxBodyMemory,
                                       sets: \.listen.bodyMemoryLimit)
        static let drainTimeout = Row("drain-timeout", "seconds SIGTERM waits for requests in flight before exiting",
                                      value: "seconds", accepts: .range(0.1...3600), flag: \.drainTimeout, sets: \.drainTimeout)
        static let logLevel = Row("log-level", "least severe log level", value: "level", accepts: Accepted<Logger.Level>.level,
                                  flag: \.logLevel, sets: \.service.logLevel)
        static let logBuffer = Row("log-buffer", "bytes of info log lines gathered before one write; they also go every 100 ms, "
                                   + "notice and above at once",
                                   note: "0 writes every line as it comes", value: "bytes", accepts: .range(0...(1 << 24)),
                                   flag: \.logBuffer, sets: \.service.logBufferBytes)

        static let all = [host, port, threads, workers, inlineWork, corsOrigin, cacheEntries, cacheBytes, timeout, headerTimeout,
                          requestTimeout, bodyTimeout, bodyMinRate, maxConnections, maxConnectionsPerClient, maxResponseMemory,
                          maxBodyMemory, drainTimeout, logLevel, logBuffer]
    }

}
