// `segue-bench exports` (docs/exports.md "How few keyframes"): for each spring parametrisation,
// the stops of its `linear()` at tolerance 1e-3 and 1e-4 beside the greedy minimum, and the time
// to export a 100-view render in every format. Lines:
//   exports-stops spring=NAME tolerance=T stops=N greedy_minimum=M ratio=R max_error=E
//   exports-render views=100 frames=F format=X ms=T bytes=B
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
            let target = FitTarget.linear(scale: [1]) { [spring.progress(at: $0)] }
            for tolerance in [1e-3, 1e-4] {
                let fit = KeyframeFit(target, start: 0, end: window, tolerance: tolerance, unitsPerSecond: 100 / window)
                let minimum = KeyframeFit.greedyMinimum(target, start: 0, end: window, tolerance: tolerance)
                print("exports-stops spring=\(name) tolerance=\(tolerance) stops=\(fit.keyframes.count) greedy_minimum=\(minimum) "
                      + "ratio=\(rounded(Double(fit.keyframes.count) / Double(minimum))) max_error=\(fit.maxError)")
            }
        }
        renderTimes()
    }

    /// 100 views, each with a frame spring, an eased alpha and transform, for 1 s at 60 fps.
    static func renderTimes() {
        let views = (0..<100).map { #""v\#($0)":{"frame":[0,\#($0 * 10),100,40],"alpha":0,"transform":{"rotation":0}}"# }
        let animations = (0..<100).map { i in
            #"{"view":"v\#(i)","duration":1,"timing":{"type":"spring","dampingRatio":0.\#(5 + i % 4)},"to":{"frame":[200,\#(i * 10),120,40]}},"#
                + #"{"view":"v\#(i)","duration":0.6,"delay":0.\#(i % 3),"timing":"easeInOut","to":{"alpha":1,"transform":{"rotation":\#(1 + i % 3)}}}"#
        }
        let body = Array((#"{"fps":60,"views":{"# + views.joined(separator: ",") + #"},"animations":["#
                          + animations.joined(separator: ",") + "]}").utf8)
        var limits = Limits()
        limits.maxWork = 1 << 62
        guard let document = try? RequestDocument.parse(body, limits: limits),
              let request = try? RenderRequest.decode(document, limits: limits) else {
            print("exports-render: the benchmark request does not decode")
            return
        }
        let writers: [(String, () throws(Problem) -> [UInt8])] = [
            ("json", { () throws(Problem) in try RenderResponse(request).json().bytes() }),
            ("csv", { () throws(Problem) in try RenderResponse(request).csv().bytes() }),
            ("svg", { () throws(Problem) in try RenderResponse(request).svg().bytes() }),
            ("css", { () throws(Problem) in try RenderExport(request, options: ExportOptions(tolerance: 1e-3)).css() }),
            ("waapi", { () throws(Problem) in try RenderExport(request, options: ExportOptions(tolerance: 1e-3)).waapi() }),
            ("lottie", { () throws(Problem) in try LottieExport(request).lottie(tolerance: 1e-3) }),
        ]
        for (format, write) in writers {
            let start = ContinuousClock.now
            let bytes = (try? write())?.count ?? -1
            let elapsed = ContinuousClock.now - start
            let ms = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
            print("exports-render views=100 frames=\(request.times.count) format=\(format) ms=\(rounded(ms)) bytes=\(bytes)")
        }
    }

    static func rounded(_ x: Double) -> Double { (x * 1000).rounded() / 1000 }
}
