#if canImport(Glibc)
import Glibc
#endif

/// Forces acting on a physics animation (API.md §4 "Physics animations", §6 rules 20–21;
/// shared/reference/springs.md §1, §5, §8).
public enum PhysicsModel: Sendable, Equatable {
    /// m·x'' = −k·(x − target) − c·x', the true over-damped solution included (no clamping).
    /// `attachment`, `snap` and `popSpring` arrive here converted (rule 20).
    case spring(mass: Double, stiffness: Double, damping: Double)
    /// POPDecayAnimation: v(t) = v0·d^(1000t), x(t) = x0 + (v0/1000)·d·(1 − d^(1000t))/(1 − d)
    /// (the per-millisecond geometric sum, not ∫v dt); `deceleration` d per ms, 0 < d < 1.
    case decay(deceleration: Double)
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
    /// simulated time lags wall time by design (springs.md §5).
    case rk4(tickRate: Double)
}

/// One physics motion of a scalar or point channel from its start state, resolved to the time it
/// comes to rest (API.md §6 rule 21):
/// - `exact`: the first instant on the grid start + n ms where |x − target| < `restDistance` and
///   |v| < `restSpeed` (Euclidean norms); from then on the value is the target exactly;
/// - `euler` / `rk4`: the state at the start is the initial state (POP's first frame advances
///   0); tick n ≥ 1 at start + n / tickRate advances 1 / tickRate and then tests for rest (and
///   snaps to the target); between ticks the last tick shows;
/// - a decay has no target: it ends at exactly ln(5·threshold / |v0|) / (1000·ln d) after its
///   start (0 when that is negative or undefined) and holds x there.
/// A motion that does not rest within `horizon` seconds never settles (`settleTime` ∞).
public struct PhysicsMotion: Sendable {
    public let model: PhysicsModel
    public let integrator: PhysicsIntegrator
    public let start: [Double]
    public let velocity: [Double]
    /// nil for a decay.
    public let target: [Double]?
    public let restSpeed: Double, restDistance: Double
    /// Seconds from the start to rest (∞ when it does not rest within the horizon).
    public private(set) var settleTime: Double = .infinity
    /// The final value, held from `settleTime` on.
    public private(set) var final: [Double]
    /// Tick integrators: positions and velocities after each tick (tick 0 is the start), flat,
    /// `start.count` numbers per tick.
    private var tickPositions: [Double] = [], tickVelocities: [Double] = []
    /// Most ticks simulated for one motion (memory stays within a few tens of MB).
    public static let maxTicks = 1_000_000

    /// POP's solver step: the float literal 0.001f.
    static let solverStep = Double(Float(0.001))
    /// The exact integrator's settling grid, seconds.
    static let settleGrid = 0.001
    /// Slack when counting ticks at a frame time (frames and ticks meet at equal times).
    static let tickSlack = 1e-9

    public init(model: PhysicsModel, integrator: PhysicsIntegrator, start: [Double], velocity: [Double], target: [Double]?,
                restSpeed: Double, restDistance: Double, threshold: Double, horizon: Double) {
        self.model = model
        self.integrator = integrator
        self.start = start
        self.velocity = velocity
        self.target = target
        self.restSpeed = restSpeed
        self.restDistance = restDistance
        final = target ?? start
        switch model {
        case .decay(let d):
            let speed = Self.norm(velocity)
            let time = log(5 * threshold / speed) / (1000 * log(d))
            settleTime = time.isFinite && time > 0 ? time : 0
            final = decayState(settleTime).position
        case .spring:
            switch integrator {
            case .exact: settleExact(horizon: horizon)
            case .euler(let rate), .rk4(let rate): simulateTicks(rate: rate, horizon: horizon)
            }
        }
    }

    /// Value and velocity at local time τ ≥ 0 (channel units, per second).
    public func state(at tau: Double) -> (position: [Double], velocity: [Double]) {
        if tau >= settleTime { return (final, [Double](repeating: 0, count: final.count)) }
        switch (model, integrator) {
        case (.decay, _):
            return decayState(tau)
        case (.spring, .exact):
            return exactState(tau)
        case (.spring, .euler(let rate)), (.spring, .rk4(let rate)):
            let width = start.count, count = tickPositions.count / max(1, width)
            guard count > 0 else { return (start, velocity) }
            let tick = min(Double(count - 1), max(0, (tau * rate + Self.tickSlack).rounded(.down)))
            let from = Int(tick) * width
            return (Array(tickPositions[from..<(from + width)]), Array(tickVelocities[from..<(from + width)]))
        }
    }

    // MARK: Models

    private var oscillator: DampedOscillator {
        guard case .spring(let m, let k, let c) = model else { return DampedOscillator(mass: 1, stiffness: 1, damping: 0) }
        return DampedOscillator(mass: m, stiffness: k, damping: c)
    }

    private func exactState(_ tau: Double) -> (position: [Double], velocity: [Double]) {
        let oscillator = self.oscillator, goal = target ?? start
        var position = start, speed = velocity
        for i in start.indices {
            let s = oscillator.state(y0: start[i] - goal[i], v0: velocity[i], at: tau)
            position[i] = goal[i] + s.position
            speed[i] = s.velocity
        }
        return (position, speed)
    }

    private func decayState(_ tau: Double) -> (position: [Double], velocity: [Double]) {
        guard case .decay(let d) = model else { return (start, velocity) }
        let factor = pow(d, 1000 * tau)
        var position = start, speed = velocity
        for i in start.indices {
            position[i] = start[i] + velocity[i] / 1000 * d * (1 - factor) / (1 - d)
            speed[i] = velocity[i] * factor
        }
        return (position, speed)
    }

    private func atRest(_ position: [Double], _ speed: [Double]) -> Bool {
        let goal = target ?? start
        var distance = 0.0
        for i in position.indices { distance += (position[i] - goal[i]) * (position[i] - goal[i]) }
        return distance.squareRoot() < restDistance && Self.norm(speed) < restSpeed
    }

    /// The first millisecond at rest, up to the horizon. Rest needs |y| < restDistance and
    /// |v| < restSpeed, so the energy ½k|y|² + ½m|v|² is below ½k·restDistance² + ½m·restSpeed²;
    /// the energy of a damped spring never increases (dE/dt = −c|v|²), so a binary search finds
    /// the first millisecond where that is possible and the scan starts there. Undamped motion
    /// keeps its energy: with too much of it, it never rests.
    private mutating func settleExact(horizon: Double) {
        guard case .spring(let m, let k, let c) = model else { return }
        let steps = Int(min(horizon, 1e7) / Self.settleGrid)
        func energy(_ n: Int) -> Double {
            let s = exactState(Double(n) * Self.settleGrid), goal = target ?? start
            var e = 0.0
            for i in s.position.indices {
                e += 0.5 * k * (s.position[i] - goal[i]) * (s.position[i] - goal[i]) + 0.5 * m * s.velocity[i] * s.velocity[i]
            }
            return e
        }
        let ceiling = 0.5 * k * restDistance * restDistance + 0.5 * m * restSpeed * restSpeed
        var low = 0, high = max(0, steps)
        if c > 0 && energy(0) >= ceiling {
            // First n with energy(n) < ceiling (monotone), or past the horizon.
            guard energy(high) < ceiling else { return }
            while low < high {
                let middle = (low + high) / 2
                if energy(middle) < ceiling { high = middle } else { low = middle + 1 }
            }
        }
        // Undamped: rest is possible only when the (constant) energy is below the ceiling.
        let last = c > 0 || energy(0) < ceiling ? max(0, steps) : 0
        for n in low...max(low, last) {
            let tau = Double(n) * Self.settleGrid
            let s = exactState(tau)
            if atRest(s.position, s.velocity) {
                settleTime = tau
                return
            }
        }
    }

    private mutating func simulateTicks(rate: Double, horizon: Double) {
        guard case .spring(let m, let k, let c) = model, let goal = target else { return }
        let dt = 1 / rate
        var x = start, v = velocity
        var leftover = 0.0
        tickPositions = x
        tickVelocities = v
        // Only ticks inside the horizon: a tick never spans more than it, so one tick's RK4 steps
        // stay bounded (horizon / solverStep) however slow the tick rate.
        let limit = Int(min(horizon * rate, Double(Self.maxTicks)))
        guard limit >= 1 else { return }
        for n in 1...limit {
            switch integrator {
            case .rk4:
                leftover += dt
                var previous = (x, v), current = (x, v)
                while leftover >= Self.solverStep {
                    previous = current
                    current = Self.rk4Step(current.0, current.1, goal: goal, m: m, k: k, c: c, dt: Self.solverStep)
                    leftover -= Self.solverStep
                }
                let alpha = leftover / Self.solverStep
                for i in x.indices {
                    x[i] = current.0[i] * alpha + previous.0[i] * (1 - alpha)
                    v[i] = current.1[i] * alpha + previous.1[i] * (1 - alpha)
                }
            default:
                for i in x.indices {
                    let force = k * (goal[i] - x[i]) - c * v[i]
                    v[i] += force / m * dt
                    x[i] += v[i] * dt
                }
            }
            if atRest(x, v) {
                settleTime = Double(n) * dt
                return
            }
            tickPositions += x
            tickVelocities += v
        }
    }

    /// One classical RK4 step of x'' = (−k·(x − goal) − c·x')/m, per component.
    static func rk4Step(_ x: [Double], _ v: [Double], goal: [Double], m: Double, k: Double, c: Double,
                        dt: Double) -> ([Double], [Double]) {
        var nx = x, nv = v
        for i in x.indices {
            let p = x[i] - goal[i], u = v[i]
            func accel(_ p: Double, _ u: Double) -> Double { (-k * p - c * u) / m }
            let a1 = u, b1 = accel(p, u)
            let a2 = u + b1 * dt * 0.5, b2 = accel(p + a1 * dt * 0.5, a2)
            let a3 = u + b2 * dt * 0.5, b3 = accel(p + a2 * dt * 0.5, a3)
            let a4 = u + b3 * dt, b4 = accel(p + a3 * dt, a4)
            nx[i] = goal[i] + p + (a1 + 2 * (a2 + a3) + a4) / 6 * dt
            nv[i] = u + (b1 + 2 * (b2 + b3) + b4) / 6 * dt
        }
        return (nx, nv)
    }

    static func norm(_ vector: [Double]) -> Double {
        vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }
}
