/// The motion analysis of one timing curve (docs/curves.md "Motion analysis"): how far it
/// overshoots and undershoots, its fastest instant, when it is halfway, when it settles, and how
/// often it crosses its target, each computed from the model (never from samples) over the
/// curve's domain.
///
/// The domain: t ≥ 0 for a spring (the whole motion, whatever window is sampled); [0, duration]
/// for every time-fraction curve; [0, duration] for a UIKit duration-based spring, which reads 1
/// at its duration.
///
/// Edge cases (each family's file lists its own):
/// - a supremum that is 0 has no time (`Extreme.time` nil): no overshoot, no undershoot, a
///   curve that never moves (steps);
/// - a supremum that is only a left limit (a `linear()` jump, the end of a UIKit spring) is
///   reported at the time of the jump;
/// - an infinite Bézier slope is `Double.greatestFiniteMagnitude`, as the sampled velocity is;
/// - `settle` is nil when the curve ends outside the band or never stays inside it (an undamped
///   spring), and `oscillations` nil when there are infinitely many (an undamped spring).
public struct CurveAnalysis: Sendable, Equatable {
    /// A supremum and the earliest time it is reached (nil when the supremum is 0).
    public struct Extreme: Sendable, Equatable {
        public var value: Double
        public var time: Double?

        public init(value: Double = 0, time: Double? = nil) {
            self.value = value
            self.time = time
        }

        /// Takes `value` at `time` if it is larger, or as large and earlier. Values ≤ 0 never
        /// count: every supremum here is at least 0 and has no time when it is 0.
        mutating func offer(_ value: Double, at time: Double) {
            guard value > 0 else { return }
            if value > self.value || (value == self.value && time < self.time ?? .infinity) {
                self.value = value
                self.time = time
            }
        }
    }

    /// The least times from which the curve stays within 1 % and 0.1 % of its target.
    public struct Settle: Sendable, Equatable {
        /// The bands, as distances from 1 in progress.
        public static let coarseBand = 0.01, fineBand = 0.001

        public var coarse: Double?
        public var fine: Double?

        public init(coarse: Double?, fine: Double?) {
            self.coarse = coarse
            self.fine = fine
        }
    }

    /// sup(progress − 1) ≥ 0.
    public var overshoot: Extreme
    /// sup(−progress) ≥ 0.
    public var undershoot: Extreme
    /// sup |velocity| (progress per second).
    public var peakVelocity: Extreme
    /// The least time with progress ≥ 0.5, nil if none.
    public var halfway: Double?
    public var settle: Settle
    /// Sign changes of progress − 1 before `settle.fine` (over the whole domain when that is nil).
    public var oscillations: Int?

    public init(overshoot: Extreme, undershoot: Extreme, peakVelocity: Extreme, halfway: Double?,
                settle: Settle, oscillations: Int?) {
        self.overshoot = overshoot
        self.undershoot = undershoot
        self.peakVelocity = peakVelocity
        self.halfway = halfway
        self.settle = settle
        self.oscillations = oscillations
    }

    /// The level `halfway` looks for.
    static let halfwayLevel = 0.5

    /// Every number of the analysis is finite (an extreme spring can overflow its closed form).
    public var isFinite: Bool {
        func finite(_ time: Double?) -> Bool { time?.isFinite ?? true }
        func finite(_ extreme: Extreme) -> Bool { extreme.value.isFinite && finite(extreme.time) }
        return finite(overshoot) && finite(undershoot) && finite(peakVelocity)
            && finite(halfway) && finite(settle.coarse) && finite(settle.fine)
    }
}

extension TimingCurve {
    /// The analysis over the curve's domain (see `CurveAnalysis`); `duration` is the animation's,
    /// which a free spring's domain ignores. The caller validates the curve and `duration` > 0.
    public func analysis(duration: Double) -> CurveAnalysis {
        switch self {
        case .cubicBezier(let bezier): bezier.analysis(duration: duration)
        case .steps(let steps): steps.analysis(duration: duration)
        case .piecewiseLinear(let curve): curve.analysis(duration: duration)
        case .spring(let spring): SpringProfile(spring, endingAt: nil).analysis()
        case .durationSpring(let spring, let end): SpringProfile(spring, endingAt: end).analysis()
        }
    }
}
