import SegueEngine
import SegueJSON

/// `dynamics` animations (docs/rules.md "Physics animations", rules 20–21): the model's
/// parameters through the engine's parametrisations (`PhysicsModel.attachment`, …) with
/// `PhysicsDefaults` where a member is absent.
enum PhysicsDecoder {
    /// Channels physics can drive: one scalar or point (rule 20).
    static func physicsChannel(_ name: String, _ kind: ChannelKind) -> Bool {
        switch name {
        case "center", "alpha", "cornerRadius": true
        default: ChannelKind.builtIn(name) == nil && kind != .transform
        }
    }

    static func decode(_ object: inout ObjectReader, index: Int, id: String, view: SceneSpec.View, limits: Limits,
                       warnings: inout [RequestWarning], pointers: inout TargetPointers) throws(Problem) -> SceneSpec.Animation {
        let p = object.pointer
        for member in ["duration", "timing", "keyframes", "values", "repeatCount", "autoreverses", "calculationMode",
                       "rotationPath"] where object.has(member) {
            throw Problem.invalid("a physics animation runs by its forces: `\(member)` does not apply", at: p / member)
        }
        guard let dynamicsValue = object.value("dynamics") else {
            throw Problem.invalid("`velocity` belongs to physics animations, which need `dynamics`", at: p / "dynamics")
        }
        var dynamics = try ObjectReader(dynamicsValue, at: p / "dynamics")
        guard let modelName = try dynamics.string("model") else {
            throw Problem.invalid("`model` is required", at: dynamics.pointer / "model")
        }
        let (channel, target, kind) = try self.channel(&object, modelName: modelName, view: view)
        let at = target == nil ? p / "channel" : p / "to" / channel
        var velocity = [Double](repeating: 0, count: kind.width)
        if let value = object.value("velocity") {
            velocity = try ChannelDecoder.value(value, name: "velocity", kind: kind, at: p / "velocity").numbers
        }

        let model = try self.model(modelName, &dynamics, warnings: &warnings)
        let settings = try self.settings(model, modelName, &dynamics, channel: channel)
        if kind.width > 1, !Self.movesPoints(model, settings.integrator) {
            throw Problem.invalid("this model moves one number: `\(channel)` has \(kind.width)", at: at)
        }
        if case .motionSpring(let spring) = model, spring.startsFromRest, velocity.contains(where: { $0 != 0 }) {
            warnings.append(RequestWarning(pointer: p / "velocity", detail: "a time-defined motionSpring (duration or bounce) "
                                    + "starts from rest, as Motion ignores an inherited velocity: `velocity` is not used"))
        }
        try dynamics.rejectUnknown()

        let members = try AnimatorMembers(&object, limits: limits)
        if let blend = try object.string("blend"), blend != "replace" {
            throw Problem.invalid("a physics animation replaces its channel's value: `blend` must be replace", at: p / "blend")
        }
        try object.rejectUnknown()

        pointers.record(at, animation: index, channel: channel)
        let physics = SceneSpec.Physics(channel: channel, model: model, integrator: settings.integrator, velocity: velocity,
                                        target: target, restSpeed: settings.restSpeed, restDistance: settings.restDistance,
                                        threshold: settings.threshold)
        return SceneSpec.Animation(id: id, view: view.name, form: .physics(physics), delay: members.delay,
                                   autostart: members.autostart, pausesOnCompletion: members.pausesOnCompletion,
                                   scrubsLinearly: members.scrubsLinearly)
    }

    /// The channel: `to` names it with its target; a model without a target (a decay, a fling, a
    /// scroll deceleration) names it with `channel`. One scalar or point channel (rule 20).
    static func channel(_ object: inout ObjectReader, modelName: String, view: SceneSpec.View) throws(Problem)
        -> (channel: String, target: [Double]?, kind: ChannelKind) {
        let p = object.pointer
        let context = TargetContext(view: view, pointer: p)
        let channel: String
        var target: [Double]?
        if let noun = coastingNoun[modelName] {
            guard !object.has("to") else { throw Problem.invalid("\(noun) has no target: name its `channel`", at: p / "to") }
            guard let name = try object.string("channel") else {
                throw Problem.invalid("\(noun) names its `channel`", at: p / "channel")
            }
            channel = name
        } else {
            guard case .object(let members)? = object.value("to"), members.count == 1, let member = members.first else {
                throw Problem.invalid("`to` names exactly one channel and its target", at: p / "to")
            }
            channel = member.key
            let kind = try context.kind(of: channel, at: p / "to" / channel)
            target = try ChannelDecoder.value(member.value, name: channel, kind: kind, at: p / "to" / channel).numbers
        }
        let at = target == nil ? p / "channel" : p / "to" / channel
        let kind = try context.kind(of: channel, at: at)
        guard physicsChannel(channel, kind) else {
            throw Problem.invalid("physics drives one scalar or point channel (a custom channel, center, alpha or "
                                  + "cornerRadius), not `\(channel)`", at: at)
        }
        return (channel, target, kind)
    }

    /// The models without a target, by name, as a refusal names them.
    static let coastingNoun = ["decay": "a decay", "fling": "a fling", "scrollDecay": "a scroll deceleration"]

    /// Whether a model and integrator move point channels: Motion's spring, the fling, the scroll
    /// deceleration and Rebound's integrator are one-dimensional (docs/springs.md "Physics models").
    static func movesPoints(_ model: PhysicsModel, _ integrator: PhysicsIntegrator) -> Bool {
        switch model {
        case .motionSpring, .fling, .scrollDecay: return false
        case .spring, .decay:
            if case .rebound = integrator { return false }
            return true
        }
    }

    /// How the motion is advanced and when it rests: `integrator`, `tickRate`, `threshold`,
    /// `restSpeed`, `restDistance`, `resistance` (rules 20–21). Motion springs, flings and scroll
    /// decelerations have their own stopping rules and take none of them (their restSpeed and
    /// restDistance are the model's, and the values returned here are not used).
    static func settings(_ model: PhysicsModel, _ modelName: String, _ dynamics: inout ObjectReader,
                         channel: String) throws(Problem)
        -> (integrator: PhysicsIntegrator, restSpeed: Double, restDistance: Double, threshold: Double) {
        let d = dynamics.pointer
        let defaultThreshold = PhysicsDefaults.threshold(forChannel: channel)
        switch model {
        case .motionSpring, .fling, .scrollDecay:
            for member in ["integrator", "tickRate", "threshold", "resistance"] where dynamics.has(member) {
                throw Problem.invalid("`\(member)` does not apply to this model: it is a closed form with its own stop",
                                      at: d / member)
            }
            let rest = PhysicsDefaults.rest(threshold: defaultThreshold, integrator: .exact)
            return (.exact, rest.speed, rest.distance, defaultThreshold)
        case .spring, .decay:
            break
        }
        let integrator = try self.integrator(modelName, &dynamics)
        if case .rebound = integrator, dynamics.has("threshold") {
            throw Problem.invalid("`threshold` does not apply to the rebound integrator: it rests by `restSpeed` and "
                                  + "`restDistance` (0.001 unless given)", at: d / "threshold")
        }
        let threshold = try dynamics.number("threshold") ?? defaultThreshold
        try Check.positive(threshold, d / "threshold")
        let rest = PhysicsDefaults.rest(threshold: threshold, integrator: integrator)
        let restSpeed = try dynamics.number("restSpeed") ?? rest.speed
        let restDistance = try dynamics.number("restDistance") ?? rest.distance
        try Check.positive(restSpeed, d / "restSpeed")
        try Check.positive(restDistance, d / "restDistance")
        return (integrator, restSpeed, restDistance, threshold)
    }

    /// `integrator` with its `tickRate` (and `resistance` for box2d): `rebound` drives only
    /// springs and POP springs, `box2d` only attachments and snaps (docs/springs.md "Physics models").
    static func integrator(_ modelName: String, _ dynamics: inout ObjectReader) throws(Problem) -> PhysicsIntegrator {
        let d = dynamics.pointer
        let integratorName = try dynamics.string("integrator") ?? "exact"
        let tickRate = try dynamics.number("tickRate") ?? PhysicsDefaults.tickRate
        guard tickRate > 0 && tickRate <= 1000 else {
            throw Problem.invalid("`tickRate` must be in (0, 1000], not \(tickRate)", at: d / "tickRate")
        }
        switch integratorName {
        case "exact": break
        case "euler": return try noResistance(.euler(tickRate: tickRate), &dynamics)
        case "rk4": return try noResistance(.rk4(tickRate: tickRate), &dynamics)
        case "rebound":
            guard modelName == "spring" || modelName == "popSpring" else {
                throw Problem.invalid("the rebound integrator drives `spring` and `popSpring` models", at: d / "integrator")
            }
            return try noResistance(.rebound(tickRate: tickRate), &dynamics)
        case "box2d":
            guard modelName == "attachment" || modelName == "snap" else {
                throw Problem.invalid("the box2d integrator drives `attachment` and `snap` models", at: d / "integrator")
            }
            let resistance = try dynamics.number("resistance") ?? PhysicsDefaults.resistance
            try Check.nonNegative(resistance, d / "resistance")
            return .box2d(tickRate: tickRate, resistance: resistance)
        default: throw Problem.invalid("unknown integrator `\(integratorName.prefix(50))`; expected exact, euler, rk4, rebound or box2d",
                                       at: d / "integrator")
        }
        return try noResistance(.exact, &dynamics)
    }

    /// `resistance` belongs to the box2d integrator only.
    private static func noResistance(_ integrator: PhysicsIntegrator, _ dynamics: inout ObjectReader) throws(Problem)
        -> PhysicsIntegrator {
        guard !dynamics.has("resistance") else {
            throw Problem.invalid("`resistance` applies to the box2d integrator only", at: dynamics.pointer / "resistance")
        }
        return integrator
    }

    /// A spring whose oscillator overflows somewhere (docs/rules.md "Conventions": a non-finite
    /// result is a 422), refused naming the given member of the most extreme magnitude.
    static func finite(mass m: Double, stiffness k: Double, damping c: Double, _ members: [(String, Double)],
                       at d: JSONPointer) throws(Problem) {
        guard let quantity = Spring(mass: m, stiffness: k, damping: c, allowsOverdamping: true).nonFiniteQuantity else { return }
        let at = TimingResolver.culprit(members.map { (d / $0.0, $0.1) }) ?? d
        throw Problem.invalid("these parameters give a spring whose \(quantity) is not a finite number; bring \(at.display) nearer "
                              + "to 1", at: at)
    }

    /// `finite` for a spring model; other models pass.
    static func finite(_ model: PhysicsModel, _ members: [(String, Double)], at d: JSONPointer) throws(Problem) -> PhysicsModel {
        if case .spring(let m, let k, let c) = model { try finite(mass: m, stiffness: k, damping: c, members, at: d) }
        return model
    }

    /// The model's parameters, each checked against its range (rule 20; docs/springs.md "Physics models").
    static func model(_ name: String, _ dynamics: inout ObjectReader, warnings: inout [RequestWarning]) throws(Problem) -> PhysicsModel {
        let d = dynamics.pointer
        switch name {
        case "spring":
            let mass = try dynamics.number("mass") ?? PhysicsDefaults.mass
            let stiffness = try dynamics.number("stiffness") ?? PhysicsDefaults.stiffness
            let damping = try dynamics.number("damping") ?? PhysicsDefaults.damping
            try Check.positive(mass, d / "mass")
            try Check.positive(stiffness, d / "stiffness")
            try Check.nonNegative(damping, d / "damping")
            return try finite(.spring(mass: mass, stiffness: stiffness, damping: damping),
                              [("mass", mass), ("stiffness", stiffness), ("damping", damping)], at: d)
        case "attachment":
            let frequency = try dynamics.requiredNumber("frequency", "for an attachment")
            let ratio = try dynamics.number("damping") ?? PhysicsDefaults.attachmentDampingRatio
            try Check.positive(frequency, d / "frequency")
            try Check.nonNegative(ratio, d / "damping")
            return try finite(.attachment(frequency: frequency, dampingRatio: ratio), [("frequency", frequency), ("damping", ratio)],
                              at: d)
        case "snap":
            let ratio = try dynamics.number("damping") ?? PhysicsDefaults.snapDampingRatio
            try Check.nonNegative(ratio, d / "damping")
            return try finite(.snap(dampingRatio: ratio), [("damping", ratio)], at: d)
        case "popSpring":
            let bounciness = try dynamics.number("bounciness") ?? PhysicsDefaults.popBounciness
            let speed = try dynamics.number("speed") ?? PhysicsDefaults.popSpeed
            try Check.nonNegative(bounciness, d / "bounciness")
            try Check.nonNegative(speed, d / "speed")
            guard let model = PhysicsModel.popSpring(bounciness: bounciness, speed: speed) else {
                throw Problem.invalid("these POP parameters give no physical spring", at: d)
            }
            return try finite(model, [("bounciness", bounciness), ("speed", speed)], at: d)
        case "decay":
            let deceleration = try dynamics.number("deceleration") ?? PhysicsDefaults.deceleration
            guard deceleration > 0 && deceleration < 1 else {
                throw Problem.invalid("`deceleration` must be in (0, 1), not \(deceleration)", at: d / "deceleration")
            }
            return .decay(deceleration: deceleration)
        case "motionSpring": return .motionSpring(try motionSpring(&dynamics, warnings: &warnings))
        case "fling": return .fling(try fling(&dynamics))
        case "scrollDecay": return .scrollDecay(try scrollDecay(&dynamics))
        default:
            throw Problem.invalid("unknown model `\(name.prefix(50))`; expected spring, attachment, popSpring, snap, decay, "
                                  + "motionSpring, fling or scrollDecay",
                                  at: d / "model")
        }
    }
}
