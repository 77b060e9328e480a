#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A model that coasts without a target: one closed form from the start value x0 and velocity v0
/// (units per second), and an exact stop after which the value holds (docs/springs.md "Android
/// fling", "Scroll deceleration"). Scalar: a caller applies it per component.
protocol Coasting: Sendable {
    /// Position and velocity t ≥ 0 seconds after the start.
    func state(from x0: Double, velocity v0: Double, after t: Double) -> (position: Double, velocity: Double)
    /// When it stops, seconds after the start, and the value it holds from then on.
    func stop(from x0: Double, velocity v0: Double) -> (time: Double, position: Double)
}

/// Android's `FlingAnimation` (its `DragForce`): with f = −4.2 · friction,
/// x(t) = x0 − v0/f + (v0/f)·e^(f·t), v(t) = v0·e^(f·t) (docs/springs.md "Android fling").
///
/// Tunables:
/// - friction > 0, unitless (default `defaultFriction`, 1): FlingAnimation's `setFriction`;
/// - minimumVisibleChange > 0, units (default `defaultMinimumVisibleChange`, 1 — a pixel): the
///   stop speed is 0.75 · minimumVisibleChange · 62.5 units per second;
/// - min, max: optional bounds, units (min ≤ max).
///
/// It stops at the exact time |v| reaches the stop speed (at once when |v0| is not above it),
/// or earlier at the exact time x reaches the bound it moves toward, which it then holds. A start
/// at or beyond a bound stops at once on that bound (Android's equilibrium test reads
/// x ≥ max or x ≤ min; its `start` refuses a value outside them).
public struct Fling: Coasting, Sendable, Equatable {
    public let friction: Double
    public let minimumVisibleChange: Double
    public let min: Double?, max: Double?

    /// `DragForce`'s default friction.
    public static let defaultFriction = 1.0
    /// The minimum visible change of pixels and translations, units.
    public static let defaultMinimumVisibleChange = 1.0
    /// f = `frictionFactor` · friction, per second (`DragForce`'s −4.2).
    static let frictionFactor = -4.2
    /// The stop speed over the minimum visible change, per second: 0.75 · 62.5, DragForce's
    /// velocity threshold (0.75 of the change, per frame at 62.5 frames per second).
    static let stopSpeedFactor = 0.75 * 62.5

    public init(friction: Double = Fling.defaultFriction, minimumVisibleChange: Double = Fling.defaultMinimumVisibleChange,
                min: Double? = nil, max: Double? = nil) {
        self.friction = friction
        self.minimumVisibleChange = minimumVisibleChange
        self.min = min
        self.max = max
    }

    /// f, per second (negative).
    var rate: Double { Self.frictionFactor * friction }
    /// The speed it stops at, units per second.
    public var stopSpeed: Double { Self.stopSpeedFactor * minimumVisibleChange }

    func state(from x0: Double, velocity v0: Double, after t: Double) -> (position: Double, velocity: Double) {
        let f = rate, decay = exp(f * t)
        return (x0 - v0 / f + (v0 / f) * decay, v0 * decay)
    }

    func stop(from x0: Double, velocity v0: Double) -> (time: Double, position: Double) {
        if let min, x0 <= min { return (0, min) }
        if let max, x0 >= max { return (0, max) }
        let f = rate
        let slowed = abs(v0) > stopSpeed ? log(stopSpeed / abs(v0)) / f : 0
        // e^(f·t) = 1 + f·(bound − x0)/v0 has a root only for the bound ahead, within reach.
        if let bound = v0 > 0 ? max : (v0 < 0 ? min : nil) {
            let reach = 1 + f * (bound - x0) / v0
            if reach > 0, log(reach) / f < slowed { return (log(reach) / f, bound) }
        }
        return (slowed, state(from: x0, velocity: v0, after: slowed).position)
    }
}

/// UIScrollView's deceleration as a continuous model (docs/springs.md "Scroll deceleration"):
/// with the rate r per millisecond, x(t) = x0 + v0·(r^(1000t) − 1)/(1000·ln r),
/// v(t) = v0·r^(1000t); it stops at the exact time |v| = `stopSpeed` (at once when |v0| is not
/// above it) and holds x there.
///
/// Tunables:
/// - rate r in (0, 1), per millisecond (default `normal`, 0.998; `fast` 0.99): UIScrollView's
///   `decelerationRate`;
/// - stopSpeed > 0, units per second (default `defaultStopSpeed`, 5; UIScrollView's own threshold
///   is private).
public struct ScrollDecay: Coasting, Sendable, Equatable {
    public let rate: Double
    public let stopSpeed: Double

    /// `UIScrollView.DecelerationRate.normal`, per millisecond.
    public static let normal = 0.998
    /// `UIScrollView.DecelerationRate.fast`, per millisecond.
    public static let fast = 0.99
    /// The stop speed when not given, units per second.
    public static let defaultStopSpeed = 5.0

    public init(rate: Double = ScrollDecay.normal, stopSpeed: Double = ScrollDecay.defaultStopSpeed) {
        self.rate = rate
        self.stopSpeed = stopSpeed
    }

    func state(from x0: Double, velocity v0: Double, after t: Double) -> (position: Double, velocity: Double) {
        let factor = pow(rate, 1000 * t)
        return (x0 + v0 * (factor - 1) / (1000 * log(rate)), v0 * factor)
    }

    func stop(from x0: Double, velocity v0: Double) -> (time: Double, position: Double) {
        let time = abs(v0) > stopSpeed ? log(stopSpeed / abs(v0)) / (1000 * log(rate)) : 0
        return (time, state(from: x0, velocity: v0, after: time).position)
    }

    /// Where the WWDC18 "Designing Fluid Interfaces" projection puts the end:
    /// x0 + (v0/1000)·r/(1 − r), the sum of per-millisecond steps (0.1–0.5 % short of the
    /// continuous limit).
    public func projection(from x0: Double, velocity v0: Double) -> Double {
        x0 + v0 / 1000 * rate / (1 - rate)
    }
}
