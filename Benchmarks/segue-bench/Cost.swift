// `segue-bench cost`: calibrates the work units of docs/cost.md. For each case it reads the
// request's estimated work from the 413 the service answers under a tiny `maxWork`, then times
// the whole handler (parse, decode, compile, sample, write, tag) and, for a streamed body, the
// second pass that sends it, with the cache off. One line per case:
//   NAME units=N ns=T ns_per_unit=R
// R ≤ 1 everywhere means the estimate bounds the time on this machine (a unit ≈ 1 ns).
import SegueHTTP
#if canImport(Glibc)
import Glibc
#endif

enum CostCalibration {
    /// This thread's CPU time: steadier than the wall clock on a machine others share.
    static func cpuNanoseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    static func cases() -> [(name: String, path: String, body: String)] {
        func custom(_ width: Int) -> String { "[" + (0..<width).map { _ in "0" }.joined(separator: ",") + "]" }
        func values(_ count: Int, _ width: Int, seed: UInt64) -> String {
            var state = seed
            func next() -> Double {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Double(state >> 11) / Double(1 << 53) * 2 - 1
            }
            return "[" + (0..<count).map { _ in "[" + (0..<width).map { _ in "\((next() * 1000).rounded() / 1000)" }
                .joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        func keyframes(mode: String, count: Int, width: Int, frames: Int) -> String {
            #"{"velocities":true,"fps":60,"until":\#(Double(frames - 1) / 60),"views":{"v":{"c":\#(custom(width))}},"#
                + #""animations":[{"view":"v","channel":"c","duration":1,"calculationMode":"\#(mode)","values":"#
                + values(count, width, seed: UInt64(count * width)) + "}]}"
        }
        let views = (0..<1000).map { #""v\#($0)":{"alpha":0,"transform":{"rotation":0}}"# }.joined(separator: ",")
        let lerps = (0..<1000).map { #"{"view":"v\#($0)","duration":5,"timing":"ease","to":{"alpha":1}}"# }.joined(separator: ",")
        let turns = (0..<300).map { #"{"view":"v\#($0)","duration":5,"to":{"transform":{"rotation":3}}}"# }.joined(separator: ",")
        let springs = (0..<1000).map { #"{"view":"v\#($0)","timing":{"type":"spring","response":9,"dampingRatio":0.9},"to":{"alpha":1}}"# }
            .joined(separator: ",")
        let stack = (0..<40).map { #"{"view":"v","duration":5,"delay":\#(Double($0) / 10),"blend":"additive","timing":"ease","to":{"c":\#(custom(64))}}"# }
            .joined(separator: ",")
        let transformValues = (0..<200).map { #"{"rotation":\#(Double($0 % 7)),"scale":[\#(1 + Double($0 % 3)),1],"translation":[\#($0),0]}"# }
            .joined(separator: ",")
        let linearPoints = (0..<20000).map { "[\(Double($0) / 19999),\(Double($0 % 17) / 16)]" }.joined(separator: ",")
        // Zero tangents at every key (tension 1): the speed vanishes at each key, Newton's worst.
        let stops = (0..<501).map { $0 % 2 == 0 ? "0" : "1" }.joined(separator: ","), tensions = (0..<501).map { _ in "1" }
            .joined(separator: ",")
        return [
            ("cubicPaced-64-wide-300-frames", "/v1/render", keyframes(mode: "cubicPaced", count: 1200, width: 64, frames: 300)),
            ("cubicPaced-64-wide-20-values", "/v1/render", keyframes(mode: "cubicPaced", count: 20, width: 64, frames: 3000)),
            ("cubicPaced-scalar-20000-frames", "/v1/render", keyframes(mode: "cubicPaced", count: 50, width: 1, frames: 20000)),
            ("cubicPaced-scalar-stops-50000-frames", "/v1/render",
             #"{"velocities":true,"fps":60,"until":833,"views":{"v":{"x":0}},"animations":[{"view":"v","channel":"x","#
                + #""duration":1,"calculationMode":"cubicPaced","values":[\#(stops)],"tensionValues":[\#(tensions)]}]}"#),
            ("cubic-64-wide-20000-frames", "/v1/render", keyframes(mode: "cubic", count: 1200, width: 64, frames: 20000)),
            ("linear-64-wide-20000-frames", "/v1/render", keyframes(mode: "linear", count: 1200, width: 64, frames: 20000)),
            ("cubicPaced-transform", "/v1/render",
             #"{"velocities":true,"until":300,"views":{"v":{"transform":{"rotation":0}}},"animations":[{"view":"v","channel":"transform","#
                + #""duration":1,"calculationMode":"cubicPaced","values":[\#(transformValues)]}]}"#),
            ("1000-views-bezier-velocities", "/v1/render",
             #"{"velocities":true,"fps":50,"views":{\#(views)},"animations":[\#(lerps)]}"#),
            ("300-transform-turns-velocities", "/v1/render",
             #"{"velocities":true,"fps":60,"views":{\#(views)},"animations":[\#(turns)]}"#),
            ("1000-springs", "/v1/render", #"{"fps":30,"views":{\#(views)},"animations":[\#(springs)]}"#),
            ("40-additive-layers-64-wide", "/v1/render",
             #"{"velocities":true,"fps":1000,"views":{"v":{"c":\#(custom(64))}},"animations":[\#(stack)]}"#),
            ("physics-rk4-1000-hz", "/v1/render",
             #"{"until":3600,"fps":1,"views":{"v":{"c":[0,0]}},"animations":[{"view":"v","to":{"c":[100,100]},"#
                + #""dynamics":{"model":"spring","damping":0,"integrator":"rk4","tickRate":1000}}]}"#),
            ("curve-linear-20000-points", "/v1/curve",
             #"{"timing":{"type":"piecewiseLinear","points":[\#(linearPoints)]},"samples":100000}"#),
            ("curve-bezier-100000", "/v1/curve", #"{"timing":"cubic-bezier(0.68,-0.55,0.265,1.55)","samples":100000}"#),
        ]
    }

    /// The estimate of the check that `isFinal` recognises by its 413's text: the last number after
    /// "estimated work of " under a limit of 1 unit, the limit raised past every check before it
    /// (a keyframe build, the render's frames before an export's).
    static func units(_ service: (Int) -> SegueService, _ request: HTTPRequest, isFinal: (String) -> Bool) -> Double? {
        var limit = 1
        for _ in 0..<64 {
            let response = service(limit).respond(to: request)
            guard response.status == 413 else { return nil }
            let text = String(decoding: response.body, as: UTF8.self)
            let parts = text.split(separator: "estimated work of ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let units = Double(parts[1].prefix { $0.isNumber }) else { return nil }
            if isFinal(text) { return units }
            limit = Int(units) + 1
        }
        return nil
    }

    /// The best CPU time of two answers, and whether both were 2xx.
    static func measured(_ service: SegueService, _ request: HTTPRequest) -> (ns: Double, ok: Bool) {
        var best = Double.infinity, ok = true
        for _ in 0..<2 {
            let start = cpuNanoseconds()
            let response = service.respond(to: request)
            ok = ok && (try? response.collectedBody()) != nil && (200..<300).contains(response.status)
            best = min(best, cpuNanoseconds() - start)
        }
        return (best, ok)
    }

    /// Exports of every kind of channel (docs/cost.md "Exports"): (name, path, query, body).
    static func exportCases() -> [(name: String, path: String, query: [String: String], body: String)] {
        func views(_ n: Int, _ channels: String) -> String {
            (0..<n).map { #""v\#($0)":{\#(channels)}"# }.joined(separator: ",")
        }
        func render(_ n: Int, _ channels: String, _ animation: (Int) -> String, extra: String = "") -> String {
            #"{"fps":60\#(extra),"views":{\#(views(n, channels))},"animations":["# + (0..<n).map(animation).joined(separator: ",") + "]}"
        }
        let frame = #""frame":[0,0,100,40],"alpha":0,"transform":{"rotation":0}"#
        let renders: [(String, String, [String: String])] = [
            ("bezier-blocks-20", render(20, frame) { #"{"view":"v\#($0)","duration":1,"timing":"easeInOut","to":{"frame":[200,\#($0),120,40],"alpha":1,"transform":{"rotation":2}}}"# }, [:]),
            ("spring-blocks-20", render(20, frame) { #"{"view":"v\#($0)","duration":1,"timing":{"type":"spring","dampingRatio":0.\#(5 + $0 % 4)},"to":{"frame":[200,\#($0),120,40],"alpha":1,"transform":{"rotation":2}}}"# }, [:]),
            ("physics-spring-20", render(20, #""center":[0,0]"#) { #"{"view":"v\#($0)","to":{"center":[200,\#($0 * 5)]},"dynamics":{"model":"spring","stiffness":200,"damping":10}}"# }, [:]),
            ("physics-attachment-20", render(20, #""center":[0,0]"#) { #"{"view":"v\#($0)","to":{"center":[200,\#($0 * 5)]},"dynamics":{"model":"attachment","frequency":2,"damping":0.3}}"# }, [:]),
            ("physics-pop-rk4-20", render(20, #""center":[0,0]"#) { #"{"view":"v\#($0)","to":{"center":[200,\#($0 * 5)]},"dynamics":{"model":"popSpring","bounciness":12,"speed":8,"integrator":"rk4"}}"# }, [:]),
            ("physics-euler-20", render(20, #""center":[0,0]"#) { #"{"view":"v\#($0)","to":{"center":[200,\#($0 * 5)]},"dynamics":{"model":"spring","stiffness":200,"damping":10,"integrator":"euler"}}"# }, ["tolerance": "0.01"]),
            ("physics-decay-20", render(20, #""center":[0,0]"#) { #"{"view":"v\#($0)","channel":"center","velocity":[800,\#($0 * 20)],"dynamics":{"model":"decay"}}"# }, [:]),
            ("keyframes-linear-20", render(20, #""c":[0,0,0]"#) { #"{"view":"v\#($0)","channel":"c","duration":2,"values":[[0,0,0],[50,\#($0),9],[20,90,3],[100,10,40],[60,60,60]]}"# }, [:]),
            ("keyframes-cubic-20", render(20, #""c":[0,0,0]"#) { #"{"view":"v\#($0)","channel":"c","duration":2,"calculationMode":"cubic","values":[[0,0,0],[50,\#($0),9],[20,90,3],[100,10,40],[60,60,60]]}"# }, [:]),
            ("keyframes-paced-20", render(20, #""c":[0,0,0]"#) { #"{"view":"v\#($0)","channel":"c","duration":2,"calculationMode":"cubicPaced","values":[[0,0,0],[50,\#($0),9],[20,90,3],[100,10,40],[60,60,60]]}"# }, [:]),
            ("keyframes-discrete-20", render(20, #""c":[0,0,0]"#) { #"{"view":"v\#($0)","channel":"c","duration":2,"calculationMode":"discrete","values":[[0,0,0],[50,\#($0),9],[20,90,3],[100,10,40],[60,60,60]]}"# }, [:]),
            ("uiview-keyframes-20", render(20, frame) { #"{"view":"v\#($0)","duration":1,"keyframes":[{"start":0,"duration":0.5,"to":{"transform":{"rotation":2}}},{"start":0.5,"duration":0.5,"to":{"alpha":1,"frame":[90,0,100,40]}}]}"# }, [:]),
            ("commands-20", render(20, frame, { #"{"id":"a\#($0)","view":"v\#($0)","duration":1,"timing":"easeIn","to":{"frame":[200,0,100,40],"alpha":1}}"# },
                                    extra: #","commands":["# + (0..<20).map { #"{"at":0.3,"animation":"a\#($0)","op":"reverse"},{"at":0.5,"animation":"a\#($0)","op":"reverse"}"# }.joined(separator: ",") + "]"), [:]),
        ]
        var out: [(String, String, [String: String], String)] = []
        for (name, body, query) in renders {
            out.append(("export-css-" + name, "/v1/render", query.merging(["format": "css"]) { $1 }, body))
            out.append(("export-lottie-" + name, "/v1/render", query.merging(["format": "lottie"]) { $1 }, body))
        }
        for (name, timing) in [("spring-0.5", #"{"type":"spring","dampingRatio":0.5},"duration":0.8"#),
                               ("spring-0.1-long", #"{"type":"spring","mass":1,"stiffness":400,"damping":4}"#),
                               ("bezier", #""cubic-bezier(0.3,1.4,0.6,0.9)""#), ("steps", #""steps(5, jump-both)""#),
                               ("linear", #""linear(0, 0.3 20%, 0.9 60%, 1)""#)] {
            out.append(("export-css-curve-" + name, "/v1/curve", ["format": "css"], #"{"timing":\#(timing)}"#))
        }
        return out
    }

    static func run() {
        func service(_ maxWork: Int) -> SegueService {
            var configuration = ServiceConfiguration()
            configuration.cacheEntries = 0
            configuration.limits.maxWork = maxWork
            configuration.limits.maxSimulationSteps = 100_000_000
            return SegueService(configuration: configuration)
        }
        let unlimited = service(Int.max)
        for (name, path, body) in cases() {
            let request = HTTPRequest(method: "POST", path: path, headers: ["content-type": "application/json"],
                                      body: Array(body.utf8))
            guard let units = units(service, request, isFinal: { !$0.contains("building the keyframe tracks") }) else {
                print("\(name) no estimate: \(String(decoding: unlimited.respond(to: request).body.prefix(300), as: UTF8.self))")
                continue
            }
            let (best, ok) = measured(unlimited, request)
            print("\(name) units=\(Int(units)) ns=\(Int(best)) ns_per_unit=\((best / units * 1000).rounded() / 1000)" + (ok ? "" : " failed"))
        }
        // Exports: the estimate over the measured time, goal 0.5–2 (rule 45).
        for (name, path, query, body) in exportCases() {
            let request = HTTPRequest(method: "POST", path: path, query: query,
                                      headers: ["content-type": "application/json"], body: Array(body.utf8))
            guard let units = units(service, request, isFinal: { $0.contains("exporting") }) else {
                print("\(name) no estimate: \(String(decoding: unlimited.respond(to: request).body.prefix(300), as: UTF8.self))")
                continue
            }
            let (best, ok) = measured(unlimited, request)
            print("\(name) units=\(Int(units)) ns=\(Int(best)) estimate_over_measured=\((units / best * 1000).rounded() / 1000)"
                  + (ok ? "" : " failed"))
        }
    }
}
