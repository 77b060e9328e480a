import Logging
import SegueHTTP

/// `segue serve` settings from flags and environment variables (a flag wins over its variable).
struct ServeOptions {
    var listen = ListenConfiguration()
    var service = ServiceConfiguration()
    /// Seconds SIGTERM waits for requests in flight (rule 31); default 10.
    var drainTimeout = 10.0

    struct Setting: Sendable {
        let flag: String
        let variable: String
        let help: String
        let apply: @Sendable (inout ServeOptions, String) -> Bool
    }

    static let settings: [Setting] = [
        Setting(flag: "--host", variable: "SEGUE_HOST", help: "address to listen on (default 127.0.0.1; 0.0.0.0 in the container)") {
            $0.listen.host = $1
            return !$1.isEmpty
        },
        Setting(flag: "--port", variable: "SEGUE_PORT", help: "TCP port (default 8080; 0 picks a free one)") {
            guard let port = UInt16($1) else { return false }
            $0.listen.port = port
            return true
        },
        Setting(flag: "--threads", variable: "SEGUE_THREADS", help: "libmicrohttpd I/O threads (default 2); they answer /healthz, /readyz and /metrics at once") {
            guard let threads = Int($1), (1...256).contains(threads) else { return false }
            $0.listen.threads = threads
            return true
        },
        Setting(flag: "--max-body", variable: "SEGUE_MAX_BODY", help: "largest request body in bytes (default 1048576)") {
            guard let bytes = Int($1), bytes > 0, bytes <= 1 << 30 else { return false }
            $0.service.limits.maxBodyBytes = bytes
            return true
        },
        Setting(flag: "--cors-origin", variable: "SEGUE_CORS_ORIGIN", help: "Access-Control-Allow-Origin (default *)") {
            $0.service.corsOrigin = $1
            return !$1.isEmpty && !$1.contains("\r") && !$1.contains("\n")
        },
        Setting(flag: "--max-depth", variable: "SEGUE_MAX_DEPTH", help: "deepest JSON nesting (default 64)") {
            guard let depth = Int($1), (1...10_000).contains(depth) else { return false }
            $0.service.limits.maxDepth = depth
            return true
        },
        Setting(flag: "--max-duration", variable: "SEGUE_MAX_DURATION", help: "longest duration in seconds (default 3600)") {
            guard let seconds = Double($1), seconds > 0, seconds.isFinite else { return false }
            $0.service.limits.maxDuration = seconds
            return true
        },
        Setting(flag: "--max-samples", variable: "SEGUE_MAX_SAMPLES", help: "most samples or frames per response (default 100000)") {
            guard let count = Int($1), count >= 2, count <= 100_000_000 else { return false }
            $0.service.limits.maxSamples = count
            return true
        },
        Setting(flag: "--max-numbers", variable: "SEGUE_MAX_NUMBERS", help: "most numbers per response (default 5000000)") {
            guard let count = Int($1), count >= 3, count <= 1_000_000_000 else { return false }
            $0.service.limits.maxNumbers = count
            return true
        },
        Setting(flag: "--max-views", variable: "SEGUE_MAX_VIEWS", help: "most views in a render (default 1000)") {
            guard let count = Int($1), (1...1_000_000).contains(count) else { return false }
            $0.service.limits.maxViews = count
            return true
        },
        Setting(flag: "--max-animations", variable: "SEGUE_MAX_ANIMATIONS", help: "most animations and commands (default 10000)") {
            guard let count = Int($1), (1...10_000_000).contains(count) else { return false }
            $0.service.limits.maxAnimations = count
            return true
        },
        Setting(flag: "--max-steps", variable: "SEGUE_MAX_STEPS",
                help: "most physics work (rest tests, Euler ticks, RK4 steps, per component) a render may do (default 4000000)") {
            guard let count = Int($1), (1...1_000_000_000).contains(count) else { return false }
            $0.service.limits.maxSimulationSteps = count
            return true
        },
        Setting(flag: "--max-work", variable: "SEGUE_MAX_WORK",
                help: "estimated work per request, in units of about a nanosecond of one core (default 2000000000)") {
            guard let units = Int($1), (1_000_000...1_000_000_000_000_000).contains(units) else { return false }
            $0.service.limits.maxWork = units
            return true
        },
        Setting(flag: "--cache-entries", variable: "SEGUE_CACHE_ENTRIES",
                help: "responses kept for identical requests (default 4096; 0 turns the cache off)") {
            guard let count = Int($1), (0...10_000_000).contains(count) else { return false }
            $0.service.cacheEntries = count
            return true
        },
        Setting(flag: "--cache-bytes", variable: "SEGUE_CACHE_BYTES", help: "total body bytes the cache keeps (default 67108864)") {
            guard let bytes = Int($1), bytes >= 0, bytes <= 1 << 40 else { return false }
            $0.service.cacheBytes = bytes
            return true
        },
        Setting(flag: "--timeout", variable: "SEGUE_TIMEOUT",
                help: "seconds a connection may go without progress, e.g. a client that stops reading (default 30)") {
            guard let seconds = UInt32($1), (1...86_400).contains(seconds) else { return false }
            $0.listen.connectionTimeout = seconds
            return true
        },
        Setting(flag: "--workers", variable: "SEGUE_WORKERS", help: "threads that compute curves and renders (default 2, one per core)") {
            guard let count = Int($1), (1...256).contains(count) else { return false }
            $0.listen.workers = count
            $0.listen.queueCapacity = 64 * count
            return true
        },
        Setting(flag: "--max-connections", variable: "SEGUE_MAX_CONNECTIONS", help: "open connections in total (default 1000)") {
            guard let count = UInt32($1), (1...1_000_000).contains(count) else { return false }
            $0.listen.connectionLimit = count
            return true
        },
        Setting(flag: "--max-connections-per-client", variable: "SEGUE_MAX_CONNECTIONS_PER_CLIENT",
                help: "open connections per client address (default 100)") {
            guard let count = UInt32($1), (1...1_000_000).contains(count) else { return false }
            $0.listen.connectionLimitPerClient = count
            return true
        },
        Setting(flag: "--max-response-memory", variable: "SEGUE_MAX_RESPONSE_MEMORY",
                help: "bytes held at most for answers not yet sent, over all connections; then 503 (default 67108864)") {
            guard let bytes = Int($1), bytes >= 1 << 20, bytes <= 1 << 40 else { return false }
            $0.listen.responseMemoryLimit = bytes
            return true
        },
        Setting(flag: "--header-timeout", variable: "SEGUE_HEADER_TIMEOUT",
                help: "seconds to send a complete request header; a trickle does not extend it (default 10)") {
            guard let seconds = Double($1), (0.1...3600).contains(seconds) else { return false }
            $0.listen.headerTimeout = seconds
            return true
        },
        Setting(flag: "--request-timeout", variable: "SEGUE_REQUEST_TIMEOUT",
                help: "seconds a request may wait for and use a worker before a 503 (default 10)") {
            guard let seconds = Double($1), (0.1...3600).contains(seconds) else { return false }
            $0.listen.requestTimeout = seconds
            return true
        },
        Setting(flag: "--drain-timeout", variable: "SEGUE_DRAIN_TIMEOUT",
                help: "seconds SIGTERM waits for requests in flight before exiting (default 10)") {
            guard let seconds = Double($1), (0.1...3600).contains(seconds) else { return false }
            $0.drainTimeout = seconds
            return true
        },
        Setting(flag: "--log-level", variable: "SEGUE_LOG_LEVEL",
                help: "least severe log level: trace, debug, info, notice, warning, error, critical (default info)") {
            guard let level = Logger.Level(rawValue: $1) else { return false }
            $0.service.logLevel = level
            return true
        },
    ]

    /// Environment first, then flags; a bad value is reported with the name that carried it.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> ServeOptions {
        var options = ServeOptions()
        for setting in settings {
            if let value = environment[setting.variable], !setting.apply(&options, value) {
                throw UsageError("invalid \(setting.variable)=\(value): \(setting.help)")
            }
        }
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard let setting = settings.first(where: { $0.flag == parts[0] }) else {
                throw UsageError("unknown option \(argument)")
            }
            guard let value = parts.count == 2 ? parts[1] : rest.popFirst() else {
                throw UsageError("\(setting.flag) needs a value")
            }
            guard setting.apply(&options, value) else {
                throw UsageError("invalid \(setting.flag) \(value): \(setting.help)")
            }
        }
        return options
    }

    static var help: String {
        var text = """
        usage: segue serve [options]     serve the API
               segue healthcheck [--port P]  GET /healthz on 127.0.0.1; exit 0 when it answers 200

        options (flag, environment variable):

        """
        for setting in settings {
            let flag = setting.flag.padding(to: 15)
            text += "  \(flag) \(setting.variable.padding(to: 19)) \(setting.help)\n"
        }
        return text
    }
}

struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
