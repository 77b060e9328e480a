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
            case "linear", "ease", "easeIn", "easeOut", "easeInOut", "default":
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
                throw Problem.invalid(Vocabulary.unknown("timing type", type, known: types, listing: "the types are"),
                                      at: pointer / "type")
            }
            try object.rejectUnknown()
            return spec
        default:
            throw Problem.wrongType(at: pointer, expected: "a CSS easing string or a timing object", found: value)
        }
    }

    /// The values of a timing object's `type`.
    static let types = ["linear", "ease", "easeIn", "easeOut", "easeInOut", "default", "cubicBezier", "steps",
                        "piecewiseLinear", "spring"]

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
                let positions = StepPosition.allCases.map(\.rawValue)
                let hint = Vocabulary.hint(for: name, among: positions).map { ": " + $0 } ?? ""
                throw Problem.invalid("unknown step position `\(name.prefix(100))`\(hint); expected jumpStart, jumpEnd, jumpNone, "
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
    static let exclusiveMembers: [(members: [String], set: String)] = [
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
    /// - SwiftUI's forms (rule 46) are recognised first, by their own members (`swiftUISet`);
    /// - omitted members take their system's defaults: physical mass 1, stiffness 100, damping 10
    ///   (CASpringAnimation); POP bounciness 4, speed 12; Origami tension 40, friction 7 (Rebound);
    ///   perceptual bounce 0 (SwiftUI). The response set needs both of its members.
    static func spring(_ object: inout ObjectReader) throws(Problem) -> SpringSpec {
        let p = object.pointer
        object.accepts(springMembers)
        var set = try swiftUISet(object)
        if set == nil { set = try classicSet(object) }
        let velocity = try object.number("initialVelocity") ?? 0
        let parameters: SpringSpec.ParameterSet
        if let swiftUI = try swiftUIParameters(set, &object) {
            parameters = swiftUI
        } else {
            parameters = try classicParameters(set, &object)
        }
        let spec = SpringSpec(parameters: parameters, initialVelocity: velocity,
                              ignoresBlendDuration: try blendDuration(&object, parameters: parameters))
        // POP and Origami map onto tension and friction through polynomials that can leave the
        // physical range for out-of-range inputs: refuse those instead of producing a runaway.
        var ignored: [RequestWarning] = []
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

    /// The set of the members before rule 46: the exclusive groups, then what `dampingRatio` and
    /// `stiffness` add; nil when the members name no set (`implicitSet` decides).
    private static func classicSet(_ object: ObjectReader) throws(Problem) -> String? {
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
                                  + sets.joined(separator: " and ") + " sets", at: object.pointer / culprit)
        }
        return sets.first
    }

    /// The members of the sets before rule 46, read for the set `classicSet` found.
    private static func classicParameters(_ set: String?, _ object: inout ObjectReader) throws(Problem) -> SpringSpec.ParameterSet {
        let p = object.pointer
        switch set {
        case "physical":
            let mass = try object.number("mass") ?? 1
            let stiffness = try object.number("stiffness") ?? 100
            let damping = try object.number("damping") ?? 10
            try Check.positive(mass, p / "mass")
            try Check.positive(stiffness, p / "stiffness")
            try Check.nonNegative(damping, p / "damping")
            return .physical(mass: mass, stiffness: stiffness, damping: damping,
                             allowsOverdamping: try object.bool("allowsOverdamping") ?? false)
        case "response":
            let (response, ratio) = try responseAndRatio(&object, ratio: "dampingRatio", why: "for the response set")
            return .response(response: response, dampingRatio: ratio)
        case "perceptual":
            let (duration, bounce) = try durationAndBounce(&object, duration: "perceptualDuration", why: "for the perceptual set")
            return .perceptual(duration: duration, bounce: bounce)
        case "POP":
            let bounciness = try object.number("bounciness") ?? 4
            let speed = try object.number("speed") ?? 12
            try Check.nonNegative(bounciness, p / "bounciness")
            try Check.nonNegative(speed, p / "speed")
            return .pop(bounciness: bounciness, speed: speed)
        case "Origami":
            return .origami(tension: try object.number("tension") ?? 40, friction: try object.number("friction") ?? 7)
        default:
            return try implicitSet(&object, hasStiffness: object.has("stiffness"), hasRatio: object.has("dampingRatio"))
        }
    }

    /// `response` (> 0, required `why`) and the damping ratio under the name `ratio` (≥ 0, required
    /// with it): the response set in either spelling.
    static func responseAndRatio(_ object: inout ObjectReader, ratio key: String,
                                 why: String) throws(Problem) -> (response: Double, ratio: Double) {
        let p = object.pointer
        let response = try object.requiredNumber("response", why)
        let ratio = try object.requiredNumber(key, "with `response`")
        try Check.positive(response, p / "response")
        try Check.nonNegative(ratio, p / key)
        return (response, ratio)
    }

    /// The duration under the name `duration` (> 0, required `why`) and `bounce` (> −1, 0 unless
    /// given): the perceptual set in either spelling.
    static func durationAndBounce(_ object: inout ObjectReader, duration key: String,
                                  why: String) throws(Problem) -> (duration: Double, bounce: Double) {
        let p = object.pointer
        let duration = try object.requiredNumber(key, why)
        let bounce = try object.number("bounce") ?? 0
        try Check.positive(duration, p / key)
        try checkBounce(bounce, p / "bounce")
        return (duration, bounce)
    }

    /// A perceptual bounce: > −1, where ζ = 1/(1 + bounce) stays finite (docs/springs.md).
    static func checkBounce(_ bounce: Double, _ pointer: JSONPointer, given: String = "") throws(Problem) {
        guard bounce > -1 else { throw Problem.invalid("`bounce`\(given) must be > -1, not \(bounce)", at: pointer) }
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
                              + "bounciness, speed; tension, friction; or SwiftUI's preset (smooth, snappy, bouncy), "
                              + "duration, extraBounce; duration, bounce; response, dampingFraction; or settlingDuration, "
                              + "dampingRatio, epsilon", at: p)
    }
}
