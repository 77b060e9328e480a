// The engine's cost per sample, for the same three cases and in the same line format as
// ../shared/bench/engine_reference.c, so `make bench` can print Swift ÷ C ratios:
//   NAME ns_per_sample=X.XX checksum=Y
// Each case runs once untimed, then `runs` times; the line reports the median run. The checksum
// is the sum of all values plus all velocities of one run.
import SegueEngine
import SegueHTTP
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
if arguments.count > 1 && arguments[1] == "cost" {
    CostCalibration.run()
    exit(0)
}
if arguments.count > 1 && arguments[1] == "keyframes" {
    KeyframeBench.run(samples: arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000,
                      only: arguments.count > 3 ? CalculationMode(rawValue: arguments[3]) : nil)
    exit(0)
}
if arguments.count > 1 && arguments[1] == "exports" {
    ExportBench.run()
    exit(0)
}
if arguments.count > 4 && arguments[1] == "curve-extras" && arguments[2] == "count" {
    CurveExtrasBench.count(arguments[3], Int(arguments[4]) ?? 1)
    exit(0)
}
if arguments.count > 1 && arguments[1] == "curve-extras" {
    CurveExtrasBench.run()
    exit(0)
}
if arguments.count > 1 && arguments[1] == "memo" {
    MemoBench.run()
    exit(0)
}
if arguments.count > 1 && arguments[1] == "numbers" {
    NumberBench.run(directory: arguments.count > 2 ? arguments[2] : ".")
    exit(0)
}
let sampleCount = arguments.count > 1 ? Int(arguments[1]) ?? 10_000_000 : 10_000_000
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5

/// Keeps the optimiser from specialising on the parameters (the C code reads them through
/// volatile storage).
@inline(never) func opaque(_ value: Double) -> Double { value }

@inline(never) func bezierRun(_ curve: CubicBezier, _ n: Int) -> Double {
    var sumY = 0.0, sumV = 0.0
    let last = Double(n - 1)
    for i in 0..<n {
        let sample = curve.sample(Double(i) / last)
        sumY += sample.progress
        sumV += sample.slope
    }
    return sumY + sumV
}

/// The spring as the service samples a curve: runs of times (`Spring.sample(at:endingAt:progress:velocity:)`,
/// which `TimingCurve` calls), 512 at a time here; the times, progress and velocities go through
/// memory, which the C loop does not pay.
@inline(never) func springRun(_ spring: Spring, _ n: Int) -> Double {
    let settling = spring.settlingDuration, last = Double(n - 1), chunk = 512
    var sumY = 0.0, sumV = 0.0
    withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * chunk) { buffer in
        let times = UnsafeMutableBufferPointer(rebasing: buffer[0..<chunk])
        let progress = UnsafeMutableBufferPointer(rebasing: buffer[chunk..<2 * chunk])
        let velocity = UnsafeMutableBufferPointer(rebasing: buffer[(2 * chunk)...])
        var start = 0
        while start < n {
            let count = min(chunk, n - start)
            for j in 0..<count { times[j] = Double(start + j) * settling / last }
            spring.sample(at: UnsafeBufferPointer(rebasing: times[..<count]), progress: progress, velocity: velocity)
            for j in 0..<count {
                sumY += progress[j]
                sumV += velocity[j]
            }
            start += count
        }
    }
    return sumY + sumV
}

/// The same spring one sample at a time (`Spring.sample(at:)`), printed beside the run.
@inline(never) func springSampleRun(_ spring: Spring, _ n: Int) -> Double {
    let settling = spring.settlingDuration
    var sumY = 0.0, sumV = 0.0
    let last = Double(n - 1)
    for i in 0..<n {
        let sample = spring.sample(at: Double(i) * settling / last)
        sumY += sample.progress
        sumV += sample.velocity
    }
    return sumY + sumV
}

func bench(_ name: String, _ body: () -> Double) {
    var checksum = body()  // untimed warm-up
    var perSample: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<max(1, runs) {
        let start = clock.now
        checksum = body()
        let elapsed = clock.now - start
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        perSample.append(nanoseconds / Double(sampleCount))
    }
    perSample.sort()
    let middle = perSample.count / 2
    let median = perSample.count % 2 == 1 ? perSample[middle] : (perSample[middle - 1] + perSample[middle]) / 2
    let rounded = (median * 100).rounded() / 100
    print("\(name) ns_per_sample=\(rounded) checksum=\(checksum)")
}

let ease = CubicBezier(x1: opaque(0.25), y1: opaque(0.1), x2: opaque(0.25), y2: opaque(1))
let back = CubicBezier(x1: opaque(0.68), y1: opaque(-0.55), x2: opaque(0.265), y2: opaque(1.55))
let spring = Spring(mass: opaque(1), stiffness: opaque(100), damping: opaque(10), initialVelocity: opaque(0),
                    allowsOverdamping: false)
bench("cubic-bezier-ease") { bezierRun(ease, sampleCount) }
bench("cubic-bezier-back") { bezierRun(back, sampleCount) }
bench("spring-underdamped") { springRun(spring, sampleCount) }
bench("spring-underdamped-per-sample") { springSampleRun(spring, sampleCount) }

/// The handler alone (routing, parsing, sampling, writing, tagging; no socket, cache off) for
/// the benchmark request of ../shared/bench/curve.lua: microseconds per request, median run.
func handlerRun() {
    var configuration = ServiceConfiguration()
    configuration.cacheEntries = 0
    let service = SegueService(configuration: configuration)
    let body = Array(#"{"timing":{"type":"cubicBezier","p1":[0.25,0.1],"p2":[0.25,1]},"samples":61}"#.utf8)
    let request = HTTPRequest(method: "POST", path: "/v1/curve", headers: ["content-type": "application/json"], body: body)
    let count = max(1, sampleCount / 500)
    var bytes = 0
    var perRequest: [Double] = []
    let clock = ContinuousClock()
    for run in 0...max(1, runs) {
        let start = clock.now
        for _ in 0..<count { bytes &+= service.respond(to: request).body.count }
        let elapsed = clock.now - start
        let microseconds = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        if run > 0 { perRequest.append(microseconds / Double(count)) }
    }
    perRequest.sort()
    print("curve-handler us_per_request=\((perRequest[perRequest.count / 2] * 100).rounded() / 100) bytes=\(bytes / (count * (runs + 1)))")
}
handlerRun()
