/// Everything that animates one channel of one view, blended (API.md §4 `blend`, §6 rule 9).
///
/// Layers are ordered by effective start, ties by request index. At time t:
/// - before any layer starts, the channel shows its initial value;
/// - the latest `replace` layer that has started owns the channel: it runs from the value the
///   channel presented at its start (UIKit's beginFromCurrentState) and earlier layers stop
///   contributing, though their animators still run and complete;
/// - every `additive` layer started after it adds `anim(t) − m`, where `anim` runs from the model
///   value m — the target of the latest layer that started before it, else the initial value —
///   so a `to` animation adds (to − m) · p(t); transforms add decomposed components;
/// - a layer past its active duration holds its target exactly (§6 rule 10).
public struct ChannelTrack: Sendable {
    public let initial: ChannelValue
    private var layers: [Layer] = []

    /// A class, so the per-frame loop shares layers instead of copying their payloads.
    final class Layer: Sendable {
        let animation: ChannelAnimation
        let model: ChannelValue
        let motion: ResolvedMotion

        init(animation: ChannelAnimation, model: ChannelValue, motion: ResolvedMotion) {
            self.animation = animation
            self.model = model
            self.motion = motion
        }
    }

    /// A layer whose transform ends are singular, interpolated discretely (§6 rule 6).
    public struct SingularTransform: Sendable {
        public var order: Int
        public var end: TransformInterpolator.Singular
    }

    public private(set) var singularTransforms: [SingularTransform] = []

    public init(initial: ChannelValue, animations: [ChannelAnimation]) {
        self.initial = initial
        let sorted = animations.sorted { ($0.start, $0.order) < ($1.start, $1.order) }
        for animation in sorted {
            let model = layers.last?.animation.target ?? initial
            let from = animation.additive ? model : value(at: animation.start)
            let motion = ResolvedMotion(animation.motion, from: from, to: animation.target)
            if let end = motion.singularEnd { singularTransforms.append(SingularTransform(order: animation.order, end: end)) }
            layers.append(Layer(animation: animation, model: model, motion: motion))
        }
    }

    /// The presented value at t (right-hand: a layer starting at t already counts).
    public func value(at t: Double) -> ChannelValue {
        var owner = -1, started = 0
        while started < layers.count && layers[started].animation.start <= t {
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

    /// d(value)/dt, right-hand (§6 rule 4), by a second-order one-sided difference. Where the
    /// value is held (before a start, after completion, on plateaus) it is exactly 0.
    public func velocity(at t: Double) -> [Double] {
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

    private static func value(of layer: Layer, at t: Double) -> ChannelValue {
        let tau = t - layer.animation.start
        if tau >= layer.animation.timing.activeDuration { return layer.animation.target }
        return layer.motion.value(layer.animation.timing.progress(at: tau))
    }
}
