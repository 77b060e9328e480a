import SegueEngine
import SegueJSON

/// `interaction` (API.md §4 "Interaction", §6 rule 19): a percent-driven interactive transition
/// (UIPercentDrivenInteractiveTransition) as the animator steps it drives — the listed
/// animations sit paused at fractionComplete = percent, then finish or cancel at the release.
///
/// Percent comes from `updates` + `end`, or from a replayed `gesture`:
/// - `pan`: percent = translation / distance clamped to [0, 1]; finishes when the last percent
///   exceeds `threshold` (default 0.5);
/// - `pinch`: percent = 1 − scale / first scale clamped to [0, 1]; cancels when the last
///   |velocity| < 5 and percent ≤ 0.3, else finishes.
struct InteractionSpec: Sendable {
    /// Indices of the driven animations.
    var animations: [Int]
    /// Percent steps in time order.
    var updates: [(at: Double, percent: Double)]
    /// The release: its time and whether it finishes; nil when the transition is never released.
    var release: (at: Double, finish: Bool)?
    var completionSpeed: Double
    var completionCurve: TimingCurve

    /// Pinch: a release slower than this (scale per second) may cancel…
    static let pinchFinishingVelocity = 5.0
    /// …when the percent is at most this.
    static let pinchCancelPercent = 0.3

    static func decode(_ json: JSONValue, animations specs: [AnimationSpec], byID: [String: Int],
                       limits: Limits) throws(Problem) -> InteractionSpec {
        let p = JSONPointer.root / "interaction"
        var object = try ObjectReader(json, at: p)
        guard let ids = try object.array("animations"), !ids.isEmpty else {
            throw Problem.invalid("`animations` lists the ids the interaction drives", at: p / "animations")
        }
        var driven: [Int] = []
        for (i, value) in ids.enumerated() {
            guard case .string(let id) = value else { throw Problem.wrongType(at: p / "animations" / i, expected: "a string", found: value) }
            guard let spec = byID[id].map({ specs[$0] }) else {
                throw Problem.invalid("unknown animation `\(id.prefix(100))`", at: p / "animations" / i)
            }
            guard !spec.isPhysics else {
                throw Problem.invalid("a physics animation follows its forces, not a percent: use `drag`", at: p / "animations" / i)
            }
            guard spec.timing.activeDuration.isFinite else {
                throw Problem.invalid("an animation that repeats forever has no fraction complete to drive",
                                      at: p / "animations" / i)
            }
            guard !driven.contains(spec.index) else {
                throw Problem.invalid("animation `\(id.prefix(100))` is listed twice", at: p / "animations" / i)
            }
            driven.append(spec.index)
        }
        let speed = try object.number("completionSpeed") ?? 1
        try Check.positive(speed, p / "completionSpeed")
        let longest = driven.map { specs[$0].timing.activeDuration }.max() ?? 0
        guard longest / speed <= limits.maxDuration else {
            throw Problem.invalid("`completionSpeed` \(speed) stretches the completion beyond the limit of \(limits.maxDuration) s",
                                  at: p / "completionSpeed")
        }
        var curve = TimingCurve.cubicBezier(.easeInOut)
        if let value = object.value("completionCurve") {
            let spec = try TimingDecoder.decode(value, at: p / "completionCurve")
            guard let fractionCurve = spec.fractionCurve else {
                throw Problem.invalid("`completionCurve` is a time-fraction curve, not a spring", at: p / "completionCurve")
            }
            curve = fractionCurve
        }

        var interaction = InteractionSpec(animations: driven, updates: [], release: nil, completionSpeed: speed,
                                          completionCurve: curve)
        let hasUpdates = object.has("updates") || object.has("end")
        if let gesture = object.value("gesture") {
            guard !hasUpdates else {
                throw Problem.invalid("give `gesture` or `updates` and `end`, not both", at: p / "gesture")
            }
            try interaction.replay(gesture, at: p / "gesture", limits: limits)
        } else {
            try interaction.readUpdates(&object, limits: limits)
        }
        try object.rejectUnknown()
        // Each step is replayed by every driven animator: bound the product.
        guard Double(interaction.updates.count) * Double(driven.count) <= Double(limits.maxSamples) * 10 else {
            throw Problem.tooLarge("\(interaction.updates.count) interaction steps × \(driven.count) animations are over the "
                                   + "limit of \(limits.maxSamples * 10) animator steps", at: p)
        }
        return interaction
    }

    /// `updates: [{"at", "percent"}]` (times non-decreasing) and `end: {"at", "action"}`.
    private mutating func readUpdates(_ object: inout ObjectReader, limits: Limits) throws(Problem) {
        let p = object.pointer
        let entries = try object.array("updates") ?? []
        guard entries.count <= limits.maxSamples else {
            throw Problem.invalid("\(entries.count) updates are over the limit of \(limits.maxSamples)", at: p / "updates")
        }
        for (i, entry) in entries.enumerated() {
            var update = try ObjectReader(entry, at: p / "updates" / i)
            let at = try update.requiredNumber("at", "in every update")
            let percent = try update.requiredNumber("percent", "in every update")
            try update.rejectUnknown()
            try Self.checkTime(at, after: updates.last?.at, limits: limits, p / "updates" / i / "at")
            try Check.within(percent, 0...1, p / "updates" / i / "percent")
            updates.append((at, percent))
        }
        if let value = object.value("end") {
            var end = try ObjectReader(value, at: p / "end")
            let at = try end.requiredNumber("at", "in `end`")
            let action = try end.string("action") ?? "finish"
            try end.rejectUnknown()
            try Self.checkTime(at, after: updates.last?.at, limits: limits, p / "end" / "at")
            guard action == "finish" || action == "cancel" else {
                throw Problem.invalid("`action` is finish or cancel, not `\(action.prefix(50))`", at: p / "end" / "action")
            }
            release = (at, action == "finish")
        }
    }

    /// A gesture log replayed into percent steps and a release at its last sample (rule 19).
    private mutating func replay(_ json: JSONValue, at p: JSONPointer, limits: Limits) throws(Problem) {
        var gesture = try ObjectReader(json, at: p)
        guard let kind = try gesture.string("kind") else { throw Problem.invalid("`kind` is pan or pinch", at: p / "kind") }
        guard kind == "pan" || kind == "pinch" else {
            throw Problem.invalid("unknown gesture `\(kind.prefix(50))`; expected pan or pinch", at: p / "kind")
        }
        var distance = 0.0, threshold = 0.5
        if kind == "pan" {
            distance = try gesture.requiredNumber("distance", "for a pan (points to a complete transition)")
            try Check.positive(distance, p / "distance")
            threshold = try gesture.number("threshold") ?? 0.5
            try Check.within(threshold, 0...1, p / "threshold")
        }
        guard let samples = try gesture.array("samples"), !samples.isEmpty else {
            throw Problem.invalid("`samples` is required and not empty", at: p / "samples")
        }
        guard samples.count <= limits.maxSamples else {
            throw Problem.invalid("\(samples.count) samples are over the limit of \(limits.maxSamples)", at: p / "samples")
        }
        try gesture.rejectUnknown()
        let width = kind == "pan" ? 2 : 3
        var firstScale = 1.0, lastVelocity = 0.0
        for (i, sample) in samples.enumerated() {
            let numbers = try ChannelDecoder.numberArray(sample, at: p / "samples" / i)
            guard numbers.count == width else {
                throw Problem.invalid(kind == "pan" ? "a pan sample is [t, translation]" : "a pinch sample is [t, scale, velocity]",
                                      at: p / "samples" / i)
            }
            try Self.checkTime(numbers[0], after: updates.last?.at, limits: limits, p / "samples" / i / 0)
            let percent: Double
            if kind == "pan" {
                try Check.within(numbers[1], -ChannelDecoder.maxMagnitude...ChannelDecoder.maxMagnitude, p / "samples" / i / 1)
                percent = numbers[1] / distance
            } else {
                try Check.within(numbers[1], 0...ChannelDecoder.maxMagnitude, p / "samples" / i / 1)
                try Check.within(numbers[2], -ChannelDecoder.maxMagnitude...ChannelDecoder.maxMagnitude, p / "samples" / i / 2)
                if i == 0 {
                    try Check.positive(numbers[1], p / "samples" / 0 / 1)
                    firstScale = numbers[1]
                }
                percent = 1 - numbers[1] / firstScale
                lastVelocity = numbers[2]
            }
            updates.append((numbers[0], min(1, max(0, percent))))
        }
        guard let last = updates.last else { return }
        let finish = kind == "pan" ? last.percent > threshold
            : !(abs(lastVelocity) < Self.pinchFinishingVelocity && last.percent <= Self.pinchCancelPercent)
        release = (last.at, finish)
    }

    private static func checkTime(_ t: Double, after previous: Double?, limits: Limits, _ pointer: JSONPointer) throws(Problem) {
        guard t >= 0, t <= limits.maxDuration else {
            throw Problem.invalid("times must be in [0, \(limits.maxDuration)] s, not \(t)", at: pointer)
        }
        if let previous, t < previous {
            throw Problem.invalid("times must not decrease: \(t) follows \(previous)", at: pointer)
        }
    }

    /// The steps each driven animator takes: percent updates, then the release.
    func commands(for animation: Int) -> [PropertyAnimator.Command] {
        guard animations.contains(animation) else { return [] }
        var commands = updates.map { PropertyAnimator.Command(at: $0.at, index: nil, operation: .interactionUpdate(percent: $0.percent)) }
        if let release {
            commands.append(PropertyAnimator.Command(at: release.at, index: nil,
                                                     operation: .interactionRelease(finish: release.finish, curve: completionCurve,
                                                                                    speed: completionSpeed)))
        }
        return commands
    }
}
