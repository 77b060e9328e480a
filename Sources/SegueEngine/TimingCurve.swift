/// A timing curve as the sampler sees it: progress (0 → 1, may overshoot) and its time
/// derivative at a time in seconds, over an animation of a given duration.
///
/// Edge cases (docs/rules.md "The curve route" and rule 4):
/// - time-fraction curves (Bézier, steps, `linear()`) read x = t / duration, so outside
///   [0, duration] they follow their natural extension, and their velocity is f′(x) / duration;
/// - steps are flat between jumps: velocity 0;
/// - a spring reads 0 before 0 and keeps moving after `duration` (its own time, not a fraction);
/// - a UIKit duration-based spring reads exactly 1, velocity 0, from its duration on
///   (the animation ends at T and the layer shows the model value).
public enum TimingCurve: Sendable, Equatable {
    case cubicBezier(CubicBezier)
    case steps(Steps)
    case piecewiseLinear(PiecewiseLinear)
    case spring(Spring)
    /// A spring that ends at `duration` (UIKit `usingSpringWithDamping:` / dampingRatio timing).
    case durationSpring(Spring, duration: Double)

    /// Progress and d(progress)/dt at time `t` (seconds) of an animation lasting `duration`.
    @inlinable
    public func sample(at t: Double, duration: Double) -> (progress: Double, velocity: Double) {
        switch self {
        case .cubicBezier(let bezier): Self.sample(bezier, at: t, duration: duration)
        case .steps(let steps): Self.sample(steps, at: t, duration: duration)
        case .piecewiseLinear(let curve): Self.sample(curve, at: t, duration: duration)
        case .spring(let spring): spring.sample(at: t)
        case .durationSpring(let spring, let end): spring.sample(at: t, endingAt: end)
        }
    }

    /// `sample(at:duration:)` at each of `times`, into `progress` and `velocity` (as long as
    /// `times`). The curve is examined once for the whole run: a switch per sample copies the
    /// curve out of the enum every time (a Bézier with its table is 200 bytes).
    @inlinable
    public func sample(at times: [Double], duration: Double, progress: inout [Double], velocity: inout [Double]) {
        precondition(progress.count == times.count && velocity.count == times.count, "one slot per time")
        switch self {
        case .cubicBezier(let bezier): Self.fill(times, &progress, &velocity) { Self.sample(bezier, at: $0, duration: duration) }
        case .steps(let steps): Self.fill(times, &progress, &velocity) { Self.sample(steps, at: $0, duration: duration) }
        case .piecewiseLinear(let curve): Self.fill(times, &progress, &velocity) { Self.sample(curve, at: $0, duration: duration) }
        case .spring(let spring):
            Self.withBuffers(times, &progress, &velocity) { spring.sample(at: $0, progress: $1, velocity: $2) }
        case .durationSpring(let spring, let end):
            Self.withBuffers(times, &progress, &velocity) { spring.sample(at: $0, endingAt: end, progress: $1, velocity: $2) }
        }
    }

    /// Progress alone at each of `times`, read as `sample(at:duration:progress:velocity:)` reads it:
    /// the same numbers as `sample(at:duration:).progress` at each time.
    public func progress(at times: [Double], duration: Double) -> [Double] {
        var progress = [Double](repeating: 0, count: times.count), velocity = progress
        sample(at: times, duration: duration, progress: &progress, velocity: &velocity)
        return progress
    }

    @inlinable @inline(__always)
    static func fill(_ times: [Double], _ progress: inout [Double], _ velocity: inout [Double],
                     _ sample: (Double) -> (progress: Double, velocity: Double)) {
        withBuffers(times, &progress, &velocity) { times, progress, velocity in
            for i in times.indices {
                (progress[i], velocity[i]) = sample(times[i])
            }
        }
    }

    /// The three arrays as buffers: no uniqueness check of either output on every store.
    @inlinable @inline(__always)
    static func withBuffers(
        _ times: [Double], _ progress: inout [Double], _ velocity: inout [Double],
        _ body: (UnsafeBufferPointer<Double>, UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>) -> Void
    ) {
        times.withUnsafeBufferPointer { times in
            progress.withUnsafeMutableBufferPointer { progress in
                velocity.withUnsafeMutableBufferPointer { velocity in body(times, progress, velocity) }
            }
        }
    }

    // One case each: a time-fraction curve reads x = t / duration and scales its slope by 1 / duration.

    @inlinable @inline(__always)
    static func sample(_ bezier: CubicBezier, at t: Double, duration: Double) -> (progress: Double, velocity: Double) {
        let (progress, slope) = bezier.sample(t / duration)
        return (progress, slope / duration)
    }

    @inlinable @inline(__always)
    static func sample(_ steps: Steps, at t: Double, duration: Double) -> (progress: Double, velocity: Double) {
        (steps.progress(t / duration), 0)
    }

    @inlinable @inline(__always)
    static func sample(_ curve: PiecewiseLinear, at t: Double, duration: Double) -> (progress: Double, velocity: Double) {
        let x = t / duration
        return (curve.progress(x), curve.slope(x) / duration)
    }

    /// The spring behind a spring curve, if any.
    public var spring: Spring? {
        switch self {
        case .spring(let spring), .durationSpring(let spring, _): spring
        default: nil
        }
    }
}
