import SegueEngine
import SegueJSON

/// The sampled curve of `POST /v1/curve` and its encodings (docs/rules.md "The curve route").
public struct CurveResponse: Sendable {
    public static let numbersPerSample = 3

    public let request: CurveRequest
    public let progress: [Double]
    public let velocity: [Double]

    /// Samples the curve. A progress that is not finite (for example a Bézier extrapolated to
    /// 1e308) is a 422 naming the time that produced it (docs/rules.md "Conventions"); an infinite slope is
    /// reported as ±Double.greatestFiniteMagnitude, as Chromium does (rule 4).
    public init(_ request: CurveRequest) throws(Problem) {
        self.request = request
        let times = request.times, curve = request.curve, duration = request.duration
        var progress = [Double](repeating: 0, count: times.count)
        var velocity = [Double](repeating: 0, count: times.count)
        for i in times.indices {
            let sample = curve.sample(at: times[i], duration: duration)
            guard sample.progress.isFinite, !sample.velocity.isNaN else {
                throw Problem.invalid("the curve has no finite value at t = \(times[i])",
                                      at: JSONPointer(times.count == 1 ? ["at"] : ["at", String(i)]))
            }
            progress[i] = sample.progress
            velocity[i] = sample.velocity.isFinite ? sample.velocity
                : (sample.velocity > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
        }
        self.progress = progress
        self.velocity = velocity
    }

    /// `{"timing", "duration", "settlingDuration", "t", "progress", "velocity", "spring"?, "warnings"}`.
    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 256 + request.times.count * 3 * 22)
        w.raw("{")
        w.key("timing", first: true)
        w.value(request.timing.json)
        w.key("duration")
        w.number(request.duration)
        w.key("settlingDuration")
        switch request.curve {
        case .durationSpring(_, let end): w.number(end)
        case .spring(let spring): writeOptional(spring.settlingDuration, &w)
        default: w.raw("null")
        }
        w.key("t")
        w.numbers(request.times)
        w.key("progress")
        w.numbers(progress)
        w.key("velocity")
        w.numbers(velocity)
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
    public func csv() -> [UInt8] {
        var w = JSONWriter(capacity: 32 + request.times.count * 3 * 22)
        w.raw("t,progress,velocity\n")
        for i in request.times.indices {
            w.number(request.times[i])
            w.byte(0x2C)
            w.number(progress[i])
            w.byte(0x2C)
            w.number(velocity[i])
            w.byte(0x0A)
        }
        return w.bytes
    }

    private func writeOptional(_ value: Double, _ w: inout JSONWriter) {
        if value.isFinite { w.number(value) } else { w.raw("null") }
    }
}
