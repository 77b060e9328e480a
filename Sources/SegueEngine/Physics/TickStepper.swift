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
///
/// The spring is linear, so one RK4 step (POP's or Rebound's) is a fixed linear map of the state
/// measured from the goal; `StepMap` holds it, built once by taking the literal step of the basis
/// states, and applies it in a few multiplications instead of four dependent stages
/// (docs/springs.md "RK4 steps as one linear map").
struct TickStepper {
    let integrator: PhysicsIntegrator
    let m: Double, k: Double, c: Double
    let goal: [Double]
    /// `rk4` and `rebound`: the solver's time not yet stepped, seconds (below one step).
    var leftover: Double
    /// `rebound`: the position of the last RK4 stage, where the next step's first stage pulls
    /// from (rebound-js's `tempState.position`; the start value before any step).
    private var probe: [Double]
    /// `rk4` and `rebound`: one solver step as a linear map (identity for the other integrators).
    let map: StepMap

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
        switch integrator {
        case .rk4: map = StepMap { Self.rk4Step($0, m: m, k: k, c: c, dt: Self.popStep) }
        case .rebound: map = StepMap { Self.reboundRK4Step($0, tension: k / m, friction: c / m) }
        default: map = .identity
        }
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

    /// Advances x and v by one tick, component by component (the components do not interact; the
    /// solver clock is shared).
    mutating func advance(_ x: inout [Double], _ v: inout [Double]) {
        let dt = tick
        switch integrator {
        case .rk4, .rebound:
            let step = if case .rebound = integrator { Self.reboundStep } else { Self.popStep }
            let steps = Self.solverSteps(&leftover, advancing: dt, step: step)
            let alpha = leftover / step
            // POP always shows the blend (the older state when nothing is left over); Rebound
            // only when something is.
            let blends = step == Self.popStep || leftover > 0
            for i in x.indices {
                let p = map.lastTwo(of: steps, from: StepMap.State(x[i] - goal[i], v[i], probe[i] - goal[i]))
                probe[i] = goal[i] + p.current.probe
                (x[i], v[i]) = blends ? Self.blend(p.current, p.previous, alpha: alpha, goal: goal[i])
                    : (goal[i] + p.current.position, p.current.velocity)
            }
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

    /// current·α + previous·(1 − α), position and velocity (POP's and Rebound's interpolation),
    /// the position measured from the goal and returned absolute.
    private static func blend(_ current: StepMap.State, _ previous: StepMap.State, alpha: Double, goal: Double)
        -> (Double, Double) {
        (goal + (current.position * alpha + previous.position * (1 - alpha)),
         current.velocity * alpha + previous.velocity * (1 - alpha))
    }

    /// One of Rebound's 1 ms RK4 steps of one component with tension k/m and friction c/m, the
    /// position and probe measured from the goal: the first stage's acceleration pulls from the
    /// probe (the previous step's last stage position), not from the position; the probe then
    /// takes this step's last stage position. Written in rebound-js's order; `StepMap` takes it
    /// as the definition of the step.
    private static func reboundRK4Step(_ state: StepMap.State, tension: Double, friction: Double) -> StepMap.State {
        let h = Self.reboundStep, position = state.position, velocity = state.velocity
        let aVelocity = velocity, aAcceleration = tension * -state.probe - friction * velocity
        var stage = position + aVelocity * h * 0.5
        let bVelocity = velocity + aAcceleration * h * 0.5
        let bAcceleration = tension * -stage - friction * bVelocity
        stage = position + bVelocity * h * 0.5
        let cVelocity = velocity + bAcceleration * h * 0.5
        let cAcceleration = tension * -stage - friction * cVelocity
        stage = position + cVelocity * h
        let dVelocity = velocity + cAcceleration * h
        let dAcceleration = tension * -stage - friction * dVelocity
        let dxdt = 1.0 / 6.0 * (aVelocity + 2.0 * (bVelocity + cVelocity) + dVelocity)
        let dvdt = 1.0 / 6.0 * (aAcceleration + 2.0 * (bAcceleration + cAcceleration) + dAcceleration)
        return StepMap.State(position + dxdt * h, velocity + dvdt * h, stage)
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

    /// One classical RK4 step of x'' = (−k·x − c·x')/m for one component, x measured from the
    /// goal (the probe is unused and stays 0). `StepMap` takes it as the definition of the step.
    private static func rk4Step(_ state: StepMap.State, m: Double, k: Double, c: Double, dt: Double) -> StepMap.State {
        let p = state.position, u = state.velocity
        func accel(_ p: Double, _ u: Double) -> Double { (-k * p - c * u) / m }
        let a1 = u, b1 = accel(p, u)
        let a2 = u + b1 * dt * 0.5, b2 = accel(p + a1 * dt * 0.5, a2)
        let a3 = u + b2 * dt * 0.5, b3 = accel(p + a2 * dt * 0.5, a3)
        let a4 = u + b3 * dt, b4 = accel(p + a3 * dt, a4)
        return StepMap.State(p + (a1 + 2 * (a2 + a3) + a4) / 6 * dt, u + (b1 + 2 * (b2 + b3) + b4) / 6 * dt, 0)
    }
}
