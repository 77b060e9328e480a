#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many keyframes an export of a spring needs at least (docs/cost.md "Exports"), known from the
/// model before any fitting.
///
/// An underdamped spring's distance from its target swings at ω_d inside the envelope
/// a(t) = A·e^(−λt), A = 1 + |B|, B = (ζω₀ − v₀)/ω_d, λ = ζω₀ (the bound `Spring.settlingDuration`
/// uses). A straight piece spanning a phase φ of a swing of amplitude a strays from it by up to
/// a·(1 − cos(φ/2)) ≈ a·φ²/8, so within a tolerance ε a piece spans at most φ = √(8ε/a), and the
/// swings need ω_d/φ pieces a second:
///
///     K = ∫₀^T ω_d·√(A/(8ε))·e^(−λt/2) dt = ω_d·√(A/(8ε))·(2/λ)·(1 − e^(−λT/2))
///
/// over the window T (ω_d·√(A/(8ε))·T when λ = 0). Keyframes may sit off the curve by up to ε
/// (the swing filter of `SlopeWindow`), which lets a piece span more: on every spring measured
/// (SpringResolutionTests) the fit's stops were 0.54–0.62 K, so `leastKeyframes` returns
/// `share` · K with `share` = 0.5, a count the fit does not beat. Swings within the tolerance need
/// none of their own: the window is cut where the envelope reaches ε.
///
/// Edge cases, before the code:
/// - ζ ≥ 1 (critical or over-damped): no swing, 0;
/// - ζ = 0 (undamped): every swing of the window counts;
/// - an envelope within the tolerance from the start: 0.
extension Spring {
    /// Of K, the share a fit needs at least.
    static let leastKeyframeShare = 0.5

    /// `leastKeyframeShare` · K above, for the window [0, duration] and tolerance ε.
    public func leastKeyframes(tolerance: Double, over duration: Double) -> Double {
        let zeta = dampingRatio
        guard zeta < 1, duration > 0, tolerance > 0 else { return 0 }
        let lambda = oscillator.decayRate, omega = oscillator.frequency
        let amplitude = 1 + abs((lambda - initialVelocity) / omega)
        guard amplitude > tolerance else { return 0 }
        let rate = omega * (amplitude / (8 * tolerance)).squareRoot()
        let pieces: Double
        if zeta == 0 {
            pieces = rate * duration
        } else {
            let window = min(duration, log(amplitude / tolerance) / lambda)
            pieces = rate * (2 / lambda) * (1 - exp(-lambda * window / 2))
        }
        return Self.leastKeyframeShare * pieces
    }
}
