/// Everything that animates one channel of one view, blended (docs/rules.md "Animations" (`blend`), rule 9).
///
/// Layers are ordered by effective start — when their animator first shows them (after a delay,
/// a start command, a scrub; an added block when the fraction reaches its window) — ties by
/// request index, then block. At time t:
/// - before any layer starts, the channel shows its initial value;
/// - the latest `replace` layer that has started owns the channel: it runs from the value the
///   channel presented at its start (UIKit's beginFromCurrentState) and earlier layers stop
///   contributing, though their animators still run and complete;
/// - every `additive` layer started after it adds `anim(t) − m`, where `anim` runs from the model
///   value m — the target of the latest layer that started before it, else the initial value —
///   so a `to` animation adds (to − m) · p(t); transforms add decomposed components;
/// - a layer whose animator completed at the end holds its target exactly (rule 10), one
///   completed at the start its start value; stopped and paused layers hold what they showed.
struct ChannelTrack: Sendable {
    public let initial: ChannelValue
    private(set) var layers: [Layer] = []

    /// A class, so the per-frame loop shares layers instead of copying their payloads.
    final class Layer: Sendable {
        let animation: ChannelAnimation
        /// Effective start on the timeline.
        let start: Double
        let model: ChannelValue
        let motion: ResolvedMotion

        init(animation: ChannelAnimation, start: Double, model: ChannelValue, motion: ResolvedMotion) {
            self.animation = animation
            self.start = start
            self.model = model
            self.motion = motion
        }
    }

    /// Something a layer does that Core Animation would do quietly (a singular transform
    /// interpolated discretely), for the response's warnings.
    public struct Note: Sendable {
        /// The animation's index in the request.
        public var order: Int
        /// The added block (`addAnimations`), if the note is about one.
        public var block: Int?
        public var detail: String
    }

    public private(set) var notes: [Note] = []

    /// - budget: the render's physics allowance, shared by the physics layers of all its tracks.
    public init(initial: ChannelValue, animations: [ChannelAnimation], budget: PhysicsBudget? = nil) {
        self.initial = initial
        let started = animations.compactMap { animation in animation.start.map { (animation, $0) } }
        let sorted = started.sorted { a, b in (a.1, a.0.order, a.0.block ?? -1) < (b.1, b.0.order, b.0.block ?? -1) }
        for (animation, start) in sorted {
            let model = layers.last?.animation.target ?? initial
            let from = animation.additive ? model : value(at: start)
            let motion = ResolvedMotion(animation.motion, from: from, to: animation.target, budget: budget)
            if let budget, budget.exhausted, budget.exhaustedBy == nil { budget.exhaustedBy = animation.order }
            // `values` tracks were resolved (and warned about) by the codec; resolved motions of
            // `to` and UIView keyframes report here.
            if case .transformTrack = animation.motion {} else {
                notes += motion.notes.map { Note(order: animation.order, block: animation.block, detail: $0) }
            }
            layers.append(Layer(animation: animation, start: start, model: model, motion: motion))
        }
    }

    /// The presented value at t (right-hand: a layer starting at t already counts).
    public func value(at t: Double) -> ChannelValue {
        var owner = -1, started = 0
        while started < layers.count && layers[started].start <= t {
            if !layers[started].animation.additive { owner = started }
            started += 1
        }
        var result = owner >= 0 ? Self.value(of: layers[owner], at: t) : initial
        var i = owner + 1
        while i < started {
            result = result.adding(Self.value(of: layers[i], at: t), relativeTo: layers[i].model)
            i += 1
        }
        return result
    }

    /// d(value)/dt, right-hand, per component (rule 4). Vector layers moving toward a target
    /// are exact: (to − from) · p′(τ), summed over the additive layers, 0 wherever a value is held
    /// (before a start, during a delay, after completion, on steps) and ±greatestFiniteMagnitude
    /// where a slope is infinite. Transforms and keyframe tracks, whose value is not linear in
    /// progress, use a second-order one-sided difference (exactly 0 where the value is held).
    public func velocity(at t: Double) -> [Double] {
        var owner = -1, started = 0
        while started < layers.count && layers[started].start <= t {
            if !layers[started].animation.additive { owner = started }
            started += 1
        }
        var result = [Double].zeros(initial.numbers.count)
        var i = max(owner, 0)
        while i < started {
            let layer = layers[i]
            if case .physics(let chain) = layer.motion {
                let speed = chain.state(at: t).velocity
                for k in result.indices where k < speed.count { result[k] += speed[k] }
                i += 1
                continue
            }
            guard case .vectorLerp(let from, let to) = layer.motion else { return numericVelocity(at: t) }
            if let s = layer.animation.sample(at: t), s.shown == .progress, s.rate != 0 {
                for k in result.indices where k < from.count && k < to.count {
                    result[k] += (to[k] - from[k]) * s.rate
                }
            }
            i += 1
        }
        for k in result.indices where !result[k].isFinite {
            result[k] = result[k].isNaN ? 0 : (result[k] > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude)
        }
        return result
    }

    private func numericVelocity(at t: Double) -> [Double] {
        let h = Self.differenceStep
        let f0 = value(at: t).numbers, f1 = value(at: t + h).numbers, f2 = value(at: t + 2 * h).numbers
        var out = f0
        for i in out.indices where i < f1.count && i < f2.count {
            out[i] = f0[i] == f1[i] && f1[i] == f2[i] ? 0 : (-3 * f0[i] + 4 * f1[i] - f2[i]) / (2 * h)
        }
        return out
    }

    /// Step of the one-sided difference, seconds: truncation error ~h² · f‴, rounding ~ε·|f|/h.
    static let differenceStep = 1e-6

    /// How many animations (layers) the channel evaluates at a frame, at most.
    public var layerCount: Int { layers.count }

    /// The first pass of each `to` layer on one timing curve (see `Scene.Channel`): a curve over the
    /// unit interval as it is, a spring as the curve played over the animation's duration.
    var exactPieceCandidates: [ExactPiece] {
        layers.compactMap { layer in
            guard case .toward = layer.animation.motion, let animator = layer.animation.animator,
                  !animator.timing.ignoresCurve else { return nil }
            let duration = animator.timing.duration
            switch animator.timing.curve {
            case .cubicBezier, .steps, .piecewiseLinear:
                return ExactPiece(start: layer.start, end: layer.start + duration, easing: .curve(animator.timing.curve))
            case .spring, .durationSpring:
                return ExactPiece(start: layer.start, end: layer.start + duration, easing: .timed(animator.timing.curve, duration: duration))
            }
        }
    }

    /// The one block this channel follows exactly, when nothing else moves it: one layer, a
    /// non-additive `to` of the animation's own block on one timing curve, played as a single
    /// pass (`PropertyAnimator.singlePass`). The value is then the initial value before the
    /// piece, the eased mix of it and the target within, and the target from the piece's end on.
    var soleBlock: ExactPiece? {
        guard layers.count == 1, let layer = layers.first, !layer.animation.additive, layer.animation.block == nil,
              let pass = layer.animation.animator?.singlePass, pass.start == layer.start,
              let piece = exactPieceCandidates.first, piece.start == pass.start, piece.end == pass.end else { return nil }
        return piece
    }

    /// Where the channel's value may jump although no event is there: the ticks of its physics
    /// layers on a tick integrator (docs/exports.md "Fitting").
    var jumpTimes: [Double] {
        layers.flatMap { layer -> [Double] in
            if case .physics(let chain) = layer.motion { return chain.jumpTimes }
            return []
        }.sorted()
    }

    /// The resolved physics chain of each physics layer, by request index.
    public var physicsChains: [Int: PhysicsChain] {
        var chains: [Int: PhysicsChain] = [:]
        for layer in layers {
            if case .physics(let chain) = layer.motion { chains[layer.animation.order] = chain }
        }
        return chains
    }

    private static func value(of layer: Layer, at t: Double) -> ChannelValue {
        if case .physics(let chain) = layer.motion { return .vector(chain.state(at: t).position) }
        guard let s = layer.animation.sample(at: t) else { return layer.motion.value(0) }
        switch s.shown {
        case .end: return layer.animation.target
        case .start: return layer.motion.value(0)
        case .progress: return layer.motion.value(s.progress)
        }
    }
}
