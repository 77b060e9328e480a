import ArgumentParser
import Logging
import SegueHTTP
import Synchronization

/// Everything the options decide: the listening socket, the service, and the drain. `serve` uses
/// all of it; `curve`, `render` and `presets` use the service alone (docs/cli.md).
struct Configuration: Sendable {
    var listen = ListenConfiguration()
    var service = ServiceConfiguration()
    /// Seconds SIGTERM waits for requests in flight (rule 31).
    var drainTimeout = 10.0
}

extension Configuration {
    /// `--max-batch-work`: as given, else 100 × `--max-work`.
    var batchWork: Double {
        get { service.limits.batchWork }
        set { service.limits.maxBatchWork = newValue }
    }

    /// `--workers`: the worker threads, each with 64 places in the queue.
    var workers: Int {
        get { listen.workers }
        set {
            listen.workers = newValue
            listen.queueCapacity = 64 * newValue
        }
    }
}

/// A type an option takes: parsed from a flag or a `SEGUE_*` variable by the same
/// `ExpressibleByArgument` initialiser, and written in help and docs/cli.md as `display`.
protocol SettingValue: ExpressibleByArgument, Sendable {
    var display: String { get }
}

extension Int: SettingValue { var display: String { String(self) } }
extension UInt16: SettingValue { var display: String { String(self) } }
extension UInt32: SettingValue { var display: String { String(self) } }
extension String: SettingValue { var display: String { self } }
extension Double: SettingValue {
    /// `10`, not `10.0`, for a whole number of seconds.
    var display: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
extension Logger.Level: @retroactive ExpressibleByArgument, SettingValue {
    var display: String { rawValue }
    /// Empty, so that help does not list the levels a second time after the row's own list.
    public static var allValueStrings: [String] { [] }
}

/// The values a setting accepts, with the words help and docs/cli.md use for them.
struct Accepted<Value: SettingValue>: Sendable {
    let text: String
    let contains: @Sendable (Value) -> Bool

    static func range(_ range: ClosedRange<Value>) -> Accepted where Value: Comparable {
        Accepted(text: "\(range.lowerBound.display)–\(range.upperBound.display)", contains: { range.contains($0) })
    }

    /// Seconds or a size that only has to be positive and finite.
    static var positive: Accepted<Double> { Accepted<Double>(text: "> 0", contains: { $0 > 0 && $0.isFinite }) }

    /// Text that goes into a header or an address: not empty, one line.
    static var line: Accepted<String> {
        Accepted<String>(text: "one line, not empty", contains: { !$0.isEmpty && !$0.contains("\r") && !$0.contains("\n") })
    }

    /// An address to listen on or to probe: a literal, never a name that would be looked up.
    static var address: Accepted<String> {
        Accepted<String>(text: "an IPv4 or IPv6 address, or localhost", contains: { ListenConfiguration.accepts(host: $0) })
    }

    static var level: Accepted<Logger.Level> {
        Accepted<Logger.Level>(text: Logger.Level.allCases.map(\.rawValue).joined(separator: ", "), contains: { _ in true })
    }
}

/// One row of the options table (docs/cli.md "Options"): `--NAME` and `SEGUE_NAME`, what it sets,
/// its default (read from `Configuration()`, so help cannot drift from the code), the values it
/// accepts, and how it is resolved. `Options` is the argument-parser group that declares the flag.
struct Setting<Options>: Sendable {
    let name: String
    let valueName: String
    let variable: String
    let summary: String
    let defaultText: String
    let accepted: String
    /// Flag, else variable, else nothing (the default stays); a bad value is a usage error.
    let resolve: @Sendable (Options, [String: String], inout Configuration) throws(ValidationError) -> Void

    /// `note` follows the default in help, e.g. "0 picks a free one"; `value` names the value in
    /// the usage line (`--timeout <seconds>`).
    init<Value: SettingValue>(_ name: String, _ summary: String, note: String? = nil, value: String, accepts: Accepted<Value>,
                              flag: KeyPath<Options, Value?> & Sendable,
                              sets target: WritableKeyPath<Configuration, Value> & Sendable) {
        let variable = "SEGUE_" + String(name.uppercased().map { $0 == "-" ? "_" : $0 })
        self.name = name
        self.valueName = value
        self.variable = variable
        self.summary = summary
        self.defaultText = Configuration()[keyPath: target].display + (note.map { "; \($0)" } ?? "")
        self.accepted = accepts.text
        self.resolve = { options, environment, configuration throws(ValidationError) in
            let value: Value
            let source: String
            if let given = options[keyPath: flag] {
                (value, source) = (given, "--\(name) \(given.display)")
            } else if let text = environment[variable] {
                if ServiceLink.matches(text) { return ServiceLink.notice(variable, text) }
                guard let parsed = Value(argument: text) else {
                    throw ValidationError("\(variable)=\(text) is not a valid value (\(accepts.text)): \(summary)")
                }
                (value, source) = (parsed, "\(variable)=\(text)")
            } else {
                return
            }
            guard accepts.contains(value) else {
                throw ValidationError("\(source) is out of range (\(accepts.text)): \(summary)")
            }
            configuration[keyPath: target] = value
        }
    }

    /// The help line: what it sets, its default, the accepted values and the variable.
    var help: ArgumentHelp {
        ArgumentHelp("\(summary) (default \(defaultText)) (\(accepted)) (env: \(variable))", valueName: valueName)
    }
}

/// Options declared by rows of the table: resolved together, and checked while parsing.
protocol SettingGroup: ParsableArguments {
    static var settings: [Setting<Self>] { get }
}

extension SettingGroup {
    /// Applies the group's settings in order.
    func resolve(environment: [String: String], into configuration: inout Configuration) throws(ValidationError) {
        for setting in Self.settings {
            try setting.resolve(self, environment, &configuration)
        }
    }

    /// A bad value is reported while parsing, with the command's usage (exit 64).
    func validate() throws {
        var scratch = Configuration()
        try resolve(environment: Environment.variables, into: &scratch)
    }
}

extension Option {
    /// An optional option declared by a row of the table: its long name and help come from it.
    init<T: SettingValue, Options>(_ setting: Setting<Options>) where Value == T? {
        self.init(name: .customLong(setting.name), help: setting.help)
    }
}

/// Kubernetes' service links: for every Service in a namespace the kubelet sets
/// `<NAME>_PORT=tcp://<cluster IP>:<port>` (and `<NAME>_SERVICE_HOST`, `<NAME>_PORT_<n>_TCP…`) in
/// each container, so a Service named `segue` gives `SEGUE_PORT=tcp://10.96.0.12:80`, which is not
/// a port. A `SEGUE_*` value of that form is recognised and ignored, with one notice on standard
/// error, never a usage error: a chart that leaves `enableServiceLinks` on still starts
/// (docs/cli.md "Options").
enum ServiceLink {
    private static let noticed = Mutex<Set<String>>([])

    /// `tcp://`, `udp://` or `sctp://`, a host, a colon and a port number.
    static func matches(_ text: String) -> Bool {
        guard let scheme = ["tcp://", "udp://", "sctp://"].first(where: text.hasPrefix) else { return false }
        let address = text.dropFirst(scheme.count)
        guard let colon = address.lastIndex(of: ":"), colon > address.startIndex else { return false }
        let port = address[address.index(after: colon)...]
        return !port.isEmpty && port.allSatisfy(\.isASCII) && port.allSatisfy(\.isNumber)
            && !address[..<colon].contains(where: { $0 == "/" || $0 == " " })
    }

    /// The notice, once per variable.
    static func notice(_ variable: String, _ text: String) {
        guard noticed.withLock({ $0.insert(variable).inserted }) else { return }
        StandardStreams.printError("segue: ignoring \(variable)=\(text): a Kubernetes service link (tcp://host:port), "
                                   + "not a setting\n")
    }
}
