@testable import SegueEngine
import XCTest

// A small vocabulary for writing a `SceneSpec` the way a render request reads, and for sampling
// the compiled `Scene` the way the render route does. Each helper fills what the codec would
// (Sources/SegueCodec/Render/*Decoder.swift): the same defaults, the same timing resolution.

// MARK: - Timing

extension TimingCurve {
    static let linear = TimingCurve.cubicBezier(.linear)
    static let easeIn = TimingCurve.cubicBezier(.easeIn)
    static let easeInOut = TimingCurve.cubicBezier(.easeInOut)

    /// `{"type": "spring", "dampingRatio": ζ, "initialVelocity": v}` with the animation's
    /// `duration`: UIKit's spring solved for that duration, ending at it (TimingResolver).
    static func uikitSpring(dampingRatio: Double, duration: Double, initialVelocity: Double = 0) -> TimingCurve {
        .durationSpring(Spring.uikit(dampingRatio: dampingRatio, duration: duration, initialVelocity: initialVelocity).spring,
                        duration: duration)
    }
}

extension ActiveTiming {
    /// `timing` and `duration` as the codec resolves them: a time-fraction curve or UIKit's
    /// spring runs for the given duration; any other spring (no duration) for its settling
    /// duration.
    static func resolved(_ curve: TimingCurve, duration: Double?, repeatCount: Double = 1, autoreverses: Bool = false,
                         ignoresCurve: Bool = false) -> ActiveTiming {
        let own: Double
        if let duration {
            own = duration
        } else if case .spring(let spring) = curve {
            own = spring.settlingDuration
        } else {
            preconditionFailure("only a spring timing runs without a duration")
        }
        return ActiveTiming(curve: curve, duration: own, repeatCount: repeatCount, autoreverses: autoreverses,
                            ignoresCurve: ignoresCurve)
    }
}

// MARK: - Views, channels, targets

extension ChannelKind {
    /// A channel's kind as the codec reads it: a built-in channel's own, else (custom) a scalar
    /// for a number and an array for several (`"x": 10`, `"tint": [1, 2]`).
    static func of(_ name: String, count: Int) -> ChannelKind {
        builtIn(name) ?? (count == 1 ? .scalar : .array(count))
    }
}

extension SceneSpec.Channel {
    /// `"name": number` or `"name": [numbers]`.
    static func numbers(_ name: String, _ numbers: Double...) -> SceneSpec.Channel {
        SceneSpec.Channel(name: name, kind: .of(name, count: numbers.count), value: .vector(numbers))
    }

    /// `"transform": {…}`.
    static func transform(_ end: TransformEnd) -> SceneSpec.Channel {
        SceneSpec.Channel(name: "transform", kind: .transform, value: .transform(end))
    }
}

extension SceneSpec.View {
    init(_ name: String, _ channels: SceneSpec.Channel...) {
        self.init(name: name, channels: channels)
    }
}

extension SceneSpec.Target {
    /// `"channel": number` or `"channel": [numbers]` in `to`.
    static func numbers(_ channel: String, _ numbers: Double...) -> SceneSpec.Target {
        SceneSpec.Target(channel: channel, value: .vector(numbers))
    }

    /// `"transform": {…}` in `to`.
    static func transform(_ end: TransformEnd) -> SceneSpec.Target {
        SceneSpec.Target(channel: "transform", value: .transform(end))
    }
}

extension TransformEnd {
    /// `{"translation": [x, y], "rotation": θ, "scale": [sx, sy]}`, each optional.
    static func parts(translation: (Double, Double) = (0, 0), rotation: Double = 0,
                      scale: (Double, Double) = (1, 1)) -> TransformEnd {
        .components(DecomposedTransform(translation: .init(x: translation.0, y: translation.1), rotation: rotation,
                                        scale: .init(x: scale.0, y: scale.1)))
    }

    /// `{"matrix": [a, b, c, d, tx, ty]}`.
    static func matrix(numbers: [Double]) -> TransformEnd {
        .matrix(SegueEngine.AffineTransform(numbers))
    }

    enum Op {
        case translate(Double, Double)
        case rotate(Double)
        case scale(Double, Double)
    }

    /// `{"ops": […]}`: composed in CGAffineTransformConcat order (first op applied first), with
    /// the sum of the rotate angles.
    static func ops(_ ops: [Op]) -> TransformEnd {
        var matrix = SegueEngine.AffineTransform.identity
        var rotation = 0.0
        for op in ops {
            switch op {
            case .translate(let x, let y):
                matrix = matrix.concatenating(SegueEngine.AffineTransform(translation: (x, y), scale: (1, 1), rotation: 0))
            case .rotate(let angle):
                matrix = matrix.concatenating(SegueEngine.AffineTransform(translation: (0, 0), scale: (1, 1), rotation: angle))
                rotation += angle
            case .scale(let x, let y):
                matrix = matrix.concatenating(SegueEngine.AffineTransform(translation: (0, 0), scale: (x, y), rotation: 0))
            }
        }
        return .operations(matrix, rotation: rotation)
    }
}

// MARK: - Animations

extension SceneSpec.Animation {
    /// A UIView block animation (`to`); timing defaults to easeInOut as UIView's does. Without a
    /// duration the timing must be a spring that runs for its settling duration.
    static func block(id: String, view: String, to: [SceneSpec.Target], duration: Double? = nil,
                      timing: TimingCurve = .easeInOut, repeatCount: Double = 1, autoreverses: Bool = false,
                      directRotation: Bool = false, delay: Double = 0, autostart: Bool = true,
                      pausesOnCompletion: Bool = false, scrubsLinearly: Bool = true,
                      blend: SceneSpec.Blend = .replace) -> SceneSpec.Animation {
        let timing = ActiveTiming.resolved(timing, duration: duration, repeatCount: repeatCount, autoreverses: autoreverses)
        return SceneSpec.Animation(id: id, view: view,
                                   form: .block(SceneSpec.Block(timing: timing, to: to, directRotation: directRotation)),
                                   delay: delay, autostart: autostart, pausesOnCompletion: pausesOnCompletion,
                                   scrubsLinearly: scrubsLinearly, blend: blend)
    }

    /// UIView keyframes `[{"start", "duration", "to"}]`, grouped per channel in the order each
    /// is first named (as the codec groups them).
    static func keyframes(id: String, view: String, duration: Double, timing: TimingCurve = .easeInOut,
                          mode: CalculationMode = .linear,
                          _ keyframes: [(start: Double, duration: Double, to: SceneSpec.Target)]) -> SceneSpec.Animation {
        var order: [String] = []
        var byChannel: [String: [RelativeKeyframe<ChannelValue>]] = [:]
        for keyframe in keyframes {
            let channel = keyframe.to.channel
            if byChannel[channel] == nil { order.append(channel) }
            byChannel[channel, default: []].append(RelativeKeyframe(start: keyframe.start, duration: keyframe.duration,
                                                                    value: keyframe.to.value))
        }
        let timing = ActiveTiming(curve: timing, duration: duration, ignoresCurve: mode.isPaced)
        let channels = order.map { SceneSpec.Keyframes.Channel(channel: $0, keyframes: byChannel[$0] ?? []) }
        return SceneSpec.Animation(id: id, view: view, form: .keyframes(SceneSpec.Keyframes(timing: timing, mode: mode,
                                                                                           channels: channels)))
    }

    /// A CAKeyframeAnimation's `values` on one vector channel; timing defaults to linear as
    /// Core Animation's does.
    static func values(id: String, view: String, channel: String, _ values: [[Double]], keyTimes: [Double]? = nil,
                       duration: Double, timing: TimingCurve = .linear, mode: CalculationMode = .linear) -> SceneSpec.Animation {
        let track = KeyframeTrack(values: values, keyTimes: keyTimes, timingFunctions: nil, mode: mode, tension: nil,
                                  continuity: nil, bias: nil)
        let timing = ActiveTiming(curve: timing, duration: duration, ignoresCurve: mode.isPaced)
        return SceneSpec.Animation(id: id, view: view, form: .values(SceneSpec.Values(timing: timing, channel: channel,
                                                                                     track: .vector(track),
                                                                                     last: .vector(values[values.count - 1]))))
    }

    /// A physics animation (`dynamics`): `to` names the target, a decay only its channel; the
    /// threshold and rest test default as PhysicsDecoder takes them from `PhysicsDefaults`.
    static func physics(id: String, view: String, channel: String, model: PhysicsModel, target: [Double]?,
                        velocity: [Double]? = nil, integrator: PhysicsIntegrator = .exact, delay: Double = 0,
                        autostart: Bool = true) -> SceneSpec.Animation {
        let width = target?.count ?? velocity?.count ?? ChannelKind.builtIn(channel)?.width ?? 1
        let threshold = PhysicsDefaults.threshold(forChannel: channel)
        let rest = PhysicsDefaults.rest(threshold: threshold, integrator: integrator)
        let physics = SceneSpec.Physics(channel: channel, model: model, integrator: integrator,
                                        velocity: velocity ?? [Double](repeating: 0, count: width), target: target,
                                        restSpeed: rest.speed, restDistance: rest.distance, threshold: threshold)
        return SceneSpec.Animation(id: id, view: view, form: .physics(physics), delay: delay, autostart: autostart)
    }
}

extension PhysicsModel {
    /// `{"model": "spring"}` with every parameter left to its default.
    static let defaultSpring = PhysicsModel.spring(mass: PhysicsDefaults.mass, stiffness: PhysicsDefaults.stiffness,
                                                   damping: PhysicsDefaults.damping)
}

extension SceneSpec.Command {
    /// `{"at": t, "animation": <the animation at index `animation`>, "op": …}`.
    static func at(_ t: Double, _ operation: SceneSpec.Operation, animation: Int = 0) -> SceneSpec.Command {
        SceneSpec.Command(at: t, animation: animation, operation: operation)
    }
}

// MARK: - Compiling and sampling

/// The compiler's refusal of a scene a scenario expects to compile.
struct SceneRefused: Error {}

extension XCTestCase {
    /// The compiled scene; a `SceneError` fails the calling test.
    func compile(_ spec: SceneSpec, file: StaticString = #filePath, line: UInt = #line) throws -> Scene {
        do throws(SceneError) {
            return try SceneCompiler.compile(spec)
        } catch {
            XCTFail("the scene is refused: \(error)", file: file, line: line)
            throw SceneRefused()
        }
    }

    /// The compiler's refusal of `spec`; nil (and a failure) when it compiles.
    func refusal(_ spec: SceneSpec, file: StaticString = #filePath, line: UInt = #line) -> SceneError? {
        do throws(SceneError) {
            _ = try SceneCompiler.compile(spec)
            XCTFail("the scene compiles", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }
}

extension Scene {
    /// The frame grid of rule 3 through `end`: t_i = i / fps (FrameGrid, as the render route
    /// samples without `at`).
    func frames(fps: Double) -> [Double] {
        FrameGrid.times(rate: fps, count: Int(FrameGrid.count(rate: fps, through: end)))
    }

    func channel(_ view: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> Channel {
        try XCTUnwrap(channels.first { $0.view == view && $0.name == name }, "no channel \(view).\(name)", file: file, line: line)
    }

    /// The channel's numbers at each time (a scalar as a one-number vector, a transform as its
    /// matrix [a, b, c, d, tx, ty]).
    func values(_ view: String, _ name: String, at times: [Double], file: StaticString = #filePath,
                line: UInt = #line) throws -> [[Double]] {
        let channel = try channel(view, name, file: file, line: line)
        return times.map { channel.value(at: $0).numbers }
    }

    /// A scalar channel's number at each time.
    func scalars(_ view: String, _ name: String, at times: [Double], file: StaticString = #filePath,
                 line: UInt = #line) throws -> [Double] {
        try values(view, name, at: times, file: file, line: line).map { $0[0] }
    }

    /// The channel's velocity at each time (right-hand, rule 4).
    func velocities(_ view: String, _ name: String, at times: [Double], file: StaticString = #filePath,
                    line: UInt = #line) throws -> [[Double]] {
        let channel = try channel(view, name, file: file, line: line)
        return times.map { channel.velocity(at: $0) }
    }

    func animator(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws -> Animator {
        try XCTUnwrap(animators.first { $0.id == id }, "no animator \(id)", file: file, line: line)
    }

    /// The id of the animation an event belongs to.
    func id(of event: Event) -> String { animators[event.animation].id }
}
