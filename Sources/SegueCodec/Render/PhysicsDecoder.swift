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
                       pointers: inout TargetPointers) throws(Problem) -> SceneSpec.Animation {
        let p = object.pointer
        for member in ["duration", "timing", "keyframes", "values", "repeatCount", "autoreverses", "calculationMode",
                       "rotationPath"] where object.has(member) {
            throw Problem.invalid("a physics animation runs by its forces: `\(member)` does not apply", at: p / member)
        }
        guard let dynamicsValue = object.value("dynamics") else {
            throw Problem.invalid("`velocity` belongs to physics animations, which need `dynamics`", at: p / "dynamics")
        }
        var dynamics = try ObjectReader(dynamicsValue, at: p / "dynamics")
        let d = dynamics.pointer
        guard let modelName = try dynamics.string("model") else { throw Problem.invalid("`model` is required", at: d / "model") }
        let isDecay = modelName == "decay"

        // The channel: `to` names it with its target; a decay names it with `channel`.
        let context = TargetContext(view: view, pointer: p)
        let channel: String
        var target: [Double]?
        if isDecay {
            guard !object.has("to") else { throw Problem.invalid("a decay has no target: name its `channel`", at: p / "to") }
            guard let name = try object.string("channel") else {
                throw Problem.invalid("a decay names its `channel`", at: p / "channel")
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
        let at = isDecay ? p / "channel" : p / "to" / channel
        let kind = try context.kind(of: channel, at: at)
        guard physicsChannel(channel, kind) else {
            throw Problem.invalid("physics drives one scalar or point channel (a custom channel, center, alpha or "
                                  + "cornerRadius), not `\(channel)`", at: at)
        }
        var velocity = [Double](repeating: 0, count: kind.width)
        if let value = object.value("velocity") {
            velocity = try ChannelDecoder.value(value, name: "velocity", kind: kind, at: p / "velocity").numbers
        }

        let model = try self.model(modelName, &dynamics)
        let integratorName = try dynamics.string("integrator") ?? "exact"
        let tickRate = try dynamics.number("tickRate") ?? PhysicsDefaults.tickRate
        guard tickRate > 0 && tickRate <= 1000 else {
            throw Problem.invalid("`tickRate` must be in (0, 1000], not \(tickRate)", at: d / "tickRate")
        }
        let integrator: PhysicsIntegrator
        switch integratorName {
        case "exact": integrator = .exact
        case "euler": integrator = .euler(tickRate: tickRate)
        case "rk4": integrator = .rk4(tickRate: tickRate)
        default: throw Problem.invalid("unknown integrator `\(integratorName.prefix(50))`; expected exact, euler or rk4",
                                       at: d / "integrator")
        }
        let threshold = try dynamics.number("threshold") ?? PhysicsDefaults.threshold(forChannel: channel)
        try Check.positive(threshold, d / "threshold")
        let rest = PhysicsDefaults.rest(threshold: threshold, integrator: integrator)
        let restSpeed = try dynamics.number("restSpeed") ?? rest.speed
        let restDistance = try dynamics.number("restDistance") ?? rest.distance
        try Check.positive(restSpeed, d / "restSpeed")
        try Check.positive(restDistance, d / "restDistance")
        try dynamics.rejectUnknown()

        let members = try AnimatorMembers(&object, limits: limits)
        if let blend = try object.string("blend"), blend != "replace" {
            throw Problem.invalid("a physics animation replaces its channel's value: `blend` must be replace", at: p / "blend")
        }
        try object.rejectUnknown()

        pointers.record(at, animation: index, channel: channel)
        let physics = SceneSpec.Physics(channel: channel, model: model, integrator: integrator, velocity: velocity, target: target,
                                        restSpeed: restSpeed, restDistance: restDistance, threshold: threshold)
        return SceneSpec.Animation(id: id, view: view.name, form: .physics(physics), delay: members.delay,
                                   autostart: members.autostart, pausesOnCompletion: members.pausesOnCompletion,
                                   scrubsLinearly: members.scrubsLinearly)
    }

    /// A spring model whose oscillator overflows somewhere (docs/rules.md "Conventions": a
    /// non-finite result is a 422), refused naming the given member of the most extreme magnitude.
    static func finite(_ model: PhysicsModel, _ members: [(String, Double)], at d: JSONPointer) throws(Problem) -> PhysicsModel {
        guard case .spring(let m, let k, let c) = model,
              let quantity = Spring(mass: m, stiffness: k, damping: c, allowsOverdamping: true).nonFiniteQuantity else {
            return model
        }
        let at = TimingResolver.culprit(members.map { (d / $0.0, $0.1) }) ?? d
        throw Problem.invalid("these parameters give a spring whose \(quantity) is not a finite number; bring \(at.display) nearer "
                              + "to 1", at: at)
    }

    /// The model's parameters, each checked against its range (rule 20).
    static func model(_ name: String, _ dynamics: inout ObjectReader) throws(Problem) -> PhysicsModel {
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
        default:
            throw Problem.invalid("unknown model `\(name.prefix(50))`; expected spring, attachment, popSpring, snap or decay",
                                  at: d / "model")
        }
    }
}
