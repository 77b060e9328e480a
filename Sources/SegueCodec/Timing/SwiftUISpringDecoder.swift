import SegueEngine
import SegueJSON

/// SwiftUI's ways of writing a spring (rule 46, docs/springs.md "SwiftUI's names"): the presets
/// with `duration` and `extraBounce`, `duration`/`bounce`, `response`/`dampingFraction` and
/// `settlingDuration`/`dampingRatio`/`epsilon`, and `blendDuration`, accepted and ignored.
extension TimingDecoder {
    /// One SwiftUI form: the members that announce it and every member it takes.
    struct SwiftUIForm {
        var set: String
        var anchors: [String]
        var members: [String]
    }

    /// In the order they are recognised: `duration` with a `preset` belongs to the preset.
    static let swiftUIForms = [
        SwiftUIForm(set: "SwiftUI preset", anchors: ["preset", "extraBounce"], members: ["preset", "duration", "extraBounce"]),
        SwiftUIForm(set: "SwiftUI settlingDuration", anchors: ["settlingDuration", "epsilon"],
                    members: ["settlingDuration", "dampingRatio", "epsilon"]),
        SwiftUIForm(set: "SwiftUI duration/bounce", anchors: ["duration"], members: ["duration", "bounce", "blendDuration"]),
        SwiftUIForm(set: "SwiftUI response/dampingFraction", anchors: ["dampingFraction"],
                    members: ["response", "dampingFraction", "blendDuration"]),
    ]

    /// Every member a spring timing takes, in every set: what an unknown member's 422 lists.
    static let springMembers = ["dampingRatio", "mass", "stiffness", "damping", "allowsOverdamping", "response",
                                "dampingFraction", "perceptualDuration", "duration", "bounce", "preset", "extraBounce",
                                "settlingDuration", "epsilon", "bounciness", "speed", "tension", "friction",
                                "blendDuration", "initialVelocity"]

    /// The SwiftUI form the members announce, nil when none does; a 422 naming both sets when
    /// they announce two, or give a member of another set with one.
    static func swiftUISet(_ object: ObjectReader) throws(Problem) -> String? {
        var forms = swiftUIForms.filter { $0.anchors.contains(where: object.has) }
        if forms.first?.set == "SwiftUI preset" { forms.removeAll { $0.set == "SwiftUI duration/bounce" } }
        guard let form = forms.first else { return nil }
        let foreign = springMembers.filter { member in
            member != "initialVelocity" && member != "blendDuration" && object.has(member) && !form.members.contains(member)
        }
        guard let other = forms.dropFirst().first?.set ?? foreign.first.map({ owner(of: $0, in: object) }) else {
            return form.set
        }
        let culprit = object.keys.last { key in key != "initialVelocity" && springMembers.contains(key) } ?? "type"
        throw Problem.invalid("a spring takes exactly one parameter set; these members mix the \(form.set) and \(other) sets",
                              at: object.pointer / culprit)
    }

    /// The set a member given alongside a SwiftUI form belongs to, for the 422 naming both.
    private static func owner(of member: String, in object: ObjectReader) -> String {
        switch member {
        case "dampingRatio": object.has("response") ? "response" : object.has("stiffness") ? "Android" : "UIKit"
        case "stiffness": object.has("dampingRatio") ? "Android" : "physical or Android"
        default: exclusiveMembers.first { $0.members.contains(member) }?.set
            ?? swiftUIForms.first { $0.members.contains(member) }?.set ?? "other"
        }
    }

    /// The members of the SwiftUI form `set`, checked; nil for any other set.
    static func swiftUIParameters(_ set: String?, _ object: inout ObjectReader) throws(Problem) -> SpringSpec.ParameterSet? {
        let p = object.pointer
        switch set {
        case "SwiftUI preset":
            let preset = try swiftUIPreset(&object)
            let duration = try object.number("duration") ?? SwiftUISpringPreset.duration
            let extra = try object.number("extraBounce") ?? 0
            try Check.positive(duration, p / "duration")
            try checkBounce(preset.bounce + extra, p / "extraBounce", given: " (\(preset.rawValue)'s \(preset.bounce) + extraBounce)")
            return .swiftUIPreset(preset, duration: duration, extraBounce: extra)
        case "SwiftUI duration/bounce":
            let (duration, bounce) = try durationAndBounce(&object, duration: "duration", why: "for SwiftUI's duration/bounce set")
            return .swiftUIDuration(duration: duration, bounce: bounce)
        case "SwiftUI response/dampingFraction":
            let (response, fraction) = try responseAndRatio(&object, ratio: "dampingFraction", why: "with `dampingFraction`")
            return .swiftUIResponse(response: response, dampingFraction: fraction)
        case "SwiftUI settlingDuration":
            return try settling(&object)
        default:
            return nil
        }
    }

    /// `preset`: one of SwiftUI's named springs.
    private static func swiftUIPreset(_ object: inout ObjectReader) throws(Problem) -> SwiftUISpringPreset {
        let at = object.pointer / "preset"
        let name = try object.string("preset")
        guard let name else { throw Problem.invalid("`preset` is required with `extraBounce`", at: at) }
        guard let preset = SwiftUISpringPreset(rawValue: name) else {
            let names = SwiftUISpringPreset.allCases.map(\.rawValue)
            throw Problem.invalid(Vocabulary.unknown("spring preset", name, known: names, listing: "SwiftUI's presets are"),
                                  at: at)
        }
        return preset
    }

    /// SwiftUI's default `epsilon`, the level UIKit's duration solve uses too.
    static let defaultEpsilon = 0.001

    /// `settlingDuration` s > 0, `dampingRatio` ζ and `epsilon` ε (0.001 unless given) in (0, 1),
    /// with ζ in (ε/√(1 + ε²), 1]: below, the envelope starts under ε and no positive stiffness
    /// solves; above 1, the solve has no over-damped branch (`Spring.settling`).
    private static func settling(_ object: inout ObjectReader) throws(Problem) -> SpringSpec.ParameterSet {
        let p = object.pointer
        let duration = try object.requiredNumber("settlingDuration", "for SwiftUI's settlingDuration set")
        let ratio = try object.requiredNumber("dampingRatio", "with `settlingDuration`")
        let epsilon = try object.number("epsilon") ?? defaultEpsilon
        try Check.positive(duration, p / "settlingDuration")
        guard epsilon > 0, epsilon < 1 else {
            throw Problem.invalid("`epsilon` must be in (0, 1), not \(epsilon)", at: p / "epsilon")
        }
        let lowest = epsilon / (1 + epsilon * epsilon).squareRoot()
        guard ratio > lowest, ratio <= 1 else {
            throw Problem.invalid("`dampingRatio` must be in (\(lowest), 1] with epsilon \(epsilon) (above 1 the settling "
                                  + "solve has no over-damped branch; at or below \(lowest) the envelope starts under "
                                  + "epsilon), not \(ratio)", at: p / "dampingRatio")
        }
        return .settling(duration: duration, dampingRatio: ratio, epsilon: epsilon)
    }

    /// `blendDuration` (≥ 0): SwiftUI's hand-over between animations, accepted and ignored with a
    /// warning for the sets whose SwiftUI animations take one (`Animation.spring(response:
    /// dampingFraction:blendDuration:)`, `.spring(duration:bounce:blendDuration:)`).
    static func blendDuration(_ object: inout ObjectReader, parameters: SpringSpec.ParameterSet) throws(Problem) -> Bool {
        let at = object.pointer / "blendDuration"
        guard let blend = try object.number("blendDuration") else { return false }
        switch parameters {
        case .response, .perceptual, .swiftUIDuration, .swiftUIResponse:
            try Check.nonNegative(blend, at)
            return true
        default:
            throw Problem.invalid("`blendDuration` comes with SwiftUI's response (response, dampingFraction or dampingRatio) "
                                  + "and duration (duration or perceptualDuration, bounce) springs, not with the "
                                  + parameters.name + " set", at: at)
        }
    }
}
