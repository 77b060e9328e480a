#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The spring UIKit derives for a duration and damping ratio, and which inputs it had to clamp.
public struct UIKitSpringSolution: Sendable, Equatable {
    public let spring: Spring
    public let clampedDampingRatio: Bool
    public let clampedDuration: Bool
}

extension Spring {
    /// Envelope level the sine term must reach at t = duration.
    static let uikitEpsilon = 0.001
    /// Newton iterations, always all of them (UIKit has no convergence test).
    static let uikitNewtonIterations = 12
    /// Damping ratios UIKit accepts: FLT_EPSILON…1 (it cannot express over-damping).
    static let uikitDampingRatioRange = Double(Float.ulpOfOne)...1
    static let uikitDurationRange = 0.01...10.0
    /// u with (1 + u)·e^(−u) = 0.001: the critically damped root for v = 0 is ω = u/T.
    static let uikitCriticalRoot = 9.233413476451585

    /// UIKit's duration-based spring (`animateWithDuration:…usingSpringWithDamping:
    /// initialSpringVelocity:`, `UISpringTimingParameters(dampingRatio:initialVelocity:)`),
    /// reconstructed from decompiled UIKitCore and Framer/Motion's port (docs/springs.md "UIKit duration-based springs"):
    ///
    /// 1. ζ ← clamp(dampingRatio, FLT_EPSILON, 1), T ← clamp(duration, 0.01, 10).
    /// 2. Solve for the undamped angular frequency ω with 12 Newton steps from ω = 5/T, no
    ///    convergence test, on the envelope equation at ε = 0.001:
    ///    ζ < 1:  f(ω) = ε − |g|·e^(−ζωT), g = (ζω − v)/(√(1−ζ²)·ω),
    ///            f'(ω) = −sign(g)·e^(−ζωT)·(v + vζTω − ζ²Tω²)/(√(1−ζ²)·ω²);
    ///    ζ = 1:  f(ω) = ∓ε + ((ω − v)·T + 1)·e^(−ωT) (− when ω ≥ v), f'(ω) = T²(v − ω)e^(−ωT).
    /// 3. mass 1, stiffness ω², damping 2ζω, initial velocity v (normalised).
    ///
    /// Evaluated in double precision; UIKit uses expf/sqrtf, which moves ω by about 1e-7
    /// relative. If Newton leaves the finite numbers (possible for some v ≠ 0), ω falls back to
    /// the closed form for v = 0, ω = ln(ζ/(ε√(1−ζ²)))/(ζT) or u/T, which is where Newton
    /// converges when v = 0. Very small ζ (below about 0.001) has its root at ω < 0, as in
    /// UIKit's equations; that ω is kept.
    public static func uikit(
        dampingRatio: Double, duration: Double, initialVelocity v: Double
    ) -> UIKitSpringSolution {
        let zeta = dampingRatio.clamped(to: uikitDampingRatioRange)
        let time = duration.clamped(to: uikitDurationRange)
        var omega = envelopeRoot(dampingRatio: zeta, duration: time, initialVelocity: v, iterations: uikitNewtonIterations)
        if !omega.isFinite {
            let root = (1 - zeta * zeta).squareRoot()
            omega = zeta < 1 ? log(zeta / (uikitEpsilon * root)) / (zeta * time) : uikitCriticalRoot / time
        }

        let spring = Spring(
            mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega, initialVelocity: v,
            allowsOverdamping: false)
        return UIKitSpringSolution(
            spring: spring, clampedDampingRatio: zeta != dampingRatio, clampedDuration: time != duration)
    }
}

extension Spring {
    /// SwiftUI's `Spring(settlingDuration:dampingRatio:epsilon:)` (docs/springs.md "SwiftUI's
    /// names"): UIKit's solve of `uikit(dampingRatio:duration:initialVelocity:)` for a spring from
    /// rest, with the envelope level ε given instead of fixed at 0.001 and nothing clamped. Mass 1,
    /// stiffness ω², damping 2ζω, where at t = `settlingDuration`
    /// - ζ < 1: the sine term's envelope ζ/√(1 − ζ²)·e^(−ζωt) is ε, so
    ///   ω = ln(ζ/(ε·√(1 − ζ²)))/(ζ·t);
    /// - ζ = 1: the distance still to go, (1 + ωt)·e^(−ωt), is ε, so ω = u/t with
    ///   (1 + u)·e^(−u) = ε (`criticalEnvelopeRoot`).
    /// The caller keeps ζ in (ε/√(1 + ε²), 1] and ε in (0, 1), where ω is positive.
    public static func settling(duration: Double, dampingRatio zeta: Double, epsilon: Double,
                                initialVelocity: Double) -> Spring {
        let omega: Double
        if zeta < 1 {
            omega = log(zeta / (epsilon * (1 - zeta * zeta).squareRoot())) / (zeta * duration)
        } else {
            omega = criticalEnvelopeRoot(epsilon: epsilon) / duration
        }
        return Spring(mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega, initialVelocity: initialVelocity,
                      allowsOverdamping: false)
    }

    /// u > 0 with (1 + u)·e^(−u) = ε for ε in (0, 1): Newton on f(u) = ln(1 + u) − u − ln ε, which is
    /// concave and decreasing, from u = 2(1 − ln ε), where f ≤ 0, so the iterates fall monotonically
    /// onto the root; stops when a step no longer moves u.
    static func criticalEnvelopeRoot(epsilon: Double) -> Double {
        let level = log(epsilon)
        var u = 2 * (1 - level)
        for _ in 0..<100 {
            let f = log1p(u) - u - level
            let next = u + f * (1 + u) / u
            if !(next < u) { break }
            u = next
        }
        return u
    }
}

extension Spring {
    /// Step 2 of `uikit(dampingRatio:duration:initialVelocity:)`, shared with Motion's `findSpring`
    /// (docs/springs.md "Motion springs"), which runs the same equation with 11 steps: `iterations`
    /// Newton steps from ω = 5/T on the envelope equation at ε = `uikitEpsilon`, no convergence
    /// test. ζ in (0, 1] and T > 0 as the callers clamp them; the result may leave the finite
    /// numbers, which each caller handles its own way.
    static func envelopeRoot(dampingRatio zeta: Double, duration time: Double, initialVelocity v: Double,
                             iterations: Int) -> Double {
        let epsilon = uikitEpsilon
        let root = (1 - zeta * zeta).squareRoot()
        var omega = 5 / time
        for _ in 0..<iterations {
            let f: Double, derivative: Double
            if zeta < 1 {
                let decay = exp(-zeta * omega * time)
                let g = (zeta * omega - v) / (root * omega)
                let sign: Double = g > 0 ? 1 : -1
                f = epsilon - abs(g) * decay
                derivative = -sign * decay * (v + v * zeta * time * omega - zeta * zeta * time * omega * omega)
                    / (root * omega * omega)
            } else {
                let decay = exp(-omega * time)
                f = (omega - v >= 0 ? -epsilon : epsilon) + ((omega - v) * time + 1) * decay
                derivative = time * time * (v - omega) * decay
            }
            omega -= f / derivative
        }
        return omega
    }
}

extension Double {
    /// The nearest value in `range` (NaN stays NaN).
    func clamped(to range: ClosedRange<Double>) -> Double {
        min(max(self, range.lowerBound), range.upperBound)
    }
}
