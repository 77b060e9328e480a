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

    /// Samples the curve once. A progress that is not finite (for example a Bézier extrapolated to
    /// 1e308) is a 422 naming the time that produced it (docs/rules.md "Conventions"); an infinite
    /// slope is reported as ±Double.greatestFiniteMagnitude, as Chromium does (rule 4). The body is
    /// written from these samples, in pieces when it streams.
    ///
    /// The analysis, when asked, comes from the model, not from these samples; one that is not
    /// finite (a spring whose closed form overflows over its domain) is a 422 at `/analysis`.
    ///
    /// The request is stored last: stored first and read after, it was copied (a retain of its
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
        self.progress = progress
        self.velocity = velocity
        self.analysis = analysis
        self.request = request
    }

    /// `{"timing", "duration", "settlingDuration", "t", "progress", "velocity", "spring"?, "warnings"}`,
    /// in sections to be written in pieces (a body that streams).
    public func json() -> SectionedBody {
        var builder = SectionedBody.Builder()
        writeJSON(into: &builder)
        return builder.body(estimatedBytes: estimatedBytes, retainedBytes: retainedBytes)
    }

    /// The same bytes as `json()`, written at once (a body small enough to be written whole): no
    /// sections in between. Room for the estimate, and the spare room `JSONWriter.numbers` asks for
    /// before a run (`JSONWriter.runRoom`), so that the array is not grown and copied. With a
    /// `memo`, the sample times' text is copied from it when it holds them.
    public func jsonBytes(timesFrom memo: ColumnTextMemo? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: estimatedBytes + 64 + JSONWriter.runRoom)
        writeJSON(into: &w, timesFrom: memo)
        return w.bytes
    }

    /// A size estimate of the JSON or CSV body, bytes: what decides between writing it whole and
    /// streaming it.
    public var estimatedBytes: Int {
        256 + request.times.count * Self.numbersPerSample * Self.bytesPerNumber + (request.analysis ? Self.analysisBytes : 0)
    }

    /// The `analysis` member at most: its keys and ten numbers.
    static let analysisBytes = 200 + 10 * bytesPerNumber

    /// What a streamed body keeps alive besides its piece (the sample times and the two sampled
    /// columns), bytes.
    var retainedBytes: Int { Self.numbersPerSample * request.times.count * MemoryLayout<Double>.stride }

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
        writer.text { writeTail(into: &$0) }
    }

    /// `],"spring"?,"warnings"}`: what follows the velocity array.
    private func writeTail(into w: inout JSONWriter) {
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
        w.key("warnings")
        w.value(.array(request.warnings.map(\.json)))
        w.raw("}")
    }

    /// `"analysis": {…}` in the member order of docs/curves.md "Motion analysis"; a time is null
    /// where its supremum is 0, a halfway or settling time where there is none, and
    /// `oscillations` where they are infinitely many.
    private func write(_ analysis: CurveAnalysis, into w: inout JSONWriter) {
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

    private func writeOptional(_ value: Double, _ w: inout JSONWriter) {
        if value.isFinite { w.number(value) } else { w.raw("null") }
    }
}
