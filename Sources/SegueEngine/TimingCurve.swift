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
        case .cubicBezier(let bezier):
            let (progress, slope) = bezier.sample(t / duration)
            return (progress, slope / duration)
        case .steps(let steps):
            return (steps.progress(t / duration), 0)
        case .piecewiseLinear(let curve):
            let x = t / duration
            return (curve.progress(x), curve.slope(x) / duration)
        case .spring(let spring):
            return spring.sample(at: t)
        case .durationSpring(let spring, let end):
            return t >= end ? (1, 0) : spring.sample(at: t)
        }
    }

    /// The spring behind a spring curve, if any.
    public var spring: Spring? {
        switch self {
        case .spring(let spring), .durationSpring(let spring, _): spring
        default: nil
        }
    }
}
