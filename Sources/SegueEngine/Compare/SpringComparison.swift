#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The engines compare mode plays a spring in (docs/rules.md rule 35, docs/springs.md "Compare
/// mode"), in the rule's order.
public enum SpringEngine: String, CaseIterable, Sendable {
    /// Core Animation / WebKit `SpringSolver`: the closed form, over-damping treated as critical,
    /// until the CA settling duration, then 1.
    case webkit
    /// POP: a physics spring on the `rk4` integrator, threshold 1 (rule 21).
    case pop
    /// rebound-js: the `rebound` integrator with its rest test (rule 33).
    case rebound
    /// Motion: a `motionSpring` physics spring, its 50 ms rest grid (rule 33).
    case motion
    /// Android `SpringAnimation`: the closed form at each tick with its equilibrium test.
    case android
    /// The objc.io example: a physics spring on the `euler` integrator with its rest test (rule 21).
    case objcio
}

/// One spring played from 0 to `distance` in each engine of compare mode (docs/rules.md rule 35,
/// docs/springs.md "Compare mode"), each read at the response's times as progress (value over
/// distance) beside the response's own progress.
///
/// The spring is the response's: its mass, stiffness, damping (after any critical clamp) and
/// normalised initial velocity, which each physics engine receives as initialVelocity × distance
/// units per second. Every engine reuses the engine's own model or integrator:
/// - `webkit`: `Spring` with damping clamped to critical, `sample(at:endingAt:)` its CA
///   `settlingDuration`;
/// - `pop`, `rebound`, `objcio`: `PhysicsMotion` on the `rk4`, `rebound` and `euler` integrators
///   with their rule-21 and rule-33 rest tests (ticks at n / tickRate, the start shown until the
///   first tick, the last tick between ticks);
/// - `motion`: `PhysicsMotion` with a `MotionSpring` of the same mass, stiffness and damping;
/// - `android`: the `DampedOscillator` closed form read at each tick, Android's equilibrium test
///   (|v| < 46.875 and |x − distance| < 0.75 units, a minimum visible change of 1) at ticks n ≥ 1,
///   progress 1 from the first tick that passes it.
///
/// Work is bounded before it starts: nothing is simulated or tested past `horizon` (the latest
/// time asked, or longer, `restBound`, so that every engine can come to rest, within `longest`),
/// and `simulationSteps(_:)` is an upper bound of each engine's steps (`SceneCost.springComparison`).
/// An engine not at rest by the horizon has no settling duration (nil).
public struct SpringComparison: Sendable {
    /// The engines asked for, in request order (each at most once).
    public let engines: [SpringEngine]
    /// The response's spring (damping after any clamp, initial velocity normalised).
    public let spring: Spring
    /// How far the engines move, units (> 0).
    public let distance: Double
    /// Display ticks per second of the per-tick engines, in (0, 1000].
    public let tickRate: Double
    /// Local time after which no engine is simulated or tested for rest, seconds.
    public let horizon: Double

    /// The distance when none is given, units (points).
    public static let defaultDistance = 100.0
    /// The tick rate when none is given, Hz (a 60 Hz display, `PhysicsDefaults.tickRate`).
    public static let defaultTickRate = PhysicsDefaults.tickRate
    /// The fastest tick rate, Hz (rule 20's tickRate range).
    public static let maxTickRate = 1000.0
    /// Android's minimum visible change for pixels and translations, units.
    static let androidVisibleChange = Fling.defaultMinimumVisibleChange
    /// Android's equilibrium distance over the minimum visible change (`SpringForce`'s 0.75).
    static let androidDistanceFactor = 0.75

    /// One engine's play: progress at each time, its completion, its largest deviation from the
    /// response's progress.
    public struct Play: Sendable, Equatable {
        public let engine: SpringEngine
        /// value / distance at each time (0 before 0).
        public let progress: [Double]
        /// When the engine comes to rest (its completion), seconds; nil when not within the horizon.
        public let settlingDuration: Double?
        /// max |progress − reference| over the times (0 without times).
        public let maxDeviation: Double
    }

    /// - latest: the latest time the response asks for, seconds (times before 0 count as 0).
    /// - longest: the longest horizon allowed, seconds (the duration limit).
    /// The caller refuses an undamped spring (it never rests) and checks distance and tick rate.
    public init(engines: [SpringEngine], spring: Spring, distance: Double, tickRate: Double, through latest: Double,
                longest: Double) {
        self.engines = engines
        self.spring = spring
        self.distance = distance
        self.tickRate = tickRate
        let bound = Self.restBound(spring, distance: distance, tickRate: tickRate)
        horizon = min(longest, max(latest, bound.isNaN ? longest : bound))
    }

    /// Every engine asked for, in request order, at `times`; `reference` is the response's
    /// progress at the same times.
    public func plays(at times: [Double], reference: [Double]) -> [Play] {
        engines.map { play($0, at: times, reference: reference) }
    }

    /// One engine at `times`, compared with `reference` (the response's progress at the same times).
    public func play(_ engine: SpringEngine, at times: [Double], reference: [Double]) -> Play {
        let progress: [Double], settling: Double?
        switch engine {
        case .webkit: (progress, settling) = webkit(at: times)
        case .android: (progress, settling) = android(at: times)
        case .pop, .rebound, .motion, .objcio: (progress, settling) = physics(engine, at: times)
        }
        var deviation = 0.0
        for i in progress.indices where i < reference.count {
            let gap = abs(progress[i] - reference[i])
            // NaN propagates (the caller refuses a comparison that is not finite).
            if gap > deviation || gap.isNaN { deviation = gap }
        }
        return Play(engine: engine, progress: progress, settlingDuration: settling, maxDeviation: deviation)
    }

    // MARK: Engines

    /// The initial velocity the physics engines receive, units per second toward the target.
    var velocity: Double { spring.initialVelocity * distance }

    /// The response's spring as Core Animation and WebKit play it: damping clamped to critical.
    var webkitSpring: Spring {
        Spring(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
               initialVelocity: spring.initialVelocity, allowsOverdamping: false)
    }

    private func webkit(at times: [Double]) -> ([Double], Double?) {
        let curve = webkitSpring
        let settling = curve.settlingDuration
        let progress = times.map { curve.sample(at: $0, endingAt: settling).progress }
        return (progress, settling.isFinite ? settling : nil)
    }

    /// The `PhysicsMotion` of a physics engine, from 0 toward `distance`; `budget` counts its steps.
    func motion(_ engine: SpringEngine, budget: PhysicsBudget? = nil) -> PhysicsMotion {
        var model = PhysicsModel.spring(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping)
        let integrator: PhysicsIntegrator
        switch engine {
        case .pop: integrator = .rk4(tickRate: tickRate)
        case .rebound: integrator = .rebound(tickRate: tickRate)
        case .objcio: integrator = .euler(tickRate: tickRate)
        default:
            // Motion's own rest thresholds replace the ones given (`MotionSpring.rest`).
            model = .motionSpring(MotionSpring(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping))
            integrator = .exact
        }
        let rest = PhysicsDefaults.rest(threshold: PhysicsDefaults.threshold, integrator: integrator)
        return PhysicsMotion(model: model, integrator: integrator, start: [0], velocity: [velocity], target: [distance],
                             restSpeed: rest.speed, restDistance: rest.distance, threshold: PhysicsDefaults.threshold,
                             horizon: horizon, budget: budget)
    }

    private func physics(_ engine: SpringEngine, at times: [Double]) -> ([Double], Double?) {
        let motion = self.motion(engine)
        let progress = times.map { $0 < 0 ? 0 : motion.position(at: $0, component: 0) / distance }
        return (progress, motion.settleTime.isFinite ? motion.settleTime : nil)
    }

    /// The Android engine's rest tick: the first n ≥ 1 (up to the horizon) whose closed-form state
    /// passes the equilibrium test; nil when none does.
    func androidRestTick() -> Int? {
        let oscillator = DampedOscillator(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping)
        let motion = oscillator.trajectory(y0: -distance, v0: velocity)
        let near = Self.androidDistanceFactor * Self.androidVisibleChange
        let slow = Fling.stopSpeedFactor * Self.androidVisibleChange
        let last = Int(min(Self.ticks(through: horizon, rate: tickRate), Double(PhysicsMotion.maxTicks)))
        guard last >= 1 else { return nil }
        for n in 1...last {
            let state = oscillator.state(motion, at: Double(n) / tickRate)
            if abs(state.velocity) < slow && abs(state.position) < near { return n }
        }
        return nil
    }

    private func android(at times: [Double]) -> ([Double], Double?) {
        let oscillator = DampedOscillator(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping)
        let motion = oscillator.trajectory(y0: -distance, v0: velocity)
        let rest = androidRestTick()
        let progress = times.map { t -> Double in
            if t < 0 { return 0 }
            // Between ticks the last tick shows (rule 21); the start until the first.
            let tick = PhysicsMotion.tick(t, rate: tickRate, justBefore: false)
            if let rest, tick >= Double(rest) { return 1 }
            return (distance + oscillator.state(motion, at: tick / tickRate).position) / distance
        }
        // As the other per-tick engines time their rest: the tick's index times the tick.
        return (progress, rest.map { Double($0) * (1 / tickRate) })
    }

    // MARK: Bounds

    /// Ticks n ≥ 1 at or before `horizon` (n / rate ≤ horizon, with the tick grid's slack).
    static func ticks(through horizon: Double, rate: Double) -> Double {
        max(0, (horizon * rate + PhysicsMotion.tickSlack).rounded(.down))
    }

    /// The engines' rest thresholds (speed units per second, distance units) for this distance.
    static func restTests(_ spring: Spring, distance: Double) -> [(speed: Double, distance: Double)] {
        let integrators: [PhysicsIntegrator] = [.rk4(tickRate: 1), .rebound(tickRate: 1), .euler(tickRate: 1)]
        let motion = MotionSpring(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping)
        return integrators.map { PhysicsDefaults.rest(threshold: PhysicsDefaults.threshold, integrator: $0) }
            + [motion.rest(distance: distance),
               (Fling.stopSpeedFactor * androidVisibleChange, androidDistanceFactor * androidVisibleChange)]
    }

    /// A time by which every engine can be expected to rest, seconds: the closed form's slowest
    /// mode (decay rate ζω0 below critical, the slow root ω0/(ζ + √(ζ²−1)) from critical on), at
    /// half its rate to cover the polynomial factors near critical damping, shrinks the start's
    /// scale (distance + |v0|/ω0) below the strictest rest threshold (distance, or speed over ω0);
    /// then doubled, plus a second and two ticks, for the integrators' own decay and POP's lagging
    /// clock, and stretched by Rebound's 64 ms cap on a tick at slow tick rates. Not a guarantee:
    /// an engine that has not rested by then reports no settling duration.
    static func restBound(_ spring: Spring, distance: Double, tickRate: Double) -> Double {
        let oscillator = DampedOscillator(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping)
        let omega0 = oscillator.naturalFrequency, zeta = oscillator.dampingRatio
        let slowest = zeta < 1 ? oscillator.decayRate : omega0 / (zeta + (zeta - 1).squareRoot() * (zeta + 1).squareRoot())
        let scale = distance + abs(spring.initialVelocity * distance) / omega0
        let strictest = restTests(spring, distance: distance).map { min($0.distance, $0.speed / omega0) }.min() ?? 1
        let envelope = max(0, log(scale / strictest)) / (slowest / 2)
        let stretch = max(1, (1 / tickRate) / TickStepper.reboundLongestTick)
        return (2 * envelope + 1) * stretch + 2 / tickRate
    }

    /// An upper bound of the steps `engine` takes (`PhysicsBudget` units: RK4 steps and ticks per
    /// tick, rest tests; for `webkit` the settling walk's evaluations), before any is taken.
    public func simulationSteps(_ engine: SpringEngine) -> Double {
        let ticks = min(Self.ticks(through: horizon, rate: tickRate), Double(PhysicsMotion.maxTicks))
        switch engine {
        case .webkit:
            return webkitSpring.dampingRatio < 1 ? 1 : Double(Spring.settlingWalkLimit)
        case .pop:
            // `TickStepper.work`: one, and the whole steps the tick and the leftover pay for.
            return ticks * (2 + 1 / tickRate / TickStepper.popStep)
        case .rebound:
            return ticks * (2 + min(1 / tickRate, TickStepper.reboundLongestTick) / TickStepper.reboundStep)
        case .objcio, .android:
            return ticks
        case .motion:
            return (min(horizon, MotionSpring.longestRest) / MotionSpring.restGrid + PhysicsMotion.tickSlack).rounded(.down) + 1
        }
    }
}
