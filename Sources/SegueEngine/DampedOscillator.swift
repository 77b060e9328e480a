#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The damped harmonic oscillator m·y'' + c·y' + k·y = 0 in closed form (docs/springs.md "The damped oscillator"), the model
/// behind every spring: Core Animation / WebKit `SpringSolver.h`, SwiftUI, POP, Android.
///
/// With ω0 = √(k/m), ζ = c/(2√(km)), a = ζ·ω0, y(0) = y0, y'(0) = v0:
///
///     ζ < 1, ωd = ω0√(1−ζ²):  y = e^(−at)·[y0·cos ωd·t + (v0 + a·y0)/ωd · sin ωd·t]
///     ζ = 1:                  y = (y0 + (v0 + ω0·y0)·t)·e^(−ω0·t)
///     ζ > 1, ωo = ω0√(ζ²−1):  y = e^(−at)·[y0·cosh ωo·t + (v0 + a·y0)/ωo · sinh ωo·t]
///
/// and y' their derivatives. Numerics, as docs/springs.md "The damped oscillator" recommends: the cosh/sinh form only
/// while ωo·t < 20 (accurate near ζ = 1); beyond, y = cs·e^(rs·t) + cf·e^(rf·t) with the slow
/// root rs = −ω0/(ζ + √(ζ²−1)) written without cancellation, which cannot overflow.
///
/// Edge cases:
/// - ζ = 0: undamped, a = 0, oscillates forever.
/// - ζ exactly 1 selects the critical form (a spring clamped to critical damping lands here
///   exactly); ζ just below or above 1 stays accurate in its own form.
/// - √(ζ²−1) is computed as √(ζ−1)·√(ζ+1), so huge ζ does not overflow.
/// - √(k·m) and √(k/m) are taken as √k·√m and √k/√m when the product or quotient leaves the
///   normal doubles (k = 1e-310, m = 1e300, …), and a = c/(2m) when ζ·ω0 overflows, so extreme but
///   valid parameters keep their finite values (`rootOfProduct`, `rootOfQuotient`).
/// - The caller validates m > 0, k > 0, c ≥ 0 and finite t; other inputs may give NaN or
///   infinities but never trap.
public struct DampedOscillator: Sendable, Equatable {
    /// ωo·t from which the over-damped solution switches to the two-exponential form.
    @usableFromInline static let hyperbolicLimit = 20.0

    public let mass: Double, stiffness: Double, damping: Double
    /// ω0 = √(k/m).
    public let naturalFrequency: Double
    /// ζ = c/(2√(km)).
    public let dampingRatio: Double
    /// a = ζ·ω0 = c/(2m).
    @usableFromInline let decayRate: Double
    /// ωd = ω0√(1−ζ²) when ζ < 1, ωo = ω0√(ζ²−1) when ζ > 1, 0 when ζ = 1.
    @usableFromInline let frequency: Double

    public init(mass: Double, stiffness: Double, damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        let omega0 = Self.rootOfQuotient(stiffness, mass)
        let zeta = damping / (2 * Self.rootOfProduct(stiffness, mass))
        naturalFrequency = omega0
        dampingRatio = zeta
        let rate = zeta * omega0
        decayRate = rate.isFinite ? rate : damping / (2 * mass)
        frequency = omega0 * abs(zeta - 1).squareRoot() * (zeta + 1).squareRoot()
    }

    /// √(a·b), as √a·√b when a·b overflows or underflows (the plain product's rounding otherwise).
    public static func rootOfProduct(_ a: Double, _ b: Double) -> Double {
        let product = a * b
        return product.isNormal ? product.squareRoot() : a.squareRoot() * b.squareRoot()
    }

    /// √(a/b), as √a/√b when a/b overflows or underflows.
    public static func rootOfQuotient(_ a: Double, _ b: Double) -> Double {
        let quotient = a / b
        return quotient.isNormal ? quotient.squareRoot() : a.squareRoot() / b.squareRoot()
    }

    /// One motion of the oscillator: its initial state and the coefficients of the sine terms,
    /// computed once so that a sample costs one exponential and one sin/cos (or cosh/sinh) pair.
    public struct Trajectory: Sendable, Equatable {
        public let y0: Double, v0: Double
        /// (v0 + a·y0)/ω and (a·v0 + ω0²·y0)/ω, ω = ωd or ωo (unused when ζ = 1).
        @usableFromInline let positionSine: Double, velocitySine: Double
    }

    public func trajectory(y0: Double, v0: Double) -> Trajectory {
        Trajectory(y0: y0, v0: v0, positionSine: (v0 + decayRate * y0) / frequency,
                   velocitySine: (decayRate * v0 + naturalFrequency * naturalFrequency * y0) / frequency)
    }

    /// Displacement from rest and its velocity at t for y(0) = y0, y'(0) = v0 (absolute units).
    @inlinable
    public func state(y0: Double, v0: Double, at t: Double) -> (position: Double, velocity: Double) {
        state(trajectory(y0: y0, v0: v0), at: t)
    }

    @inlinable
    public func state(_ motion: Trajectory, at t: Double) -> (position: Double, velocity: Double) {
        let a = decayRate, omega0 = naturalFrequency, phase = frequency * t
        let cosine: Double, sine: Double
        if dampingRatio < 1 {
            // The stdlib's _cos/_sin are the LLVM intrinsics, which LLVM fuses into one
            // sincos call (Glibc's module does not export sincos); same libm results.
            (cosine, sine) = (_cos(phase), _sin(phase))
        } else if dampingRatio == 1 {
            let decay = exp(-omega0 * t), rate = motion.v0 + omega0 * motion.y0
            return ((motion.y0 + rate * t) * decay, (motion.v0 - omega0 * rate * t) * decay)
        } else if phase < Self.hyperbolicLimit {
            (cosine, sine) = (cosh(phase), sinh(phase))
        } else {
            return Self.twoRootState(a: a, omega0: omega0, w: frequency, y0: motion.y0, v0: motion.v0, at: t)
        }
        return Self.combine(motion, decay: exp(-a * t), cosine: cosine, sine: sine)
    }

    /// `state(_:at:)` at each of `times`, handed to `store` with its index and time. The form is
    /// chosen once for the run: an under-damped run keeps e^(−a), ωd and the motion in locals, so a
    /// sample costs the closed form and its libm calls. The per-sample `state` reads them from the
    /// oscillator's memory again after every libm call (the compiler cannot tell that `exp`, which
    /// may set `errno`, leaves them alone) and tests ζ every time. The same bits as `state`.
    @inlinable @inline(__always)
    public func forEachState(_ motion: Trajectory, at times: UnsafeBufferPointer<Double>,
                             _ store: (_ index: Int, _ t: Double, _ position: Double, _ velocity: Double) -> Void) {
        guard dampingRatio < 1 else {
            for i in times.indices {
                let (position, velocity) = state(motion, at: times[i])
                store(i, times[i], position, velocity)
            }
            return
        }
        let a = decayRate, w = frequency, motion = motion
        for i in times.indices {
            let t = times[i], phase = w * t
            let (position, velocity) = Self.combine(motion, decay: exp(-a * t), cosine: _cos(phase), sine: _sin(phase))
            store(i, t, position, velocity)
        }
    }

    /// e^(−at)·(y0·cos + B·sin) and its derivative: the shape the under-damped (trigonometric) and
    /// over-damped (hyperbolic) forms share, given the decay and the cosine and sine of the phase.
    @inlinable @inline(__always)
    static func combine(_ motion: Trajectory, decay: Double, cosine: Double, sine: Double)
        -> (position: Double, velocity: Double) {
        (decay * (motion.y0 * cosine + motion.positionSine * sine),
         decay * (motion.v0 * cosine - motion.velocitySine * sine))
    }

    /// Over-damped, ωo·t ≥ 20: y = cs·e^(rs·t) + cf·e^(rf·t), for a = ζ·ω0, ω0 and w = ωo. Static,
    /// taking its constants as arguments, so that the per-sample `state` never has to store the
    /// whole oscillator in memory to call it.
    @usableFromInline
    static func twoRootState(a: Double, omega0: Double, w: Double, y0: Double, v0: Double,
                             at t: Double) -> (position: Double, velocity: Double) {
        // Two real roots: fast rf = −(a + ωo), slow rs = −ω0²/(a + ωo).
        let fast = -(a + w), slow = -omega0 * (omega0 / (a + w))
        let slowWeight = (v0 - fast * y0) / (slow - fast), fastWeight = y0 - slowWeight
        let slowTerm = slowWeight * exp(slow * t), fastTerm = fastWeight * exp(fast * t)
        return (slowTerm + fastTerm, slow * slowTerm + fast * fastTerm)
    }
}
