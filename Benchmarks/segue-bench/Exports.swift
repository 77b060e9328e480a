// `segue-bench exports` (docs/exports.md "How few keyframes"): for each spring parametrisation,
// the stops of its `linear()` at tolerance 1e-3 and 1e-4 beside the greedy minimum, and the time
// to export issue 29's N-view scene in every web format. Lines:
//   exports-stops spring=NAME tolerance=T stops=N greedy_minimum=M ratio=R max_error=E
//   exports-render views=N frames=F format=X ms=T ratio_to_json=R bytes=B [estimate_over_measured=E refused_by_default=B]
import SegueCodec
import SegueEngine
import SegueJSON
#if canImport(Glibc)
import Glibc
#endif

enum ExportBench {
    static let springs: [(String, Spring)] = [
        ("physical_m1_k100_c10", .physical(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0, allowsOverdamping: false)),
        ("uikit_ratio0.5", .physical(mass: 1, stiffness: 4 * .pi * .pi / 0.36, damping: 2 * .pi / 0.6, initialVelocity: 0,
                                     allowsOverdamping: false)),
        ("android_k1500_r0.2", .android(stiffness: 1500, dampingRatio: 0.2, initialVelocity: 0)),
        ("response_0.55_0.825", .response(0.55, dampingRatio: 0.825, initialVelocity: 0)),
        ("perceptual_0.5_0.3", .perceptual(duration: 0.5, bounce: 0.3, initialVelocity: 0)),
        ("pop_12_8", .pop(bounciness: 12, speed: 8, initialVelocity: 0)),
        ("origami_40_7", .origami(tension: 40, friction: 7, initialVelocity: 0)),
    ]

    static func run() {
        for (name, spring) in springs {
            let window = spring.settlingDuration
            let target = FitTarget.scalar(scale: 1) { spring.progress(at: $0) }
            for tolerance in [1e-3, 1e-4] {
                let fit = KeyframeFit(target, start: 0, end: window, tolerance: tolerance, unitsPerSecond: 100 / window)
                let minimum = KeyframeFit.greedyMinimum(target, start: 0, end: window, tolerance: tolerance)
                print("exports-stops spring=\(name) tolerance=\(tolerance) stops=\(fit.keyframes.count) greedy_minimum=\(minimum) "
                      + "ratio=\(rounded(Double(fit.keyframes.count) / Double(minimum))) max_error=\(fit.maxError)")
            }
        }
        renderTimes()
    }

    /// Issue 29's scene: N views, each with one spring block on its frame, alpha and rotation,
    /// 61 frames (1 s at 60 fps), exported under the default limits at N = 10, 100, 1000. Per
    /// format the CPU time (best of `runs`), its ratio to the JSON answer's, and for each export the
    /// work estimate (`RenderExport.checkWork`) over the measured time.
    static func renderTimes() {
        for count in [10, 100, 1000] {
            let body = Array(scene(views: count).utf8)
            let limits = Limits()
            guard let document = try? RequestDocument.parse(body, limits: limits),
                  let request = try? RenderRequest.decode(document, limits: limits) else {
                print("exports-render views=\(count): the request is refused under the default limits")
                continue
            }
            let estimate = (keyframes: RenderExport.estimatedWork(request, format: .keyframes, tolerance: 1e-3),
                            lottie: RenderExport.estimatedWork(request, format: .lottie, tolerance: 1e-3))
            let refused = (keyframes: (try? RenderExport.checkWork(request, limits: limits, format: .keyframes, tolerance: 1e-3)) == nil,
                           lottie: (try? RenderExport.checkWork(request, limits: limits, format: .lottie, tolerance: 1e-3)) == nil)
            let writers: [(String, () throws(Problem) -> [UInt8])] = [
                ("json", { () throws(Problem) in try RenderResponse(request).json().bytes() }),
                ("css", { () throws(Problem) in try RenderExport(request, options: ExportOptions()).css() }),
                ("waapi", { () throws(Problem) in try RenderExport(request, options: ExportOptions()).waapi() }),
                ("lottie", { () throws(Problem) in try LottieExport(request).lottie(tolerance: 1e-3) }),
            ]
            var json = 0.0
            for (format, write) in writers {
                var best = Double.infinity, bytes = -1
                for _ in 0..<(count >= 1000 ? 1 : 3) {
                    let start = CostCalibration.cpuNanoseconds()
                    bytes = (try? write())?.count ?? -1
                    best = min(best, CostCalibration.cpuNanoseconds() - start)
                }
                if format == "json" { json = best }
                var line = "exports-render views=\(count) frames=\(request.times.count) format=\(format) ms=\(rounded(best / 1e6)) "
                    + "ratio_to_json=\(rounded(best / json)) bytes=\(bytes)"
                if format == "css" || format == "waapi" {
                    line += " estimate_over_measured=\(rounded(estimate.keyframes / best)) refused_by_default=\(refused.keyframes)"
                } else if format == "lottie" {
                    line += " estimate_over_measured=\(rounded(estimate.lottie / best)) refused_by_default=\(refused.lottie)"
                }
                print(line)
            }
        }
    }

    /// N views, each with one spring block (its own damping ratio, one of four) on frame, alpha and
    /// rotation.
    static func scene(views count: Int) -> String {
        let views = (0..<count).map { #""v\#($0)":{"frame":[0,\#($0 % 100 * 10),100,40],"alpha":0,"transform":{"rotation":0}}"# }
        let animations = (0..<count).map { i in
            #"{"view":"v\#(i)","duration":1,"timing":{"type":"spring","dampingRatio":0.\#(5 + i % 4)},"#
                + #""to":{"frame":[200,\#(i % 100 * 10),120,40],"alpha":1,"transform":{"rotation":\#(1 + i % 3)}}}"#
        }
        return #"{"fps":60,"views":{"# + views.joined(separator: ",") + #"},"animations":["# + animations.joined(separator: ",") + "]}"
    }

    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
}
