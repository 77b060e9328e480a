/// The physics models' parametrisations and defaults (docs/rules.md rules 20–21, docs/springs.md
/// "Physics models"), beside `Spring`'s parameter sets: `spring`, `attachment`, `snap` and
/// `popSpring` arrive at the engine as `PhysicsModel.spring(mass:stiffness:damping:)`; `decay`,
/// `motionSpring`, `fling` and `scrollDecay` as their own cases, whose tunables `MotionSpring`,
/// `Fling` and `ScrollDecay` document.
///
/// Ranges (checked by the caller, 422 outside): mass > 0, stiffness > 0, damping ≥ 0,
/// frequency > 0, damping ratio ≥ 0, bounciness ≥ 0, speed ≥ 0, 0 < deceleration < 1,
/// 0 < tickRate ≤ 1000, threshold > 0, restSpeed > 0, restDistance > 0, resistance ≥ 0.
public enum PhysicsDefaults {
    /// `spring`: mass, unitless (> 0).
    public static let mass = 1.0
    /// `spring`: stiffness k, per second squared per unit mass (> 0).
    public static let stiffness = 100.0
    /// `spring`: damping c, per second per unit mass (≥ 0).
    public static let damping = 10.0
    /// `attachment`: damping ratio ζ when not given (UIAttachmentBehavior's default is undamped).
    public static let attachmentDampingRatio = 0.0
    /// `snap`: UISnapBehavior's fixed frequency, Hz.
    public static let snapFrequency = 3.0
    /// `snap`: damping ratio when not given (UISnapBehavior's `damping` default, 0.5).
    public static let snapDampingRatio = 0.5
    /// `popSpring`: POPSpringAnimation's `springBounciness` default (0…20 in POP's UI).
    public static let popBounciness = 4.0
    /// `popSpring`: POPSpringAnimation's `springSpeed` default (0…20 in POP's UI).
    public static let popSpeed = 12.0
    /// `decay`: POPDecayAnimation's deceleration per millisecond.
    public static let deceleration = 0.998
    /// `euler` and `rk4`: display ticks per second.
    public static let tickRate = 60.0
    /// POP's per-property threshold for alpha (and colours): a hundredth of the unit range.
    public static let alphaThreshold = 0.01
    /// POP's per-property threshold for geometry and custom channels, in channel units.
    public static let threshold = 1.0
    /// The objc.io pane example's rest test for `euler`: speed below 0.05 per second…
    public static let eulerRestSpeed = 0.05
    /// …and distance below 1 unit.
    public static let eulerRestDistance = 1.0
    /// rebound-js's rest test for `rebound`: speed below 0.001 units per second…
    public static let reboundRestSpeed = 0.001
    /// …and distance at most 0.001 units.
    public static let reboundRestDistance = 0.001
    /// `box2d`: Box2D's linear damping (UIDynamicItemBehavior's `resistance`), per second, ≥ 0.
    public static let resistance = 0.0

    /// The threshold of a channel when not given: alpha's, else geometry's.
    public static func threshold(forChannel name: String) -> Double {
        name == "alpha" ? alphaThreshold : threshold
    }

    /// The rest test of an integrator for a threshold: `euler` the objc.io example's fixed
    /// values, `rebound` rebound-js's; `exact`, `rk4` and `box2d` POP's speed < 5 · threshold per
    /// second and distance < threshold / 2 (rule 21).
    public static func rest(threshold: Double, integrator: PhysicsIntegrator) -> (speed: Double, distance: Double) {
        switch integrator {
        case .euler: (eulerRestSpeed, eulerRestDistance)
        case .rebound: (reboundRestSpeed, reboundRestDistance)
        case .exact, .rk4, .box2d: (5 * threshold, threshold / 2)
        }
    }
}

extension PhysicsModel {
    /// UIAttachmentBehavior with a `frequency` in Hz and a damping ratio ζ: per unit mass
    /// k = (2πf)², c = 2ζ · 2πf (rule 20).
    public static func attachment(frequency: Double, dampingRatio: Double) -> PhysicsModel {
        let omega = 2 * Double.pi * frequency
        return .spring(mass: 1, stiffness: omega * omega, damping: 2 * dampingRatio * omega)
    }

    /// UISnapBehavior: an attachment at `PhysicsDefaults.snapFrequency` with damping ratio
    /// `damping` (rule 20).
    public static func snap(dampingRatio: Double) -> PhysicsModel {
        attachment(frequency: PhysicsDefaults.snapFrequency, dampingRatio: dampingRatio)
    }

    /// POPSpringAnimation's bounciness and speed through `Spring.pop` (docs/springs.md "POP and Origami springs");
    /// nil when they give no physical spring (stiffness ≤ 0 or damping < 0).
    public static func popSpring(bounciness: Double, speed: Double) -> PhysicsModel? {
        let spring = Spring.pop(bounciness: bounciness, speed: speed, initialVelocity: 0)
        guard spring.stiffness > 0, spring.damping >= 0 else { return nil }
        return .spring(mass: 1, stiffness: spring.stiffness, damping: spring.damping)
    }
}
