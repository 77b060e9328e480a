#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A spring timing curve from 0 to 1, as `CASpringAnimation` and WebKit `SpringSolver.h`
/// ("modelled on CASpringAnimation") evaluate it (docs/springs.md "Core Animation springs").
///
/// Progress is p(t) = 1 + d(t), where d is the `DampedOscillator` displacement with d(0) = −1 and
/// d'(0) = v0 = `initialVelocity` (distances per second, positive toward the target), so for
/// ζ < 1 p(t) = 1 − e^(−ζω0·t)·(cos ωd·t + B·sin ωd·t), B = (ζω0 − v0)/ωd.
///
/// Edge cases:
/// - Without `allowsOverdamping` damping beyond critical is clamped to c = 2√(km), as Core
///   Animation, WebKit and SwiftUI `Spring(mass:stiffness:damping:allowOverDamping: false)` do;
///   with it the true over-damped curve is used (docs/springs.md "Core Animation springs", inferred).
/// - t < 0 reads progress 0 and velocity 0 (before the start); NaN reads NaN.
/// - Parameter sets take unvalidated numbers; the caller checks ranges. Nothing here traps.
public struct Spring: Sendable, Equatable {
    /// Core Animation's settling epsilon (`durationForEpsilon:0.001`).
    static let settlingEpsilon = 0.001
    /// Step of the ζ ≥ 1 settling walk (accumulated in Double, as Core Animation does).
    static let settlingWalkStep = 0.1
    /// The walk ends once the curve has stayed within epsilon for longer than this.
    static let settlingWalkPatience = 1.0
    /// Walk steps before giving up (3600 s, the longest curve the API samples).
    static let settlingWalkLimit = 36_000

    public let mass: Double, stiffness: Double
    /// The damping actually used (after clamping to critical without `allowsOverdamping`).
    public let damping: Double
    /// Normalised: distances per second, positive toward the target.
    public let initialVelocity: Double
    public let allowsOverdamping: Bool
    @usableFromInline let oscillator: DampedOscillator
    /// The motion from displacement −1 with the initial velocity, precomputed for sampling.
    @usableFromInline let motion: DampedOscillator.Trajectory

    public init(
        mass: Double, stiffness: Double, damping: Double, initialVelocity: Double = 0,
        allowsOverdamping: Bool
    ) {
        let critical = 2 * DampedOscillator.rootOfProduct(stiffness, mass)
        self.mass = mass
        self.stiffness = stiffness
        self.damping = allowsOverdamping ? damping : min(damping, critical)
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping
        oscillator = DampedOscillator(mass: mass, stiffness: stiffness, damping: self.damping)
        motion = oscillator.trajectory(y0: -1, v0: initialVelocity)
    }

    /// ζ = c/(2√(km)).
    public var dampingRatio: Double { oscillator.dampingRatio }

    /// The first quantity of this spring that is not a finite number — a reported one (mass,
    /// stiffness, damping, ζ, response, bounce, initial velocity, a settling duration that is NaN)
    /// or one the sampler multiplies by (ω0, the decay rate, ωd or ωo, the sine coefficients) —
    /// or nil when all are. Extreme parameters can overflow where no stable form exists; the
    /// caller refuses those (docs/rules.md "Conventions").
    public var nonFiniteQuantity: String? {
        let reported: [(String, Double)] = [
            ("mass", mass), ("stiffness", stiffness), ("damping", damping), ("dampingRatio", dampingRatio),
            ("response", response), ("bounce", bounce), ("initialVelocity", initialVelocity),
            ("natural frequency", oscillator.naturalFrequency), ("decay rate", oscillator.decayRate),
            ("frequency", oscillator.frequency),
        ]
        if let name = reported.first(where: { !$0.1.isFinite })?.0 { return name }
        if dampingRatio != 1, !motion.positionSine.isFinite || !motion.velocitySine.isFinite { return "sine coefficient" }
        return settlingDuration.isNaN ? "settlingDuration" : nil
    }

    /// 2π√(m/k): WWDC18 "Designing Fluid Interfaces" response, SwiftUI's perceptual duration.
    public var response: Double { 2 * .pi * DampedOscillator.rootOfQuotient(mass, stiffness) }

    /// SwiftUI bounce: 1 − ζ for ζ ≤ 1, 1/ζ − 1 for ζ > 1.
    public var bounce: Double {
        let zeta = dampingRatio
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    @inlinable
    public func progress(at t: Double) -> Double { sample(at: t).progress }

    /// dp/dt in 1/s.
    @inlinable
    public func velocity(at t: Double) -> Double { sample(at: t).velocity }

    /// Progress and dp/dt at `t`; from `end` on, if given (a UIKit duration-based spring, whose
    /// animation ends there and shows the model value), exactly 1 and 0.
    @inlinable
    public func sample(at t: Double, endingAt end: Double? = nil) -> (progress: Double, velocity: Double) {
        Self.reading(at: t, endingAt: end) { oscillator.state(motion, at: t) }
    }

    /// `sample(at:endingAt:)` at each of `times`, into `progress` and `velocity` (each as long as
    /// `times`). The oscillator's form is chosen once for the run (`DampedOscillator.forEachState`):
    /// the same bits as sample by sample.
    @inlinable
    public func sample(at times: UnsafeBufferPointer<Double>, endingAt end: Double? = nil,
                       progress: UnsafeMutableBufferPointer<Double>, velocity: UnsafeMutableBufferPointer<Double>) {
        precondition(progress.count >= times.count && velocity.count >= times.count, "one slot per time")
        oscillator.forEachState(motion, at: times) { i, t, position, speed in
            (progress[i], velocity[i]) = Self.reading(at: t, endingAt: end) { (position, speed) }
        }
    }

    /// What a spring reads at `t` given the oscillator's displacement from rest there: exactly 1 and
    /// 0 from `end` on, at rest (0 and 0) before 0, else 1 + the displacement and its velocity.
    /// `state` is asked only for a time it answers.
    @inlinable @inline(__always)
    static func reading(at t: Double, endingAt end: Double?,
                        _ state: () -> (position: Double, velocity: Double)) -> (progress: Double, velocity: Double) {
        if let end, t >= end { return (1, 0) }
        if t < 0 { return (0, 0) }
        let (position, velocity) = state()
        return (1 + position, velocity)
    }

    /// Core Animation's settling duration, `-[CASpringAnimation durationForEpsilon:0.001]` at
    /// speed 1 (docs/springs.md "Settling duration", decompiled, matching Apple's documented 2.85 s and 1.02 s):
    /// - ζ = 0: never settles, +infinity (docs/rules.md rule 24; the FLT_MAX clamp does not apply).
    /// - ζ < 1: the envelope bound T = ln((1 + |B|)/ε)/(ζω0), B = (ζω0 − v0)/ωd, at least 0.
    /// - ζ ≥ 1: walk p(t) in 0.1 s steps and return the first time after which |1 − p| stayed
    ///   below ε for more than 1 s (0 if p is not finite). The walk is capped at 3600 s, which
    ///   is then the result.
    /// The result is clamped to Float.greatestFiniteMagnitude, as Core Animation does.
    public var settlingDuration: Double {
        let zeta = dampingRatio, epsilon = Self.settlingEpsilon
        let duration: Double
        if zeta == 0 {
            return .infinity
        } else if zeta < 1 {
            let b = (oscillator.decayRate - initialVelocity) / oscillator.frequency
            duration = max(0, log((1 + abs(b)) / epsilon) / oscillator.decayRate)
        } else {
            duration = settlingWalk()
        }
        return min(abs(duration), Double(Float.greatestFiniteMagnitude))
    }

    /// Core Animation's walk for ζ ≥ 1 (see `settlingDuration`).
    func settlingWalk() -> Double {
        let epsilon = Self.settlingEpsilon
        var best = Double.infinity, bestTime = -1.0, t = 0.0
        for _ in 0..<Self.settlingWalkLimit {
            let distance = abs(1 - progress(at: t))
            if !distance.isFinite { return 0 }
            if best >= epsilon {
                if distance < best { (best, bestTime) = (distance, t) }
            } else if distance >= epsilon {
                best = .infinity
            } else if t - bestTime > Self.settlingWalkPatience {
                return bestTime
            }
            t += Self.settlingWalkStep
        }
        return t
    }
}

// MARK: - Parameter sets (docs/rules.md "Spring parameter sets")

extension Spring {
    /// `CASpringAnimation` / `UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`.
    public static func physical(
        mass: Double, stiffness: Double, damping: Double, initialVelocity: Double,
        allowsOverdamping: Bool
    ) -> Spring {
        Spring(
            mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
            allowsOverdamping: allowsOverdamping)
    }

    /// Android `SpringForce`: mass 1, c = 2ζ√k, true over-damping.
    public static func android(stiffness: Double, dampingRatio: Double, initialVelocity: Double) -> Spring {
        Spring(
            mass: 1, stiffness: stiffness, damping: 2 * dampingRatio * stiffness.squareRoot(),
            initialVelocity: initialVelocity, allowsOverdamping: true)
    }

    /// WWDC18 "Designing Fluid Interfaces" / SwiftUI `Spring(response:dampingRatio:)`:
    /// m = 1, k = (2π/response)², c = 4πζ/response; over-damping allowed.
    public static func response(_ response: Double, dampingRatio: Double, initialVelocity: Double) -> Spring {
        let omega = 2 * .pi / response
        return Spring(
            mass: 1, stiffness: omega * omega, damping: 2 * dampingRatio * omega,
            initialVelocity: initialVelocity, allowsOverdamping: true)
    }

    /// SwiftUI `Spring(duration:bounce:)`, `CASpringAnimation(perceptualDuration:bounce:)`:
    /// ζ = 1 − bounce for 0 ≤ bounce ≤ 1 (0 beyond 1), ζ = 1/(1 + bounce) for bounce < 0
    /// (docs/springs.md "Response and perceptual springs"), then as `response(_:dampingRatio:initialVelocity:)` with the duration.
    public static func perceptual(duration: Double, bounce: Double, initialVelocity: Double) -> Spring {
        let zeta = bounce < 0 ? 1 / (1 + bounce) : max(0, 1 - bounce)
        return response(duration, dampingRatio: zeta, initialVelocity: initialVelocity)
    }

    /// Facebook POP `springBounciness`/`springSpeed` (pop/POPAnimationExtras.mm, identical to
    /// rebound-js BouncyConversion; docs/springs.md "POP and Origami springs"), converted to Origami tension and friction.
    public static func pop(bounciness: Double, speed: Double, initialVelocity: Double) -> Spring {
        func normalize(_ value: Double, _ start: Double, _ end: Double) -> Double {
            (value - start) / (end - start)
        }
        func project(_ n: Double, _ start: Double, _ end: Double) -> Double { start + n * (end - start) }
        func quadOut(_ t: Double, _ start: Double, _ end: Double) -> Double {
            let eased = 2 * t - t * t
            return eased * end + (1 - eased) * start
        }
        // Friction that just avoids bouncing at a given Origami tension (three cubic fits).
        func noBounce(_ tension: Double) -> Double {
            if tension <= 18 { return 0.0007 * pow(tension, 3) - 0.031 * pow(tension, 2) + 0.64 * tension + 1.28 }
            if tension <= 44 { return 0.000044 * pow(tension, 3) - 0.006 * pow(tension, 2) + 0.36 * tension + 2 }
            return 0.00000045 * pow(tension, 3) - 0.000332 * pow(tension, 2) + 0.1078 * tension + 5.84
        }
        let b = project(normalize(bounciness / 1.7, 0, 20), 0, 0.8)
        let s = normalize(speed / 1.7, 0, 20)
        let tension = project(s, 0.5, 200)
        let friction = quadOut(b, noBounce(tension), 0.01)
        return origami(tension: tension, friction: friction, initialVelocity: initialVelocity)
    }

    /// Rebound `SpringConfig.fromOrigamiTensionAndFriction` (OrigamiValueConverter):
    /// k = (tension − 30)·3.62 + 194, c = (friction − 8)·3 + 25, m = 1, true over-damping.
    public static func origami(tension: Double, friction: Double, initialVelocity: Double) -> Spring {
        Spring(
            mass: 1, stiffness: (tension - 30) * 3.62 + 194, damping: (friction - 8) * 3 + 25,
            initialVelocity: initialVelocity, allowsOverdamping: true)
    }
}
