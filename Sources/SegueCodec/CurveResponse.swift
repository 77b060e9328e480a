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

    /// Samples the curve once. A progress that is not finite (for example a Bézier extrapolated to
    /// 1e308) is a 422 naming the time that produced it (docs/rules.md "Conventions"); an infinite
    /// slope is reported as ±Double.greatestFiniteMagnitude, as Chromium does (rule 4). The body is
    /// written from these samples, in pieces when it streams.
    public init(_ request: CurveRequest) throws(Problem) {
        self.request = request
        let times = request.times
        var progress = [Double](repeating: 0, count: times.count)
        var velocity = [Double](repeating: 0, count: times.count)
        request.curve.sample(at: times, duration: request.duration, progress: &progress, velocity: &velocity)
        for i in times.indices {
            guard progress[i].isFinite, !velocity[i].isNaN else {
                throw Problem.invalid("the curve has no finite value at t = \(times[i])",
                                      at: JSONPointer(times.count == 1 ? ["at"] : ["at", String(i)]))
            }
            if !velocity[i].isFinite { velocity[i] = velocity[i] > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude }
        }
        self.progress = progress
        self.velocity = velocity
    }

    /// `{"timing", "duration", "settlingDuration", "t", "progress", "velocity", "spring"?, "warnings"}`.
    public func json() -> SectionedBody {
        var head = JSONWriter()
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
        let sections = [
            SectionedBody.Section(prefix: head.bytes, column: request.times, suffix: Self.progressKey),
            SectionedBody.Section(prefix: [], column: progress, suffix: Self.velocityKey),
            SectionedBody.Section(prefix: [], column: velocity, suffix: tail()),
        ]
        return body(sections, bytesPerSample: 3 * Self.bytesPerNumber)
    }

    /// What follows the times and the progress column: built once, not per response.
    private static let progressKey = Array("],\"progress\":[".utf8)
    private static let velocityKey = Array("],\"velocity\":[".utf8)

    /// `],"spring"?,"warnings"}`: what follows the velocity array.
    private func tail() -> [UInt8] {
        var w = JSONWriter()
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
        w.key("warnings")
        w.value(.array(request.warnings.map(\.json)))
        w.raw("}")
        return w.bytes
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
        return body([rows], bytesPerSample: 3 * Self.bytesPerNumber)
    }

    /// The body, with its size estimate and what it keeps alive while it streams (the sample
    /// times and the two sampled columns).
    private func body(_ sections: [SectionedBody.Section], bytesPerSample: Int) -> SectionedBody {
        let count = request.times.count
        return SectionedBody(sections: sections, estimatedBytes: 256 + count * bytesPerSample,
                             retainedBytes: Self.numbersPerSample * count * MemoryLayout<Double>.stride)
    }

    private func writeOptional(_ value: Double, _ w: inout JSONWriter) {
        if value.isFinite { w.number(value) } else { w.raw("null") }
    }
}
