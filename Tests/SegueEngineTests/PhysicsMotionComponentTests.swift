@testable import SegueEngine
import XCTest

/// Reading a physics motion one component at a time (`PhysicsMotion.position(at:component:)`, as
/// compare mode does) and stepping it per component (`TickStepper`): the same numbers, bit for
/// bit, as the whole state.
final class PhysicsMotionComponentTests: XCTestCase {
    static let spring = PhysicsModel.spring(mass: 1.5, stiffness: 170, damping: 15)
    static let tickIntegrators: [PhysicsIntegrator] = [.euler(tickRate: 60), .rk4(tickRate: 60), .rebound(tickRate: 60),
                                                       .box2d(tickRate: 60, resistance: 2)]

    func motion(_ model: PhysicsModel, _ integrator: PhysicsIntegrator, start: [Double], velocity: [Double],
                target: [Double]?) -> PhysicsMotion {
        PhysicsMotion(model: model, integrator: integrator, start: start, velocity: velocity, target: target,
                      restSpeed: 0.01, restDistance: 0.01, threshold: 1, horizon: 10)
    }

    /// Every model and integrator, two components: each component's position alone is the whole
    /// state's, before, across and after the rest.
    func testAComponentReadsAsTheWholeState() {
        var motions = ([PhysicsIntegrator.exact] + Self.tickIntegrators).map {
            motion(Self.spring, $0, start: [0, 40], velocity: [300, -80], target: [100, -20])
        }
        motions += [
            motion(.decay(deceleration: 0.998), .exact, start: [0, 40], velocity: [900, -300], target: nil),
            motion(.fling(Fling()), .exact, start: [0, 40], velocity: [900, -300], target: nil),
            motion(.scrollDecay(ScrollDecay()), .exact, start: [0, 40], velocity: [900, -300], target: nil),
            motion(.motionSpring(MotionSpring(mass: 1, stiffness: 170, damping: 15)), .exact, start: [0, 40],
                   velocity: [300, -80], target: [100, -20]),
        ]
        for motion in motions {
            XCTAssertTrue(motion.settleTime.isFinite, "\(motion.model) \(motion.integrator)")
            for n in 0...400 {
                let tau = Double(n) * 0.0073
                let whole = motion.state(at: tau).position
                for i in whole.indices {
                    XCTAssertEqual(motion.position(at: tau, component: i).bitPattern, whole[i].bitPattern,
                                   "\(motion.model) \(motion.integrator) τ=\(tau) component \(i)")
                }
            }
        }
    }

    /// The components of a tick integrator do not interact: until either rests, each moves as a
    /// motion of that component alone.
    func testTickIntegratorsStepEachComponentAlone() {
        for integrator in Self.tickIntegrators {
            let both = motion(Self.spring, integrator, start: [0, 40], velocity: [300, -80], target: [100, -20])
            let alone = [motion(Self.spring, integrator, start: [0], velocity: [300], target: [100]),
                         motion(Self.spring, integrator, start: [40], velocity: [-80], target: [-20])]
            let end = min(both.settleTime, alone[0].settleTime, alone[1].settleTime)
            XCTAssertGreaterThan(end, 0.5, "\(integrator)")
            for tau in both.tickTimes where tau < end {
                let state = both.state(at: tau)
                for i in 0..<2 {
                    let single = alone[i].state(at: tau)
                    XCTAssertEqual(state.position[i].bitPattern, single.position[0].bitPattern, "\(integrator) τ=\(tau)")
                    XCTAssertEqual(state.velocity[i].bitPattern, single.velocity[0].bitPattern, "\(integrator) τ=\(tau)")
                }
            }
        }
    }
}
