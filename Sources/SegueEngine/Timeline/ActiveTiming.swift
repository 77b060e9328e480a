/// How an animation's progress runs in time (docs/rules.md "Animations", rules 7, 8, 10).
///
/// Local time τ starts at the animation's effective start (after its delay). One pass lasts
/// `duration`; with `autoreverses` a repeat is a pass forward then back (2 · duration); there are
/// `repeatCount` repeats (fractions allowed, 0 means one, as Core Animation treats it). From the
/// end of the active duration on, the channel shows the target exactly (UIKit shows the model
/// value, also after an autoreversing animation).
public struct ActiveTiming: Sendable {
    public var curve: TimingCurve
    /// One forward pass, seconds. For springs other than UIKit's this is the settling duration.
    public var duration: Double
    /// Repeats; `.infinity` for `"infinite"`.
    public var repeatCount: Double
    public var autoreverses: Bool
    /// Paced keyframe modes ignore the timing curve and use the raw time fraction.
    public var ignoresCurve: Bool

    public init(curve: TimingCurve, duration: Double, repeatCount: Double = 1, autoreverses: Bool = false,
                ignoresCurve: Bool = false) {
        self.curve = curve
        self.duration = duration
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
        self.ignoresCurve = ignoresCurve
    }

    /// The length of one repeat (a pass, or forward and back).
    public var cycle: Double { autoreverses ? 2 * duration : duration }

    /// Everything the animation plays: cycle · repeats (∞ for an infinite repeat).
    public var activeDuration: Double { cycle * (repeatCount == 0 ? 1 : repeatCount) }

    /// Progress at local time τ in [0, activeDuration): the curve at the position within the
    /// current pass, running backwards in the second half of an autoreversing repeat.
    public func progress(at tau: Double) -> Double { sample(at: tau).progress }

    /// Progress and d(progress)/dτ (right-hand) at local time τ in [0, activeDuration]: the
    /// curve at the position within the current pass, running backwards (negated velocity) in
    /// the second half of an autoreversing repeat.
    public func sample(at tau: Double) -> (progress: Double, velocity: Double) {
        // An undamped spring has no cycle: its one pass never ends (∞ · 0 would be NaN).
        var phase = cycle.isFinite ? tau - cycle * (tau / cycle).rounded(.down) : tau
        // The closed end of the last pass: an animator held or reversed at fraction 1.
        if phase == 0, tau > 0, tau >= activeDuration { phase = cycle }
        let backwards = autoreverses && phase >= duration
        let position = backwards ? 2 * duration - phase : phase
        let forward = ignoresCurve ? (position / duration, 1 / duration) : curve.sample(at: position, duration: duration)
        return (forward.0, backwards ? -forward.1 : forward.1)
    }
}
