import Foundation
@testable import SegueEngine
import SegueTestSupport
import XCTest

/// A physics animation's whole life (docs/rules.md "Physics animations", rules 20–22): retargets,
/// drags and stops against values computed here — an independent fine RK4, hand-computed
/// least-squares slopes, the objc.io and POP tick loops written out again.
final class PhysicsChainTests: XCTestCase {
    typealias Sample = DragSample
    typealias Command = PhysicsChain.TimedCommand

    // MARK: Retargets (property test)

    /// Over 1,200 random springs in all three damping regimes, 1-D and 2-D, with random initial
    /// velocities and 1–4 retargets each (exact integrator): velocity is continuous at every
    /// retarget, a damped spring's energy about its current target never increases between
    /// retargets, and the closed form agrees with an RK4 at 10 µs steps written here, integrated
    /// across the retargets.
    func testRetargetsKeepVelocityContinuousAndAgreeWithAFineIntegration() {
        var generator = SplitMix64(state: 0x5E6E)
        func uniform(_ low: Double, _ high: Double) -> Double { Double.random(in: low..<high, using: &generator) }
        var retargetsChecked = 0
        for index in 0..<1200 {
            let mass = uniform(0.3, 3), stiffness = uniform(20, 600)
            let critical = 2 * (mass * stiffness).squareRoot()
            let damping = [uniform(0.05, 0.95) * critical, critical, uniform(1.05, 5) * critical][index % 3]
            let width = index / 3 % 2 + 1
            func point() -> [Double] { (0..<width).map { _ in uniform(-300, 300) } }
            let from = point(), target = point()
            let velocity = (0..<width).map { _ in uniform(-2000, 2000) }
            let start = uniform(0, 0.5)
            let times = (0..<Int.random(in: 1...4, using: &generator)).map { _ in start + uniform(0.01, 1) }.sorted()
            let targets = times.map { _ in point() }
            let commands = times.indices.map {
                Command(at: times[$0], index: $0, command: .retarget(target: targets[$0], velocity: nil))
            }
            // Thresholds far below the tolerance, so that rest (and its snap) comes late.
            func chain(_ commands: [Command]) -> PhysicsChain {
                PhysicsChain(model: .spring(mass: mass, stiffness: stiffness, damping: damping), integrator: .exact,
                             velocity: velocity, target: target, restSpeed: 1e-3, restDistance: 1e-4, threshold: 1,
                             start: start, from: from, commands: commands, horizon: 5, autostarted: true)
            }
            let whole = chain(commands)
            let firstRest = whole.events.first { $0.kind == .completion }?.t ?? .infinity
            XCTAssertEqual(whole.events.first, AnimatorEvent(t: start, kind: .start))
            XCTAssertEqual(whole.events.filter { $0.kind == .retarget }.map(\.command), times.indices.map { $0 })

            // Continuity: the previous motion at T (the chain without this retarget) and the right
            // limit at T agree.
            for (j, time) in times.enumerated() where time < firstRest {
                let left = chain(Array(commands[..<j])).state(at: time), right = whole.state(at: time)
                for i in 0..<width {
                    XCTAssertEqual(right.velocity[i], left.velocity[i], accuracy: 1e-9 * max(1, abs(left.velocity[i])),
                                   "case \(index): velocity at retarget \(j)")
                    XCTAssertEqual(right.position[i], left.position[i], accuracy: 1e-9 * max(1, abs(left.position[i])),
                                   "case \(index): position at retarget \(j)")
                }
                retargetsChecked += 1
            }

            // Energy about the target in force never increases between retargets (1 ms samples).
            let goals = [target] + targets, bounds = [start] + times + [start + 1.5]
            for j in goals.indices {
                var previous = Double.infinity
                for t in stride(from: bounds[j], to: min(bounds[j + 1], firstRest), by: 0.001) {
                    let s = whole.state(at: t)
                    let energy = (0..<width).reduce(0.0) {
                        $0 + 0.5 * stiffness * pow(s.position[$1] - goals[j][$1], 2) + 0.5 * mass * pow(s.velocity[$1], 2)
                    }
                    XCTAssertLessThanOrEqual(energy, previous * (1 + 1e-10) + 1e-9, "case \(index): energy at \(t)")
                    previous = energy
                }
            }

            // The fine RK4 across the retargets, compared every 10 ms until 0.25 s after the last
            // retarget or the first rest.
            func norm(_ vector: [Double]) -> Double { vector.reduce(0) { $0 + $1 * $1 }.squareRoot() }
            let travel = goals.map { goal in norm(zip(from, goal).map { $0 - $1 }) }.max() ?? 0
            let extent = travel + norm(velocity) / (stiffness / mass).squareRoot()
            var checks = (0..<150).map { start + Double($0) * 0.01 }.filter { $0 < min(firstRest, times.last! + 0.25) }
            checks = (checks + times.filter { $0 < firstRest }).sorted()
            for i in 0..<width {
                var x = from[i], v = velocity[i], t = start, goal = target[i]
                for check in checks {
                    FineSpring(mass: mass, stiffness: stiffness, damping: damping).advance(&x, &v, goal: goal, by: check - t)
                    t = check
                    if let j = times.firstIndex(of: check) { goal = targets[j][i] }  // from T on
                    XCTAssertEqual(whole.state(at: check).position[i], x, accuracy: 1e-6 * (1 + extent),
                                   "case \(index): RK4 at \(check)")
                }
            }
        }
        XCTAssertGreaterThan(retargetsChecked, 2000)
    }

    /// A retarget that gives `velocity` replaces the velocity; the position stays continuous.
    func testRetargetVelocityReplacesTheVelocity() {
        let chain = PhysicsChain(model: .spring(mass: 1, stiffness: 200, damping: 12), integrator: .exact, velocity: [0],
                                 target: [100], restSpeed: 5, restDistance: 0.5, threshold: 1, start: 0, from: [0],
                                 commands: [Command(at: 0.1, index: 0, command: .retarget(target: [-50], velocity: [300]))],
                                 horizon: 10)
        // x(0.1) of the first motion: underdamped, y0 = −100, v0 = 0, a = 6, ωd = √164.
        let a = 6.0, wd = 164.0.squareRoot(), tau = 0.1
        let expected = 100 + exp(-a * tau) * (-100 * cos(wd * tau) + (a * -100) / wd * sin(wd * tau))
        XCTAssertEqual(chain.state(at: 0.1).position[0], expected, accuracy: 1e-9)
        XCTAssertEqual(chain.state(at: 0.1).velocity[0], 300, accuracy: 1e-12)
        XCTAssertEqual(chain.finalValue, [-50])
        XCTAssertEqual(chain.state(at: chain.settles).position, [-50])
    }

    // MARK: Drags

    func testDragReleaseVelocityIsTheLeastSquaresSlopeOfTheLastTenthOfASecond() {
        // An exact line, 2-D: the slope itself, older samples included or not.
        let line = stride(from: 0.0, through: 0.3, by: 0.02).map { Sample(t: 2 + $0, value: [3 + 50 * $0, 7 - 800 * $0]) }
        let slope = DragRelease.velocity(of: line)
        XCTAssertEqual(slope[0], 50, accuracy: 1e-9)
        XCTAssertEqual(slope[1], -800, accuracy: 1e-9)

        // Noisy points: the closed-form slope (nΣtx − ΣtΣx) / (nΣt² − (Σt)²) of the samples with
        // t ≥ 1.1 − 0.1; the two older ones (one far off the trend) must not count.
        let times = [0.5, 0.95, 1.0, 1.02, 1.05, 1.07, 1.1]
        let values = [900.0, -40, 10, 13.5, 12, 19.25, 21]
        let samples = zip(times, values).map { Sample(t: $0, value: [$1]) }
        let window = zip(times, values).filter { $0.0 >= 1.0 }
        let n = Double(window.count)
        let st = window.reduce(0) { $0 + $1.0 }, sx = window.reduce(0) { $0 + $1.1 }
        let stt = window.reduce(0) { $0 + $1.0 * $1.0 }, stx = window.reduce(0) { $0 + $1.0 * $1.1 }
        XCTAssertEqual(window.count, 5)
        XCTAssertEqual(DragRelease.velocity(of: samples)[0], (n * stx - st * sx) / (n * stt - st * st), accuracy: 1e-6)

        // Fewer than three in the window: the last segment's slope, even when it reaches back
        // before the window.
        let sparse = [Sample(t: 0, value: [0]), Sample(t: 0.05, value: [10]), Sample(t: 0.3, value: [60])]
        XCTAssertEqual(DragRelease.velocity(of: sparse)[0], 50 / 0.25, accuracy: 1e-9)
        let pair = [Sample(t: 0, value: [0]), Sample(t: 0.25, value: [10]), Sample(t: 0.3, value: [30])]
        XCTAssertEqual(DragRelease.velocity(of: pair)[0], 20 / 0.05, accuracy: 1e-9)

        // The edge is inclusive: with t_last = 0.4 the sample at 0.3 counts (although 0.4 − 0.1
        // rounds to 0.30000000000000004), so three samples: slope 1.5 / 0.005 = 300, not the last
        // segment's 400; a sample a little earlier does not.
        let edge = [Sample(t: 0.3, value: [0]), Sample(t: 0.35, value: [10]), Sample(t: 0.4, value: [30])]
        XCTAssertEqual(DragRelease.velocity(of: edge)[0], 300, accuracy: 1e-9)
        let outside = [Sample(t: 0.2999, value: [0]), Sample(t: 0.35, value: [10]), Sample(t: 0.4, value: [30])]
        XCTAssertEqual(DragRelease.velocity(of: outside)[0], 400, accuracy: 1e-9)

        // One sample releases at rest.
        XCTAssertEqual(DragRelease.velocity(of: [Sample(t: 1, value: [5, 6])]), [0, 0])
    }

    func testDragFollowsTheSamplesAndReleasesIntoTheForces() {
        let mass = 1.0, stiffness = 150.0, damping = 8.0
        let samples = [(0.55, 20.0), (0.6, 30), (0.65, 26), (0.7, 10), (0.72, 11), (0.75, 12)].map { Sample(t: $0.0, value: [$0.1]) }
        let chain = PhysicsChain(model: .spring(mass: mass, stiffness: stiffness, damping: damping), integrator: .exact,
                                 velocity: [0], target: [100], restSpeed: 5, restDistance: 0.5, threshold: 1, start: 0,
                                 from: [0], commands: [Command(at: 0.5, index: 3, command: .drag(samples: samples))],
                                 horizon: 10, autostarted: true)
        XCTAssertEqual(Array(chain.events.prefix(3)), [AnimatorEvent(t: 0, kind: .start), AnimatorEvent(t: 0.5, kind: .grab, command: 3),
                                                        AnimatorEvent(t: 0.75, kind: .release, command: 3)])
        XCTAssertEqual(chain.events.last?.kind, .completion)
        XCTAssertTrue(chain.isRunning(at: 0.6))

        // Grab: the first sample's value at once, at rest until its time.
        XCTAssertEqual(chain.state(at: 0.5).position, [20])
        XCTAssertEqual(chain.state(at: 0.52).velocity, [0])
        // Linear interpolation, the slope as velocity.
        for (t, value, speed) in [(0.575, 25.0, 200.0), (0.6, 30, -80), (0.625, 28, -80), (0.69, 13.2, -320), (0.73, 11 + 1.0 / 3, 100.0 / 3)] {
            XCTAssertEqual(chain.state(at: t).position[0], value, accuracy: 1e-9, "t=\(t)")
            XCTAssertEqual(chain.state(at: t).velocity[0], speed, accuracy: 1e-9, "t=\(t)")
        }

        // Release: the least-squares slope of (0.65, 26), (0.7, 10), (0.72, 11), (0.75, 12).
        let window = samples.filter { $0.t >= 0.65 }
        let n = Double(window.count), st = window.reduce(0) { $0 + $1.t }, sx = window.reduce(0) { $0 + $1.value[0] }
        let stt = window.reduce(0) { $0 + $1.t * $1.t }, stx = window.reduce(0) { $0 + $1.t * $1.value[0] }
        let releaseVelocity = (n * stx - st * sx) / (n * stt - st * st)
        XCTAssertEqual(chain.state(at: 0.75).position, [12])
        XCTAssertEqual(chain.state(at: 0.75).velocity[0], releaseVelocity, accuracy: 1e-9)
        // Then the spring from there, against the fine RK4.
        var x = 12.0, v = releaseVelocity, t = 0.75
        let settle = chain.settles
        for check in stride(from: 0.76, to: settle, by: 0.01) {
            FineSpring(mass: mass, stiffness: stiffness, damping: damping).advance(&x, &v, goal: 100, by: check - t)
            t = check
            XCTAssertEqual(chain.state(at: check).position[0], x, accuracy: 1e-6 * 100)
        }
        // Rest on the grid anchored at the start (0), exactly at the target.
        XCTAssertEqual(settle * 1000, (settle * 1000).rounded(), accuracy: 1e-6)
        XCTAssertEqual(chain.events.last, AnimatorEvent(t: settle, kind: .completion, position: .end))
        XCTAssertEqual(chain.state(at: settle).position, [100])
        XCTAssertFalse(chain.isRunning(at: settle))
    }

    /// A drag on a settled animator starts it again with no `start` event; a decay released from
    /// a drag decays from the last sample (POP's per-millisecond sum).
    func testDragRestartsASettledAnimatorAndADecayDecaysFromTheRelease() {
        let samples = [Sample(t: 2, value: [40]), Sample(t: 2.05, value: [45]), Sample(t: 2.1, value: [50])]
        let spring = PhysicsChain(model: .spring(mass: 1, stiffness: 300, damping: 35), integrator: .exact, velocity: [0],
                                  target: [10], restSpeed: 5, restDistance: 0.5, threshold: 1, start: 0, from: [0],
                                  commands: [Command(at: 1.9, index: 0, command: .drag(samples: samples))], horizon: 10,
                                  autostarted: true)
        XCTAssertEqual(spring.events.map(\.kind), [.start, .completion, .grab, .release, .completion])
        XCTAssertFalse(spring.isRunning(at: 1.8))
        XCTAssertTrue(spring.isRunning(at: 1.9))
        XCTAssertEqual(spring.state(at: 1.95).position, [40])
        XCTAssertEqual(spring.state(at: 2.1).velocity[0], 100, accuracy: 1e-9)

        let d = 0.998, threshold = 1.0
        let decay = PhysicsChain(model: .decay(deceleration: d), integrator: .exact, velocity: [0], target: nil, restSpeed: 5,
                                 restDistance: 0.5, threshold: threshold, start: 1.9, from: [0],
                                 commands: [Command(at: 1.9, index: 0, command: .drag(samples: samples))], horizon: 10)
        XCTAssertEqual(decay.events.map(\.kind), [.grab, .release, .completion], "started by the drag: no start")
        // v0 = 100 (three samples on a line): stops at ln(5·threshold / 100) / (1000 ln d) after the release.
        let duration = log(5 * threshold / 100) / (1000 * log(d))
        let end = 50 + 100.0 / 1000 * d * (1 - pow(d, 1000 * duration)) / (1 - d)
        XCTAssertEqual(decay.settles, 2.1 + duration, accuracy: 1e-12)
        XCTAssertEqual(decay.finalValue[0], end, accuracy: 1e-9)
        XCTAssertEqual(decay.state(at: 2.1 + 0.5).position[0], 50 + 0.1 * d * (1 - pow(d, 500)) / (1 - d), accuracy: 1e-9)
        XCTAssertEqual(decay.state(at: 9).position[0], end, accuracy: 1e-9)
    }

    // MARK: Settling, stopping, tick grids

    func testRetargetAfterSettlingRestartsFromRest() throws {
        let model = PhysicsModel.spring(mass: 2, stiffness: 400, damping: 60)  // ζ = 1.06
        let plain = PhysicsChain(model: model, integrator: .exact, velocity: [0, 0], target: [50, 20], restSpeed: 5,
                                 restDistance: 0.5, threshold: 1, start: 0.25, from: [0, 0], commands: [], horizon: 10)
        let firstRest = plain.settles
        XCTAssertTrue(firstRest < 3)
        let chain = PhysicsChain(model: model, integrator: .exact, velocity: [0, 0], target: [50, 20], restSpeed: 5,
                                 restDistance: 0.5, threshold: 1, start: 0.25, from: [0, 0],
                                 commands: [Command(at: 3, index: 7, command: .retarget(target: [-10, 80], velocity: nil))],
                                 horizon: 10)
        let secondRest = chain.settles
        XCTAssertEqual(chain.events, [AnimatorEvent(t: 0.25, kind: .start),
                                      AnimatorEvent(t: firstRest, kind: .completion, position: .end),
                                      AnimatorEvent(t: 3, kind: .start, command: 7), AnimatorEvent(t: 3, kind: .retarget, command: 7),
                                      AnimatorEvent(t: secondRest, kind: .completion, position: .end)])
        XCTAssertFalse(chain.isRunning(at: 2.9))
        XCTAssertTrue(chain.isRunning(at: 3))
        XCTAssertEqual(chain.state(at: 3).position, [50, 20])
        XCTAssertEqual(chain.state(at: 3).velocity, [0, 0])
        // From rest: the over-damped closed form y(τ) = e^(−aτ)·(y0·cosh ωτ + a·y0/ω·sinh ωτ).
        let a = 60.0 / 4, omega0 = (400.0 / 2).squareRoot(), w = (a * a - omega0 * omega0).squareRoot()
        for tau in [0.01, 0.1, 0.3] {
            let s = chain.state(at: 3 + tau)
            for (i, (start, goal)) in zip([50.0, 20], [-10.0, 80]).enumerated() {
                let y0 = start - goal
                XCTAssertEqual(s.position[i], goal + exp(-a * tau) * (y0 * cosh(w * tau) + a * y0 / w * sinh(w * tau)), accuracy: 1e-9)
            }
        }
        // Rest on the grid anchored at the animation's start, then the target exactly.
        XCTAssertEqual((secondRest - 0.25) * 1000, ((secondRest - 0.25) * 1000).rounded(), accuracy: 1e-6)
        XCTAssertEqual(chain.state(at: secondRest).position, [-10, 80])
        XCTAssertEqual(chain.finalValue, [-10, 80])
        XCTAssertEqual(chain.state(at: 100).position, [-10, 80])
    }

    func testStopHoldsTheValueWithoutCompletion() {
        let model = PhysicsModel.spring(mass: 1, stiffness: 120, damping: 4)
        func chain(_ commands: [Command]) -> PhysicsChain {
            PhysicsChain(model: model, integrator: .exact, velocity: [500], target: [100], restSpeed: 5, restDistance: 0.5,
                         threshold: 1, start: 0, from: [0], commands: commands, horizon: 10)
        }
        let stopped = chain([Command(at: 0.3, index: 2, command: .stop)])
        let moving = chain([]).state(at: 0.3)
        XCTAssertEqual(stopped.events, [AnimatorEvent(t: 0, kind: .start),
                                        AnimatorEvent(t: 0.3, kind: .stop, command: 2, withoutFinishing: true)])
        XCTAssertEqual(stopped.settles, 0.3)
        XCTAssertEqual(stopped.state(at: 0.3).position, moving.position)
        XCTAssertEqual(stopped.state(at: 5).position, moving.position)
        XCTAssertEqual(stopped.state(at: 5).velocity, [0])
        XCTAssertTrue(stopped.isRunning(at: 0.29))
        XCTAssertFalse(stopped.isRunning(at: 0.3))
        XCTAssertEqual(stopped.finalValue, [100], "the target, as the model value")

        // A stop during a drag holds the finger's value; no release follows.
        let samples = [Sample(t: 0.5, value: [0]), Sample(t: 1, value: [50])]
        let dragged = chain([Command(at: 0.5, index: 0, command: .drag(samples: samples)), Command(at: 0.8, index: 1, command: .stop)])
        XCTAssertEqual(dragged.events.map(\.kind), [.start, .grab, .stop])
        XCTAssertEqual(dragged.state(at: 0.9).position[0], 30, accuracy: 1e-12)
        XCTAssertEqual(dragged.settles, 0.8)

        // Before the start: inactive at `from`.
        let late = PhysicsChain(model: model, integrator: .exact, velocity: [0], target: [1], restSpeed: 5, restDistance: 0.5,
                                threshold: 1, start: 2, from: [7], commands: [], horizon: 10)
        XCTAssertFalse(late.isRunning(at: 1))
        XCTAssertEqual(late.state(at: 1).position, [7])
    }

    /// A retarget of a tick integrator changes the goal of the ticks that follow, on the same
    /// tick grid anchored at the start; a command at a tick's time comes before that tick.
    /// Expected values: the objc.io tick and POP's solver loop written out here.
    func testTickRetargetKeepsTheTickGrid() {
        let start = 0.1, rate = 60.0, dt = 1 / rate
        let k = 300.0, c = 20.0
        // Retarget between ticks 10 and 11, then exactly at tick 25.
        let between = start + 10.5 / rate, onTick = start + 25 / rate
        let commands = [Command(at: between, index: 0, command: .retarget(target: [-200], velocity: nil)),
                        Command(at: onTick, index: 1, command: .retarget(target: [50], velocity: nil))]
        let goals: (Int) -> Double = { n in n <= 10 ? 300 : n < 25 ? -200 : 50 }

        let euler = PhysicsChain(model: .spring(mass: 1, stiffness: k, damping: c), integrator: .euler(tickRate: rate),
                                 velocity: [0], target: [300], restSpeed: 0.05, restDistance: 1, threshold: 1, start: start,
                                 from: [0], commands: commands, horizon: 10)
        var x = 0.0, v = 0.0, finished = false
        for n in 1...80 {
            if !finished {
                let force = k * (goals(n) - x) - c * v
                v += force * dt
                x += v * dt
                // objc.io's rest test: snap to the target, finished.
                if abs(v) < 0.05 && abs(goals(n) - x) < 1 {
                    x = goals(n)
                    finished = true
                }
            }
            let tickTime = start + Double(n) / rate
            XCTAssertEqual(euler.state(at: tickTime).position[0], x, accuracy: 1e-9, "euler tick \(n)")
            XCTAssertEqual(euler.state(at: tickTime + 0.5 / rate).position[0], x, accuracy: 1e-9, "between ticks \(n)")
        }

        // POP: 1 ms RK4 steps per tick, the leftover time carried across the retargets.
        let rk4 = PhysicsChain(model: .spring(mass: 1, stiffness: k, damping: c), integrator: .rk4(tickRate: rate),
                               velocity: [0], target: [300], restSpeed: 1e-9, restDistance: 1e-9, threshold: 1, start: start,
                               from: [0], commands: commands, horizon: 10)
        let step = Double(Float(0.001))
        func derivative(_ x: Double, _ v: Double, _ goal: Double) -> (Double, Double) { (v, -k * (x - goal) - c * v) }
        x = 0
        v = 0
        var leftover = 0.0
        for n in 1...80 {
            leftover += dt
            var previous = (x, v), current = (x, v)
            while leftover >= step {
                previous = current
                let (p, u) = current, goal = goals(n)
                let k1 = derivative(p, u, goal)
                let k2 = derivative(p + k1.0 * step / 2, u + k1.1 * step / 2, goal)
                let k3 = derivative(p + k2.0 * step / 2, u + k2.1 * step / 2, goal)
                let k4 = derivative(p + k3.0 * step, u + k3.1 * step, goal)
                current = (p + (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0) * step / 6, u + (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1) * step / 6)
                leftover -= step
            }
            let alpha = leftover / step
            x = current.0 * alpha + previous.0 * (1 - alpha)
            v = current.1 * alpha + previous.1 * (1 - alpha)
            XCTAssertEqual(rk4.state(at: start + Double(n) / rate).position[0], x, accuracy: 1e-9, "rk4 tick \(n)")
        }
        XCTAssertEqual(euler.events.map(\.kind), [.start, .retarget, .retarget, .completion])
        XCTAssertEqual(euler.finalValue, [50])
    }

    func testEffectiveStartAndTheStartEvent() {
        let drag = PhysicsChain.Command.drag(samples: [Sample(t: 0.5, value: [1])])
        let retarget = PhysicsChain.Command.retarget(target: [3], velocity: nil)
        XCTAssertEqual(PhysicsChain.effectiveStart(autostart: 0.2, commands: [Command(at: 0.5, index: 0, command: retarget)]), 0.2)
        XCTAssertEqual(PhysicsChain.effectiveStart(autostart: nil, commands: [Command(at: 0.4, index: 0, command: .stop),
                                                                             Command(at: 0.5, index: 1, command: retarget)]), 0.5)
        XCTAssertEqual(PhysicsChain.effectiveStart(autostart: nil, commands: [Command(at: 0.5, index: 0, command: drag)]), 0.5)
        XCTAssertNil(PhysicsChain.effectiveStart(autostart: nil, commands: []))
        // During an autostart's delay: a retarget waits for it, a drag starts at once, a stop cancels it.
        XCTAssertEqual(PhysicsChain.effectiveStart(autostart: 1, commands: [Command(at: 0.5, index: 0, command: retarget)]), 1)
        XCTAssertEqual(PhysicsChain.effectiveStart(autostart: 1, commands: [Command(at: 0.5, index: 0, command: drag)]), 0.5)
        XCTAssertNil(PhysicsChain.effectiveStart(autostart: 1, commands: [Command(at: 0.5, index: 0, command: .stop)]))

        // Not autostarted: the first retarget starts it (start and retarget carry its index) with
        // the animation's own velocity; autostarted at the same instant: start without a command.
        func chain(autostarted: Bool?) -> PhysicsChain {
            PhysicsChain(model: .spring(mass: 1, stiffness: 100, damping: 10), integrator: .exact, velocity: [40], target: [1],
                         restSpeed: 5, restDistance: 0.5, threshold: 1, start: 0.5, from: [0],
                         commands: [Command(at: 0.5, index: 4, command: retarget)], horizon: 10, autostarted: autostarted)
        }
        XCTAssertEqual(Array(chain(autostarted: nil).events.prefix(2)),
                       [AnimatorEvent(t: 0.5, kind: .start, command: 4), AnimatorEvent(t: 0.5, kind: .retarget, command: 4)])
        XCTAssertEqual(Array(chain(autostarted: true).events.prefix(2)),
                       [AnimatorEvent(t: 0.5, kind: .start), AnimatorEvent(t: 0.5, kind: .retarget, command: 4)])
        XCTAssertEqual(chain(autostarted: nil).state(at: 0.5).velocity, [40])
        XCTAssertEqual(chain(autostarted: nil).finalValue, [3])

        // A retarget during the delay changes the target the autostart moves toward.
        let delayed = PhysicsChain(model: .spring(mass: 1, stiffness: 100, damping: 20), integrator: .exact, velocity: [0],
                                   target: [1], restSpeed: 5, restDistance: 0.5, threshold: 1, start: 1, from: [0],
                                   commands: [Command(at: 0.5, index: 0, command: retarget)], horizon: 10)
        XCTAssertEqual(delayed.events.map(\.kind), [.retarget, .start, .completion])
        XCTAssertFalse(delayed.isRunning(at: 0.9))
        XCTAssertEqual(delayed.state(at: delayed.settles).position, [3])
    }

    func testNothingHappensAfterTheHorizon() {
        // Undamped: it never rests.
        let chain = PhysicsChain(model: .spring(mass: 1, stiffness: 100, damping: 0), integrator: .euler(tickRate: 1e-300),
                                 velocity: [0], target: [1e15], restSpeed: 5, restDistance: 0.5, threshold: 1, start: 0,
                                 from: [0], commands: [Command(at: 20, index: 0, command: .stop)], horizon: 10)
        XCTAssertEqual(chain.settles, .infinity)
        XCTAssertEqual(chain.events, [AnimatorEvent(t: 0, kind: .start)])
        XCTAssertTrue(chain.isRunning(at: 30))
        let exact = PhysicsChain(model: .spring(mass: 1, stiffness: 100, damping: 0), integrator: .exact, velocity: [0],
                                 target: [1e15], restSpeed: 5, restDistance: 0.5, threshold: 1, start: 0, from: [0],
                                 commands: [], horizon: 3600)
        XCTAssertEqual(exact.settles, .infinity)
    }

    // MARK: The pane (objc.io "Interactive Animations")

    /// An attachment (3.5 Hz, damping ratio 0.4) on a 2-D centre, dragged upward and released at
    /// 800 pt/s toward "open", then retargeted to "closed" 0.2 s after the release: the velocity
    /// does not jump at the retarget, the whole story agrees with the fine RK4, and it settles at
    /// "closed" exactly.
    func testPaneDraggedOpenThenRetargetedClosed() throws {
        let omega = 2 * Double.pi * 3.5, stiffness = omega * omega, damping = 2 * 0.4 * omega
        let open = [160.0, 100], closed = [160.0, 500]
        // The finger: up at 800 pt/s (screen y grows downward).
        let samples = stride(from: 0.0, through: 0.2, by: 0.025).map { Sample(t: $0, value: [160, 500 - 800 * $0]) }
        let commands = [Command(at: 0, index: 0, command: .drag(samples: samples)),
                        Command(at: 0.2, index: 1, command: .retarget(target: open, velocity: nil)),
                        Command(at: 0.4, index: 2, command: .retarget(target: closed, velocity: nil))]
        func pane(_ commands: [Command]) -> PhysicsChain {
            PhysicsChain(model: .spring(mass: 1, stiffness: stiffness, damping: damping), integrator: .exact, velocity: [0, 0],
                         target: closed, restSpeed: 5, restDistance: 0.5, threshold: 1, start: 0, from: closed,
                         commands: commands, horizon: 10)
        }
        let chain = pane(commands)
        let settle = chain.settles
        XCTAssertEqual(chain.events, [AnimatorEvent(t: 0, kind: .grab, command: 0), AnimatorEvent(t: 0.2, kind: .retarget, command: 1),
                                      AnimatorEvent(t: 0.2, kind: .release, command: 0), AnimatorEvent(t: 0.4, kind: .retarget, command: 2),
                                      AnimatorEvent(t: settle, kind: .completion, position: .end)])
        let release = chain.state(at: 0.2)
        XCTAssertEqual(release.position[1], 340, accuracy: 1e-9)
        XCTAssertEqual(release.velocity[0], 0, accuracy: 1e-9)
        XCTAssertEqual(release.velocity[1], -800, accuracy: 1e-9)

        // No velocity jump at the retarget: still heading for "open" just before it.
        let left = pane(Array(commands.prefix(2))).state(at: 0.4), right = chain.state(at: 0.4)
        for i in 0..<2 {
            XCTAssertEqual(right.velocity[i], left.velocity[i], accuracy: 1e-9 * max(1, abs(left.velocity[i])))
            XCTAssertEqual(right.position[i], left.position[i], accuracy: 1e-9)
        }

        // The story against the fine RK4 from the release.
        var x = release.position, v = release.velocity, t = 0.2
        let spring = FineSpring(mass: 1, stiffness: stiffness, damping: damping)
        for check in (Array(stride(from: 0.21, to: settle, by: 0.01)) + [0.4]).sorted() {
            let goal = t < 0.4 ? open : closed
            for i in 0..<2 { spring.advance(&x[i], &v[i], goal: goal[i], by: check - t) }
            t = check
            for i in 0..<2 { XCTAssertEqual(chain.state(at: check).position[i], x[i], accuracy: 1e-6 * 400, "t=\(check)") }
        }

        // Settles at "closed" exactly, on the millisecond grid.
        XCTAssertTrue(settle.isFinite)
        XCTAssertEqual(settle * 1000, (settle * 1000).rounded(), accuracy: 1e-6)
        XCTAssertEqual(chain.state(at: settle).position, closed)
        XCTAssertEqual(chain.state(at: settle).velocity, [0, 0])
        XCTAssertEqual(chain.finalValue, closed)
        XCTAssertFalse(chain.isRunning(at: settle))
        XCTAssertTrue(chain.isRunning(at: settle - 0.001))
    }
}

/// m·x'' = −k·(x − goal) − c·x' by classical RK4 at steps of at most 10 µs, landing exactly on the
/// end of each advance: the reference the closed forms are checked against.
struct FineSpring {
    let mass: Double, stiffness: Double, damping: Double

    func advance(_ x: inout Double, _ v: inout Double, goal: Double, by duration: Double) {
        guard duration > 0 else { return }
        let count = (duration / 1e-5).rounded(.up), h = duration / count
        func acceleration(_ p: Double, _ u: Double) -> Double { (-stiffness * (p - goal) - damping * u) / mass }
        for _ in 0..<Int(count) {
            let k1x = v, k1v = acceleration(x, v)
            let k2x = v + k1v * h / 2, k2v = acceleration(x + k1x * h / 2, k2x)
            let k3x = v + k2v * h / 2, k3v = acceleration(x + k2x * h / 2, k3x)
            let k4x = v + k3v * h, k4v = acceleration(x + k3x * h, k4x)
            x += (k1x + 2 * k2x + 2 * k3x + k4x) * h / 6
            v += (k1v + 2 * k2v + 2 * k3v + k4v) * h / 6
        }
    }
}
