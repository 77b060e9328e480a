#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The times t > 0 where the displacement of an oscillator's motion, its velocity or its
/// acceleration vanishes, in closed form (docs/curves.md "Motion analysis"). In each regime
/// all three have one shape (docs/springs.md "The damped oscillator"):
///
///     ζ < 1:  e^(−at)·(P cos ωd·t + Q sin ωd·t)   zeros at ωd·t = θ + kπ, θ = atan2(Q, P) + π/2 (mod π)
///     ζ = 1:  (P + Q·t)·e^(−ω0·t)                 one zero at t = −P/Q
///     ζ > 1:  e^(−at)·(P cosh ωo·t + Q sinh ωo·t) one zero at tanh(ωo·t) = −P/Q when 0 < −P/Q < 1
///
/// Edge cases:
/// - a zero at t = 0 is left out (t = 0 is always examined on its own); under-damped, the first
///   zero is then π/ωd;
/// - P = Q = 0 (the quantity vanishes identically) gives no zeros;
/// - under-damped times are (θ + kπ)/ωd for each k, not a running sum, so error does not build up.
struct ZeroTimes {
    enum Times {
        case none
        case once(Double)
        /// (phase + kπ)/frequency, k = 0, 1, 2, …
        case periodic(phase: Double, frequency: Double)
    }

    let times: Times

    /// The zeros of P·c(t) + Q·s(t) for the oscillator's regime (see the type).
    init(_ oscillator: DampedOscillator, p: Double, q: Double) {
        let zeta = oscillator.dampingRatio, w = oscillator.frequency
        if p == 0 && q == 0 {
            times = .none
        } else if zeta < 1 {
            var phase = (atan2(q, p) + .pi / 2).truncatingRemainder(dividingBy: .pi)
            if phase <= 0 { phase += .pi }
            times = .periodic(phase: phase, frequency: w)
        } else {
            let ratio = -p / q
            let t = zeta == 1 ? ratio : ratio > 0 && ratio < 1 ? atanh(ratio) / w : -1
            times = t > 0 && t.isFinite ? .once(t) : .none
        }
    }

    /// The k-th zero (from 0), nil if there is none.
    func time(_ k: Int) -> Double? {
        switch times {
        case .none: nil
        case .once(let t): k == 0 ? t : nil
        case .periodic(let phase, let frequency): (phase + Double(k) * .pi) / frequency
        }
    }

    /// How many zeros lie before `limit`, a finite time.
    func count(before limit: Double) -> Int {
        switch times {
        case .none: return 0
        case .once(let t): return t < limit ? 1 : 0
        case .periodic(let phase, let frequency):
            let estimate = ((frequency * limit - phase) / .pi).rounded(.up)
            var n = Int(min(max(estimate, 0), Self.countCeiling))
            while n > 0 && time(n - 1)! >= limit { n -= 1 }
            while time(n)! < limit { n += 1 }
            return n
        }
    }

    /// Zero counts are capped here so that converting one to Int cannot trap; no domain the API
    /// accepts comes near it.
    static let countCeiling = 1e15
}

extension DampedOscillator {
    /// The zeros of y, y′ and y″ for the motion (see `ZeroTimes`): P and Q of each in the
    /// oscillator's regime, from the motion's sine coefficients B = (v0 + a·y0)/ω and
    /// C = (a·v0 + ω0²·y0)/ω, or c = v0 + ω0·y0 when critical.
    func zeros(of motion: Trajectory) -> (position: ZeroTimes, velocity: ZeroTimes, acceleration: ZeroTimes) {
        let a = decayRate, w = frequency, y0 = motion.y0, v0 = motion.v0
        if dampingRatio == 1 {
            let omega0 = naturalFrequency, c = v0 + omega0 * y0
            return (ZeroTimes(self, p: y0, q: c), ZeroTimes(self, p: v0, q: -omega0 * c),
                    ZeroTimes(self, p: -omega0 * (c + v0), q: omega0 * omega0 * c))
        }
        let b = motion.positionSine, c = motion.velocitySine
        // y″ = e^(−at)·[(−a·v0 − ω·C)·cos + (a·C ∓ ω·v0)·sin]: − with cos/sin, + with cosh/sinh.
        let sign: Double = dampingRatio < 1 ? -1 : 1
        return (ZeroTimes(self, p: y0, q: b), ZeroTimes(self, p: v0, q: -c),
                ZeroTimes(self, p: -a * v0 - w * c, q: a * c + sign * w * v0))
    }
}
