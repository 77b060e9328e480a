// `segue-bench curve-extras`: what `analysis` (rule 32) and `compare` (rule 35) add to a
// 101-sample spring curve request, answered in process through the whole pipeline with the cache
// off. Each request runs 2,000 times after a warm-up; the line reports the median of 7 such runs
// in ns per request, and the ratio to the plain request (goals: analysis ≤ 1.10, compare with all
// six engines ≤ 5).
import SegueHTTP

enum CurveExtrasBench {
    static let spring = #""timing": {"type": "spring", "mass": 1, "stiffness": 170, "damping": 15, "initialVelocity": 0.5}"#

    static func run() {
        var configuration = ServiceConfiguration()
        configuration.cacheEntries = 0
        configuration.logSink = { _ in }
        let service = SegueService(configuration: configuration)
        let cases = [
            ("plain", "{\(spring), \"samples\": 101}"),
            ("analysis", "{\(spring), \"samples\": 101, \"analysis\": true}"),
            ("compare-6", "{\(spring), \"samples\": 101, \"compare\": [\"webkit\", \"pop\", \"rebound\", \"motion\", \"android\", \"objcio\"]}"),
        ]
        var plain = 0.0
        for (name, body) in cases {
            let request = HTTPRequest(method: "POST", path: "/v1/curve", headers: ["content-type": "application/json"],
                                      body: Array(body.utf8))
            let status = service.respond(to: request).status
            var medians: [Double] = []
            for _ in 0..<7 {
                let start = CostCalibration.cpuNanoseconds()
                for _ in 0..<2000 { _ = try? service.respond(to: request).collectedBody() }
                medians.append((CostCalibration.cpuNanoseconds() - start) / 2000)
            }
            let ns = medians.sorted()[3]
            if name == "plain" { plain = ns }
            print("\(name) status=\(status) ns_per_request=\(Int(ns)) ratio_to_plain=\(plain > 0 ? ns / plain : 1)")
        }
    }
}
