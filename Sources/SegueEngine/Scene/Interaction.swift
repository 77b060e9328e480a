/// A percent-driven interactive transition (UIPercentDrivenInteractiveTransition; docs/rules.md
/// rule 19): the driven animations sit paused at fractionComplete = percent, then finish or
/// cancel at the release along `completionCurve` at `completionSpeed`.
public struct Interaction: Sendable {
    public struct Update: Sendable, Equatable {
        public var at: Double
        /// In [0, 1].
        public var percent: Double

        public init(at: Double, percent: Double) {
            self.at = at
            self.percent = percent
        }
    }

    public struct Release: Sendable, Equatable {
        public var at: Double
        /// true: run to the end; false: cancel back to the start.
        public var finishes: Bool

        public init(at: Double, finishes: Bool) {
            self.at = at
            self.finishes = finishes
        }
    }

    /// A gesture log the interaction replays into updates and a release at its last sample.
    public enum Gesture: Sendable {
        /// percent = translation / distance, clamped to [0, 1]; finishes when the last percent
        /// exceeds `threshold` (strictly).
        case pan(distance: Double, threshold: Double, samples: [(t: Double, translation: Double)])
        /// percent = 1 − scale / first scale, clamped to [0, 1]; cancels when the last |velocity|
        /// is below `Interaction.pinchFinishingVelocity` and percent ≤ `pinchCancelPercent`.
        case pinch(samples: [(t: Double, scale: Double, velocity: Double)])
    }

    /// Pinch: a release slower than this (scale per second) may cancel…
    public static let pinchFinishingVelocity = 5.0
    /// …when the percent is at most this.
    public static let pinchCancelPercent = 0.3
    /// Pan: the default threshold past which a release finishes.
    public static let panThreshold = 0.5
    /// The completion's default speed (UIKit's `completionSpeed`) and curve.
    public static let completionSpeed = 1.0
    public static let completionCurve = TimingCurve.cubicBezier(.easeInOut)

    /// Indices into the scene's animations, each listed once.
    public var animations: [Int]
    /// In time order.
    public var updates: [Update]
    /// nil when the transition is never released.
    public var release: Release?
    public var completionSpeed: Double
    public var completionCurve: TimingCurve

    public init(animations: [Int], updates: [Update], release: Release?, completionSpeed: Double = Interaction.completionSpeed,
                completionCurve: TimingCurve = Interaction.completionCurve) {
        self.animations = animations
        self.updates = updates
        self.release = release
        self.completionSpeed = completionSpeed
        self.completionCurve = completionCurve
    }

    /// The interaction a gesture log drives (samples in time order, at least one).
    public init(animations: [Int], gesture: Gesture, completionSpeed: Double = Interaction.completionSpeed,
                completionCurve: TimingCurve = Interaction.completionCurve) {
        var updates: [Update] = []
        var finishes = false
        switch gesture {
        case .pan(let distance, let threshold, let samples):
            updates = samples.map { Update(at: $0.t, percent: Self.clamped($0.translation / distance)) }
            finishes = (updates.last?.percent ?? 0) > threshold
        case .pinch(let samples):
            let first = samples.first?.scale ?? 1
            updates = samples.map { Update(at: $0.t, percent: Self.clamped(1 - $0.scale / first)) }
            let velocity = abs(samples.last?.velocity ?? 0)
            finishes = !(velocity < Self.pinchFinishingVelocity && (updates.last?.percent ?? 0) <= Self.pinchCancelPercent)
        }
        self.init(animations: animations, updates: updates, release: updates.last.map { Release(at: $0.at, finishes: finishes) },
                  completionSpeed: completionSpeed, completionCurve: completionCurve)
    }

    static func clamped(_ percent: Double) -> Double { min(1, max(0, percent)) }

    /// The steps each driven animator takes: percent updates, then the release.
    func steps(for animation: Int) -> [PropertyAnimator.Command] {
        guard animations.contains(animation) else { return [] }
        var steps = updates.map { PropertyAnimator.Command(at: $0.at, index: nil, operation: .interactionUpdate(percent: $0.percent)) }
        if let release {
            steps.append(PropertyAnimator.Command(at: release.at, index: nil,
                                                  operation: .interactionRelease(finish: release.finishes, curve: completionCurve,
                                                                                 speed: completionSpeed)))
        }
        return steps
    }
}
