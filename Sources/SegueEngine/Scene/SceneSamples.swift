/// A compiled scene sampled at a list of times, once: every reported channel's numbers (and
/// velocities when asked), every animator's fraction, state and direction, frame by frame, in flat
/// columns (docs/rules.md "The render route"; docs/http.md "Memory").
///
/// Sampling comes before anything is written, so a value that is not finite is a
/// `SceneError.nonFinite` before a status is sent ("Conventions"), and the writers — JSON, CSV,
/// the SVG plot — read numbers from here instead of evaluating the scene again. It holds 8 bytes
/// per number (`retainedBytes`), under half of what the numbers' text would take.
public struct SceneSamples: Sendable {
    /// One channel's numbers (values or velocities): frame k's `width` numbers are
    /// `numbers[k * width ..< (k + 1) * width]`.
    public struct Column: Sendable {
        public let width: Int
        public let numbers: [Double]

        /// `numbers` holds one run of `width` numbers per sample.
        public init(width: Int, numbers: [Double]) {
            self.width = width
            self.numbers = numbers
        }

        /// Frame k's numbers.
        public func frame(_ k: Int) -> ArraySlice<Double> { numbers[k * width ..< (k + 1) * width] }
    }

    /// One animator's reports, one per frame.
    public struct AnimatorReports: Sendable {
        /// Time fractions (rule 14); empty for a physics animator, which has none (rule 18).
        public let fractions: [Double]
        public let states: [AnimatorState]
        public let reversed: [Bool]
    }

    public let times: [Double]
    /// One per `Scene.channels`, in order.
    public let values: [Column]
    /// One per channel when velocities were asked for, else empty.
    public let velocities: [Column]
    /// One per `Scene.animators`, in order.
    public let animators: [AnimatorReports]

    /// How often the sampling loops look at the cancellation flag, in frames.
    static let cancellationStride = 256

    /// Samples `scene` at `times`, refusing the first number that is not finite (channels in
    /// order, then frames; values before velocities) and stopping with `.cancelled` once
    /// `cancellation` is raised.
    public init(_ scene: Scene, at times: [Double], velocities: Bool,
                cancellation: WorkCancellation? = nil) throws(SceneError) {
        self.times = times
        var values: [Column] = [], speeds: [Column] = []
        values.reserveCapacity(scene.channels.count)
        for index in scene.channels.indices {
            values.append(try Self.column(scene, index, times, cancellation) { $0.value(at: $1).numbers })
        }
        if velocities {
            for index in scene.channels.indices {
                speeds.append(try Self.column(scene, index, times, cancellation) { $0.velocity(at: $1) })
            }
        }
        self.values = values
        self.velocities = speeds
        animators = scene.animators.map { animator in
            AnimatorReports(fractions: animator.isPhysics ? [] : times.map(animator.fraction(at:)),
                            states: times.map(animator.state(at:)), reversed: times.map(animator.reversed(at:)))
        }
    }

    /// Bytes the samples hold: 8 per number, 10 per frame per animator at most.
    public var retainedBytes: Int {
        let numbers = times.count + (values + velocities).reduce(0) { $0 + $1.numbers.count }
        return numbers * MemoryLayout<Double>.stride
            + animators.count * times.count * (MemoryLayout<Double>.stride + MemoryLayout<AnimatorState>.stride + 1)
    }

    private static func column(_ scene: Scene, _ index: Int, _ times: [Double], _ cancellation: WorkCancellation?,
                               _ evaluate: (Scene.Channel, Double) -> [Double]) throws(SceneError) -> Column {
        let channel = scene.channels[index], width = channel.kind.width
        var numbers: [Double] = []
        numbers.reserveCapacity(times.count * width)
        for (k, t) in times.enumerated() {
            if k % cancellationStride == 0, cancellation?.isCancelled == true { throw .cancelled }
            let frame = evaluate(channel, t)
            try scene.checkFinite(frame, index, t)
            // A channel's numbers always have its kind's width; pad or cut defensively so that the
            // frame-k slice stays where the writers look for it.
            numbers.append(contentsOf: frame.prefix(width))
            if frame.count < width { numbers.append(contentsOf: repeatElement(0, count: width - frame.count)) }
        }
        return Column(width: width, numbers: numbers)
    }
}
