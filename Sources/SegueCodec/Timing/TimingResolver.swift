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

    func resolve(_ spec: TimingSpec, duration: Double?, warnings: inout [RequestWarning]) throws(Problem) -> Resolved {
        guard case .spring(let spring) = spec else {
            return Resolved(curve: spec.fractionCurve ?? .cubicBezier(.linear), ownDuration: nil)
        }
        if spring.takesDuration {
            guard let duration else {
                throw Problem.invalid("the UIKit spring (dampingRatio) needs the animation's `duration`", at: durationAt)
            }
            let solved = spring.resolve(duration: duration, warnings: &warnings, at: timingAt, durationAt: durationAt)
            try refuseNonFinite(solved, spring, duration: duration)
            return Resolved(curve: .durationSpring(solved, duration: duration), ownDuration: duration)
        }
        let resolved = spring.resolve(duration: nil, warnings: &warnings, at: timingAt, durationAt: durationAt)
        try refuseNonFinite(resolved, spring, duration: nil)
        return Resolved(curve: .spring(resolved), ownDuration: resolved.settlingDuration)
    }

    /// A spring whose parameters overflow somewhere no stable form exists (docs/rules.md
    /// "Conventions": a non-finite result is a 422). The pointer names the given member of the
    /// most extreme magnitude (the one furthest from 1 in binary exponent), the likeliest culprit.
    func refuseNonFinite(_ resolved: Spring, _ spec: SpringSpec, duration: Double?) throws(Problem) {
        guard let quantity = resolved.nonFiniteQuantity else { return }
        var members = spec.members.map { (timingAt / $0.name, $0.value) }
        if let duration { members.append((durationAt, duration)) }
        let culprit = Self.culprit(members) ?? timingAt
        throw Problem.invalid("these spring parameters give a \(quantity) that is not a finite number; bring "
                              + "\(culprit.display) nearer to 1", at: culprit)
    }

    /// The member of the most extreme magnitude (ties: the first), the likeliest cause of an overflow.
    static func culprit(_ members: [(JSONPointer, Double)]) -> JSONPointer? {
        var best: (JSONPointer, Int)?
        for (pointer, value) in members where best == nil || extremity(value) > best!.1 { best = (pointer, extremity(value)) }
        return best?.0
    }

    /// |binary exponent|, zero counting as ordinary.
    static func extremity(_ value: Double) -> Int {
        value == 0 || !value.isFinite ? 0 : abs(Int(value.exponent))
    }
}
