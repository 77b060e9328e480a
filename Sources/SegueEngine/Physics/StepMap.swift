/// One solver step of a linear spring as the linear map it is (docs/springs.md "RK4 steps as one
/// linear map").
///
/// For m·x″ = −k·x − c·x′ with x measured from the goal, every stage of an RK4 step is a linear
/// combination of the state, so the whole step is a fixed 3 × 3 matrix S acting on (x, v, probe):
/// POP's classical step uses x and v (its probe row and column are 0); Rebound's step also carries
/// the probe, the last stage position its next first stage pulls from. The matrix's columns are
/// the step taken from the three basis states, so the map is defined by the literal step and
/// nothing else.
///
/// Applying S costs nine multiplications in three independent sums, where the literal step is
/// four stages each waiting on the last. The two agree to rounding: each step's results differ by
/// a few units in the last place of the state, and an RK4 step of a stable spring does not amplify
/// them (StepMapTests bounds the drift over long motions).
struct StepMap: Sendable {
    /// A component's state measured from its goal: position, velocity and Rebound's probe.
    struct State: Sendable, Equatable {
        var position: Double, velocity: Double, probe: Double
        init(_ position: Double, _ velocity: Double, _ probe: Double) {
            self.position = position
            self.velocity = velocity
            self.probe = probe
        }
    }

    /// The images of the basis states (1, 0, 0), (0, 1, 0) and (0, 0, 1): S's columns.
    let columns: (State, State, State)

    /// The map of `step`, which must be linear in the state (a spring step with the goal at 0).
    init(_ step: (State) -> State) {
        columns = (step(State(1, 0, 0)), step(State(0, 1, 0)), step(State(0, 0, 1)))
    }

    private init(columns: (State, State, State)) {
        self.columns = columns
    }

    /// The map that leaves every state as it is (integrators without solver steps).
    static let identity = StepMap(columns: (State(1, 0, 0), State(0, 1, 0), State(0, 0, 1)))

    /// S·state.
    func apply(_ state: State) -> State {
        let (a, b, c) = columns
        return State(a.position * state.position + b.position * state.velocity + c.position * state.probe,
                     a.velocity * state.position + b.velocity * state.velocity + c.velocity * state.probe,
                     a.probe * state.position + b.probe * state.velocity + c.probe * state.probe)
    }

    /// The last two states of `steps` steps from `state` (`state` itself before the first), which
    /// POP and Rebound blend by the leftover.
    func lastTwo(of steps: Int, from state: State) -> (current: State, previous: State) {
        var previous = state, current = state
        for _ in 0..<steps {
            previous = current
            current = apply(current)
        }
        return (current, previous)
    }
}
