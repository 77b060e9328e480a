import SegueEngine
import SegueJSON

/// The `dynamics` of the models other engines define (docs/springs.md "Motion
/// springs", "Android fling", "Scroll deceleration"): each member checked against its range, a
/// 422 naming it otherwise.
extension PhysicsDecoder {
    /// `motionSpring`: stiffness > 0, damping ≥ 0, mass > 0; duration > 0 (s, clamped to
    /// [0.01, 10] with a warning); bounce in [−1, 1]; visualDuration > 0 (s); restSpeed > 0,
    /// restDistance > 0. Motion's precedence picks the spring (`MotionSpring`); members it
    /// ignores are warnings.
    static func motionSpring(_ dynamics: inout ObjectReader, warnings: inout [RequestWarning]) throws(Problem) -> MotionSpring {
        let d = dynamics.pointer
        let mass = try dynamics.number("mass"), stiffness = try dynamics.number("stiffness")
        let damping = try dynamics.number("damping")
        let duration = try dynamics.number("duration"), bounce = try dynamics.number("bounce")
        let visualDuration = try dynamics.number("visualDuration")
        let restSpeed = try dynamics.number("restSpeed"), restDistance = try dynamics.number("restDistance")
        if let mass { try Check.positive(mass, d / "mass") }
        if let stiffness { try Check.positive(stiffness, d / "stiffness") }
        if let damping { try Check.nonNegative(damping, d / "damping") }
        if let duration { try Check.positive(duration, d / "duration") }
        if let bounce { try Check.within(bounce, -1...1, d / "bounce") }
        if let visualDuration { try Check.positive(visualDuration, d / "visualDuration") }
        if let restSpeed { try Check.positive(restSpeed, d / "restSpeed") }
        if let restDistance { try Check.positive(restDistance, d / "restDistance") }

        let timed = [("duration", duration), ("bounce", bounce), ("visualDuration", visualDuration)].filter { $0.1 != nil }
        if mass != nil || stiffness != nil || damping != nil {
            for (name, _) in timed {
                warnings.append(RequestWarning(pointer: d / name, detail: "stiffness, damping or mass make a physics spring: Motion "
                                        + "ignores `\(name)`"))
            }
            let m = mass ?? PhysicsDefaults.mass, k = stiffness ?? PhysicsDefaults.stiffness, c = damping ?? PhysicsDefaults.damping
            try finite(mass: m, stiffness: k, damping: c, [("mass", m), ("stiffness", k), ("damping", c)], at: d)
            return MotionSpring(mass: m, stiffness: k, damping: c, restSpeed: restSpeed, restDistance: restDistance)
        }
        guard duration != nil || bounce != nil else {
            if visualDuration != nil {
                warnings.append(RequestWarning(pointer: d / "visualDuration", detail: "Motion reads `visualDuration` only with "
                                        + "`bounce` or `duration`: ignored, the default physics spring runs"))
            }
            return MotionSpring(mass: PhysicsDefaults.mass, stiffness: PhysicsDefaults.stiffness, damping: PhysicsDefaults.damping,
                                restSpeed: restSpeed, restDistance: restDistance)
        }
        if visualDuration == nil, let duration, !MotionSpring.durationRange.contains(duration) {
            warnings.append(RequestWarning(pointer: d / "duration", detail: "Motion clamps a spring's duration to [0.01, 10] s: "
                                    + "\(duration) s runs as \(min(max(duration, 0.01), 10)) s"))
        }
        let spring = MotionSpring.timeDefined(duration: duration, bounce: bounce, visualDuration: visualDuration,
                                              restSpeed: restSpeed, restDistance: restDistance)
        let o = spring.oscillator
        try finite(mass: o.mass, stiffness: o.stiffness, damping: o.damping, timed.compactMap { name, value in value.map { (name, $0) } },
                   at: d)
        return spring
    }

    /// `fling`: friction > 0 (default 1), minimumVisibleChange > 0 (default 1), optional `min`
    /// ≤ `max`.
    static func fling(_ dynamics: inout ObjectReader) throws(Problem) -> Fling {
        let d = dynamics.pointer
        let friction = try dynamics.number("friction") ?? Fling.defaultFriction
        let change = try dynamics.number("minimumVisibleChange") ?? Fling.defaultMinimumVisibleChange
        try Check.positive(friction, d / "friction")
        try Check.positive(change, d / "minimumVisibleChange")
        let low = try dynamics.number("min"), high = try dynamics.number("max")
        if let low, let high, low > high {
            throw Problem.invalid("`max` must be ≥ `min` (\(low)), not \(high)", at: d / "max")
        }
        // The deceleration f = −4.2 · friction must itself be a number.
        guard (4.2 * friction).isFinite else {
            throw Problem.invalid("`friction` is too large to give a finite deceleration", at: d / "friction")
        }
        return Fling(friction: friction, minimumVisibleChange: change, min: low, max: high)
    }

    /// `scrollDecay`: decelerationRate `"normal"` (0.998, default), `"fast"` (0.99) or a number in
    /// (0, 1), per millisecond; stopSpeed > 0 (default 5 units per second).
    static func scrollDecay(_ dynamics: inout ObjectReader) throws(Problem) -> ScrollDecay {
        let d = dynamics.pointer
        let rate: Double
        switch dynamics.value("decelerationRate") {
        case nil, .string("normal"): rate = ScrollDecay.normal
        case .string("fast"): rate = ScrollDecay.fast
        case .string(let other):
            throw Problem.invalid("`decelerationRate` is normal, fast or a number in (0, 1), not \"\(other.prefix(50))\"",
                                  at: d / "decelerationRate")
        case .number(let number):
            guard number > 0 && number < 1 else {
                throw Problem.invalid("`decelerationRate` must be in (0, 1), not \(number)", at: d / "decelerationRate")
            }
            rate = number
        case let other?:
            throw Problem.wrongType(at: d / "decelerationRate", expected: "a number or a string", found: other)
        }
        let stopSpeed = try dynamics.number("stopSpeed") ?? ScrollDecay.defaultStopSpeed
        try Check.positive(stopSpeed, d / "stopSpeed")
        return ScrollDecay(rate: rate, stopSpeed: stopSpeed)
    }
}
