import SegueEngine
import SegueJSON

/// Decodes a `timing` member — a CSS easing string or an object with a `type` (docs/rules.md "Timing curves").
public enum TimingDecoder {
    public static func decode(_ value: JSONValue, at pointer: JSONPointer) throws(Problem) -> TimingSpec {
        switch value {
        case .string(let text):
            return try CSSEasing.parse(text, at: pointer)
        case .object:
            var object = try ObjectReader(value, at: pointer)
            guard let type = try object.string("type") else {
                throw Problem.invalid("a timing object needs a `type`", at: pointer / "type")
            }
            let spec: TimingSpec
            switch type {
            case "linear", "ease", "easeIn", "easeOut", "easeInOut":
                spec = .named(TimingSpec.NamedCurve(rawValue: type)!)
            case "cubicBezier":
                spec = try cubicBezier(&object)
            case "steps":
                spec = try steps(&object)
            case "piecewiseLinear":
                spec = try piecewiseLinear(&object)
            case "spring":
                spec = .spring(try spring(&object))
            default:
                throw Problem.invalid("unknown timing type `\(type.prefix(100))`; expected linear, ease, easeIn, easeOut, "
                                      + "easeInOut, cubicBezier, steps, piecewiseLinear or spring", at: pointer / "type")
            }
            try object.rejectUnknown()
            return spec
        default:
            throw Problem.wrongType(at: pointer, expected: "a CSS easing string or a timing object", found: value)
        }
    }

    static func cubicBezier(_ object: inout ObjectReader) throws(Problem) -> TimingSpec {
        let p = object.pointer
        guard let first = object.value("p1") else { throw Problem.invalid("`p1` is required", at: p / "p1") }
        guard let second = object.value("p2") else { throw Problem.invalid("`p2` is required", at: p / "p2") }
        let (x1, y1) = try Check.pair(first, p / "p1")
        let (x2, y2) = try Check.pair(second, p / "p2")
        try Check.within(x1, 0...1, p / "p1" / 0)
        try Check.within(x2, 0...1, p / "p2" / 0)
        return .cubicBezier(CubicBezier(x1: x1, y1: y1, x2: x2, y2: y2))
    }

    static func steps(_ object: inout ObjectReader) throws(Problem) -> TimingSpec {
        let p = object.pointer
        let count = try Check.integer(try object.requiredNumber("count", "for steps"), 1...1_000_000_000, p / "count")
        var position = StepPosition.jumpEnd
        if let name = try object.string("position") {
            guard let parsed = StepPosition(rawValue: name) else {
                throw Problem.invalid("unknown step position `\(name.prefix(100))`; expected jumpStart, jumpEnd, jumpNone, "
                                      + "jumpBoth, start or end", at: p / "position")
            }
            position = parsed
        }
        guard position != .jumpNone || count >= 2 else {
            throw Problem.invalid("jumpNone needs a count of at least 2", at: p / "count")
        }
        return .steps(Steps(count: count, position: position))
    }

    /// Points `[[input, output], …]`; inputs are repaired exactly as CSS repairs linear() stops
    /// (each input is at least the largest before it).
    static func piecewiseLinear(_ object: inout ObjectReader) throws(Problem) -> TimingSpec {
        let p = object.pointer / "points"
        guard let points = try object.array("points") else { throw Problem.invalid("`points` is required", at: p) }
        guard points.count >= 2 else { throw Problem.invalid("`points` needs at least two points", at: p) }
        var stops: [PiecewiseLinear.Stop] = []
        stops.reserveCapacity(points.count)
        for (i, point) in points.enumerated() {
            let (input, output) = try Check.pair(point, p / i)
            stops.append(PiecewiseLinear.Stop(output: output, input: input, secondInput: nil))
        }
        guard let curve = PiecewiseLinear(stops: stops) else { throw Problem.invalid("`points` needs at least two points", at: p) }
        return .piecewiseLinear(curve)
    }

    // MARK: Springs

    /// Members that identify one parameter set on their own.
    private static let exclusiveMembers: [(members: [String], set: String)] = [
        (["mass", "damping", "allowsOverdamping"], "physical"),
        (["response"], "response"),
        (["perceptualDuration", "bounce"], "perceptual"),
        (["bounciness", "speed"], "POP"),
        (["tension", "friction"], "Origami"),
    ]

    /// Finds the one parameter set the members describe (docs/rules.md "Spring parameter sets"). Rules:
    /// - members of two exclusive groups (physical, response, perceptual, POP, Origami) → 422;
    /// - `stiffness` + `dampingRatio` is the Android set, `dampingRatio` alone the UIKit set,
    ///   `stiffness` alone the physical set;
    /// - omitted members take their system's defaults: physical mass 1, stiffness 100, damping 10
    ///   (CASpringAnimation); POP bounciness 4, speed 12; Origami tension 40, friction 7 (Rebound);
    ///   perceptual bounce 0 (SwiftUI). The response set needs both of its members.
    static func spring(_ object: inout ObjectReader) throws(Problem) -> SpringSpec {
        let p = object.pointer
        let present = exclusiveMembers.filter { group in group.members.contains(where: object.has) }
        let hasRatio = object.has("dampingRatio"), hasStiffness = object.has("stiffness")
        var sets = present.map(\.set)
        if let only = sets.first, sets.count == 1 {
            let mixesRatio = hasRatio && only != "response"
            let mixesStiffness = hasStiffness && only != "physical"
            if mixesRatio { sets.append(hasStiffness ? "Android" : "UIKit") }
            if mixesStiffness && !mixesRatio { sets.append("physical or Android") }
        }
        guard sets.count <= 1 else {
            let culprit = object.keys.last(where: { key in
                exclusiveMembers.contains { $0.members.contains(key) } || key == "dampingRatio" || key == "stiffness"
            }) ?? "type"
            throw Problem.invalid("a spring takes exactly one parameter set; these members mix the "
                                  + sets.joined(separator: " and ") + " sets", at: p / culprit)
        }
        let velocity = try object.number("initialVelocity") ?? 0
        let parameters: SpringSpec.ParameterSet
        switch sets.first {
        case "physical":
            let mass = try object.number("mass") ?? 1
            let stiffness = try object.number("stiffness") ?? 100
            let damping = try object.number("damping") ?? 10
            try Check.positive(mass, p / "mass")
            try Check.positive(stiffness, p / "stiffness")
            try Check.nonNegative(damping, p / "damping")
            parameters = .physical(mass: mass, stiffness: stiffness, damping: damping,
                                   allowsOverdamping: try object.bool("allowsOverdamping") ?? false)
        case "response":
            let response = try object.requiredNumber("response", "for the response set")
            let ratio = try object.requiredNumber("dampingRatio", "with `response`")
            try Check.positive(response, p / "response")
            try Check.nonNegative(ratio, p / "dampingRatio")
            parameters = .response(response: response, dampingRatio: ratio)
        case "perceptual":
            let duration = try object.requiredNumber("perceptualDuration", "for the perceptual set")
            let bounce = try object.number("bounce") ?? 0
            try Check.positive(duration, p / "perceptualDuration")
            guard bounce > -1 else { throw Problem.invalid("`bounce` must be > -1, not \(bounce)", at: p / "bounce") }
            parameters = .perceptual(duration: duration, bounce: bounce)
        case "POP":
            let bounciness = try object.number("bounciness") ?? 4
            let speed = try object.number("speed") ?? 12
            try Check.nonNegative(bounciness, p / "bounciness")
            try Check.nonNegative(speed, p / "speed")
            parameters = .pop(bounciness: bounciness, speed: speed)
        case "Origami":
            parameters = .origami(tension: try object.number("tension") ?? 40, friction: try object.number("friction") ?? 7)
        default:
            parameters = try implicitSet(&object, hasStiffness: hasStiffness, hasRatio: hasRatio)
        }
        let spec = SpringSpec(parameters: parameters, initialVelocity: velocity)
        // POP and Origami map onto tension and friction through polynomials that can leave the
        // physical range for out-of-range inputs: refuse those instead of producing a runaway.
        var ignored: [Warning] = []
        if !spec.takesDuration {
            let spring = spec.resolve(duration: nil, warnings: &ignored, at: p)
            guard spring.stiffness > 0, spring.stiffness.isFinite, spring.damping >= 0, spring.damping.isFinite else {
                // An overflow names the member of the most extreme magnitude; a sign the set.
                let overflow = !spring.stiffness.isFinite || !spring.damping.isFinite
                throw Problem.invalid("these parameters give stiffness \(spring.stiffness) and damping \(spring.damping); "
                                      + "a spring needs stiffness > 0 and damping ≥ 0",
                                      at: overflow ? TimingResolver.culprit(spec.members.map { (p / $0.name, $0.value) }) ?? p : p)
            }
        }
        return spec
    }

    /// The sets named by `stiffness` and `dampingRatio` alone: both are Android's, the ratio
    /// alone UIKit's, the stiffness alone the physical set's (with its other defaults).
    private static func implicitSet(_ object: inout ObjectReader, hasStiffness: Bool,
                                    hasRatio: Bool) throws(Problem) -> SpringSpec.ParameterSet {
        let p = object.pointer
        if hasStiffness && hasRatio {
            let stiffness = try object.requiredNumber("stiffness", "for the Android set")
            let ratio = try object.requiredNumber("dampingRatio", "for the Android set")
            try Check.positive(stiffness, p / "stiffness")
            try Check.nonNegative(ratio, p / "dampingRatio")
            return .android(stiffness: stiffness, dampingRatio: ratio)
        }
        if hasRatio {
            let ratio = try object.requiredNumber("dampingRatio", "for the UIKit set")
            try Check.nonNegative(ratio, p / "dampingRatio")
            return .uikit(dampingRatio: ratio)
        }
        if hasStiffness {
            let stiffness = try object.requiredNumber("stiffness", "for the physical set")
            try Check.positive(stiffness, p / "stiffness")
            return .physical(mass: 1, stiffness: stiffness, damping: 10, allowsOverdamping: false)
        }
        throw Problem.invalid("a spring needs one parameter set: dampingRatio (UIKit, with a duration); mass, stiffness, "
                              + "damping; stiffness, dampingRatio; response, dampingRatio; perceptualDuration, bounce; "
                              + "bounciness, speed; or tension, friction", at: p)
    }
}
