/// One display tick of a tick integrator, for a spring m·x″ = −k·(x − goal) − c·x′ per component,
/// with what a solver carries from tick to tick (docs/springs.md "Euler integration", "POP's RK4
/// integrator", "Rebound's integrator", "Box2D's soft step"):
/// - `euler`: v += F/m·dt, then x += v·dt;
/// - `rk4`: POP's 1 ms (`0.001f`) classical RK4 steps, the state shown and carried the blend of
///   the last two steps at leftover/step;
/// - `rebound`: rebound-js `Spring.advance` — the tick capped at 64 ms, 1 ms RK4 steps whose first
///   stage pulls from the previous step's last stage position, the leftover blended only when
///   there is one;
/// - `box2d`: Box2D's soft constraint, v ← v/(1 + h·R), v ← (v − h·(k/m)·(x − goal)) /
///   (1 + h·c/m + h²·k/m), x ← x + h·v.
struct TickStepper {
    let integrator: PhysicsIntegrator
    let m: Double, k: Double, c: Double
    let goal: [Double]
    /// `rk4` and `rebound`: the solver's time not yet stepped, seconds (below one step).
    var leftover: Double
    /// `rebound`: the position of the last RK4 stage, where the next step's first stage pulls
    /// from (rebound-js's `tempState.position`; the start value before any step).
    private var probe: [Double]

    /// POP's solver step: the float literal 0.001f.
    static let popStep = Double(Float(0.001))
    /// Rebound's solver step, seconds (a double).
    static let reboundStep = 0.001
    /// Rebound's longest tick, seconds: longer frames advance only this much.
    static let reboundLongestTick = 0.064

    init(integrator: PhysicsIntegrator, m: Double, k: Double, c: Double, goal: [Double], start: [Double], leftover: Double) {
        self.integrator = integrator
        self.m = m
        self.k = k
        self.c = c
        self.goal = goal
        self.leftover = leftover
        probe = start
    }

    /// The time one tick advances, seconds.
    private var tick: Double {
        guard let rate = integrator.tickRate else { return 0 }
        if case .rebound = integrator { return min(1 / rate, Self.reboundLongestTick) }
        return 1 / rate
    }

    /// The work of the next tick for `width` components: its solver steps, else one.
    func work(width: Int) -> Int {
        switch integrator {
        case .rk4: width * (1 + Int(((leftover + tick) / Self.popStep).rounded(.down)))
        case .rebound: width * (1 + Int(((leftover + tick) / Self.reboundStep).rounded(.down)))
        default: width
        }
    }

    /// Advances x and v by one tick.
    mutating func advance(_ x: inout [Double], _ v: inout [Double]) {
        let dt = tick
        switch integrator {
        case .rk4:
            var previous = (x, v), current = (x, v)
            for _ in 0..<Self.solverSteps(&leftover, advancing: dt, step: Self.popStep) {
                previous = current
                current = Self.rk4Step(current.0, current.1, goal: goal, m: m, k: k, c: c, dt: Self.popStep)
            }
            Self.blend(&x, &v, current, previous, alpha: leftover / Self.popStep)
        case .rebound:
            var previous = (x, v)
            let steps = Self.solverSteps(&leftover, advancing: dt, step: Self.reboundStep)
            for n in 0..<steps {
                if n == steps - 1 { previous = (x, v) }
                reboundStep(&x, &v)
            }
            if leftover > 0 { Self.blend(&x, &v, (x, v), previous, alpha: leftover / Self.reboundStep) }
        case .box2d(_, let resistance):
            let stiffness = k / m, damping = c / m
            for i in x.indices {
                let slowed = v[i] / (1 + dt * resistance)
                v[i] = (slowed - dt * stiffness * (x[i] - goal[i])) / (1 + dt * damping + dt * dt * stiffness)
                x[i] += dt * v[i]
            }
        case .euler, .exact:
            for i in x.indices {
                let force = k * (goal[i] - x[i]) - c * v[i]
                v[i] += force / m * dt
                x[i] += v[i] * dt
            }
        }
    }

    /// x ← current·α + previous·(1 − α), the same for v (POP's and Rebound's interpolation).
    private static func blend(_ x: inout [Double], _ v: inout [Double], _ current: ([Double], [Double]),
                              _ previous: ([Double], [Double]), alpha: Double) {
        for i in x.indices {
            x[i] = current.0[i] * alpha + previous.0[i] * (1 - alpha)
            v[i] = current.1[i] * alpha + previous.1[i] * (1 - alpha)
        }
    }

    /// One of Rebound's 1 ms RK4 steps with tension k/m and friction c/m: the first stage's
    /// acceleration pulls from `probe`, the previous step's last stage position, not from x.
    private mutating func reboundStep(_ x: inout [Double], _ v: inout [Double]) {
        let tension = k / m, friction = c / m, h = Self.reboundStep
        for i in x.indices {
            let position = x[i], velocity = v[i], end = goal[i]
            let aVelocity = velocity, aAcceleration = tension * (end - probe[i]) - friction * velocity
            var stage = position + aVelocity * h * 0.5
            let bVelocity = velocity + aAcceleration * h * 0.5
            let bAcceleration = tension * (end - stage) - friction * bVelocity
            stage = position + bVelocity * h * 0.5
            let cVelocity = velocity + bAcceleration * h * 0.5
            let cAcceleration = tension * (end - stage) - friction * cVelocity
            stage = position + cVelocity * h
            let dVelocity = velocity + cAcceleration * h
            let dAcceleration = tension * (end - stage) - friction * dVelocity
            probe[i] = stage
            let dxdt = 1.0 / 6.0 * (aVelocity + 2.0 * (bVelocity + cVelocity) + dVelocity)
            let dvdt = 1.0 / 6.0 * (aAcceleration + 2.0 * (bAcceleration + cAcceleration) + dAcceleration)
            x[i] = position + dxdt * h
            v[i] = velocity + dvdt * h
        }
    }

    /// A solver's clock (POP's `SpringSolver::advance`, Rebound's accumulator): a tick adds dt to
    /// the time not yet stepped, which then pays for as many whole steps as it holds.
    static func solverSteps(_ leftover: inout Double, advancing dt: Double, step: Double) -> Int {
        leftover += dt
        var steps = 0
        while leftover >= step {
            leftover -= step
            steps += 1
        }
        return steps
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
}
