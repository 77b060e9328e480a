// `segue-bench keyframes [SAMPLES]` (docs/keyframes.md "cubicPaced"): what the calculation modes
// cost, the same path sampled in each.
//   keyframes-sample mode=M ns_per_sample=X checksum=Y
//     one `KeyframeTrack.value(at:)` of a 2-D track of 5 values, SAMPLES evenly spaced times (median
//     of 5 runs); under callgrind, one mode and fewer samples:
//     `valgrind --tool=callgrind --toggle-collect='*sampleRun*' segue-bench keyframes 10000 cubicPaced`;
//   keyframes-render mode=M ms=T bytes=B
//     the whole handler (cache off, CPU time, best of 3) for 1,000 frames x 100 views, each view's
//     `center` through 5 values — the request of scripts/render-bench.py;
//   keyframes-ratio cubicPaced_over_linear sample=R render=R
import SegueEngine
import SegueHTTP

enum KeyframeBench {
    static let modes: [CalculationMode] = [.linear, .cubic, .cubicPaced]

    /// View `view`'s 5 points: a zigzag, a different one per view (as scripts/render-bench.py).
    static func values(view: Int) -> [[Double]] {
        (0..<5).map { k in [Double(view + 40 * k), Double((k * 37 + view * 11) % 97 * 5)] }
    }

    static func run(samples: Int, only: CalculationMode? = nil) {
        var sample: [CalculationMode: Double] = [:], render: [CalculationMode: Double] = [:]
        for mode in modes where only == nil || only == mode {
            let track = KeyframeTrack(values: values(view: 3), keyTimes: nil, timingFunctions: nil, mode: mode,
                                      tension: nil, continuity: nil, bias: nil)
            var checksum = 0.0
            var times: [Double] = []
            for run in 0...5 {
                let start = CostCalibration.cpuNanoseconds()
                checksum = sampleRun(track, samples)
                if run > 0 { times.append((CostCalibration.cpuNanoseconds() - start) / Double(samples)) }
            }
            sample[mode] = times.sorted()[times.count / 2]
            print("keyframes-sample mode=\(mode.rawValue) ns_per_sample=\(ExportBench.rounded(sample[mode] ?? 0)) checksum=\(checksum)")
        }
        if only != nil { return }  // under callgrind: the sampling alone
        var configuration = ServiceConfiguration()
        configuration.cacheEntries = 0
        configuration.limits.maxWork = Int.max
        let service = SegueService(configuration: configuration)
        for mode in modes {
            let request = HTTPRequest(method: "POST", path: "/v1/render", headers: ["content-type": "application/json"],
                                      body: Array(renderBody(mode).utf8))
            var best = Double.infinity, bytes = 0
            for _ in 0..<3 {
                let start = CostCalibration.cpuNanoseconds()
                bytes = (try? service.respond(to: request).collectedBody())?.count ?? -1
                best = min(best, CostCalibration.cpuNanoseconds() - start)
            }
            render[mode] = best / 1e6
            print("keyframes-render mode=\(mode.rawValue) ms=\(ExportBench.rounded(best / 1e6)) bytes=\(bytes)")
        }
        func ratio(_ table: [CalculationMode: Double]) -> Double { ExportBench.rounded((table[.cubicPaced] ?? 0) / (table[.linear] ?? 1)) }
        print("keyframes-ratio cubicPaced_over_linear sample=\(ratio(sample)) render=\(ratio(render))")
    }

    @inline(never) static func sampleRun(_ track: KeyframeTrack, _ n: Int) -> Double {
        var sum = 0.0
        let last = Double(max(n - 1, 1))
        for i in 0..<n {
            for component in track.value(at: Double(i) / last) { sum += component }
        }
        return sum
    }

    static func renderBody(_ mode: CalculationMode) -> String {
        let views = (0..<100).map { #""v\#($0)":{"center":\#(values(view: $0)[0])}"# }.joined(separator: ",")
        let animations = (0..<100).map {
            #"{"view":"v\#($0)","channel":"center","duration":9.99,"timing":"linear","calculationMode":"\#(mode.rawValue)","#
                + #""values":\#(values(view: $0))}"#
        }.joined(separator: ",")
        return #"{"fps":100,"until":9.99,"views":{\#(views)},"animations":[\#(animations)]}"#
    }
}
