import Logging
import SegueHTTP
#if canImport(Glibc)
import Glibc
#endif

/// `RLIMIT_NOFILE` as the type `getrlimit` takes on Glibc.
private let RLIMIT_NOFILE_ID = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

enum Commands {
    static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
        guard let command = arguments.first else {
            printError(ServeOptions.help)
            return 2
        }
        do throws(UsageError) {
            switch command {
            case "serve":
                return try serve(ServeOptions.parse(Array(arguments.dropFirst()), environment: environment))
            case "healthcheck":
                var options = try ServeOptions.parse(Array(arguments.dropFirst()), environment: environment)
                if options.listen.port == 0 { options.listen.port = 8080 }
                return HealthCheck.run(port: options.listen.port) ? 0 : 1
            case "help", "--help", "-h":
                print(ServeOptions.help, terminator: "")
                return 0
            default:
                throw UsageError("unknown command \(command)")
            }
        } catch {
            printError("segue: \(error.message)\n\n\(ServeOptions.help)")
            return 2
        }
    }

    /// Serves until SIGINT or SIGTERM, then drains in-flight requests and returns 0.
    static func serve(_ options: ServeOptions) -> Int32 {
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
            printError("segue: \(error.description)\n")
            return 1
        }
        print("segue listening on http://\(options.listen.host):\(server.port) "
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

    static func printError(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
