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

    /// One component's position and velocity.
    typealias State = (position: Double, velocity: Double)

    /// Advances x and v by one tick, component by component (the components do not interact; the
    /// solver clock is shared).
    mutating func advance(_ x: inout [Double], _ v: inout [Double]) {
        let dt = tick
        switch integrator {
        case .rk4:
            let steps = Self.solverSteps(&leftover, advancing: dt, step: Self.popStep)
            let alpha = leftover / Self.popStep
            for i in x.indices {
                let p = Self.lastTwo(of: steps, from: (x[i], v[i])) {
                    Self.rk4Step($0, goal: goal[i], m: m, k: k, c: c, dt: Self.popStep)
                }
                (x[i], v[i]) = Self.blend(p.current, p.previous, alpha: alpha)
            }
        case .rebound:
            let steps = Self.solverSteps(&leftover, advancing: dt, step: Self.reboundStep)
            let alpha = leftover / Self.reboundStep, tension = k / m, friction = c / m
            for i in x.indices {
                let p = Self.lastTwo(of: steps, from: (x[i], v[i])) {
                    Self.reboundRK4Step($0, goal: goal[i], probe: &probe[i], tension: tension, friction: friction)
                }
                (x[i], v[i]) = leftover > 0 ? Self.blend(p.current, p.previous, alpha: alpha) : p.current
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

    /// The last two states of `steps` solver steps from `state` (`state` itself before the first).
    private static func lastTwo(of steps: Int, from state: State, _ step: (State) -> State)
        -> (current: State, previous: State) {
        var previous = state, current = state
        for _ in 0..<steps {
            previous = current
            current = step(current)
        }
        return (current, previous)
    }

    /// current·α + previous·(1 − α), position and velocity (POP's and Rebound's interpolation).
    private static func blend(_ current: State, _ previous: State, alpha: Double) -> State {
        (current.position * alpha + previous.position * (1 - alpha),
         current.velocity * alpha + previous.velocity * (1 - alpha))
    }

    /// One of Rebound's 1 ms RK4 steps of one component with tension k/m and friction c/m: the
    /// first stage's acceleration pulls from `probe`, the previous step's last stage position, not
    /// from the position; `probe` then takes this step's last stage position.
    private static func reboundRK4Step(_ state: State, goal end: Double, probe: inout Double, tension: Double,
                                       friction: Double) -> State {
        let h = Self.reboundStep, (position, velocity) = state
        let aVelocity = velocity, aAcceleration = tension * (end - probe) - friction * velocity
        var stage = position + aVelocity * h * 0.5
        let bVelocity = velocity + aAcceleration * h * 0.5
        let bAcceleration = tension * (end - stage) - friction * bVelocity
        stage = position + bVelocity * h * 0.5
        let cVelocity = velocity + bAcceleration * h * 0.5
        let cAcceleration = tension * (end - stage) - friction * cVelocity
        stage = position + cVelocity * h
        let dVelocity = velocity + cAcceleration * h
        let dAcceleration = tension * (end - stage) - friction * dVelocity
        probe = stage
        let dxdt = 1.0 / 6.0 * (aVelocity + 2.0 * (bVelocity + cVelocity) + dVelocity)
        let dvdt = 1.0 / 6.0 * (aAcceleration + 2.0 * (bAcceleration + cAcceleration) + dAcceleration)
        return (position + dxdt * h, velocity + dvdt * h)
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

    /// One classical RK4 step of x'' = (−k·(x − goal) − c·x')/m for one component.
    private static func rk4Step(_ state: State, goal: Double, m: Double, k: Double, c: Double, dt: Double) -> State {
        let p = state.position - goal, u = state.velocity
        func accel(_ p: Double, _ u: Double) -> Double { (-k * p - c * u) / m }
        let a1 = u, b1 = accel(p, u)
        let a2 = u + b1 * dt * 0.5, b2 = accel(p + a1 * dt * 0.5, a2)
        let a3 = u + b2 * dt * 0.5, b3 = accel(p + a2 * dt * 0.5, a3)
        let a4 = u + b3 * dt, b4 = accel(p + a3 * dt, a4)
        return (goal + p + (a1 + 2 * (a2 + a3) + a4) / 6 * dt, u + (b1 + 2 * (b2 + b3) + b4) / 6 * dt)
    }
}
