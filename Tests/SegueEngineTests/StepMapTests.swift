@testable import SegueEngine
import SegueTestSupport
import Foundation
import XCTest

/// `StepMap`, an RK4 solver step as its linear map (docs/springs.md "RK4 steps as one linear
/// map"), against the steps written out stage by stage here, in POP's and rebound-js's order with
/// absolute positions, over long runs of random springs.
final class StepMapTests: XCTestCase {
    /// Steps per run: 5 s of 1 ms steps, longer than any motion compare mode plays at its defaults.
    static let steps = 5_000
    /// The largest difference allowed between the two, relative to the motion's scale: each step
    /// rounds both to a few units in the last place, and 5,000 steps of a stable spring keep the
    /// sum of those far below this.
    static let relativeDrift = 1e-12

    typealias State = (x: Double, v: Double, probe: Double)

    /// POP's classical RK4 step towards `goal`, stage by stage (it has no probe: the map's stays 0
    /// from the goal, so this one stays at the goal).
    static func popStep(_ s: State, goal: Double, m: Double, k: Double, c: Double) -> State {
        let h = TickStepper.popStep
        func a(_ x: Double, _ v: Double) -> Double { (-k * (x - goal) - c * v) / m }
        let v1 = s.v, a1 = a(s.x, v1)
        let v2 = s.v + a1 * h / 2, a2 = a(s.x + v1 * h / 2, v2)
        let v3 = s.v + a2 * h / 2, a3 = a(s.x + v2 * h / 2, v3)
        let v4 = s.v + a3 * h, a4 = a(s.x + v3 * h, v4)
        return (s.x + (v1 + 2 * v2 + 2 * v3 + v4) * h / 6, s.v + (a1 + 2 * a2 + 2 * a3 + a4) * h / 6, goal)
    }

    /// rebound-js's step towards `goal`: the first stage pulls from the probe, which then takes
    /// the last stage's position.
    static func reboundStep(_ s: State, goal: Double, tension: Double, friction: Double) -> State {
        let h = TickStepper.reboundStep
        func a(_ x: Double, _ v: Double) -> Double { tension * (goal - x) - friction * v }
        let v1 = s.v, a1 = a(s.probe, v1)
        let v2 = s.v + a1 * h / 2, a2 = a(s.x + v1 * h / 2, v2)
        let v3 = s.v + a2 * h / 2, a3 = a(s.x + v2 * h / 2, v3)
        let last = s.x + v3 * h
        let v4 = s.v + a3 * h, a4 = a(last, v4)
        return (s.x + (v1 + 2 * v2 + 2 * v3 + v4) * h / 6, s.v + (a1 + 2 * a2 + 2 * a3 + a4) * h / 6, last)
    }

    /// A random stable spring and start: mass 0.1–10, stiffness 1–2,000, damping 0.1–100 (POP's,
    /// Rebound's and UIKit's usual ranges), a goal and a start within ±1,000 points.
    static func draw(_ random: inout SplitMix64) -> (m: Double, k: Double, c: Double, goal: Double, start: State) {
        func logUniform(_ low: Double, _ high: Double) -> Double {
            low * exp(Double.random(in: 0...1, using: &random) * log(high / low))
        }
        let m = logUniform(0.1, 10), k = logUniform(1, 2_000), c = logUniform(0.1, 100)
        let goal = Double.random(in: -1_000...1_000, using: &random)
        let x = Double.random(in: -1_000...1_000, using: &random), v = Double.random(in: -5_000...5_000, using: &random)
        return (m, k, c, goal, (x, v, Double.random(in: -1_000...1_000, using: &random)))
    }

    /// Runs `steps` of the map and of `literal` from `start` and fails where they part by more than
    /// the drift bound.
    func assertFollows(_ map: StepMap, _ literal: (State) -> State, goal: Double, start: State, omega0: Double,
                       _ label: String) {
        let scale = max(abs(start.x - goal), abs(start.v) / omega0, abs(start.probe - goal), abs(goal), 1)
        var exact = start
        var mapped = StepMap.State(start.x - goal, start.v, start.probe - goal)
        var worst = 0.0
        for _ in 0..<Self.steps {
            exact = literal(exact)
            mapped = map.apply(mapped)
            worst = max(worst, abs(goal + mapped.position - exact.x), abs(mapped.velocity - exact.v) / omega0,
                        abs(goal + mapped.probe - exact.probe))
        }
        XCTAssertLessThanOrEqual(worst / scale, Self.relativeDrift, label)
    }

    func testPOPStepsAsAMapFollowTheStages() {
        var random = SplitMix64(seed: 0x9095_7E95)
        for trial in 0..<200 {
            let (m, k, c, goal, start) = Self.draw(&random)
            let stepper = TickStepper(integrator: .rk4(tickRate: 60), m: m, k: k, c: c, goal: [goal], start: [start.x],
                                      leftover: 0)
            assertFollows(stepper.map, { Self.popStep($0, goal: goal, m: m, k: k, c: c) }, goal: goal,
                          start: (start.x, start.v, goal), omega0: (k / m).squareRoot(),
                          "trial \(trial) (seed 0x95957E95): m \(m) k \(k) c \(c)")
        }
    }

    func testReboundStepsAsAMapFollowTheStages() {
        var random = SplitMix64(seed: 0x2EB0_0D)
        for trial in 0..<200 {
            let (m, k, c, goal, start) = Self.draw(&random)
            let stepper = TickStepper(integrator: .rebound(tickRate: 60), m: m, k: k, c: c, goal: [goal],
                                      start: [start.x], leftover: 0)
            assertFollows(stepper.map, { Self.reboundStep($0, goal: goal, tension: k / m, friction: c / m) }, goal: goal,
                          start: start, omega0: (k / m).squareRoot(), "trial \(trial) (seed 0x2EB00D): m \(m) k \(k) c \(c)")
        }
    }

    /// The map of a linear step reproduces it on any state: its columns are the basis states'
    /// images, and the sum of the scaled columns is the image of the sum.
    func testTheMapOfALinearStepIsTheStep() {
        let step: (StepMap.State) -> StepMap.State = {
            StepMap.State(2 * $0.position - $0.velocity, 0.5 * $0.velocity + 3 * $0.probe, -$0.position)
        }
        let map = StepMap(step)
        for state in [StepMap.State(1, 2, 3), StepMap.State(-0.25, 8, -4), StepMap.State(0, 0, 0)] {
            XCTAssertEqual(map.apply(state), step(state))
        }
        XCTAssertEqual(StepMap.identity.apply(StepMap.State(1, -2, 3)), StepMap.State(1, -2, 3))
        let (current, previous) = map.lastTwo(of: 3, from: StepMap.State(1, 0, 0))
        XCTAssertEqual(previous, map.apply(map.apply(StepMap.State(1, 0, 0))))
        XCTAssertEqual(current, map.apply(previous))
        XCTAssertEqual(map.lastTwo(of: 0, from: StepMap.State(1, 0, 0)).current, StepMap.State(1, 0, 0))
    }
}
