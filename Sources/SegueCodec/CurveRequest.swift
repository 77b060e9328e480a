import SegueEngine
import SegueJSON

/// `POST /v1/curve` (docs/rules.md "The curve route"): one timing curve, sampled.
public struct CurveRequest: Sendable {
    public var timing: TimingSpec
    public var curve: TimingCurve
    /// The sampling window, seconds.
    public var duration: Double
    /// The sample times, in request order.
    public var times: [Double]
    public var warnings: [RequestWarning]
    /// The estimated work of sampling and writing it as JSON or CSV, work units (`SceneCost.curve`),
    /// and of its analysis and comparison when asked (`SceneCost.curveAnalysis`,
    /// `SceneCost.springComparison`).
    public var work: Double
    /// `"analysis": true`: the JSON body adds the curve's motion analysis (docs/curves.md
    /// "Motion analysis"); `false` is the same as leaving it out.
    public var analysis: Bool
    /// `"compare"`: the response's spring played in other engines (docs/springs.md "Compare
    /// mode", rule 35), added to the JSON body; nil when not asked.
    public var comparison: SpringComparison?

    /// The sample times as asked: exactly `at`, the `fps` grid, or `samples` evenly spaced.
    public enum Sampling: Sendable, Equatable {
        case at([Double])
        case fps(Double)
        case samples(Int)

        var isExplicit: Bool {
            if case .at = self { return true }
            return false
        }

        var latestTime: Double {
            guard case .at(let times) = self else { return 0 }
            return max(0, times.max() ?? 0)
        }
    }

    /// The default number of samples (docs/rules.md "The curve route").
    public static let defaultSamples = 101
    /// The sampling window of a time-fraction curve when none is given, seconds.
    public static let defaultDuration = 1.0

    public static func decode(_ body: JSONValue, limits: Limits) throws(Problem) -> CurveRequest {
        let root = JSONPointer.root
        var object = try ObjectReader(body, at: root)
        let timingAt = root / "timing"
        guard let timingValue = object.value("timing") else {
            throw Problem.invalid("`timing` is required", at: timingAt)
        }
        let timing = try TimingDecoder.decode(timingValue, at: timingAt)

        let givenDuration = try object.number("duration")
        if let givenDuration { try Check.duration(givenDuration, limits: limits, root / "duration") }
        let sampling = try decodeSampling(&object, limits: limits)
        let analysis = try object.bool("analysis") ?? false
        let compare = try CompareMembers.read(&object)
        try object.rejectUnknown()

        var warnings: [RequestWarning] = []
        let resolved = try TimingResolver(timingAt: timingAt, durationAt: root / "duration")
            .resolve(timing, duration: givenDuration, warnings: &warnings)
        let duration: Double
        if let givenDuration {
            duration = givenDuration
        } else if let settling = resolved.ownDuration {
            // A spring's window defaults to its settling duration.
            guard settling.isFinite || sampling.isExplicit else {
                throw Problem.invalid("an undamped spring never settles: give a `duration` or `at` times", at: timingAt)
            }
            guard !settling.isFinite || settling <= limits.maxDuration else {
                throw Problem.invalid("this spring settles after \(settling) s, beyond the limit of "
                                      + "\(limits.maxDuration) s: give a `duration`", at: timingAt)
            }
            // Undamped with `at`: the window is what the client asked to see.
            duration = settling.isFinite ? settling : sampling.latestTime
        } else {
            duration = defaultDuration
        }
        let curve = resolved.curve
        let times = try sampleTimes(sampling, duration: duration, limits: limits)
        let comparison = try compare?.comparison(of: curve, times: times, limits: limits)
        let perSample = CurveResponse.numbersPerSample + (comparison?.engines.count ?? 0)
        guard times.count * perSample <= limits.maxNumbers else {
            throw Problem.tooLarge("\(times.count) samples need \(times.count * perSample) numbers, over "
                                   + "the limit of \(limits.maxNumbers) numbers per response")
        }
        var work = SceneCost.curve(curve, samples: times.count)
        if analysis { work += SceneCost.curveAnalysis(curve) }
        if let comparison { work += SceneCost.springComparison(comparison, samples: times.count) }
        try Check.work(work, limits: limits, what: "\(times.count) samples of this curve" + (analysis ? " and its analysis" : "")
                           + (comparison.map { " and its comparison in \($0.engines.count) engines" } ?? ""))
        return CurveRequest(timing: timing, curve: curve, duration: duration, times: times, warnings: warnings, work: work,
                            analysis: analysis, comparison: comparison)
    }

    /// The analysis is a member of the JSON body only: with any other format (`csv`, `svg`,
    /// `css`, `waapi`) asking for it is a 422 at `/analysis`, as a query parameter that shapes
    /// nothing in a format is refused (docs/curves.md "Motion analysis").
    public func refuseAnalysis(format: String) throws(Problem) {
        guard analysis, format != "json" else { return }
        throw Problem.invalid("`analysis` adds a member to the JSON response; it does not apply to format=\(format)",
                              at: JSONPointer.root / "analysis")
    }

    /// The comparison is a member of the JSON body only, as the analysis: with any other format
    /// asking for it is a 422 at `/compare` (docs/springs.md "Compare mode").
    public func refuseCompare(format: String) throws(Problem) {
        guard comparison != nil, format != "json" else { return }
        throw Problem.invalid("`compare` adds a member to the JSON response; it does not apply to format=\(format)",
                              at: JSONPointer.root / "compare")
    }

    static func decodeSampling(_ object: inout ObjectReader, limits: Limits) throws(Problem) -> Sampling {
        let root = JSONPointer.root
        let choices = ["at", "fps", "samples"]
        if choices.lazy.filter(object.has).count > 1 {
            let given = choices.filter(object.has)
            throw Problem.invalid("give at most one of `at`, `fps` and `samples`; found "
                                  + given.map { "`\($0)`" }.joined(separator: " and "), at: root / given[1])
        }
        if let at = try object.array("at") {
            let times = try SamplingGridReader(limits: limits, unit: "samples").explicitTimes(at, at: root / "at")
            return .at(times)
        }
        if let fps = try object.number("fps") {
            try Check.within(fps, limits.fps, root / "fps")
            return .fps(fps)
        }
        if let samples = try object.number("samples") {
            guard samples <= Double(limits.maxSamples) else {
                throw Problem.tooLarge("`samples` \(samples) is over the limit of \(limits.maxSamples) samples per response",
                                       at: root / "samples")
            }
            return .samples(try Check.integer(samples, 2...limits.maxSamples, root / "samples"))
        }
        return .samples(defaultSamples)
    }

    /// The sample times; the count is checked against the limits before anything is allocated.
    static func sampleTimes(_ sampling: Sampling, duration: Double, limits: Limits) throws(Problem) -> [Double] {
        switch sampling {
        case .at(let times):
            return times
        case .fps(let fps):
            return try SamplingGridReader(limits: limits, unit: "samples")
                .grid(rate: fps, through: duration, window: "duration \(duration) s", blame: JSONPointer(["fps"]))
        case .samples(let count):
            // Written into the array's storage: `(0...last).map` costs about twice as much a sample.
            let last = count - 1
            var times = [Double].zeros(count)
            times.withUnsafeMutableBufferPointer { times in
                for i in 0..<last { times[i] = duration * Double(i) / Double(last) }
                times[last] = duration
            }
            return times
        }
    }
}
