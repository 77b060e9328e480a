// `segue-bench curve-extras`: what `analysis` (rule 32) and `compare` (rule 35) add to a
// 101-sample spring curve request, answered in process through the whole pipeline with the cache
// off. After one warm-up answer each, every request runs 2,000 times in each of 7 rounds, the
// three taking turns; a line reports the median round in ns per request and its ratio to the plain
// request (goals: analysis ≤ 1.10, compare with all six engines ≤ 5).
import SegueHTTP

enum CurveExtrasBench {
    static let spring = #""timing": {"type": "spring", "mass": 1, "stiffness": 170, "damping": 15, "initialVelocity": 0.5}"#

    static let cases = [
        ("plain", "{\(spring), \"samples\": 101}"),
        ("analysis", "{\(spring), \"samples\": 101, \"analysis\": true}"),
        ("compare-6", "{\(spring), \"samples\": 101, \"compare\": [\"webkit\", \"pop\", \"rebound\", \"motion\", \"android\", \"objcio\"]}"),
    ]

    /// The service as `make bench` measures it: the response cache off, no log.
    static var service: SegueService {
        var configuration = ServiceConfiguration()
        configuration.cacheEntries = 0
        configuration.logSink = { _ in }
        return SegueService(configuration: configuration)
    }

    static func request(_ body: String) -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/v1/curve", headers: ["content-type": "application/json"], body: Array(body.utf8))
    }

    static func run() {
        let service = self.service
        let requests = cases.map { request($0.1) }
        let statuses = requests.map { service.respond(to: $0).status }
        // The cases take turns, round by round, so that a machine slowing down or speeding up
        // weighs on all of them alike instead of on whichever ran last.
        var rounds = Array(repeating: [Double](), count: cases.count)
        for _ in 0..<7 {
            for (index, request) in requests.enumerated() {
                let start = CostCalibration.cpuNanoseconds()
                for _ in 0..<2000 { _ = try? service.respond(to: request).collectedBody() }
                rounds[index].append((CostCalibration.cpuNanoseconds() - start) / 2000)
            }
        }
        let medians = rounds.map { $0.sorted()[3] }
        for (index, (name, _)) in cases.enumerated() {
            print("\(name) status=\(statuses[index]) ns_per_request=\(Int(medians[index])) ratio_to_plain=\(medians[index] / medians[0])")
        }
    }

    /// `segue-bench curve-extras count NAME N`: the case answered N times and nothing else, for
    /// scripts/bench.sh to count its instructions under callgrind (two N, their difference).
    static func count(_ name: String, _ times: Int) {
        guard let body = cases.first(where: { $0.0 == name })?.1 else { fatalError("no case \(name)") }
        let service = self.service, request = request(body)
        var bytes = 0
        for _ in 0..<times { bytes &+= (try? service.respond(to: request).collectedBody().count) ?? 0 }
        print("\(name) bytes=\(bytes / max(1, times))")
    }
}
