import SegueHTTP
#if canImport(Glibc)
import Glibc
#endif

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

        let server = HTTPServer(service: SegueService(configuration: options.service))
        do {
            try server.start(options.listen)
        } catch {
            printError("segue: \(error.description)\n")
            return 1
        }
        print("segue listening on http://\(options.listen.host):\(server.port) "
              + "(\(options.listen.threads) thread\(options.listen.threads == 1 ? "" : "s"))")
        fflush(nil)
        var received: Int32 = 0
        sigwait(&signals, &received)
        server.shutdown()
        print("segue stopped (signal \(received))")
        fflush(nil)
        return 0
    }

    static func printError(_ text: String) {
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
