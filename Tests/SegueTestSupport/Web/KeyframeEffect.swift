import Foundation

/// The timing properties of an animation effect (Web Animations 1 §"Timing model"), in seconds.
public struct WebEffectTiming: Equatable, Sendable {
    public enum FillMode: String, Sendable { case none, forwards, backwards, both, auto }
    public enum Direction: String, Sendable { case normal, reverse, alternate, alternateReverse = "alternate-reverse" }

    public var delay: Double
    public var endDelay: Double
    public var duration: Double
    public var iterations: Double
    public var iterationStart: Double
    public var direction: Direction
    public var fill: FillMode
    /// The effect's own timing function, applied to the whole iteration ("transformed progress").
    public var easing: CSSEasing

    public init(duration: Double, delay: Double = 0, endDelay: Double = 0, iterations: Double = 1,
                iterationStart: Double = 0, direction: Direction = .normal, fill: FillMode = .none,
                easing: CSSEasing = .linear) {
        self.duration = duration
        self.delay = delay
        self.endDelay = endDelay
        self.iterations = iterations
        self.iterationStart = iterationStart
        self.direction = direction
        self.fill = fill
        self.easing = easing
    }
}

/// The iteration progress of an effect at a local time, with what the timing model found on the way.
public struct WebIterationProgress: Equatable, Sendable {
    public enum Phase: Sendable { case before, active, after }
    public let phase: Phase
    /// Nil when the effect is not in effect (unresolved active time).
    public let progress: Double?
    public let currentIteration: Double?
}

extension WebEffectTiming {
    /// The iteration progress at local time `t` for an animation playing forwards at rate 1, following
    /// Web Animations 1 §"Core animation effect calculations" in order: the phases from the before-active
    /// and active-after boundary times; the active time by phase and fill mode; overall progress
    /// (iteration start plus active time over duration, or the iteration count for a zero duration
    /// outside the before phase); simple iteration progress (1.0 instead of 0.0 at the very end of an
    /// iteration); current iteration; directed progress; transformed progress through `easing` with the
    /// before flag (before phase going forwards, or after phase going backwards).
    public func progress(at t: Double) -> WebIterationProgress {
        let activeDuration = duration == 0 || iterations == 0 ? 0 : duration * iterations
        let endTime = max(delay + activeDuration + endDelay, 0)
        let beforeActive = max(min(delay, endTime), 0)
        let activeAfter = max(min(delay + activeDuration, endTime), 0)
        let phase: WebIterationProgress.Phase = t < beforeActive ? .before : (t >= activeAfter ? .after : .active)
        let activeTime: Double?
        switch phase {
        case .before: activeTime = fill == .backwards || fill == .both ? max(t - delay, 0) : nil
        case .active: activeTime = t - delay
        case .after: activeTime = fill == .forwards || fill == .both ? max(min(t - delay, activeDuration), 0) : nil
        }
        guard let activeTime else { return WebIterationProgress(phase: phase, progress: nil, currentIteration: nil) }
        let overall = duration == 0 ? (phase == .before ? iterationStart : iterationStart + iterations)
                                    : iterationStart + activeTime / duration
        var simple = overall.isInfinite ? iterationStart.truncatingRemainder(dividingBy: 1)
                                        : overall.truncatingRemainder(dividingBy: 1)
        if simple == 0 && phase != .before && activeTime == activeDuration && iterations != 0 { simple = 1 }
        let iteration: Double
        if phase == .after && iterations.isInfinite { iteration = .infinity }
        else if simple == 1 { iteration = overall.rounded(.down) - 1 }
        else { iteration = overall.rounded(.down) }
        let forwards = goesForwards(iteration)
        let directed = forwards ? simple : 1 - simple
        let beforeFlag = (phase == .before && forwards) || (phase == .after && !forwards)
        return WebIterationProgress(phase: phase, progress: easing(directed, beforeFlag: beforeFlag),
                                    currentIteration: iteration)
    }

    /// The current direction (Web Animations 1 §"Calculating the directed progress").
    func goesForwards(_ iteration: Double) -> Bool {
        switch direction {
        case .normal: return true
        case .reverse: return false
        case .alternate, .alternateReverse:
            var d = iteration
            if direction == .alternateReverse { d += 1 }
            if d.isInfinite { return true }
            return d.truncatingRemainder(dividingBy: 2) == 0
        }
    }
}

/// A keyframe after its host's processing (Web Animations 1 §"Keyframes"): a computed offset in [0, 1],
/// the timing function from this keyframe to the next, and property values by CSS property name.
public struct WebKeyframe: Equatable, Sendable {
    public var offset: Double
    public var easing: CSSEasing
    public var values: [String: CSSPropertyValue]

    public init(offset: Double, easing: CSSEasing, values: [String: CSSPropertyValue]) {
        self.offset = offset
        self.easing = easing
        self.values = values
    }
}

/// A keyframe effect with `replace` composition, evaluated as Web Animations 1 §"The effect value of a
/// keyframe effect" says, one property at a time.
public struct WebKeyframeEffect: Sendable {
    public let keyframes: [WebKeyframe]
    public let timing: WebEffectTiming
    public let types: [String: CSSPropertyType]
    /// The underlying values: what a property-specific keyframe set without a keyframe at offset 0 or 1
    /// starts from or ends at (the "neutral value for composition" added to the underlying value).
    public let underlying: [String: CSSPropertyValue]

    public init(keyframes: [WebKeyframe], timing: WebEffectTiming, types: [String: CSSPropertyType],
                underlying: [String: CSSPropertyValue] = [:]) {
        self.keyframes = keyframes
        self.timing = timing
        self.types = types
        self.underlying = underlying
    }

    /// Every property some keyframe sets, sorted.
    public var properties: [String] { Set(keyframes.flatMap(\.values.keys)).sorted() }

    /// Every animated property's value at local time `t` (seconds); empty when the effect is not in effect.
    public func values(at t: Double) throws -> [String: WebAnimatedValue] {
        guard let progress = timing.progress(at: t).progress else { return [:] }
        var result: [String: WebAnimatedValue] = [:]
        for property in properties { result[property] = try value(of: property, iterationProgress: progress) }
        return result
    }

    /// One property's value at local time `t`, nil when the effect is not in effect.
    public func value(of property: String, at t: Double) throws -> WebAnimatedValue? {
        guard let progress = timing.progress(at: t).progress else { return nil }
        return try value(of: property, iterationProgress: progress)
    }
}

extension WebKeyframeEffect {
    /// §"The effect value of a keyframe effect" for one property at an iteration progress: the
    /// property-specific keyframes (those that set it, in order) get a keyframe at offset 0 and 1 holding
    /// the underlying value where they lack one; p < 0 with several keyframes at 0 gives the first,
    /// p ≥ 1 with several at 1 gives the last; otherwise the interval starts at the last keyframe whose
    /// offset is ≤ p and < 1 (or else the last at 0) and ends at the next one, and the start keyframe's
    /// timing function is applied to the interval distance before interpolating.
    public func value(of property: String, iterationProgress p: Double) throws -> WebAnimatedValue {
        guard let type = types[property] else { throw WebFormatError("no type known for \(property)") }
        var specific = keyframes.compactMap { frame in frame.values[property].map { (frame.offset, frame.easing, $0) } }
        if !specific.contains(where: { $0.0 == 0 }) { specific.insert((0, .linear, try underlyingValue(property)), at: 0) }
        if !specific.contains(where: { $0.0 == 1 }) { specific.append((1, .linear, try underlyingValue(property))) }
        if p < 0 && specific.filter({ $0.0 == 0 }).count > 1 { return WebInterpolation.report(specific[0].2, type: type) }
        if p >= 1 && specific.filter({ $0.0 == 1 }).count > 1 { return WebInterpolation.report(specific.last!.2, type: type) }
        let startIndex = specific.lastIndex(where: { $0.0 <= p && $0.0 < 1 }) ?? specific.lastIndex(where: { $0.0 == 0 })!
        let start = specific[startIndex], end = specific[startIndex + 1]
        let distance = (p - start.0) / (end.0 - start.0)
        return WebInterpolation.value(start.2, end.2, start.1(distance), type: type)
    }

    func underlyingValue(_ property: String) throws -> CSSPropertyValue {
        guard let value = underlying[property] else {
            throw WebFormatError("\(property) has no keyframe at offset 0 or 1 and no underlying value is known")
        }
        return value
    }
}
