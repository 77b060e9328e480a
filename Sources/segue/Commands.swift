import ArgumentParser
import Logging
import SegueHTTP
#if canImport(Glibc)
import Glibc
#endif

/// `RLIMIT_NOFILE` as the type `getrlimit` takes on Glibc.
private let RLIMIT_NOFILE_ID = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

/// The `segue` command: a server, or the same service answering one request offline
/// (docs/cli.md). Synchronous on purpose: nothing here is main-actor isolated, so libmicrohttpd's
/// callbacks, which `serve` sets up, are not either.
struct Segue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segue",
        abstract: "iOS animation curves and renders, over HTTP or offline.",
        discussion: """
        `serve` runs the HTTP API. `curve`, `render` and `presets` answer one request without a \
        server, through the same service, and print the body HTTP would send. Every option can \
        also be set by its SEGUE_* environment variable; a flag wins. Exit codes: 0 success, \
        1 healthcheck failure, 64 usage error, 65 a request HTTP answers 4xx, 66 unreadable input, \
        70 a 5xx, 74 an output error (docs/cli.md).
        """,
        version: BuildInfo.description,
        subcommands: [Serve.self, Curve.self, Render.self, Batch.self, Tokens.self, Presets.self, Healthcheck.self])

    /// `segue` alone: a usage error (64), not help on a successful exit.
    mutating func run() throws {
        throw ValidationError("a subcommand is needed")
    }
}

/// Exit statuses beyond argument-parser's 0 and 64, from BSD's sysexits.h (docs/cli.md "Exit codes").
enum ExitStatus {
    /// EX_DATAERR: the request is bad; HTTP would answer 4xx.
    static let dataError = ExitCode(65)
    /// EX_NOINPUT: the request file cannot be opened or read.
    static let noInput = ExitCode(66)
    /// EX_SOFTWARE: HTTP would answer 5xx.
    static let software = ExitCode(70)
    /// EX_IOERR: standard output or standard error could not be written (a closed pipe, a full disk).
    static let ioError = ExitCode(74)
}

/// `segue serve`: the HTTP API until SIGINT or SIGTERM, then a drain (docs/http.md "Graceful shutdown").
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the HTTP API.",
        discussion: "Options are resolved flag first, then the SEGUE_* variable, then the default.")

    @OptionGroup(title: "Server") var server: ServerOptions
    @OptionGroup(title: "Request limits") var limits: LimitOptions
    @OptionGroup(title: "Batch limits") var batchLimits: BatchLimitOptions

    mutating func run() throws {
        var configuration = Configuration()
        let environment = Environment.variables
        try server.resolve(environment: environment, into: &configuration)
        try limits.resolve(environment: environment, into: &configuration)
        try batchLimits.resolve(environment: environment, into: &configuration)
        let status = Self.serve(configuration)
        if status != 0 { throw ExitCode(status) }
    }

    /// Serves until SIGINT or SIGTERM, then drains in-flight requests and returns 0; 1 when the
    /// server cannot start (the address is taken, for instance).
    static func serve(_ options: Configuration) -> Int32 {
        // Block the signals before libmicrohttpd starts its threads, so that only sigwait sees
        // them (docs/http.md "Graceful shutdown").
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        raiseOpenFileLimit()
        let service = SegueService(configuration: options.service)
        let server = HTTPServer(service: service, listen: options.listen)
        do {
            try server.start()
        } catch {
            StandardStreams.printError("segue: \(error.description)\n")
            return 1
        }
        print("segue listening on http://\(ListenConfiguration.urlHost(options.listen.host)):\(server.port) "
              + "(\(options.listen.threads) I/O thread\(options.listen.threads == 1 ? "" : "s"), "
              + "\(options.listen.workers) worker\(options.listen.workers == 1 ? "" : "s"))")
        fflush(nil)
        service.logger.info("listening", metadata: ["host": .string(options.listen.host), "port": .stringConvertible(server.port)])
        var received: Int32 = 0
        sigwait(&signals, &received)
        service.logger.notice("draining", metadata: ["signal": .stringConvertible(received),
                                                     "drain_timeout": .stringConvertible(options.drainTimeout)])
        server.shutdown(drainSeconds: options.drainTimeout)
        service.logger.notice("stopped")
        print("segue stopped (signal \(received))")
        fflush(nil)
        return 0
    }

    /// Each connection holds two descriptors (libmicrohttpd's and the transport's duplicate): lift
    /// the soft limit on open files to the hard one.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_ID, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(RLIMIT_NOFILE_ID, &limit)
    }
}

/// `segue healthcheck`: GET /healthz on the server's address — the loopback of its family for a
/// wildcard — and exit 0 on a 200, 1 otherwise (the container's HEALTHCHECK; the runtime image has
/// no curl). It reads the server's own SEGUE_HOST and SEGUE_PORT.
struct Healthcheck: ParsableCommand, SettingGroup {
    static let configuration = CommandConfiguration(
        abstract: "GET /healthz on the server's host (:: as ::1, 0.0.0.0 as 127.0.0.1); exit 0 when it answers 200, else 1.")

    @Option(Self.hostSetting) var host: String?
    @Option(Self.portSetting) var port: UInt16?

    static let hostSetting = Setting<Healthcheck>("host", "address of the server to check; :: is probed on ::1, 0.0.0.0 on 127.0.0.1",
                                                   value: "address", accepts: Accepted<String>.address, flag: \.host, sets: \.listen.host)
    static let portSetting = Setting<Healthcheck>("port", "TCP port of the server to check", note: "0 means 8080",
                                                   value: "port", accepts: .range(0...UInt16.max), flag: \.port, sets: \.listen.port)
    static var settings: [Setting<Healthcheck>] { [hostSetting, portSetting] }

    mutating func run() throws {
        var configuration = Configuration()
        try resolve(environment: Environment.variables, into: &configuration)
        // 0 also means 8080: there is no server on port 0 to check.
        let port = configuration.listen.port == 0 ? 8080 : configuration.listen.port
        if !HealthCheck.run(host: configuration.listen.host, port: port) {
            throw ExitCode.failure
        }
    }
}
