import SegueEngine
import SegueJSON

/// `dynamics` animations (API.md §4 "Physics animations", §6 rules 20–21).
extension AnimationSpec {
    /// Channels physics can drive: one scalar or point (§6 rule 20).
    static func physicsChannel(_ name: String, _ kind: ChannelKind) -> Bool {
        switch name {
        case "center", "alpha", "cornerRadius": true
        default: ChannelKind.builtIn(name) == nil && kind != .transform
        }
    }

    static func physics(_ object: inout ObjectReader, index: Int, id: String, view: ViewSpec, limits: Limits) throws(Problem) -> AnimationSpec {
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

        let model: PhysicsModel
        switch modelName {
        case "spring":
            let mass = try dynamics.number("mass") ?? 1, stiffness = try dynamics.number("stiffness") ?? 100
            let damping = try dynamics.number("damping") ?? 10
            try Check.positive(mass, d / "mass")
            try Check.positive(stiffness, d / "stiffness")
            try Check.nonNegative(damping, d / "damping")
            model = .spring(mass: mass, stiffness: stiffness, damping: damping)
        case "attachment", "snap":
            // UIAttachmentBehavior: frequency in Hz, damping a ratio; per unit mass k = (2πf)²,
            // c = 2ζ·2πf (rule 20). UISnapBehavior: 3 Hz, damping default 0.5.
            let frequency = modelName == "snap" ? 3 : try dynamics.requiredNumber("frequency", "for an attachment")
            let ratio = try dynamics.number("damping") ?? (modelName == "snap" ? 0.5 : 0)
            try Check.positive(frequency, d / "frequency")
            try Check.nonNegative(ratio, d / "damping")
            let omega = 2 * Double.pi * frequency
            model = .spring(mass: 1, stiffness: omega * omega, damping: 2 * ratio * omega)
        case "popSpring":
            let bounciness = try dynamics.number("bounciness") ?? 4, speed = try dynamics.number("speed") ?? 12
            try Check.nonNegative(bounciness, d / "bounciness")
            try Check.nonNegative(speed, d / "speed")
            let spring = Spring.pop(bounciness: bounciness, speed: speed, initialVelocity: 0)
            guard spring.stiffness > 0, spring.damping >= 0 else {
                throw Problem.invalid("these POP parameters give no physical spring", at: d)
            }
            model = .spring(mass: 1, stiffness: spring.stiffness, damping: spring.damping)
        case "decay":
            let deceleration = try dynamics.number("deceleration") ?? 0.998
            guard deceleration > 0 && deceleration < 1 else {
                throw Problem.invalid("`deceleration` must be in (0, 1), not \(deceleration)", at: d / "deceleration")
            }
            model = .decay(deceleration: deceleration)
        default:
            throw Problem.invalid("unknown model `\(modelName.prefix(50))`; expected spring, attachment, popSpring, snap or decay",
                                  at: d / "model")
        }
        let integratorName = try dynamics.string("integrator") ?? "exact"
        let tickRate = try dynamics.number("tickRate") ?? 60
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
        // POP's per-property threshold: 0.01 for alpha, 1 for geometry and custom channels.
        let threshold = try dynamics.number("threshold") ?? (channel == "alpha" ? 0.01 : 1)
        try Check.positive(threshold, d / "threshold")
        let isEuler = integratorName == "euler"
        let restSpeed = try dynamics.number("restSpeed") ?? (isEuler ? 0.05 : 5 * threshold)
        let restDistance = try dynamics.number("restDistance") ?? (isEuler ? 1 : threshold / 2)
        try Check.positive(restSpeed, d / "restSpeed")
        try Check.positive(restDistance, d / "restDistance")
        try dynamics.rejectUnknown()

        let (delay, autostart, pausesOnCompletion, scrubsLinearly) = try animatorMembers(&object, limits: limits)
        if let blend = try object.string("blend"), blend != "replace" {
            throw Problem.invalid("a physics animation replaces its channel's value: `blend` must be replace", at: p / "blend")
        }
        try object.rejectUnknown()

        let parameters = ChannelAnimation.PhysicsParameters(model: model, integrator: integrator, velocity: velocity,
                                                           target: target, restSpeed: restSpeed, restDistance: restDistance,
                                                           threshold: threshold,
                                                           horizon: 0,  // set with the commands (RenderRequest)
                                                           autostart: autostart ? delay : nil, delay: delay,
                                                           commands: [])
        // The target is the model value after the motion; a decay's end is known once its start
        // is (the track resolves it), so its placeholder is the start.
        let targetValue = ChannelValue.vector(target ?? velocity.map { _ in 0 })
        let timing = ActiveTiming(curve: .cubicBezier(.linear), duration: .infinity)
        var spec = AnimationSpec(index: index, id: id, view: view.name, delay: delay, autostart: autostart,
                                 pausesOnCompletion: pausesOnCompletion, scrubsLinearly: scrubsLinearly, additive: false,
                                 timing: timing,
                                 targets: [Target(channel: channel, motion: .physics(parameters), target: targetValue, pointer: at)],
                                 unboundedBecause: "it does not come to rest within \(Int(RenderRequest.physicsRestWindow)) s of its start or "
                                     + "last command",
                                 unboundedMember: "dynamics")
        spec.isPhysics = true
        spec.isDecay = isDecay
        return spec
    }
}
