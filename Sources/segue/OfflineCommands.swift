import ArgumentParser
import SegueHTTP
#if canImport(Glibc)
import Glibc
#endif

extension ResponseFormat: ExpressibleByArgument {}

/// What `curve` and `render` share: the body and the query arguments of the request.
struct RequestOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The request body, a JSON document: a file, or - for standard input. Several files "
                                 + "need --output-dir.", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("Write each file's answer to DIR/<name>.<format's extension> instead of standard output "
                               + "(needed for several files).", valueName: "dir"))
    var outputDir: String?

    mutating func validate() throws {
        guard !files.isEmpty else { throw ValidationError("a request file is needed (- for standard input)") }
        if files.count > 1, outputDir == nil {
            throw ValidationError("several request files need --output-dir: each answer is written there")
        }
        if outputDir != nil, files.contains("-") {
            throw ValidationError("standard input (-) has no name to write its answer under: give a file with --output-dir")
        }
    }

    @Option(help: "The response format, as ?format= (default json).")
    var format: ResponseFormat?

    @Option(help: "The exports' tolerance, as ?tolerance= (default 0.001; 1e-6 to 0.1).")
    var tolerance: String?

    @Option(help: "A render export's names, as ?prefix= (default segue): @keyframes P-<view>, [data-P=\"<view>\"].")
    var prefix: String?

    @Option(help: "A CSS selector the render's CSS waits under, as ?trigger= (e.g. .is-presented).")
    var trigger: String?

    @Option(help: "transform (default) or layout, as ?geometry=: how a render export moves and sizes views.")
    var geometry: String?

    @Option(help: "px (default) or container, as ?units=: the lengths of a render export.")
    var units: String?
}

/// `segue curve FILE|-`: the body `POST /v1/curve` answers (docs/rules.md "The curve route").
struct Curve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the body POST /v1/curve answers for a request file.",
        discussion: "--format lottie is a render format: a curve answers it 406, exit 65, as over HTTP.")

    @OptionGroup var request: RequestOptions
    @OptionGroup(title: "Request limits") var limits: LimitOptions

    mutating func run() throws {
        var exchange = try OfflineExchange(limits: limits)
        try exchange.post("/v1/curve", request, expand: false)
    }
}

/// `segue render FILE|-`: the body `POST /v1/render` answers (docs/rules.md "The render route").
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the body POST /v1/render answers for a request file.")

    @OptionGroup var request: RequestOptions

    @Flag(help: "Add the request after preset expansion, as ?expand=true (JSON only).")
    var expand = false

    @OptionGroup(title: "Request limits") var limits: LimitOptions

    mutating func run() throws {
        var exchange = try OfflineExchange(limits: limits)
        try exchange.post("/v1/render", request, expand: expand)
    }
}

/// `segue batch FILE|-`: the NDJSON `POST /v1/batch` answers (docs/batch.md), written line by line
/// as each is computed.
struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the NDJSON POST /v1/batch answers for an NDJSON file of requests, one a line.",
        discussion: "Every line is answered, in order, on standard output. The exit status is 0 when every line "
            + "answered 200, else 65 after the last line, with a count of the failed lines on standard error.")

    @Argument(help: ArgumentHelp("The batch: an NDJSON file, or - for standard input.", valueName: "file"))
    var file: String

    @OptionGroup(title: "Request limits") var limits: LimitOptions
    @OptionGroup(title: "Batch limits") var batchLimits: BatchLimitOptions

    mutating func run() throws {
        var exchange = try OfflineExchange(limits: limits, batchLimits: batchLimits)
        try exchange.batch(file)
    }
}

/// `segue tokens FILE|-`: the body `POST /v1/tokens` answers (docs/tokens.md).
struct Tokens: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the CSS custom properties (or, with --format json, the resolved document) POST /v1/tokens "
            + "answers for a design-token file.")

    @OptionGroup var request: RequestOptions
    @OptionGroup(title: "Request limits") var limits: LimitOptions

    mutating func run() throws {
        var exchange = try OfflineExchange(limits: limits)
        try exchange.post("/v1/tokens", request, expand: false)
    }
}

/// `segue presets`: the body `GET /v1/presets` answers (docs/rules.md "Presets").
struct Presets: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the preset catalogue GET /v1/presets answers.")

    mutating func run() throws {
        try OfflineExchange(limits: nil).answer(HTTPRequest(method: "GET", path: "/v1/presets"))
    }
}

/// One request answered by `SegueService.respond(to:)` without a socket, so that the output is
/// the HTTP body by construction (docs/cli.md "Byte identity with HTTP"): the same pipeline, the
/// same limits, the cache off. A 2xx body goes to standard output, piece by piece for a stream;
/// any other to standard error as HTTP sends it, with exit 65 for a 4xx and 70 for a 5xx.
struct OfflineExchange {
    let service: SegueService
    /// The request file as given (`-`: standard input), named before a problem on standard error.
    private(set) var source: String?

    /// The service with `limits` resolved (the defaults for nil).
    init(limits: LimitOptions?, batchLimits: BatchLimitOptions? = nil) throws {
        var configuration = Configuration()
        try limits?.resolve(environment: Environment.variables, into: &configuration)
        try batchLimits?.resolve(environment: Environment.variables, into: &configuration)
        configuration.service.cacheEntries = 0
        configuration.service.logSink = { _ in }
        service = SegueService(configuration: configuration.service)
        // A reader that goes away (`segue render … | head`) is an EPIPE to report, not a signal.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Where a 2xx body goes: standard output, or the file it is written to.
    private var output: Int32 = 1

    /// POSTs each request file with the query the options give. One file without `--output-dir`
    /// answers on standard output; otherwise each answer goes to `DIR/<name>.<extension>`, every
    /// file is answered whatever the others gave, and the exit status is the first failure's.
    mutating func post(_ path: String, _ options: RequestOptions, expand: Bool) throws {
        guard let directory = options.outputDir else { return try post(path, options.files[0], options, expand: expand) }
        var failure: ExitCode?
        for file in options.files {
            let target = directory + "/" + Self.outputName(file, format: options.format, path: path)
            let fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else {
                StandardStreams.printError("segue: cannot write \(target): \(String(cString: strerror(errno)))\n")
                failure = failure ?? ExitStatus.ioError
                continue
            }
            output = fd
            do {
                try post(path, file, options, expand: expand)
                close(fd)
            } catch let code as ExitCode {
                // A file that was not answered leaves no output behind.
                close(fd)
                unlink(target)
                failure = failure ?? code
            }
        }
        output = 1
        if let failure { throw failure }
    }

    /// `<file name without its .json>.<extension>`: `json`, `csv`, `svg`, `css`, `waapi.json` and
    /// `lottie.json` by format; without `--format`, the route's default (`css` for tokens).
    static func outputName(_ file: String, format: ResponseFormat?, path: String) -> String {
        var name = file.split(separator: "/").last.map(String.init) ?? file
        if name.hasSuffix(".json") { name.removeLast(5) }
        let format = format ?? (path == "/v1/tokens" ? .css : .json)
        let extensions: [ResponseFormat: String] = [.waapi: "waapi.json", .lottie: "lottie.json"]
        return name + "." + (extensions[format] ?? format.rawValue)
    }

    /// POSTs a batch file; 65 after the answer when a line failed (docs/cli.md "Batches").
    mutating func batch(_ file: String) throws {
        guard let body = try read(file, path: "/v1/batch") else { return }
        let response = service.respond(to: HTTPRequest(method: "POST", path: "/v1/batch",
                                                       headers: ["content-type": "application/x-ndjson"], body: body))
        try emit(response)
        guard let failures = response.batchFailures, failures.count > 0 else { return }
        StandardStreams.printError("segue: \(file): \(failures.count) of \(failures.lines) lines failed, the first "
                                   + "at line \(failures.first) with status \(failures.firstStatus)\n")
        throw ExitStatus.dataError
    }

    /// The request file's bytes, or nil after the transport's 413 for a body over the path's limit.
    private mutating func read(_ file: String, path: String) throws -> [UInt8]? {
        source = file
        let limit = service.bodyLimit(path: path)
        let body: [UInt8]
        do {
            body = try StandardStreams.read(file, atMost: limit + 1)
        } catch {
            StandardStreams.printError(error.message)
            throw ExitStatus.noInput
        }
        guard body.count <= limit else {
            try emit(service.bodyOverLimit(path: path))
            return nil
        }
        return body
    }

    /// POSTs one request file.
    private mutating func post(_ path: String, _ file: String, _ options: RequestOptions, expand: Bool) throws {
        guard let body = try read(file, path: path) else { return }
        var query: [String: String] = [:]
        query["format"] = options.format?.rawValue
        query["tolerance"] = options.tolerance
        query["prefix"] = options.prefix
        query["trigger"] = options.trigger
        query["geometry"] = options.geometry
        query["units"] = options.units
        if expand { query["expand"] = "true" }
        try answer(HTTPRequest(method: "POST", path: path, query: query,
                               headers: ["content-type": "application/json"], body: body))
    }

    func answer(_ request: HTTPRequest) throws {
        try emit(service.respond(to: request))
    }

    /// Writes the response's body where it belongs and ends with its exit status.
    private func emit(_ response: HTTPResponse) throws {
        guard (200..<300).contains(response.status) else { try fail(response) }
        var failure: StandardStreams.Failure?
        let complete: Bool
        do {
            complete = try response.writeBody { piece in
                do throws(StandardStreams.Failure) {
                    try StandardStreams.write(piece, to: output)
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
        } catch {
            // The stream failed midway (a 503 on cancellation): the problem as HTTP would have it.
            try fail(service.problem(error))
        }
        if !complete, let failure {
            StandardStreams.printError(failure.message)
            throw ExitStatus.ioError
        }
    }

    /// The problem document on standard error, one line: `segue: FILE: ` (the request file; `-`
    /// for standard input), then exactly the HTTP body, then a newline; 65 for a 4xx, 70 otherwise.
    private func fail(_ response: HTTPResponse) throws -> Never {
        do {
            try StandardStreams.write(Self.problemLine(response.body, source: source), to: 2)
        } catch {
            throw ExitStatus.ioError
        }
        throw (400..<500).contains(response.status) ? ExitStatus.dataError : ExitStatus.software
    }

    /// `segue: FILE: <body>\n` (without a file, `segue: <body>\n`).
    static func problemLine(_ body: [UInt8], source: String?) -> [UInt8] {
        Array(("segue: " + (source.map { $0 + ": " } ?? "")).utf8) + body + [0x0A]
    }
}
