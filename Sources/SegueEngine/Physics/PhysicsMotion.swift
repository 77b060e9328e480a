#if canImport(Glibc)
import Glibc
#endif

/// Forces acting on a physics animation (docs/rules.md "Physics animations", rules 20–21;
/// docs/springs.md "Physics models").
public enum PhysicsModel: Sendable, Equatable {
    /// m·x'' = −k·(x − target) − c·x', the true over-damped solution included (no clamping).
    /// `attachment`, `snap` and `popSpring` arrive here converted (rule 20).
    case spring(mass: Double, stiffness: Double, damping: Double)
    /// POPDecayAnimation: v(t) = v0·d^(1000t), x(t) = x0 + (v0/1000)·d·(1 − d^(1000t))/(1 − d)
    /// (the per-millisecond geometric sum, not ∫v dt); `deceleration` d per ms, 0 < d < 1.
    case decay(deceleration: Double)
    /// Motion's spring generator, closed form with its own completion (`MotionSpring`); scalar.
    case motionSpring(MotionSpring)
    /// Android's FlingAnimation: no target, an exact stop (`Fling`); scalar.
    case fling(Fling)
    /// UIScrollView's deceleration, continuous: no target, an exact stop (`ScrollDecay`); scalar.
    case scrollDecay(ScrollDecay)
}

/// How the motion is advanced.
public enum PhysicsIntegrator: Sendable, Equatable {
    /// The closed form, settling on the millisecond grid.
    case exact
    /// Semi-implicit Euler at `tickRate` Hz, as the objc.io "Interactive Animations" display-link
    /// tick: v += F/m·dt, then x += v·dt.
    case euler(tickRate: Double)
    /// POP's solver: 1 ms RK4 steps (`solverDt = 0.001f`) advanced per display tick, the state
    /// then set to the interpolation between the last two steps at leftover/solverDt — so
    /// simulated time lags wall time by design (docs/springs.md "POP's RK4 integrator").
    case rk4(tickRate: Double)
    /// rebound-js `Spring.advance`: 1 ms RK4 steps with its first-stage quirk, ticks capped at
    /// 64 ms (docs/springs.md "Rebound's integrator"); scalar.
    case rebound(tickRate: Double)
    /// Box2D's soft constraint (implicit Euler) with linear damping `resistance` ≥ 0 per second
    /// (docs/springs.md "Box2D's soft step").
    case box2d(tickRate: Double, resistance: Double)

    /// Display ticks per second of a tick integrator; nil for `exact`.
    public var tickRate: Double? {
        switch self {
        case .exact: nil
        case .euler(let rate), .rk4(let rate), .rebound(let rate), .box2d(let rate, _): rate
        }
    }
}

/// One physics motion of a scalar or point channel from its start state, resolved to the time it
/// comes to rest (docs/rules.md rule 21):
/// - `exact`: the first instant on the grid start + n ms where |x − target| < `restDistance` and
///   |v| < `restSpeed` (Euclidean norms); from then on the value is the target exactly;
/// - tick integrators (`euler`, `rk4`, `rebound`, `box2d`): the state at the start is the initial
///   state (POP's first frame advances 0); tick n ≥ 1 at start + n / tickRate advances one tick
///   (`TickStepper`) and then tests for rest (`rebound`: |x − target| ≤ `restDistance`) and snaps
///   to the target; between ticks the last tick shows;
/// - a decay has no target: it ends at exactly ln(5·threshold / |v0|) / (1000·ln d) after its
///   start (0 when that is negative or undefined) and holds x there;
/// - a fling or a scroll deceleration ends at its exact stop (`Coasting`) and holds its value;
/// - a Motion spring ends at its completion (`MotionSpring.completion`), the target from then on.
/// A motion that does not rest within `horizon` seconds never settles (`settleTime` ∞).
///
/// A motion can also continue a life begun earlier (`PhysicsChain`: a retarget or a release):
/// its local time keeps the earlier origin and `start`/`velocity` hold at local time `elapsed`.
/// The closed forms then run from `elapsed`; the exact rest test uses the grid points n ms ≥
/// `elapsed` (rule 21: anchored at the start, tested from the latest retarget or release on);
/// the ticks n / tickRate ≥ `elapsed` (n ≥ 1) advance it, so a command at a tick's time acts
/// before that tick, as commands come before everything else at their time (rule 1). (Motion
/// springs, flings, scroll decelerations and the `rebound` and `box2d` integrators take no
/// retarget or drag: their motions always begin at their start.)
struct PhysicsMotion: Sendable {
    public let model: PhysicsModel
    public let integrator: PhysicsIntegrator
    public let start: [Double]
    public let velocity: [Double]
    /// nil for a decay, a fling and a scroll deceleration.
    public let target: [Double]?
    public let restSpeed: Double, restDistance: Double
    /// Local time at which `start` and `velocity` hold (0 for a motion from its own start).
    public let elapsed: Double
    /// Local time of the rest (seconds from the start when `elapsed` is 0; ∞ when it does not rest
    /// within the horizon).
    public private(set) var settleTime: Double = .infinity
    /// The final value, held from `settleTime` on.
    public private(set) var final: [Double]
    /// Tick integrators: positions and velocities after each tick, flat, `start.count` numbers per
    /// tick; the first entry is the state given (as tick `baseTick`).
    private var tickPositions: [Double] = [], tickVelocities: [Double] = []
    /// The tick the state given stands for: the last tick before `elapsed` (0 at a start).
    private var baseTick = 0.0
    /// `rk4`: POP's solver clock at `baseTick`, the time not yet stepped (below one solver step).
    private let baseLeftover: Double
    /// Sets a decay's stopping speed, 5·threshold per second.
    private let threshold: Double
    /// Most ticks simulated for one motion: a safety net for callers without a `PhysicsBudget`
    /// (a render's budget stops far earlier, and refuses the render rather than stop short).
    public static let maxTicks = 10_000_000

    /// The exact integrator's settling grid, seconds.
    static let settleGrid = 0.001
    /// Slack, in grid steps, when placing a time on the tick or millisecond grid (frames, commands
    /// and grid points meet at equal times).
    static let tickSlack = 1e-9
    /// The exact rest test's grid is tested up to this many seconds.
    static let longestSettle = 1e7

    /// - horizon: local time after which rest is not looked for.
    /// - elapsed: local time at which `start` and `velocity` hold (see the type's notes).
    /// - budget: the render's physics allowance; when it runs out the motion stops looking for rest.
    /// A Motion spring replaces `restSpeed`/`restDistance` with its own (`MotionSpring.rest`) and,
    /// when time-defined, `velocity` with rest.
    public init(model: PhysicsModel, integrator: PhysicsIntegrator, start: [Double], velocity: [Double], target: [Double]?,
                restSpeed: Double, restDistance: Double, threshold: Double, horizon: Double, elapsed: Double = 0,
                budget: PhysicsBudget? = nil) {
        self.init(model: model, integrator: integrator, start: start, velocity: velocity, target: target, restSpeed: restSpeed,
                  restDistance: restDistance, threshold: threshold, horizon: horizon, elapsed: elapsed, leftover: 0,
                  budget: budget)
    }

    private init(model: PhysicsModel, integrator: PhysicsIntegrator, start: [Double], velocity: [Double], target: [Double]?,
                 restSpeed: Double, restDistance: Double, threshold: Double, horizon: Double, elapsed: Double,
                 leftover: Double, budget: PhysicsBudget?) {
        self.model = model
        self.integrator = integrator
        self.start = start
        self.target = target
        self.elapsed = elapsed
        self.threshold = threshold
        baseLeftover = leftover
        final = target ?? start
        if case .motionSpring(let spring) = model {
            self.velocity = spring.startsFromRest ? [Double].zeros(velocity.count) : velocity
            (self.restSpeed, self.restDistance) = spring.rest(distance: Self.distance(start, target ?? start))
        } else {
            self.velocity = velocity
            self.restSpeed = restSpeed
            self.restDistance = restDistance
        }
        switch model {
        case .decay(let d):
            let speed = Self.norm(velocity)
            let time = log(5 * threshold / speed) / (1000 * log(d))
            let duration = time.isFinite && time > 0 ? time : 0
            settleTime = elapsed + duration
            final = decayState(after: duration).position
        case .fling(let fling): coast(fling, budget: budget)
        case .scrollDecay(let decay): coast(decay, budget: budget)
        case .motionSpring(let spring):
            let goal = target ?? start
            let completion = spring.completion(y0: start[0] - goal[0], v0: self.velocity[0],
                                               rest: (self.restSpeed, self.restDistance), horizon: horizon - elapsed,
                                               budget: budget)
            settleTime = completion.map { elapsed + $0 } ?? .infinity
        case .spring:
            if let rate = integrator.tickRate {
                simulateTicks(rate: rate, horizon: horizon, budget: budget)
            } else {
                settleExact(horizon: horizon, budget: budget)
            }
        }
    }

    /// Value and velocity at local time τ ≥ `elapsed` (channel units, per second): right-hand
    /// limits, so a tick or a rest at τ shows.
    public func state(at tau: Double) -> (position: [Double], velocity: [Double]) {
        tau >= settleTime ? rest : movingState(tau, justBefore: false)
    }

    /// Component `i` of `state(at: τ)`'s position, without building the arrays.
    func position(at tau: Double, component i: Int) -> Double {
        tau >= settleTime ? final[i] : movingComponent(tau, justBefore: false, i).position
    }

    /// The state a command at local time τ acts on: the left limit, before the tick, the rest test
    /// and the completion at τ (rule 1: commands take effect first).
    func state(before tau: Double) -> (position: [Double], velocity: [Double]) {
        restsBefore(tau) ? rest : movingState(tau, justBefore: true)
    }

    /// The motion a retarget at local time τ turns this one into (docs/rules.md "Commands" (`retarget`), rules
    /// 21–22): the same forces, integrator, rest thresholds and time origin, from `state(before: τ)`
    /// (its velocity replaced by `velocity` when given) toward `target`. Tick integrators keep
    /// their grid and POP's solver clock, as a running display-link animation whose `toValue`
    /// changes; the exact rest test keeps its millisecond grid.
    /// - horizon: local time after which rest is not looked for.
    func retargeted(at tau: Double, toward target: [Double]?, velocity: [Double]?, horizon: Double,
                    budget: PhysicsBudget?) -> PhysicsMotion {
        let now = state(before: tau)
        var leftover = 0.0
        if case .rk4(let rate) = integrator {
            // Replay the solver clock over the ticks shown before τ.
            leftover = baseLeftover
            for _ in 0..<Int(tickOffset(Self.tick(tau, rate: rate, justBefore: true))) {
                _ = TickStepper.solverSteps(&leftover, advancing: 1 / rate, step: TickStepper.popStep)
            }
        }
        return PhysicsMotion(model: model, integrator: integrator, start: now.position, velocity: velocity ?? now.velocity,
                             target: target, restSpeed: restSpeed, restDistance: restDistance, threshold: threshold,
                             horizon: horizon, elapsed: tau, leftover: leftover, budget: budget)
    }

    /// Tick integrators: the local times of the ticks simulated after the state given, up to the
    /// rest — where the value shown jumps (between ticks the last tick shows). Empty otherwise.
    var tickTimes: [Double] {
        guard let rate = integrator.tickRate else { return [] }
        let count = tickPositions.count / max(1, start.count)
        guard count > 1 else { return [] }
        return (1..<count).map { (baseTick + Double($0)) / rate }.filter { $0 <= settleTime }
    }

    /// Whether the motion came to rest strictly before local time τ (a grid point within the slack
    /// of τ counts as at τ).
    func restsBefore(_ tau: Double) -> Bool {
        let slack: Double
        switch model {
        case .decay, .fling, .scrollDecay: slack = 0
        case .motionSpring(let spring): slack = spring.duration == nil ? Self.tickSlack * MotionSpring.restGrid : 0
        case .spring: slack = integrator.tickRate.map { Self.tickSlack / $0 } ?? Self.tickSlack * Self.settleGrid
        }
        return settleTime < tau - slack
    }

    /// A scroll deceleration's projected end (`ScrollDecay.projection`) from this motion's start;
    /// nil for the other models.
    var projection: [Double]? {
        guard case .scrollDecay(let decay) = model else { return nil }
        return start.indices.map { decay.projection(from: start[$0], velocity: velocity[$0]) }
    }

    private var rest: (position: [Double], velocity: [Double]) { (final, [Double].zeros(final.count)) }

    /// The state before any snap to rest: the closed forms at τ, or the tick showing at τ (or the
    /// last tick strictly before τ, `justBefore`).
    private func movingState(_ tau: Double, justBefore: Bool) -> (position: [Double], velocity: [Double]) {
        switch model {
        case .decay: decayState(after: tau - elapsed)
        case .spring where integrator.tickRate == nil: exactState(after: tau - elapsed)
        default: Self.perComponent(start.count) { movingComponent(tau, justBefore: justBefore, $0) }
        }
    }

    /// Component `i` of `movingState`: read alone, except for the closed forms of a decay and an
    /// exact spring, which set up once for all components.
    private func movingComponent(_ tau: Double, justBefore: Bool, _ i: Int) -> (position: Double, velocity: Double) {
        switch model {
        case .fling(let fling):
            return fling.state(from: start[i], velocity: velocity[i], after: tau - elapsed)
        case .scrollDecay(let decay):
            return decay.state(from: start[i], velocity: velocity[i], after: tau - elapsed)
        case .motionSpring(let spring):
            let goal = target?[i] ?? start[i]
            let s = spring.state(y0: start[i] - goal, v0: velocity[i], at: tau - elapsed)
            return (goal + s.position, s.velocity)
        case .spring where integrator.tickRate != nil:
            guard let rate = integrator.tickRate, !tickPositions.isEmpty else { return (start[i], velocity[i]) }
            let at = Int(tickOffset(Self.tick(tau, rate: rate, justBefore: justBefore))) * start.count + i
            return (tickPositions[at], tickVelocities[at])
        case .decay, .spring:
            let s = movingState(tau, justBefore: justBefore)
            return (s.position[i], s.velocity[i])
        }
    }

    /// The tick showing at local time τ (a tick within the slack of τ counts as at τ), or with
    /// `justBefore` the last tick strictly before τ. (Also the tick grid of compare mode's
    /// closed-form Android engine, `SpringComparison`.)
    static func tick(_ tau: Double, rate: Double, justBefore: Bool) -> Double {
        justBefore ? (tau * rate - Self.tickSlack).rounded(.up) - 1 : (tau * rate + Self.tickSlack).rounded(.down)
    }

    /// Where a tick's state is stored: its offset from `baseTick`, within the ticks simulated.
    private func tickOffset(_ tick: Double) -> Double {
        max(0, min(Double(tickPositions.count / max(1, start.count) - 1), tick - baseTick))
    }

    // MARK: Models

    private var oscillator: DampedOscillator {
        guard case .spring(let m, let k, let c) = model else { return DampedOscillator(mass: 1, stiffness: 1, damping: 0) }
        return DampedOscillator(mass: m, stiffness: k, damping: c)
    }

    /// `width` components, each (position, velocity) from `component`.
    private static func perComponent(_ width: Int, _ component: (Int) -> (Double, Double))
        -> (position: [Double], velocity: [Double]) {
        var position = [Double](), speed = [Double]()
        position.reserveCapacity(width)
        speed.reserveCapacity(width)
        for i in 0..<width {
            let (x, v) = component(i)
            position.append(x)
            speed.append(v)
        }
        return (position, speed)
    }

    /// The closed form `delta` seconds after the state given.
    private func exactState(after delta: Double) -> (position: [Double], velocity: [Double]) {
        let oscillator = self.oscillator, goal = target ?? start
        var position = start, speed = velocity
        for i in start.indices {
            let s = oscillator.state(y0: start[i] - goal[i], v0: velocity[i], at: delta)
            position[i] = goal[i] + s.position
            speed[i] = s.velocity
        }
        return (position, speed)
    }

    /// POP's decay `delta` seconds after the state given.
    private func decayState(after delta: Double) -> (position: [Double], velocity: [Double]) {
        guard case .decay(let d) = model else { return (start, velocity) }
        let factor = pow(d, 1000 * delta)
        // The velocity reported is the derivative of the position formula (rule 4):
        // v0·d^(1000t)·d·ln(1/d)/(1 − d). POP's own velocity, v0·d^(1000t), differs by that last
        // factor (0.1 % at d = 0.998); the stopping rule reads v0 and d directly.
        let slope = d * -log(d) / (1 - d)
        var position = start, speed = velocity
        for i in start.indices {
            position[i] = start[i] + velocity[i] / 1000 * d * (1 - factor) / (1 - d)
            speed[i] = velocity[i] * factor * slope
        }
        return (position, speed)
    }

    /// A coasting model's stop: the latest of its components' (one for the scalar channels these
    /// models drive), each component holding its own stop value. One unit of work per component.
    private mutating func coast(_ model: some Coasting, budget: PhysicsBudget?) {
        _ = budget?.spend(start.count)
        var time = 0.0
        for i in start.indices {
            let stop = model.stop(from: start[i], velocity: velocity[i])
            time = max(time, stop.time)
            final[i] = stop.position
        }
        settleTime = elapsed + time
    }

    private func atRest(_ position: [Double], _ speed: [Double]) -> Bool {
        let distance = Self.distance(position, target ?? start)
        // Rebound's test includes its distance threshold; the others' are strict (rule 21).
        let near: Bool
        if case .rebound = integrator { near = distance <= restDistance } else { near = distance < restDistance }
        return near && Self.norm(speed) < restSpeed
    }

    /// The first millisecond at rest from `elapsed` up to the horizon. Rest needs |y| < restDistance
    /// and |v| < restSpeed, so the energy ½k|y|² + ½m|v|² is below ½k·restDistance² + ½m·restSpeed²;
    /// the energy of a damped spring never increases (dE/dt = −c|v|²), so a binary search finds
    /// the first millisecond where that is possible and the scan starts there. Undamped motion
    /// keeps its energy: with too much of it, it never rests. At least the first grid point is
    /// tested, whatever the horizon.
    private mutating func settleExact(horizon: Double, budget: PhysicsBudget?) {
        guard case .spring(let m, let k, let c) = model, budget?.exhausted != true else { return }
        let grid = Self.settleGrid
        let first = max(0, (elapsed / grid - Self.tickSlack).rounded(.up))
        let last = max(first, (min(horizon, Self.longestSettle) / grid).rounded(.down))
        // Only a motion continued beyond the longest settle has grid points past Int's reach.
        guard last <= Self.longestSettle / grid else { return }
        let width = max(1, start.count)
        func energy(_ n: Int) -> Double {
            _ = budget?.spend(width)
            let s = exactState(after: Double(n) * grid - elapsed), goal = target ?? start
            var e = 0.0
            for i in s.position.indices {
                e += 0.5 * k * (s.position[i] - goal[i]) * (s.position[i] - goal[i]) + 0.5 * m * s.velocity[i] * s.velocity[i]
            }
            return e
        }
        let ceiling = 0.5 * k * restDistance * restDistance + 0.5 * m * restSpeed * restSpeed
        var low = Int(first), high = Int(last)
        if energy(low) >= ceiling {
            // Undamped: the energy stays too high to rest.
            guard c > 0, energy(high) < ceiling else { return }
            // First n with energy(n) < ceiling (monotone).
            while low < high {
                let middle = low + (high - low) / 2
                if energy(middle) < ceiling { high = middle } else { low = middle + 1 }
            }
        }
        for n in low...Int(last) {
            if let budget, !budget.spend(width) { return }
            let tau = Double(n) * grid
            let s = exactState(after: tau - elapsed)
            if atRest(s.position, s.velocity) {
                settleTime = tau
                return
            }
        }
    }

    /// Ticks n ≥ 1 with n / rate ≥ `elapsed`, up to the horizon and at most `maxTicks` of them.
    private mutating func simulateTicks(rate: Double, horizon: Double, budget: PhysicsBudget?) {
        guard case .spring(let m, let k, let c) = model, let goal = target, budget?.exhausted != true else { return }
        var x = start, v = velocity
        var stepper = TickStepper(integrator: integrator, m: m, k: k, c: c, goal: goal, start: start, leftover: baseLeftover)
        tickPositions = x
        tickVelocities = v
        baseTick = max(0, (elapsed * rate - Self.tickSlack).rounded(.up) - 1)
        // Only ticks inside the horizon: a tick never spans more than it, so one tick's RK4 steps
        // stay bounded (horizon / solverStep) however slow the tick rate.
        let lastTick = min((horizon * rate + Self.tickSlack).rounded(.down), baseTick + Double(Self.maxTicks))
        guard lastTick > baseTick else { return }
        let width = max(1, x.count)
        for n in 1...Int(lastTick - baseTick) {
            // Paid before the clock runs: a slow tick holds millions of solver steps.
            if let budget, !budget.spend(stepper.work(width: width)) { return }
            stepper.advance(&x, &v)
            if atRest(x, v) {
                settleTime = (baseTick + Double(n)) * (1 / rate)
                return
            }
            tickPositions += x
            tickVelocities += v
        }
    }

    static func norm(_ vector: [Double]) -> Double {
        vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }

    /// The Euclidean distance between two points of a channel.
    static func distance(_ a: [Double], _ b: [Double]) -> Double {
        var squared = 0.0
        for i in a.indices { squared += (a[i] - b[i]) * (a[i] - b[i]) }
        return squared.squareRoot()
    }
}
