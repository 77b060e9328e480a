#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Motion's spring generator (the JavaScript library formerly Framer Motion), as the `motionSpring`
/// physics model plays it (docs/springs.md "Motion springs"): the damped oscillator from the start
/// value toward the target, the value exactly the target from the completion on.
///
/// Parameters, in Motion's precedence:
/// - any of stiffness, damping, mass: a physics spring (`init(mass:stiffness:damping:…)`) that
///   keeps the animation's velocity and completes at the first point of a 50 ms grid at rest;
/// - else duration or bounce: a time-defined spring (`timeDefined`) that starts from rest:
///   with a visual duration k = (2π/(1.2·visualDuration))², c = 2·ζ·√k, m = 1, completing as a
///   physics spring; without one `findSpring`'s k and c, completing at the clamped duration.
///
/// Tunables (each with its range and unit):
/// - stiffness k > 0, per second squared per unit mass (default 100, `PhysicsDefaults.stiffness`);
/// - damping c ≥ 0, per second per unit mass (default 10, `PhysicsDefaults.damping`);
/// - mass m > 0, unitless (default 1, `PhysicsDefaults.mass`);
/// - duration > 0, seconds (default `defaultDuration`, 0.8), clamped to `durationRange` [0.01, 10];
/// - bounce in [−1, 1], unitless (default `defaultBounce`, 0.3, for `findSpring`; 0 with a visual
///   duration, as Motion reads a missing bounce there); ζ = 1 − bounce clamped to
///   `dampingRatioRange` [0.05, 1], so bounce ≤ 0 is critical and bounce ≥ 0.95 gives ζ = 0.05;
/// - visualDuration > 0, seconds (no default: only with duration or bounce);
/// - restSpeed > 0, units per second, and restDistance > 0, units: Motion's
///   `granularRest` (0.01, 0.005) when |to − from| < `granularDistance` (5 units), else
///   `defaultRest` (2, 0.5).
///
/// Edge cases:
/// - critical damping only when ζ computes to exactly 1 (as the oscillator does);
/// - over-damped: Motion evaluates cosh/sinh of min(ωo·t, 300) (`hyperbolicCap`), which pulls a
///   strongly over-damped spring onto its target early; reproduced, beyond the cap only;
/// - Newton leaving the numbers (NaN) falls back to Motion's stiffness 100 and damping 10.
public struct MotionSpring: Sendable, Equatable {
    public let oscillator: DampedOscillator
    /// A `findSpring` spring completes at this local time, seconds (its clamped duration); nil:
    /// at the rest test on the grid.
    public let duration: Double?
    /// Time-defined springs ignore the animation's velocity (Motion's "time-defined springs ignore
    /// inherited velocity").
    public let startsFromRest: Bool
    /// Given rest thresholds; nil takes Motion's default for the distance travelled.
    public let restSpeed: Double?, restDistance: Double?

    /// `findSpring`'s default duration, seconds.
    public static let defaultDuration = 0.8
    /// `findSpring`'s default bounce.
    public static let defaultBounce = 0.3
    /// Durations `findSpring` accepts, seconds (others are clamped).
    public static let durationRange = 0.01...10.0
    /// Damping ratios a time-defined spring can have (1 − bounce is clamped to them).
    public static let dampingRatioRange = 0.05...1.0
    /// Newton steps `findSpring` takes (Motion loops from 1 to 12, exclusive).
    static let newtonIterations = 11
    /// A visual duration is the period of the undamped spring over this factor.
    static let visualDurationFactor = 1.2
    /// Below this distance, units, Motion's thresholds are the granular ones.
    public static let granularDistance = 5.0
    /// Rest speed (units per second) and distance (units) for small distances…
    public static let granularRest = (speed: 0.01, distance: 0.005)
    /// …and for the others.
    public static let defaultRest = (speed: 2.0, distance: 0.5)
    /// The rest test's grid, seconds (Motion's `calcGeneratorDuration` steps 50 ms).
    public static let restGrid = 0.05
    /// How far the grid is searched, seconds (Motion stops at 20 s; the contract looks further).
    public static let longestRest = 3600.0
    /// The over-damped hyperbolic argument's cap.
    static let hyperbolicCap = 300.0

    /// A physics spring: Motion's `stiffness`, `damping`, `mass`.
    public init(mass: Double, stiffness: Double, damping: Double, restSpeed: Double? = nil, restDistance: Double? = nil) {
        self.init(DampedOscillator(mass: mass, stiffness: stiffness, damping: damping), duration: nil, startsFromRest: false,
                  restSpeed: restSpeed, restDistance: restDistance)
    }

    private init(_ oscillator: DampedOscillator, duration: Double?, startsFromRest: Bool, restSpeed: Double?,
                 restDistance: Double?) {
        self.oscillator = oscillator
        self.duration = duration
        self.startsFromRest = startsFromRest
        self.restSpeed = restSpeed
        self.restDistance = restDistance
    }

    /// A time-defined spring (duration or bounce given, none of stiffness, damping, mass): with a
    /// visual duration the spring it names; otherwise `findSpring` with the defaults for what is
    /// missing. `duration` and `visualDuration` in seconds.
    public static func timeDefined(duration: Double?, bounce: Double?, visualDuration: Double?, restSpeed: Double? = nil,
                                   restDistance: Double? = nil) -> MotionSpring {
        if let visualDuration {
            let root = 2 * Double.pi / (visualDuration * visualDurationFactor)
            let stiffness = root * root
            let zeta = (1 - (bounce ?? 0)).clamped(to: dampingRatioRange)
            return MotionSpring(DampedOscillator(mass: 1, stiffness: stiffness, damping: 2 * zeta * stiffness.squareRoot()),
                                duration: nil, startsFromRest: true, restSpeed: restSpeed, restDistance: restDistance)
        }
        let zeta = (1 - (bounce ?? defaultBounce)).clamped(to: dampingRatioRange)
        let time = (duration ?? defaultDuration).clamped(to: durationRange)
        let omega = Spring.envelopeRoot(dampingRatio: zeta, duration: time, initialVelocity: 0, iterations: newtonIterations)
        let stiffness = omega.isNaN ? PhysicsDefaults.stiffness : omega * omega
        let damping = omega.isNaN ? PhysicsDefaults.damping : zeta * 2 * stiffness.squareRoot()
        return MotionSpring(DampedOscillator(mass: 1, stiffness: stiffness, damping: damping), duration: time,
                            startsFromRest: true, restSpeed: restSpeed, restDistance: restDistance)
    }

    /// The rest thresholds for a travel of `distance` units: those given, else Motion's.
    public func rest(distance: Double) -> (speed: Double, distance: Double) {
        let fallback = distance < Self.granularDistance ? Self.granularRest : Self.defaultRest
        return (restSpeed ?? fallback.speed, restDistance ?? fallback.distance)
    }

    /// Displacement from the target and velocity t seconds after a start at y0 = from − to with
    /// velocity v0: the oscillator's closed form, with Motion's capped hyperbolic argument.
    public func state(y0: Double, v0: Double, at t: Double) -> (position: Double, velocity: Double) {
        let motion = oscillator.trajectory(y0: y0, v0: v0)
        guard oscillator.dampingRatio > 1, oscillator.frequency * t > Self.hyperbolicCap else {
            return oscillator.state(motion, at: t)
        }
        let cap = Self.hyperbolicCap
        return DampedOscillator.combine(motion, decay: exp(-oscillator.decayRate * t), cosine: cosh(cap), sine: sinh(cap))
    }

    /// Local time of the completion: a `findSpring` spring's duration; otherwise the first grid
    /// point n · 50 ms (n ≥ 0, up to `longestRest` and `horizon`) where |v| ≤ `rest.speed` and
    /// |y| ≤ `rest.distance`; nil when none is, or when the budget runs out (one unit per test).
    func completion(y0: Double, v0: Double, rest: (speed: Double, distance: Double), horizon: Double,
                    budget: PhysicsBudget?) -> Double? {
        if let duration { return duration }
        let milliseconds = Int((Self.restGrid * 1000).rounded())
        let last = (min(horizon, Self.longestRest) / Self.restGrid + PhysicsMotion.tickSlack).rounded(.down)
        guard last >= 0 else { return nil }
        for n in 0...Int(last) {
            if let budget, !budget.spend(1) { return nil }
            // n · 50 / 1000, as Motion's millisecond grid divides.
            let t = Double(n * milliseconds) / 1000
            let s = state(y0: y0, v0: v0, at: t)
            if abs(s.velocity) <= rest.speed && abs(s.position) <= rest.distance { return t }
        }
        return nil
    }
}
