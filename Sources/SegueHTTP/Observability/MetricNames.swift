/// The metric names of `ServiceMetrics` and their `# HELP` text.
///
/// Metrics made through swift-metrics' factory are registered without help text (the
/// `MetricsFactory` API has no place for it), and swift-prometheus stops the process when one
/// name is registered twice with different help. So the help lines are added to the exposition
/// afterwards, before each family's `# TYPE` line, and the families are put in name order (the
/// registry emits them in dictionary order, which changes from run to run).
enum MetricName {
    static let requests = "segue_requests_total"
    static let duration = "segue_request_duration_seconds"
    static let bytes = "segue_response_bytes_total"
    static let cacheHits = "segue_cache_hits_total"
    static let cacheMisses = "segue_cache_misses_total"
    static let computed = "segue_computed_requests_total"
    static let inflight = "segue_inflight_requests"
    static let openConnections = "segue_open_connections"
    static let residentMemory = "process_resident_memory_bytes"
    static let cpuSeconds = "process_cpu_seconds_total"
    static let startTime = "process_start_time_seconds"
    static let openFDs = "process_open_fds"
    static let queueDepth = "segue_worker_queue_depth"
    static let buildInfo = "segue_build_info"

    static let help: [String: String] = [
        requests: "Requests answered, by route template, method and status code.",
        duration: "Time from a request's headers to its answer, by route template.",
        bytes: "Response body bytes sent, by route template.",
        cacheHits: "Requests answered from the response cache.",
        cacheMisses: "Cacheable requests that were computed.",
        computed: "Computing requests (curves, renders) by the thread that answered them: io for the cheap ones, else worker.",
        inflight: "Requests accepted and not yet answered.",
        openConnections: "Client connections open.",
        residentMemory: "Resident memory size in bytes.",
        cpuSeconds: "Total user and system CPU time spent in seconds.",
        startTime: "Start time of the process since unix epoch in seconds.",
        openFDs: "Number of open file descriptors.",
        queueDepth: "Requests waiting for a worker.",
        buildInfo: "This build: its version and the revision of its output; always 1.",
    ]

    private static let typePrefix = Array("# TYPE ".utf8)

    /// `exposition` with a `# HELP` line before each family's `# TYPE` line (for the names above),
    /// families sorted by name; the lines of one family stay in their order.
    static func withHelpLines(_ exposition: [UInt8]) -> [UInt8] {
        var families: [(name: String, lines: [ArraySlice<UInt8>])] = []
        for line in exposition.split(separator: 0x0A) {
            if line.starts(with: typePrefix) {
                let name = line.dropFirst(typePrefix.count).prefix { $0 != 0x20 }
                families.append((String(decoding: name, as: UTF8.self), []))
            }
            guard !families.isEmpty else { continue }  // the registry starts every family with # TYPE
            families[families.count - 1].lines.append(line)
        }
        var text: [UInt8] = []
        text.reserveCapacity(exposition.count + 128 * families.count)
        for family in families.sorted(by: { $0.name < $1.name }) {
            if let help = help[family.name] { text += Array("# HELP \(family.name) \(help)\n".utf8) }
            for line in family.lines { text += line; text.append(0x0A) }
        }
        return text
    }
}
