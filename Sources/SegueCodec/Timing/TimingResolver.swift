import SegueEngine
import SegueJSON

/// Turns a decoded `timing` into the engine curve it denotes, for both routes and for a
/// `continue` (docs/rules.md "Timing curves", rules 7 and 15):
/// - time-fraction curves (Béziers, steps, linear()) have no duration of their own;
/// - UIKit's dampingRatio spring is solved for the duration it is given, and requires one;
/// - every other spring set runs for its settling duration.
/// UIKit's clamps become warnings (rule 12).
struct TimingResolver {
    /// The engine curve and, for springs, the duration it runs for (nil for a fraction curve).
    struct Resolved {
        var curve: TimingCurve
        var ownDuration: Double?
    }

    /// Where the timing and the duration were given, for problems and warnings.
    var timingAt: JSONPointer
    var durationAt: JSONPointer

    func resolve(_ spec: TimingSpec, duration: Double?, warnings: inout [Warning]) throws(Problem) -> Resolved {
        guard case .spring(let spring) = spec else {
            return Resolved(curve: spec.fractionCurve ?? .cubicBezier(.linear), ownDuration: nil)
        }
        if spring.takesDuration {
            guard let duration else {
                throw Problem.invalid("the UIKit spring (dampingRatio) needs the animation's `duration`", at: durationAt)
            }
            let solved = spring.resolve(duration: duration, warnings: &warnings, at: timingAt, durationAt: durationAt)
            return Resolved(curve: .durationSpring(solved, duration: duration), ownDuration: duration)
        }
        let resolved = spring.resolve(duration: nil, warnings: &warnings, at: timingAt, durationAt: durationAt)
        return Resolved(curve: .spring(resolved), ownDuration: resolved.settlingDuration)
    }
}
