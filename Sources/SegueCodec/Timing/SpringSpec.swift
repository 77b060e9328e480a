import SegueEngine
import SegueJSON

/// A spring `timing` as given: exactly one parameter set of docs/rules.md "Spring parameter sets" plus `initialVelocity`
/// (UIKit's convention: whole distances per second, positive toward the target).
public struct SpringSpec: Sendable, Equatable {
    public enum ParameterSet: Sendable, Equatable {
        /// UIKit `usingSpringWithDamping:` / `UISpringTimingParameters(dampingRatio:)`; needs the
        /// animation's duration (docs/springs.md "UIKit duration-based springs").
        case uikit(dampingRatio: Double)
        /// `CASpringAnimation` / `UISpringTimingParameters(mass:stiffness:damping:)` (docs/springs.md "Core Animation springs").
        case physical(mass: Double, stiffness: Double, damping: Double, allowsOverdamping: Bool)
        /// Android `SpringForce` (mass 1, true over-damping; docs/springs.md "Android springs").
        case android(stiffness: Double, dampingRatio: Double)
        /// WWDC18 "Designing Fluid Interfaces" / SwiftUI `Spring(response:dampingRatio:)`.
        case response(response: Double, dampingRatio: Double)
        /// SwiftUI `Spring(duration:bounce:)`.
        case perceptual(duration: Double, bounce: Double)
        /// `POPSpringAnimation` bounciness and speed (docs/springs.md "POP and Origami springs").
        case pop(bounciness: Double, speed: Double)
        /// Origami / Rebound tension and friction in Origami units.
        case origami(tension: Double, friction: Double)
        /// SwiftUI's `.smooth`, `.snappy`, `.bouncy` (`smooth(duration:extraBounce:)`, …): the
        /// perceptual set with `duration` and the preset's bounce plus `extraBounce` (rule 46).
        case swiftUIPreset(SwiftUISpringPreset, duration: Double, extraBounce: Double)
        /// SwiftUI's `Spring(duration:bounce:)` in SwiftUI's spelling: the perceptual set.
        case swiftUIDuration(duration: Double, bounce: Double)
        /// SwiftUI's `Spring(response:dampingFraction:)`: the response set, `dampingFraction` being
        /// SwiftUI's name for the damping ratio.
        case swiftUIResponse(response: Double, dampingFraction: Double)
        /// SwiftUI's `Spring(settlingDuration:dampingRatio:epsilon:)` (`Spring.settling`).
        case settling(duration: Double, dampingRatio: Double, epsilon: Double)

        /// The set's name as the contract's error messages use it.
        public var name: String {
            switch self {
            case .uikit: "UIKit duration-based (dampingRatio)"
            case .physical: "physical (mass, stiffness, damping)"
            case .android: "Android (stiffness, dampingRatio)"
            case .response: "response (response, dampingRatio)"
            case .perceptual: "perceptual (perceptualDuration, bounce)"
            case .pop: "POP (bounciness, speed)"
            case .origami: "Origami (tension, friction)"
            case .swiftUIPreset: "SwiftUI preset (preset, duration, extraBounce)"
            case .swiftUIDuration: "SwiftUI duration (duration, bounce)"
            case .swiftUIResponse: "SwiftUI response (response, dampingFraction)"
            case .settling: "settling (settlingDuration, dampingRatio, epsilon)"
            }
        }
    }

    public var parameters: ParameterSet
    public var initialVelocity: Double
    /// Whether SwiftUI's `blendDuration` was given: accepted, ignored, and reported as a warning
    /// when the spring is resolved (rule 46).
    public var ignoresBlendDuration: Bool

    public init(parameters: ParameterSet, initialVelocity: Double, ignoresBlendDuration: Bool = false) {
        self.parameters = parameters
        self.initialVelocity = initialVelocity
        self.ignoresBlendDuration = ignoresBlendDuration
    }

    /// Only the UIKit set takes an animation's duration; every other set runs for its settling
    /// duration (docs/rules.md "Spring parameter sets").
    public var takesDuration: Bool {
        if case .uikit = parameters { return true }
        return false
    }

    /// The engine spring. `duration` is required by (and only used for) the UIKit set; clamps UIKit
    /// applies are reported as warnings (docs/rules.md rule 12).
    public func resolve(duration: Double?, warnings: inout [RequestWarning], at pointer: JSONPointer,
                        durationAt durationPointer: JSONPointer = JSONPointer(["duration"])) -> Spring {
        let v = initialVelocity
        if ignoresBlendDuration {
            warnings.append(RequestWarning(pointer: pointer / "blendDuration",
                                    detail: "blendDuration only blends SwiftUI animations that replace one another; it is ignored"))
        }
        switch parameters {
        case .uikit(let ratio):
            let solution = Spring.uikit(dampingRatio: ratio, duration: duration ?? 0, initialVelocity: v)
            if solution.clampedDampingRatio {
                warnings.append(RequestWarning(pointer: pointer / "dampingRatio",
                                        detail: "UIKit clamps dampingRatio \(ratio) to [FLT_EPSILON, 1] for its solve"))
            }
            if solution.clampedDuration, let duration {
                warnings.append(RequestWarning(pointer: durationPointer,
                                        detail: "UIKit clamps the spring's duration \(duration) s to [0.01, 10] s for its solve"))
            }
            return solution.spring
        case .physical(let m, let k, let c, let over):
            return .physical(mass: m, stiffness: k, damping: c, initialVelocity: v, allowsOverdamping: over)
        case .android(let k, let ratio):
            return .android(stiffness: k, dampingRatio: ratio, initialVelocity: v)
        case .response(let response, let ratio):
            return .response(response, dampingRatio: ratio, initialVelocity: v)
        case .perceptual(let d, let bounce):
            return .perceptual(duration: d, bounce: bounce, initialVelocity: v)
        case .pop(let bounciness, let speed):
            return .pop(bounciness: bounciness, speed: speed, initialVelocity: v)
        case .origami(let tension, let friction):
            return .origami(tension: tension, friction: friction, initialVelocity: v)
        case .swiftUIPreset(let preset, let d, let extra):
            return .perceptual(duration: d, bounce: preset.bounce + extra, initialVelocity: v)
        case .swiftUIDuration(let d, let bounce):
            return .perceptual(duration: d, bounce: bounce, initialVelocity: v)
        case .swiftUIResponse(let response, let fraction):
            return .response(response, dampingRatio: fraction, initialVelocity: v)
        case .settling(let s, let ratio, let epsilon):
            return .settling(duration: s, dampingRatio: ratio, epsilon: epsilon, initialVelocity: v)
        }
    }

    /// The numeric members as given, in the normalised order (`json`'s).
    public var members: [(name: String, value: Double)] {
        guard case .object(let list) = json else { return [] }
        return list.compactMap { member in
            guard case .number(let value) = member.value else { return nil }
            return (member.key, value)
        }
    }

    /// The normalised object form: the set's members in a fixed order, then `initialVelocity`.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [.init("type", .string("spring"))]
        func add(_ key: String, _ value: Double) { members.append(.init(key, .number(value))) }
        switch parameters {
        case .uikit(let ratio):
            add("dampingRatio", ratio)
        case .physical(let m, let k, let c, let over):
            add("mass", m); add("stiffness", k); add("damping", c)
            members.append(.init("allowsOverdamping", .bool(over)))
        case .android(let k, let ratio):
            add("stiffness", k); add("dampingRatio", ratio)
        case .response(let response, let ratio):
            add("response", response); add("dampingRatio", ratio)
        case .perceptual(let d, let bounce):
            add("perceptualDuration", d); add("bounce", bounce)
        case .pop(let bounciness, let speed):
            add("bounciness", bounciness); add("speed", speed)
        case .origami(let tension, let friction):
            add("tension", tension); add("friction", friction)
        case .swiftUIPreset(let preset, let d, let extra):
            members.append(.init("preset", .string(preset.rawValue)))
            add("duration", d); add("extraBounce", extra)
        case .swiftUIDuration(let d, let bounce):
            add("duration", d); add("bounce", bounce)
        case .swiftUIResponse(let response, let fraction):
            add("response", response); add("dampingFraction", fraction)
        case .settling(let s, let ratio, let epsilon):
            add("settlingDuration", s); add("dampingRatio", ratio); add("epsilon", epsilon)
        }
        add("initialVelocity", initialVelocity)
        return .object(members)
    }
}

/// SwiftUI's named springs (`Spring.smooth`, `.snappy`, `.bouncy`): the perceptual set with
/// duration 0.5 s and these bounces (docs/springs.md "SwiftUI's names").
public enum SwiftUISpringPreset: String, Sendable, CaseIterable {
    case smooth, snappy, bouncy

    /// The duration every preset takes unless given, seconds.
    public static let duration = 0.5

    public var bounce: Double {
        switch self {
        case .smooth: 0
        case .snappy: 0.15
        case .bouncy: 0.3
        }
    }
}
