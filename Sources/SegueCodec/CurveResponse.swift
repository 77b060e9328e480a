import SegueEngine
import SegueJSON

/// The sampled curve of `POST /v1/curve` and its encodings (docs/rules.md "The curve route").
public struct CurveResponse: Sendable {
    public static let numbersPerSample = 3
    /// Bytes per number, for size estimates.
    static let bytesPerNumber = 19

    public let request: CurveRequest
    public let progress: [Double]
    public let velocity: [Double]
    /// The curve's motion analysis, when the request asks for it (docs/curves.md "Motion analysis").
    public let analysis: CurveAnalysis?
    /// The spring played in each engine the request names, in its order (docs/springs.md
    /// "Compare mode"); empty when it names none.
    public let plays: [SpringComparison.Play]

    /// Samples the curve once. A progress that is not finite (for example a Bézier extrapolated to
    /// 1e308) is a 422 naming the time that produced it (docs/rules.md "Conventions"); an infinite
    /// slope is reported as ±Double.greatestFiniteMagnitude, as Chromium does (rule 4). The body is
    /// written from these samples, in pieces when it streams.
    ///
    /// The analysis, when asked, comes from the model, not from these samples; one that is not
    /// finite (a spring whose closed form overflows over its domain) is a 422 at `/analysis`.
    ///
    /// The comparison, when asked, plays the spring in each engine at the same times; an engine
    /// whose progress is not finite (an integrator that diverges at the tick rate) is a 422 at
    /// its `/compare/i`.
    ///
    /// The request is stored last: a request stored first and read after is copied (a retain of its
    /// sample times).
    public init(_ request: CurveRequest) throws(Problem) {
        let times = request.times
        var progress = [Double].zeros(times.count)
        var velocity = [Double].zeros(times.count)
        request.curve.sample(at: times, duration: request.duration, progress: &progress, velocity: &velocity)
        for i in times.indices {
            guard progress[i].isFinite, !velocity[i].isNaN else {
                throw Problem.invalid("the curve has no finite value at t = \(times[i])",
                                      at: JSONPointer(times.count == 1 ? ["at"] : ["at", String(i)]))
            }
            if !velocity[i].isFinite { velocity[i] = velocity[i] > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude }
        }
        let analysis = request.analysis ? request.curve.analysis(duration: request.duration) : nil
        if let analysis, !analysis.isFinite {
            throw Problem.invalid("the analysis of this curve has a value that is not a finite number", at: JSONPointer(["analysis"]))
        }
        let plays = request.comparison?.plays(at: times, reference: progress) ?? []
        try Self.refuseNonFinite(plays, times: times)
        self.progress = progress
        self.velocity = velocity
        self.analysis = analysis
        self.plays = plays
        self.request = request
    }

    /// A play with a value that is not a finite number, as a 422 at its engine's `/compare/i`.
    private static func refuseNonFinite(_ plays: [SpringComparison.Play], times: [Double]) throws(Problem) {
        for (k, play) in plays.enumerated() where !play.maxDeviation.isFinite {
            let i = play.progress.firstIndex { !$0.isFinite }
            let when = i.map { "at t = \(times[$0])" } ?? "in its deviation"
            throw Problem.invalid("the \(play.engine.rawValue) engine has no finite value \(when) (its motion diverges)",
                                  at: JSONPointer(["compare", String(k)]))
        }
    }

    /// `{"timing", "duration", "settlingDuration", "t", "progress", "velocity", "spring"?, "analysis"?,
    /// "compare"?, "warnings"}`,
    /// in sections to be written in pieces (a body that streams).
    public func json() -> SectionedBody {
        var builder = SectionedBody.Builder()
        writeJSON(into: &builder)
        return builder.body(estimatedBytes: estimatedBytes, retainedBytes: retainedBytes)
    }

    /// The same bytes as `json()`, written at once (a body small enough to be written whole): no
    /// sections in between. Room for the estimate, and the spare room `TextWriter.numbers` asks for
    /// before a run (`TextWriter.runRoom`), so that the array is not grown and copied. With a
    /// `memo`, the sample times' text is copied from it when it holds them.
    public func jsonBytes(timesFrom memo: ColumnTextMemo? = nil) -> [UInt8] {
        var w = TextWriter(capacity: estimatedBytes + 64 + TextWriter.runRoom)
        writeJSON(into: &w, timesFrom: memo)
        return w.bytes
    }

    /// A size estimate of the JSON or CSV body, bytes: what decides between writing it whole and
    /// streaming it.
    public var estimatedBytes: Int {
        256 + request.times.count * Self.numbersPerSample * Self.bytesPerNumber + (request.analysis ? Self.analysisBytes : 0)
            + plays.count * (Self.playBytes + request.times.count * Self.bytesPerNumber)
    }

    /// One engine's `compare` entry besides its progress: its keys and two numbers.
    static let playBytes = 80 + 2 * bytesPerNumber

    /// The `analysis` member at most: its keys and ten numbers.
    static let analysisBytes = 200 + 10 * bytesPerNumber

    /// What a streamed body keeps alive besides its piece (the sample times and the two sampled
    /// columns), bytes.
    var retainedBytes: Int { (Self.numbersPerSample + plays.count) * request.times.count * MemoryLayout<Double>.stride }

    /// The JSON body's layout: the head, the three columns, the tail.
    private func writeJSON<Writer: ColumnBodyWriter>(into writer: inout Writer, timesFrom memo: ColumnTextMemo? = nil) {
        writer.text { head in
            head.raw("{")
            head.key("timing", first: true)
            request.timing.write(into: &head)
            head.key("duration")
            head.number(request.duration)
            head.key("settlingDuration")
            switch request.curve {
            case .durationSpring(_, let end): head.number(end)
            case .spring(let spring): writeOptional(spring.settlingDuration, &head)
            default: head.raw("null")
            }
            head.raw(",\"t\":[")
        }
        if let memo {
            writer.text { memo.write(request.times, into: &$0) }
        } else {
            writer.column(request.times)
        }
        writer.text { $0.raw("],\"progress\":[") }
        writer.column(progress)
        writer.text { $0.raw("],\"velocity\":[") }
        writer.column(velocity)
        guard !plays.isEmpty else { return writer.text { writeTail(into: &$0) } }
        writer.text { writeMiddle(into: &$0) }
        writeComparison(into: &writer)
        writer.text { writeWarnings(into: &$0) }
    }

    /// `],"spring"?,"analysis"?,"warnings"}`: what follows the velocity array without a comparison.
    private func writeTail(into w: inout TextWriter) {
        writeMiddle(into: &w)
        writeWarnings(into: &w)
    }

    /// `"compare": {engine: {"progress": […], "settlingDuration": s|null, "maxDeviation": d}, …}` in
    /// request order (docs/springs.md "Compare mode"), each progress a column.
    private func writeComparison<Writer: ColumnBodyWriter>(into writer: inout Writer) {
        for (k, play) in plays.enumerated() {
            writer.text { w in
                if k == 0 {
                    w.key("compare")
                    w.raw("{")
                }
                if k > 0 { w.byte(0x2C) }
                w.string(play.engine.rawValue)
                w.raw(":{\"progress\":[")
            }
            writer.column(play.progress)
            writer.text { w in
                w.raw("]")
                w.key("settlingDuration")
                if let settling = play.settlingDuration { w.number(settling) } else { w.raw("null") }
                w.key("maxDeviation"); w.number(play.maxDeviation)
                w.raw("}")
                if k == plays.count - 1 { w.raw("}") }
            }
        }
    }

    /// `],"spring"?,"analysis"?`: what follows the velocity array up to the comparison.
    private func writeMiddle(into w: inout TextWriter) {
        w.raw("]")
        if let spring = request.curve.spring {
            w.key("spring")
            w.raw("{")
            w.key("mass", first: true); w.number(spring.mass)
            w.key("stiffness"); w.number(spring.stiffness)
            w.key("damping"); w.number(spring.damping)
            w.key("dampingRatio"); w.number(spring.dampingRatio)
            w.key("response"); w.number(spring.response)
            w.key("perceptualDuration"); w.number(spring.response)
            w.key("bounce"); w.number(spring.bounce)
            w.key("initialVelocity"); w.number(spring.initialVelocity)
            w.key("settlingDuration"); writeOptional(spring.settlingDuration, &w)
            w.raw("}")
        }
        if let analysis { write(analysis, into: &w) }
    }

    /// `,"warnings":[…]}`: the body's end.
    private func writeWarnings(into w: inout TextWriter) {
        w.key("warnings")
        w.value(.array(request.warnings.map(\.json)))
        w.raw("}")
    }

    /// `"analysis": {…}` in the member order of docs/curves.md "Motion analysis"; a time is null
    /// where its supremum is 0, a halfway or settling time where there is none, and
    /// `oscillations` where they are infinitely many.
    private func write(_ analysis: CurveAnalysis, into w: inout TextWriter) {
        func time(_ value: Double?) {
            if let value { w.number(value) } else { w.raw("null") }
        }
        w.key("analysis")
        w.raw("{")
        w.key("overshoot", first: true); w.number(analysis.overshoot.value)
        w.key("overshootAt"); time(analysis.overshoot.time)
        w.key("undershoot"); w.number(analysis.undershoot.value)
        w.key("undershootAt"); time(analysis.undershoot.time)
        w.key("peakVelocity"); w.number(analysis.peakVelocity.value)
        w.key("peakVelocityAt"); time(analysis.peakVelocity.time)
        w.key("halfway"); time(analysis.halfway)
        // The keys are the bands `CurveAnalysis.Settle.coarseBand` and `fineBand`.
        w.key("settle"); w.raw("{")
        w.key("0.01", first: true); time(analysis.settle.coarse)
        w.key("0.001"); time(analysis.settle.fine)
        w.raw("}")
        w.key("oscillations")
        if let count = analysis.oscillations { w.integer(Int64(count)) } else { w.raw("null") }
        w.raw("}")
    }

    /// `t,progress,velocity`, one row per sample, LF line ends.
    public func csv() -> SectionedBody {
        let times = request.times, progress = progress, velocity = velocity
        let rows = SectionedBody.Section(prefix: Array("t,progress,velocity\n".utf8), count: times.count) { w, i in
            w.number(times[i])
            w.byte(0x2C)
            w.number(progress[i])
            w.byte(0x2C)
            w.number(velocity[i])
            w.byte(0x0A)
        }
        return body([rows])
    }

    /// The body, with its size estimate and what it keeps alive while it streams.
    private func body(_ sections: [SectionedBody.Section]) -> SectionedBody {
        SectionedBody(sections: sections, estimatedBytes: estimatedBytes, retainedBytes: retainedBytes)
    }

    private func writeOptional(_ value: Double, _ w: inout TextWriter) {
        if value.isFinite { w.number(value) } else { w.raw("null") }
    }
}
